"""`kbx ask` and `kbx bench ask` over chapters 7–12 and the embedded FalkorDB."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from api_support import API_CHAPTERS
from typer.testing import CliRunner

from cli.main import app
from ingest.store import store_dir
from kb.answering.answer_models import AskResponse
from retrieval.corpus import Corpus, save_corpus

pytest_plugins = ["api_fixtures"]
pytestmark = pytest.mark.falkordb

QUESTION = "鲁智深和林冲怎么认识？"
runner = CliRunner()


def cli_env(data_dir: Path, falkordb_url: str | None) -> dict[str, str | None]:
    """The command's environment: our data dir and store, never an LLM."""
    return {"KBX_DATA_DIR": str(data_dir), "KBX_CORPUS_NAME": "shuihu", "KBX_PROVIDER": "falkordb",
            "FALKORDB_URL": falkordb_url, "OPENAI_API_KEY": None, "OPENAI_BASE_URL": None}


def ask_json(env: dict[str, str | None], *args: str) -> AskResponse:
    result = runner.invoke(app, ["ask", *args, "--json"], env=env)
    assert result.exit_code == 0, result.output
    return AskResponse.model_validate_json(result.stdout)


def test_ask_json_is_the_api_object_with_located_quotes(api_data_dir: Path,
                                                        api_falkordb: str) -> None:
    response = ask_json(cli_env(api_data_dir, api_falkordb), QUESTION)
    assert response.status == "answered" and response.mode == "offline"
    assert response.plan.kind == "pair"
    assert set(response.plan.person_ids) == {"lu_zhishen", "lin_chong"}
    assert response.quotes and all(q.located for q in response.quotes)
    assert {c.chunk_id for c in response.citations} <= {q.chunk_id for q in response.quotes}


def test_session_is_kept_on_disk_between_commands(api_data_dir: Path, api_falkordb: str) -> None:
    env = cli_env(api_data_dir, api_falkordb)
    first = ask_json(env, QUESTION)
    assert first.session_id
    assert (api_data_dir / "sessions" / f"{first.session_id}.json").exists()
    follow_up = ask_json(env, "他们后来怎么样了？", "--session", first.session_id)
    assert follow_up.session_id == first.session_id
    assert follow_up.plan.follow_up is True
    assert set(follow_up.plan.person_ids) == {"lu_zhishen", "lin_chong"}


def test_ask_prints_a_readable_answer(api_data_dir: Path, api_falkordb: str) -> None:
    result = runner.invoke(app, ["ask", QUESTION], env=cli_env(api_data_dir, api_falkordb))
    assert result.exit_code == 0, result.output
    assert "answered" in result.stdout and "quote checks" in result.stdout
    assert "ch007_chunk_004" in result.stdout
    assert "--session" in result.stdout


def test_an_english_question_prints_its_chinese_reading(api_data_dir: Path,
                                                        api_falkordb: str) -> None:
    result = runner.invoke(app, ["ask", "How did Lu Zhishen and Lin Chong meet?"],
                           env=cli_env(api_data_dir, api_falkordb))
    assert result.exit_code == 0, result.output
    assert "read as 鲁智深和林冲是怎么认识的" in result.stdout
    assert "Lu Zhishen (鲁智深) and Lin Chong (林冲)" in result.stdout


@pytest.mark.parametrize(("question", "field"), [("", "question"), ("   ", "question"),
                                                ("林" * 501, "question")])
def test_a_rejected_question_is_exit_2_naming_the_field(api_data_dir: Path, api_falkordb: str,
                                                        question: str, field: str) -> None:
    result = runner.invoke(app, ["ask", question], env=cli_env(api_data_dir, api_falkordb))
    assert result.exit_code == 2
    assert field in result.output and "Traceback" not in result.output
    assert "pydantic.dev" not in result.output


@pytest.mark.slow  # a lifecycle drill: it waits for the keeper to end the server
def test_ask_starts_the_embedded_store_and_its_keeper_ends_it(tmp_path: Path,
                                                              api_corpus: Corpus) -> None:
    """The command leaves the server for the next command (`falkordb_linger`), then its keeper
    stops it: no one has to."""
    save_corpus(api_corpus, store_dir(tmp_path, "shuihu"), {"chapters": sorted(API_CHAPTERS)})
    response = ask_json({**cli_env(tmp_path, None), "KBX_FALKORDB_LINGER": "0.5"}, QUESTION)
    assert response.status == "answered"
    assert (tmp_path / "falkordb").is_dir()
    state = tmp_path / "falkordb" / "server.json"
    deadline = time.monotonic() + 10
    while state.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not state.exists()  # stopped by its keeper once the linger ran out


def test_bench_ask_reports_latency_percentiles(api_data_dir: Path, api_falkordb: str,
                                              tmp_path: Path) -> None:
    questions = tmp_path / "q.jsonl"
    rows = [{"id": "a", "question": QUESTION, "kind": "pair", "answerable": False},
            {"id": "b", "question": "林冲后来怎么样了？", "kind": "journey", "answerable": False}]
    questions.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                         encoding="utf-8")
    result = runner.invoke(app, ["bench", "ask", "--json", "--questions", str(questions),
                                 "--repeat", "2"], env=cli_env(api_data_dir, api_falkordb))
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["questions"], report["runs"], report["mode"]) == (2, 4, "offline")
    assert 0 < report["p50_ms"] <= report["p90_ms"] <= report["p99_ms"] <= report["max_ms"]
    assert 0 < report["cpu_p50_ms"] <= report["cpu_p99_ms"]  # CPU time beside wall time
    assert len(report["load_average"]) == 2 and report["cpus"] >= 1
    assert report["quotes_located"] == report["quotes"] > 0


def test_eval_answers_reports_expected_strings_and_refusals(api_data_dir: Path, api_falkordb: str,
                                                             tmp_path: Path) -> None:
    questions = tmp_path / "answers.jsonl"
    lines = [
        {"id": "a1", "question": "鲁智深和林冲是怎么认识的？", "kind": "pair", "answerable": True,
         "expect": [["结义", "結義"], ["智深"]], "core": ["林沖大喜，就當結義智深為兄"],
         "chapters": [7]},
        {"id": "a2", "question": "林冲买那口宝刀花了多少钱？", "kind": "fact", "answerable": True,
         "expect": [["一千贯", "一千貫"]], "core": ["只是一千貫，我便買了"], "chapters": [7]},
        {"id": "u1", "question": "鲁智深最喜欢吃什么水果？", "kind": "unanswerable",
         "answerable": False},
    ]
    questions.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in lines) + "\n",
                         encoding="utf-8")
    env = cli_env(api_data_dir, api_falkordb)
    result = runner.invoke(app, ["eval", "--answers", "--questions", str(questions), "--json"],
                           env=env)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["answerable"], report["unanswerable"]) == (2, 1)
    assert report["states_answer"] == 2 and report["unanswerable_refused"] == 1
    assert report["quotes_located"] == report["quotes"] > 0
    rows = {r["id"]: r for r in report["per_question"]}
    assert rows["u1"]["status"] == "insufficient" and "水果" in rows["u1"]["reason"]

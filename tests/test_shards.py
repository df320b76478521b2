"""Curated chapter shards: merged across chapters, and every rule of the validator enforced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import BundleError
from ingest.chunking import Block
from kb.knowledge.bundle import load_bundle

LIN = {"record": "person", "id": "lin_chong", "name": "林冲", "aliases": ["豹子头"],
       "first_chapter": 8, "sources": [{"chapter": 7, "quote": "林沖大喜，就當結義智深為兄"}]}
LU = {"record": "person", "id": "lu_zhishen", "name": "鲁智深", "aliases": ["花和尚"],
      "first_chapter": 3, "sources": [{"chapter": 7, "quote": "洒家俗姓魯，法名智深"}]}
EVENT = {"record": "event", "id": "ev_ch007_001", "title": "林冲鲁智深结义", "chapter": 7,
         "order": 7001, "participants": [{"person": "lin_chong", "role": "结义者"},
                                         {"person": "lu_zhishen", "role": "结义者"}],
         "sources": [{"chapter": 7, "quote": "林沖大喜，就當結義智深為兄"}]}
SWORN = {"record": "relation", "id": "rel_lin_chong_lu_zhishen_sworn_brothers",
         "source": "lin_chong", "target": "lu_zhishen", "type": "sworn_brothers",
         "directed": False, "description": "结义。", "chapters": [7],
         "sources": [{"chapter": 7, "quote": "林沖大喜，就當結義智深為兄"}]}
CHAPTER = {"record": "chapter", "id": "ch007", "chapter": 7, "title": "第七回", "summary": "……",
           "sources": [{"chapter": 7, "quote": "洒家俗姓魯，法名智深"}]}


def _write(directory: Path, shards: dict[int, list[dict[str, object]]],
           roles: list[str] | None = None) -> Path:
    (directory / "shards").mkdir(parents=True)
    for chapter, rows in shards.items():
        text = "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n"
        (directory / "shards" / f"ch{chapter:03d}.jsonl").write_text(text, encoding="utf-8")
    if roles is not None:
        (directory / "roles.json").write_text(json.dumps({"roles": {r: [] for r in roles}},
                                                         ensure_ascii=False), encoding="utf-8")
    return directory


def test_lines_of_one_person_or_relation_merge_across_shards(tmp_path: Path,
                                                             kb_blocks: list[Block]) -> None:
    later_lin = LIN | {"aliases": ["林教头"], "first_chapter": 7,
                       "sources": [{"chapter": 9, "quote": "小人是東京禁軍教頭，姓林，名沖"}]}
    later_sworn = SWORN | {"chapters": [9], "description": "野猪林相救。",
                           "sources": [{"chapter": 9, "quote": "洒家不看兄弟面時"}]}
    bundle = load_bundle(_write(tmp_path, {7: [CHAPTER, LIN, LU, EVENT, SWORN],
                                           9: [later_lin, later_sworn]}), kb_blocks)
    lin = bundle.person("lin_chong")
    assert lin is not None and lin.aliases == ["豹子头", "林教头"] and lin.first_chapter == 7
    sworn = bundle.relation(SWORN["id"])  # type: ignore[arg-type]
    assert sworn is not None and [s.chapter for s in sworn.sources] == [7, 9]
    assert sworn.chapters == [7, 9] and sworn.description == "结义。 野猪林相救。"


def test_every_rule_is_reported_at_once(tmp_path: Path, kb_blocks: list[Block]) -> None:
    twice = EVENT | {"id": "ev_ch007_002", "order": 7002}  # same title and quote as ev_ch007_001
    reversed_id = SWORN | {"id": "rel_lu_zhishen_lin_chong_sworn_brothers", "directed": True}
    late_first = SWORN | {"id": "rel_lin_chong_lu_zhishen_friend", "type": "friend",
                          "sources": [{"chapter": 9, "quote": "洒家不看兄弟面時"},
                                      {"chapter": 7, "quote": "林沖大喜，就當結義智深為兄"}]}
    bad_role = EVENT | {"id": "ev_ch007_003", "order": 7003, "title": "林冲看智深使禅杖",
                        "participants": [{"person": "lin_chong", "role": "喝彩者"}],
                        "sources": [{"chapter": 7, "quote": "林沖道"}]}
    other = LIN | {"name": "林沖娘子", "aliases": []}
    directory = _write(tmp_path, {7: [CHAPTER, LIN, LU, EVENT, twice, reversed_id, late_first,
                                      bad_role], 8: [other]}, roles=["结义者"])
    with pytest.raises(BundleError) as caught:
        load_bundle(directory, kb_blocks)
    message = str(caught.value)
    assert "duplicate event" in message
    assert "rel_lin_chong_lu_zhishen_sworn_brothers" in message  # the id it should have
    assert "has no direction" in message
    assert "sources out of chapter order" in message
    assert "'喝彩者' of lin_chong is not in the role vocabulary" in message
    assert "occurs" in message and "make it unique" in message  # 林沖道 is said many times
    assert "one id names different people" in message
    assert message.count("shards/ch007.jsonl:") >= 6

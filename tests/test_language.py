"""The language's words as data (kb/data/lang/zh.json, kb.knowledge.language): validated when
read, each word written once, and a bad file named with what is wrong."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from core.errors import ConfigError
from kb.knowledge.language import LANG_DIR, ROLES, language, read_language


def _data() -> dict[str, object]:
    return json.loads((LANG_DIR / "zh.json").read_text(encoding="utf-8"))


def test_every_word_stands_once_and_every_role_has_words() -> None:
    lang = language()
    seen: list[str] = [w for words in lang.words.values() for w in words]
    assert len(seen) == len(set(seen))
    assert all(lang.words_of(role) for role in ROLES)  # type: ignore[arg-type]


def test_a_role_reads_the_words_of_every_group_that_plays_it() -> None:
    lang = language()
    assert "后来" in lang.words_of("journey") and "后来" in lang.words_of("follow_up")
    assert "后来" in lang.words_of("frame") and "经历" in lang.words_of("journey_strong")


def _write(tmp_path: Path, data: dict[str, object]) -> Path:
    path = tmp_path / "xx.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_word_in_two_groups_is_named(tmp_path: Path) -> None:
    data = _data()
    words = dict(data["words"])  # type: ignore[call-overload]
    words["frame"] = [*words["frame"], "为什么"]
    data["words"] = words
    with pytest.raises(ConfigError, match="为什么.*two groups"):
        read_language(_write(tmp_path, data))


def test_an_unknown_role_is_named(tmp_path: Path) -> None:
    data = _data()
    data["words"] = {**data["words"], "frame nonsense": ["某某词"]}  # type: ignore[dict-item]
    with pytest.raises(ConfigError, match="unknown role nonsense"):
        read_language(_write(tmp_path, data))


def test_a_bad_pattern_names_its_field(tmp_path: Path) -> None:
    data = _data()
    data["patterns"] = {**data["patterns"], "quantity": "(?P<ask>多少"}  # type: ignore[dict-item]
    with pytest.raises(ConfigError, match="patterns.quantity"):
        read_language(_write(tmp_path, data))


def test_a_file_that_is_not_json_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "xx.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ConfigError, match="invalid language file"):
        read_language(path)


def _template_keys(node: ast.AST) -> set[str]:
    """The string keys a call's first template argument may take (a plain string, or either
    branch of `a if x else b`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _template_keys(node.body) | _template_keys(node.orelse)
    return set()


def test_every_answer_template_the_code_reads_is_in_the_file() -> None:
    """Templates are read by key (`ctx.say("pair.lead", …)`): a key the file lacks would fail
    only when that answer is composed."""
    root = Path(__file__).resolve().parent.parent / "kb" / "answering"
    keys: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                node.func.id if isinstance(node.func, ast.Name) else ""
            if name in ("say", "phrase"):
                keys |= _template_keys(node.args[0])
            elif name == "_say" and len(node.args) > 1:
                keys |= _template_keys(node.args[1])
    assert len(keys) > 100 and keys <= set(language().say), sorted(keys - set(language().say))

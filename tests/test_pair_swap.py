"""`swap_people`: a stored pair view read in the other order, without parsing it whole."""

from __future__ import annotations

import json

from kb.knowledge.views import Pair, PersonView
from providers.falkordb_provider import swap_people


def _view() -> Pair:
    a = PersonView(id="lin_chong", name="林冲", aliases=["豹子头"], profile="", group=None,
                   first_chapter=7, sources=[])
    b = PersonView(id="lu_zhishen", name="鲁智深", aliases=['花和尚 "},"b":'], profile="{",
                   group="梁山", first_chapter=3, sources=[])
    return Pair(a=a, b=b, relations=[], shared_events=[], key_events=["ev_1"])


def test_swaps_the_two_people_and_keeps_the_rest() -> None:
    pair = _view()
    swapped = Pair.model_validate_json(swap_people(pair.model_dump_json()))
    assert (swapped.a, swapped.b) == (pair.b, pair.a)
    assert swapped.model_copy(update={"a": pair.a, "b": pair.b}) == pair


def test_the_same_json_as_serializing_the_swapped_model() -> None:
    pair = _view()
    expected = pair.model_copy(update={"a": pair.b, "b": pair.a}).model_dump_json()
    assert swap_people(pair.model_dump_json()) == expected


def test_another_layout_is_parsed_whole() -> None:
    pair = _view()
    spaced = json.dumps(json.loads(pair.model_dump_json()), ensure_ascii=False, indent=1)
    swapped = Pair.model_validate_json(swap_people(spaced))
    assert (swapped.a, swapped.b) == (pair.b, pair.a)

"""RRF written as its formula, its invariants, and packing decisions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval.fusion import rrf, rrf_positions
from retrieval.packing import Decision, Policy, pack


def test_rrf_is_the_formula() -> None:
    fused = dict(rrf({"ngram": ["a", "b", "c"], "unigram": ["c", "d", "a"]}, k=60))
    assert fused["a"] == pytest.approx(1 / (60 + 1) + 1 / (60 + 3))
    assert fused["c"] == pytest.approx(1 / (60 + 3) + 1 / (60 + 1))
    assert fused["b"] == pytest.approx(1 / (60 + 2))  # absent from unigram: adds nothing there
    assert fused["d"] == pytest.approx(1 / (60 + 2))


def test_rrf_weights() -> None:
    fused = dict(rrf({"x": ["a"], "y": ["a"]}, k=60, weights={"x": 2.0, "y": 0.5}))
    assert fused["a"] == pytest.approx(2.0 / 61 + 0.5 / 61)


rankings = st.lists(st.lists(st.integers(0, 30), unique=True, max_size=15), min_size=1, max_size=4)


@settings(max_examples=100, deadline=None)
@given(lists=rankings, data=st.data())
def test_rrf_ignores_the_order_of_its_inputs(lists: list[list[int]], data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(lists))
    first = rrf({f"c{i}": r for i, r in enumerate(lists)})
    second = rrf({f"c{i}": r for i, r in enumerate(shuffled)})
    assert first == second


@settings(max_examples=100, deadline=None)
@given(lists=rankings)
def test_numpy_rrf_matches_reference(lists: list[list[int]]) -> None:
    reference = rrf({f"c{i}": r for i, r in enumerate(lists)})
    fast = rrf_positions(lists)
    assert [d for d, _ in fast] == [d for d, _ in reference]
    assert [s for _, s in fast] == pytest.approx([s for _, s in reference])


def test_pack_stop_policy_stops_at_first_overflow() -> None:
    assert pack([400, 500, 100, 50], budget=1000, max_blocks=None, policy=Policy.STOP) == [
        Decision.SELECTED, Decision.SELECTED, Decision.SELECTED, Decision.OVER_BUDGET]
    assert pack([600, 500, 100], budget=1000, max_blocks=None, policy=Policy.STOP) == [
        Decision.SELECTED, Decision.OVER_BUDGET, Decision.AFTER_STOP]


def test_pack_skip_policy_keeps_filling() -> None:
    assert pack([600, 500, 100], budget=1000, max_blocks=None, policy=Policy.SKIP) == [
        Decision.SELECTED, Decision.OVER_BUDGET, Decision.SELECTED]


def test_pack_block_limit() -> None:
    assert pack([10, 10, 10], budget=1000, max_blocks=2) == [
        Decision.SELECTED, Decision.SELECTED, Decision.OVER_BLOCK_LIMIT]


@settings(max_examples=100, deadline=None)
@given(costs=st.lists(st.integers(1, 900), max_size=30), budget=st.integers(1, 5000),
       limit=st.one_of(st.none(), st.integers(1, 10)), policy=st.sampled_from(list(Policy)))
def test_pack_never_exceeds_budget_or_limit(costs: list[int], budget: int, limit: int | None,
                                            policy: Policy) -> None:
    decisions = pack(costs, budget, limit, policy)
    chosen = [c for c, d in zip(costs, decisions, strict=True) if d is Decision.SELECTED]
    assert sum(chosen) <= budget
    assert limit is None or len(chosen) <= limit

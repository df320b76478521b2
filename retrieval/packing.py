"""Evidence packing: whole blocks in ranked order under a token budget and a block limit."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum


class Decision(StrEnum):
    SELECTED = "selected"
    OVER_BUDGET = "over_budget"
    OVER_BLOCK_LIMIT = "over_block_limit"
    AFTER_STOP = "after_stop"  # policy `stop`: ranked below the first block that did not fit


class Policy(StrEnum):
    STOP = "stop"  # stop at the first block that does not fit
    SKIP = "skip"  # skip it and keep filling with smaller blocks


def estimate_tokens(text: str, tokens_per_char: float = 1.0) -> int:
    """Cost of a block; for Chinese one character is about one token."""
    return max(1, round(len(text) * tokens_per_char))


def pack(costs: Sequence[int], budget: int, max_blocks: int | None,
         policy: Policy = Policy.STOP) -> list[Decision]:
    """A decision for each ranked block; `max_blocks=None` means no block limit."""
    decisions: list[Decision] = []
    used, selected, stopped = 0, 0, False
    for cost in costs:
        if stopped:
            decisions.append(Decision.AFTER_STOP)
        elif max_blocks is not None and selected >= max_blocks:
            decisions.append(Decision.OVER_BLOCK_LIMIT)
        elif used + cost > budget:
            decisions.append(Decision.OVER_BUDGET)
            stopped = policy is Policy.STOP
        else:
            decisions.append(Decision.SELECTED)
            used += cost
            selected += 1
    return decisions

"""The question kinds: one module each in this package, each with a name, an explicit priority,
`detect(plan)` (does the kind fit what the plan asks?) and `compose(ctx)` (its answer, or None
when the book holds nothing of its kind, so the next kind answers).

The planner lists the kinds that detect a plan in priority order (`select_kinds`, kept in
`Plan.kinds`); the composer asks them in that order (`kb.answering.compose`). Adding a kind is
adding a module here that defines `KIND`: neither the planner nor the composer changes."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kb.answering.drafting import Ctx, Draft
    from kb.answering.plan import Plan


@dataclass(frozen=True)
class Kind:
    name: str
    priority: int
    """Lower first: a refusal before anything, the fact answer (which takes anything) last."""
    detect: Callable[[Plan], bool]
    compose: Callable[[Ctx], Draft | None]


@cache
def registry() -> tuple[Kind, ...]:
    """Every kind of this package, by priority; two kinds of one name or one priority are an
    error (their order would be an accident)."""
    kinds = []
    for module in pkgutil.iter_modules(__path__):
        kind = getattr(importlib.import_module(f"{__name__}.{module.name}"), "KIND", None)
        if not isinstance(kind, Kind):
            raise TypeError(f"{__name__}.{module.name} defines no KIND")
        kinds.append(kind)
    for attribute in ("name", "priority"):
        values = [getattr(k, attribute) for k in kinds]
        doubled = sorted({str(v) for v in values if values.count(v) > 1})
        if doubled:
            raise ValueError(f"question kinds share a {attribute}: {', '.join(doubled)}")
    return tuple(sorted(kinds, key=lambda k: k.priority))


def select_kinds(plan: Plan) -> tuple[str, ...]:
    """The names of the kinds that detect the plan, in priority order."""
    return tuple(k.name for k in registry() if k.detect(plan))


def kind_named(name: str) -> Kind:
    return next(k for k in registry() if k.name == name)

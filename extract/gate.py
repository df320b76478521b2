"""The precision gate: which extracted record kinds may enter the merged (default) bundle.

The default graph is the curated bundle. An extracted record kind joins it only when the quality
report, run on the chapters that both the extraction and the curated bundle cover, measures its
precision at `threshold` (0.8) or more over at least `min_found` (20) extracted records — fewer
is no measurement. The kinds and the figure each is judged by:

| kind | figure |
|---|---|
| `people` | `overall.people`: (chapter, person) named by the chapter's records |
| `events` | `overall.events`: the event rule of `extract.report` |
| `relations` | `book.book_typed`: each distinct (pair, type) once, what the bundle would hold |
| `relations:<type>` | `by_type.<type>`: one relation type alone, when `relations` as a whole fails |
| `states` | `overall.states`: (chapter, person, kind) |

A record of an admitted kind enters only when every person it names is in the merged bundle (a
curated person, or an extracted one when `people` is admitted) and it does not duplicate a curated
record (the report's matching rules). The decision, its figures and the counts of records added
are written as `gate.json` inside the merged bundle, with a fingerprint of the curated bundle it
was measured against (`core.settings.bundle_fingerprint`): when the curated bundle changes, the
merged one stops being the active bundle until `kbx extract` runs again.

`enabled=False` (`kbx extract --no-gate`) admits every kind: for a novel without curated records,
where nothing can be measured and the extracted records are all there is.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, Field

from core.atomic import write_text
from core.settings import GATE_FILE
from extract.report import QualityReport, Score

THRESHOLD = 0.8
MIN_FOUND = 20


class KindDecision(BaseModel):
    kind: str = Field(description="people | events | relations | relations:<type> | states")
    figure: str = Field(description="the report figure it is judged by")
    found: int
    correct: int
    precision: float
    admitted: bool
    reason: str


class Gate(BaseModel):
    """What may enter the merged bundle, and why."""

    enabled: bool = True
    threshold: float = THRESHOLD
    min_found: int = MIN_FOUND
    method: str = ""
    chapters: list[int] = Field(default_factory=list, description="the chapters measured")
    curated_fingerprint: str = ""
    kinds: list[KindDecision] = Field(default_factory=list)
    added: dict[str, int] = Field(default_factory=dict,
                                  description="extracted records that entered, by kind")

    def admits(self, kind: str) -> bool:
        return not self.enabled or any(k.kind == kind and k.admitted for k in self.kinds)

    def admits_relation(self, type_: str) -> bool:
        return self.admits("relations") or self.admits(f"relations:{type_}")

    @property
    def admitted(self) -> list[str]:
        return [k.kind for k in self.kinds if k.admitted]


def _judge(kind: str, figure: str, score: Score, threshold: float, min_found: int,
           enabled: bool) -> KindDecision:
    passed = score.found >= min_found and score.precision >= threshold
    if not enabled:
        reason = "gate off (--no-gate)"
    elif score.curated == 0:
        reason = "nothing curated to measure against"
    elif score.found < min_found:
        reason = f"only {score.found} found (< {min_found})"
    else:
        reason = f"{score.precision:.3f} {'≥' if passed else '<'} {threshold}"
    return KindDecision(kind=kind, figure=figure, found=score.found, correct=score.correct,
                        precision=score.precision, admitted=passed or not enabled, reason=reason)


def decide(report: QualityReport, fingerprint: str, *, threshold: float = THRESHOLD,
           min_found: int = MIN_FOUND, enabled: bool = True) -> Gate:
    """The gate for the records the report measured."""
    def judge(kind: str, figure: str, score: Score) -> KindDecision:
        return _judge(kind, figure, score, threshold, min_found, enabled)

    kinds = [judge("people", "overall.people", report.overall["people"]),
             judge("events", "overall.events", report.overall["events"]),
             judge("relations", "book.book_typed", report.book["book_typed"])]
    kinds += [judge(f"relations:{type_}", f"by_type.{type_}", score)
              for type_, score in report.by_type.items() if score.found]
    kinds.append(judge("states", "overall.states", report.overall["states"]))
    return Gate(enabled=enabled, threshold=threshold, min_found=min_found, method=report.method,
                chapters=report.chapters, curated_fingerprint=fingerprint, kinds=kinds)


def write_gate(gate: Gate, directory: Path) -> None:
    write_text(directory / GATE_FILE, json.dumps(gate.model_dump(), ensure_ascii=False, indent=1)
               + "\n")


def read_gate(directory: Path) -> Gate | None:
    """The gate beside a merged bundle, or None when there is none (or it is unreadable)."""
    try:
        return Gate.model_validate_json((directory / GATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None

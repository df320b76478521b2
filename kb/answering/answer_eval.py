"""Do the answers say the answer? A question file whose lines carry `expect` — groups of strings,
an answer must contain one string of every group (names, places, numbers; alternatives allowed,
either script) — run through the answering service.

Reported: the share of answerable questions answered with every group present (anywhere in the
answer, and in its lead: the first paragraph, which is what a reader reads first), the
unanswerable questions refused, and every answerable question refused with its reason (a refusal
for a name, a nickname or a frame word is a bug)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from core.text import normalize
from kb.answering.answer_models import AskRequest, AskResponse
from retrieval.questions import Question

Ask = Callable[[AskRequest], AskResponse]


def expected_groups(question: Question) -> list[list[str]]:
    """The `expect` groups of a question line ([] when it has none)."""
    raw = getattr(question, "expect", None) or []
    return [[str(s) for s in group] for group in raw if group]


def missing_groups(text: str, groups: Sequence[Sequence[str]]) -> list[list[str]]:
    """The groups none of whose strings the text holds (compared after script folding)."""
    folded = normalize(text)
    return [list(g) for g in groups if not any(normalize(s) in folded for s in g)]


def lead_of(answer: str) -> str:
    """The first paragraph of an answer: what it says before the supporting records."""
    return answer.strip().split("\n", 1)[0]


@dataclass
class AnswerRow:
    id: str
    question: str
    answerable: bool
    status: str
    missing: list[list[str]]
    missing_in_lead: list[list[str]]
    reason: str | None
    quotes: int
    located: int

    @property
    def states_answer(self) -> bool:
        return self.answerable and self.status == "answered" and not self.missing


@dataclass
class AnswerReport:
    rows: list[AnswerRow] = field(default_factory=list)

    def summary(self) -> dict[str, float | int]:
        answerable = [r for r in self.rows if r.answerable]
        unanswerable = [r for r in self.rows if not r.answerable]
        n = max(1, len(answerable))
        return {
            "questions": len(self.rows), "answerable": len(answerable),
            "states_answer": sum(r.states_answer for r in answerable),
            "states_answer_share": round(sum(r.states_answer for r in answerable) / n, 3),
            "in_lead": sum(r.status == "answered" and not r.missing_in_lead for r in answerable),
            "answerable_refused": sum(r.status != "answered" for r in answerable),
            "unanswerable": len(unanswerable),
            "unanswerable_refused": sum(r.status == "insufficient" for r in unanswerable),
            "quotes": sum(r.quotes for r in self.rows),
            "quotes_located": sum(r.located for r in self.rows),
        }


def evaluate_answers(ask: Ask, questions: Iterable[Question],
                     progress: Callable[[], None] | None = None) -> AnswerReport:
    """Ask every question (no session) and check its answer against its `expect` groups."""
    report = AnswerReport()
    for q in questions:
        response = ask(AskRequest(question=q.question))
        groups = expected_groups(q)
        report.rows.append(AnswerRow(
            id=q.id, question=q.question, answerable=q.answerable, status=response.status,
            missing=missing_groups(response.answer, groups),
            missing_in_lead=missing_groups(lead_of(response.answer), groups),
            reason=response.reason, quotes=len(response.quotes),
            located=sum(c.located for c in response.quotes)))
        if progress:
            progress()
    return report

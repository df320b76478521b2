"""The bound of any cut of an evidence order (retrieval.evaluation.prefix_bound), on made-up
blocks: the shortest prefix holding every core quote, whatever the packer would do."""

from __future__ import annotations

from ingest.chunking import Block
from retrieval.evaluation import Evidence, prefix_bound
from retrieval.questions import LabeledQuestion, Question, QuoteSpan


def _block(i: int) -> Block:
    return Block(id=f"b{i}", chapter=1, index=i, start=i * 100, end=(i + 1) * 100, text="x" * 100)


def _question(qid: str, core: list[int], answerable: bool = True) -> LabeledQuestion:
    spans = [QuoteSpan("q", 1, i * 100 + 10, i * 100 + 30) for i in core]
    return LabeledQuestion(Question(id=qid, question="?", kind="fact", answerable=answerable),
                           1, spans, [])


def test_the_shortest_prefix_holding_every_core_quote_is_the_bound() -> None:
    blocks = {f"b{i}": _block(i) for i in range(6)}
    orders = {"a": ["b0", "b3", "b1", "b2"], "b": ["b4", "b5"], "c": ["b0"]}
    questions = [_question("a", [1, 3]),  # core in b1 and b3: the prefix is b0 b3 b1
                 _question("b", [2]),  # never ranked within the depth: not reached
                 _question("c", [], answerable=False)]  # not counted

    def run(q: LabeledQuestion) -> Evidence:
        return Evidence(orders[q.question.id], [])

    bound = prefix_bound(questions, run, blocks)
    assert bound["all_core"] == 0.5 and bound["avg_blocks"] == 3.0
    assert abs(bound["irrelevant_share"] - 1 / 3) < 1e-9

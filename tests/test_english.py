"""English questions (kb.answering.english): read as the Chinese question they ask, planned as
that question is, and answered in English frames with the book's quotes in Chinese — on the small
book of tests/fixtures/kb_kinds and on the whole book with the curated bundle."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from core.settings import DEFAULT_BUNDLE, DEFAULT_CORPUS, Settings
from ingest.corpus import read_corpus
from kb.answering.answer_models import AskRequest, AskResponse
from kb.answering.english import is_english
from kb.answering.service import AskService
from kb.knowledge.bundle import KnowledgeBundle, load_bundle
from kb.knowledge.models import Event, Relation, State
from providers.memory import MemoryProvider
from retrieval.corpus import Corpus, build_corpus

pytest_plugins = ["tests.retrieval_fixtures"]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "kb_kinds"
DEV = Path(__file__).resolve().parent.parent / "eval" / "questions" / "dev3_book.jsonl"
CJK_RUN = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")
NAME = re.compile(r" ?\([\u3400-\u9fff·]+\)")


def _service(corpus: Corpus, bundle: KnowledgeBundle) -> AskService:
    provider = MemoryProvider()
    provider.load(bundle)
    return AskService(Settings(), corpus, provider, bundle=bundle)


@pytest.fixture(scope="module")
def small() -> AskService:
    corpus = build_corpus(read_corpus(DEFAULT_CORPUS, set(range(7, 12))), 600)
    return _service(corpus, load_bundle(FIXTURE, corpus.blocks))


def _read_as(service: AskService, question: str) -> str:
    return service.pipeline.english.read(question).chinese


@pytest.mark.parametrize(("english", "chinese"), [
    ("Why did Gao Qiu persecute Lin Chong?", "高俅为什么陷害了林冲"),
    ("Who did Lin Chong kill?", "林冲杀了谁"),
    ("Who killed Lu Qian?", "陆谦被谁杀了"),  # asked of the one it was done to
    ("Who was Lu Qian killed by?", "陆谦被谁杀了"),
    ("By whom was Lin Chong saved?", "林冲被谁救了"),
    ("Where did Lin Chong meet Lu Zhishen?", "林冲在哪里遇到鲁智深"),
    ("How did Lin Chong and Lu Zhishen meet?", "林冲和鲁智深是怎么认识的"),
    ("What is the relationship between Lin Chong and Lu Zhishen?", "林冲和鲁智深是什么关系"),
    ("What happened to Lin Chong?", "林冲后来怎么样了"),
    ("Who rescued Lin Chong at Wild Boar Forest?", "林冲在野猪林被谁救了"),
    ("What did Lin Chong do after he killed Lu Qian?", "林冲杀了陆谦以后做了什么"),
    ("Who was arrested after Lu Qian was killed?", "陆谦被杀以后谁捉拿了"),
    ("What weapon did Lin Chong use?", "林冲用了什么兵器"),
    ("How many taels of silver did Chai Jin give Lin Chong?", "柴进送了多少两银子林冲"),
    ("Which chapter does Lu Zhishen save Lin Chong in?", "鲁智深第几回救林冲"),
    ("Did Lin Chong kill Lu Zhishen?", "林冲有没有杀过鲁智深"),
    ("What happens in chapter 9?", "第9回讲了什么"),
    ("When did Lu Qian pass away?", "陆谦什么时候去世"),
    ("In which chapter had Lu Qian passed away?", "陆谦第几回去世"),
    ("Where is Lin Chong from?", "林冲是哪里人"),
    ("What were Lu Qian's last words?", "陆谦临终说了什么"),
    ("What was Lin Chong's wife's name?", "林冲的妻子的名字是什么"),
    ("Tell me about Lin Chong stage by stage", "按阶段讲讲林冲的经历"),
    ("What did he do later?", "他后来做了什么"),
    ("why did gao qiu persecute lin chong", "高俅为什么陷害了林冲"),
    ("Why did GaoQiu persecute Lin-Chong?", "高俅为什么陷害了林冲"),
    ("Who defeated Instructor Hong?", "洪教头被谁打败了"),  # a title after the surname: 洪教头
    ("Where did Lu Qian die after he was wounded by Lin Chong?", "陆谦被林冲打伤以后在哪里死"),  # one 被
    ("How long was Lin Chong's beard?", "林冲的胡须有多长"),  # a length, not a time
])
def test_an_english_question_is_read_as_the_chinese_question_it_asks(
        small: AskService, english: str, chinese: str) -> None:
    assert _read_as(small, english) == chinese


def test_an_english_question_has_the_plan_of_its_chinese_question(small: AskService) -> None:
    english = small.pipeline.plan("Why did Gao Qiu persecute Lin Chong?")
    chinese = small.pipeline.plan("高俅为什么陷害了林冲")
    assert english.lang == "en" and english.asked == "Why did Gao Qiu persecute Lin Chong?"
    assert english.question == "高俅为什么陷害了林冲"  # the lexical query is made of it
    assert replace(english, lang="zh", asked="") == chinese


def test_what_is_english() -> None:
    assert is_english("Why did Gao Qiu hate Wang Jin?")
    assert not is_english("高俅为什么恨王进") and not is_english("Gao Qiu 为什么恨王进")
    assert not is_english("??? 123")


def _book_text(bundle: KnowledgeBundle) -> str:
    """Everything of the bundle an answer may show in Chinese: titles, summaries, values,
    descriptions, roles, places, names, the book's title."""
    parts = [bundle.profile.book]
    for record in [*bundle.events, *bundle.relations, *bundle.states, *bundle.people,
                   *bundle.chapters]:
        if isinstance(record, Event):
            parts += [record.title, record.summary, record.place or "",
                      *(p.role for p in record.participants)]
        elif isinstance(record, Relation):
            parts += [record.description, record.label]
        elif isinstance(record, State):
            parts += [record.value, record.description]
        else:
            parts += [getattr(record, "name", ""), getattr(record, "profile", ""),
                      getattr(record, "summary", ""), *getattr(record, "aliases", [])]
    return "\n".join(parts)


def _chinese_outside_the_book(response: AskResponse, book_text: str) -> list[str]:
    """The Chinese of an English answer that is neither a quote, a name, nor the bundle's own
    words: the frame's Chinese, which must be none."""
    text = f"{response.answer}\n{response.reason or ''}"
    for quote in response.quotes:
        text = text.replace(f"「{quote.text}」〔{quote.chunk_id}〕", " ")
    text = NAME.sub(" ", text)
    return [run for run in CJK_RUN.findall(text) if run.strip("，。；：、（）") and
            run.strip("，。；：、（）") not in book_text]


@pytest.mark.parametrize("question", [
    "Why did Gao Qiu persecute Lin Chong?", "How did Lin Chong and Lu Zhishen meet?",
    "Who killed Lu Qian?", "What happened to Lin Chong?", "Where is Lin Chong from?",
    "What weapon did Lin Chong use?", "Where did Lu Zhishen save Lin Chong?",
])
def test_english_answers_on_the_small_book(small: AskService, question: str) -> None:
    r = small.ask(AskRequest(question=question))
    assert r.status == "answered" and r.plan.lang == "en", (question, r.reason)
    assert r.quotes and all(q.located for q in r.quotes)
    assert "(林冲)" in r.answer or "(陆谦)" in r.answer or "(鲁智深)" in r.answer  # Pinyin (汉字)
    assert _chinese_outside_the_book(r, _book_text(small.pipeline.bundle)) == [], r.answer
    assert r.trace["read_as"] == _read_as(small, question)


def test_a_refusal_is_english(small: AskService) -> None:
    unread = small.ask(AskRequest(question="Hello, anyone there?"))
    assert unread.status == "insufficient" and "pinyin" in (unread.reason or "")
    assert _chinese_outside_the_book(unread, _book_text(small.pipeline.bundle)) == []
    premise = small.ask(AskRequest(question="Why did Lin Chong kill Lu Zhishen?"))
    assert premise.status == "insufficient" and premise.reason is not None
    assert premise.reason.startswith("The book does not say that Lin Chong (林冲) killed")


def test_an_english_follow_up_inherits_the_person(small: AskService) -> None:
    first = small.ask(AskRequest(question="Who is Lin Chong?", session_id="en-follow"))
    later = small.ask(AskRequest(question="What happened to him later?", session_id="en-follow"))
    assert first.plan.person_ids == later.plan.person_ids == ["lin_chong"]
    assert later.plan.lang == "en" and later.status == "answered"


def _dev_english() -> list[str]:
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line]
    return [r["question"] for r in rows if r.get("lang") == "en"]


@pytest.fixture(scope="module")
def book(whole_book: Corpus) -> AskService:
    return _service(whole_book, load_bundle(DEFAULT_BUNDLE, whole_book.blocks))


@pytest.mark.slow
@pytest.mark.parametrize("question", _dev_english())
def test_english_questions_on_the_whole_book(book: AskService, question: str) -> None:
    r = book.ask(AskRequest(question=question))
    assert r.plan.lang == "en" and r.plan.people, question
    assert all(q.located for q in r.quotes), question
    assert _chinese_outside_the_book(r, _book_text(book.pipeline.bundle)) == [], r.answer


@pytest.mark.slow
def test_the_dev_english_why_states_the_cause(book: AskService) -> None:
    r = book.ask(AskRequest(question="Why did Gao Qiu hate Wang Jin?"))
    assert r.status == "answered" and r.plan.kind == "pair" and r.plan.asks == "why"
    assert "王昇" in r.answer and "Gao Qiu (高俅)" in r.answer


def test_a_phrase_that_says_who_someone_is_is_not_part_of_the_question() -> None:
    from kb.answering.english import without_appositives

    assert without_appositives("Who killed Bing Ding, the Third Prince of Jia Yi, when it fell?") \
        == "Who killed Bing Ding when it fell?"
    assert without_appositives("What did Jia Yi, Bing Ding's younger brother, do then?") \
        == "What did Jia Yi do then?"
    assert without_appositives("Where did Jia Yi go, and why?") == "Where did Jia Yi go, and why?"

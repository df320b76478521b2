"""The LLM answer path of `/ask` against a real loopback server speaking the OpenAI protocol:
a good reply, a quote that is not in its block, malformed output, a 429 and a timeout."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from core.llm import ChatClient
from core.settings import DEFAULT_BUNDLE, Settings
from kb.answering.answer_models import AskRequest
from kb.answering.service import AskService
from kb.knowledge.bundle import KnowledgeBundle, load_bundle
from providers.memory import MemoryProvider
from retrieval.corpus import Corpus
from tests.openai_stub import OpenAIStub, Reply

pytest_plugins = ["tests.retrieval_fixtures"]
QUESTION = "鲁智深和林冲怎么认识？"


@dataclass(frozen=True)
class Book:
    """The whole book, its curated bundle and the in-memory graph: read, never written, by the
    tests here, so loaded once for the module (each test loaded them again, about 5 s each on a
    busy machine)."""

    corpus: Corpus
    bundle: KnowledgeBundle
    provider: MemoryProvider


@pytest.fixture(scope="module")
def book(whole_book: Corpus) -> Book:
    bundle = load_bundle(DEFAULT_BUNDLE, whole_book.blocks)
    provider = MemoryProvider()
    provider.load(bundle)
    return Book(whole_book, bundle, provider)


def make_service(book: Book, stub: OpenAIStub, timeout: float = 5.0,
                 retries: int = 1) -> AskService:
    """A service of its own (its settings, LLM client and sessions) over the shared book."""
    settings = Settings(OPENAI_BASE_URL=stub.url, OPENAI_API_KEY="test-key", llm_timeout=timeout,
                        llm_retries=retries)
    return AskService(settings, book.corpus, book.provider,
                      llm=ChatClient(settings, backoff=0.01), bundle=book.bundle)


def good_reply() -> Reply:
    return Reply.json({
        "status": "answered",
        "answer": "林冲在菜园墙外看鲁智深使禅杖，喝采相识，当即结义，智深为兄。",
        "citations": [{"chunk_id": "ch007_chunk_004", "quote": "林沖大喜，就當結義智深為兄"},
                      {"chunk_id": "ch007_chunk_004", "quote": "林冲拜鲁智深为师，学了十八般武艺"}],
    })


def test_llm_answer_is_used_and_every_quote_checked(book: Book,
                                                    openai_stub: OpenAIStub) -> None:
    openai_stub.script(good_reply())
    r = make_service(book, openai_stub).ask(AskRequest(question=QUESTION))
    assert r.mode == "llm" and r.status == "answered"
    assert [q.located for q in r.quotes] == [True, False]  # the invented quote is flagged
    assert "未能" in (r.reason or "")
    prompt = openai_stub.requests[0].prompt
    assert "ch007_chunk_004" in prompt and QUESTION in prompt  # blocks are offered by id
    assert openai_stub.requests[0].headers.get("authorization") == "Bearer test-key"


def test_malformed_output_falls_back_to_the_offline_answer(book: Book,
                                                           openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.text("这不是 JSON"), Reply.text("{still not json"))
    r = make_service(book, openai_stub).ask(AskRequest(question=QUESTION))
    assert r.mode == "offline" and r.status == "answered"
    assert "LLM" in (r.reason or "") and all(q.located for q in r.quotes)


def test_rate_limit_is_retried(book: Book, openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.rate_limited(0.05), good_reply())
    r = make_service(book, openai_stub).ask(AskRequest(question=QUESTION))
    assert r.mode == "llm" and len(openai_stub.requests) == 2


def test_timeout_falls_back_offline(book: Book, openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.slow(1.5), Reply.slow(1.5))
    r = make_service(book, openai_stub, timeout=0.3, retries=1).ask(
        AskRequest(question=QUESTION))
    assert r.mode == "offline" and r.status == "answered"


def test_journey_stage_notes_come_from_the_llm(book: Book,
                                               openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.json({"status": "answered", "answer": "林冲一路从东京到梁山。",
                                   "citations": [], "stage_notes": [{"index": 1,
                                                                     "note": "在东京结识智深。"}]}))
    r = make_service(book, openai_stub).ask(AskRequest(question="林冲后来怎么样了"))
    assert r.mode == "llm" and r.stages[0].note == "在东京结识智深。"
    assert len(r.stages) > 1 and r.stages[1].note  # stages the LLM skipped keep the offline note


@pytest.mark.parametrize("status", [400, 401])
def test_client_errors_are_not_retried(book: Book, openai_stub: OpenAIStub,
                                       status: int) -> None:
    openai_stub.script(Reply.error(status))
    r = make_service(book, openai_stub, retries=3).ask(AskRequest(question=QUESTION))
    assert r.mode == "offline" and len(openai_stub.requests) == 1


def test_the_llm_gets_the_same_plan_and_records(book: Book, openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.json({"status": "answered", "answer": "王伦妒贤嫉能。",
                                   "citations": [{"chunk_id": "ch019_chunk_013",
                                                  "quote": "林沖即時拿住王倫"}]}))
    r = make_service(book, openai_stub).ask(AskRequest(question="林冲为什么要火并王伦？"))
    assert r.mode == "llm" and r.plan.asks == "why"
    prompt = openai_stub.requests[0].prompt
    assert "原因" in prompt and "rel_" in prompt  # what is asked, and the pair's own records
    assert r.quotes and r.quotes[0].located


def test_the_llm_is_told_the_campaign_asked_about(book: Book,
                                                  openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.json({"status": "insufficient", "answer": "", "reason": "没有写。",
                                   "citations": []}))
    make_service(book, openai_stub).ask(AskRequest(question="征辽时卢俊义打了哪些仗？"))
    assert "所问时段：征辽期间（第83–89回）" in openai_stub.requests[0].prompt


def test_an_english_question_is_put_to_the_model_in_english(book: Book,
                                                            openai_stub: OpenAIStub) -> None:
    """The English prompt (en.json's): the question as asked and the Chinese it was read as; a
    fallback is said in English."""
    openai_stub.script(Reply.text("not json"), Reply.text("{still not json"))
    r = make_service(book, openai_stub).ask(
        AskRequest(question="How did Lu Zhishen and Lin Chong meet?"))
    prompt = openai_stub.requests[0].prompt
    assert "Question (in English): How did Lu Zhishen and Lin Chong meet?" in prompt
    reading = "鲁智深和林冲是怎么认识的"
    assert f"Read in Chinese as: {reading}" in prompt and "ch007_chunk_004" in prompt
    assert "write the answer in English" in openai_stub.requests[0].body["messages"][0]["content"]
    assert r.mode == "offline" and "the LLM is unavailable" in (r.reason or "")

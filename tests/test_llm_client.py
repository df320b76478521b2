"""ChatClient against a real loopback server that speaks the OpenAI protocol (tests/openai_stub.py)."""

from __future__ import annotations

import logging
import time

import pytest
from openai_stub import OpenAIStub, Reply
from pydantic import BaseModel, Field

from core.errors import ConfigError, ExtractionError, LLMError
from core.llm import ChatClient, Pricing, is_loopback_url, parse_json_reply
from core.settings import Settings

pytestmark = pytest.mark.llm  # the chat client: retries, timeouts

SECRET = "sk-test-never-logged-0123456789"


class Answer(BaseModel):
    name: str = Field(description="a person's name")
    count: int = Field(description="how many")


def make_client(stub: OpenAIStub, **kw: object) -> ChatClient:
    settings = Settings(OPENAI_BASE_URL=stub.url, OPENAI_API_KEY=SECRET, llm_model="stub-model",
                        llm_timeout=kw.pop("timeout", 2.0), llm_retries=kw.pop("retries", 2))
    return ChatClient(settings, backoff=0.01, **kw)  # type: ignore[arg-type]


MESSAGES = [{"role": "system", "content": "answer in JSON"}, {"role": "user", "content": "林冲?"}]


def test_valid_reply_is_parsed_and_validated(openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.json({"name": "林冲", "count": 3}))
    with make_client(openai_stub) as client:
        result = client.complete_json(MESSAGES, Answer)
    assert result.value == Answer(name="林冲", count=3)
    assert result.attempts == 1
    sent = openai_stub.requests[0]
    assert sent.path == "/v1/chat/completions"
    assert sent.body["model"] == "stub-model"
    assert sent.body["response_format"] == {"type": "json_object"}
    assert sent.body["temperature"] == 0
    assert sent.messages == MESSAGES
    assert sent.headers["authorization"] == f"Bearer {SECRET}"


def test_constructor_opens_no_connection(openai_stub: OpenAIStub) -> None:
    client = make_client(openai_stub)
    assert openai_stub.requests == []
    assert SECRET not in repr(client)
    client.close()


def test_malformed_json_gets_one_repair_then_extraction_error(openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.text("{name: 林冲,"), Reply.text('{"name": "林冲"}'))
    with make_client(openai_stub) as client, pytest.raises(ExtractionError) as info:
        client.complete_json(MESSAGES, Answer)
    assert info.value.raw == '{"name": "林冲"}'
    assert "count" in str(info.value)
    assert len(openai_stub.requests) == 2
    repair = openai_stub.requests[1].messages
    assert repair[-2] == {"role": "assistant", "content": "{name: 林冲,"}
    assert "could not be used" in repair[-1]["content"]


def test_malformed_json_without_repair_keeps_raw(openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.text("not json at all"))
    with make_client(openai_stub) as client, pytest.raises(ExtractionError) as info:
        client.complete_json(MESSAGES, Answer, repair=False)
    assert info.value.raw == "not json at all"
    assert len(openai_stub.requests) == 1


def test_repair_turn_succeeds(openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.text("```json\n{oops"), Reply.text('```json\n{"name": "武松", "count": 1}\n```'))
    with make_client(openai_stub) as client:
        result = client.complete_json(MESSAGES, Answer)
    assert result.value.name == "武松"
    assert result.usage.calls == 2


TIMEOUT = 1.0
"""The client's timeout in these tests: well above what a loopback reply takes on a loaded 2-core
machine (0.3 s was exceeded once and the extra retry broke a count), well below `SLOW`."""
SLOW = 5.0


def test_timeout_is_retried_then_llm_error(openai_stub: OpenAIStub) -> None:
    openai_stub.script(*[Reply.slow(SLOW) for _ in range(3)])
    with make_client(openai_stub, timeout=TIMEOUT, retries=1) as client, \
            pytest.raises(LLMError) as info:
        client.complete_json(MESSAGES, Answer)
    # two timeouts, not a slow reply waited out (a reply waited for would have been an answer)
    assert "timeout" in str(info.value)
    assert len(openai_stub.requests) == 2


def test_timeout_then_success(openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.slow(SLOW), Reply.json({"name": "宋江", "count": 1}))
    with make_client(openai_stub, timeout=TIMEOUT) as client:
        result = client.complete_json(MESSAGES, Answer)
    assert result.value.name == "宋江"
    assert result.attempts == 2


def test_429_honours_retry_after_then_succeeds(openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.rate_limited(0.4), Reply.json({"name": "李逵", "count": 2}))
    started = time.perf_counter()
    with make_client(openai_stub) as client:
        result = client.complete_json(MESSAGES, Answer)
    assert time.perf_counter() - started >= 0.4
    assert result.value.name == "李逵"
    assert result.attempts == 2
    assert len(openai_stub.requests) == 2


def test_500_is_retried_and_bounded(openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.error(500), Reply.error(503), Reply.error(500), Reply.json({}))
    with make_client(openai_stub, retries=2) as client, pytest.raises(LLMError, match="HTTP 500"):
        client.complete_json(MESSAGES, Answer)
    assert len(openai_stub.requests) == 3
    assert openai_stub.pending == 1


def test_400_is_not_retried(openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.error(400, "bad model"), Reply.json({"name": "x", "count": 1}))
    with make_client(openai_stub) as client, pytest.raises(LLMError, match="HTTP 400"):
        client.complete_json(MESSAGES, Answer)
    assert len(openai_stub.requests) == 1


def test_usage_accounting_with_cost(openai_stub: OpenAIStub) -> None:
    openai_stub.script(Reply.json({"name": "a", "count": 1}, prompt_tokens=1000, completion_tokens=200),
                       Reply.error(429, headers={"Retry-After": "0"}),
                       Reply.json({"name": "b", "count": 2}, prompt_tokens=500, completion_tokens=100))
    pricing = Pricing(prompt_per_1k=0.15, completion_per_1k=0.6)
    with make_client(openai_stub, pricing=pricing) as client:
        first = client.complete_json(MESSAGES, Answer)
        second = client.complete_json(MESSAGES, Answer)
    assert (first.usage.prompt_tokens, first.usage.completion_tokens, first.usage.calls) == (1000, 200, 1)
    assert second.usage.calls == 1 and second.attempts == 2
    total = client.usage
    assert (total.calls, total.prompt_tokens, total.completion_tokens) == (2, 1500, 300)
    assert total.total_tokens == 1800
    assert total.cost == pytest.approx(1.5 * 0.15 + 0.3 * 0.6)


def test_guard_refuses_non_loopback_url() -> None:
    settings = Settings(OPENAI_BASE_URL="https://api.openai.com/v1", OPENAI_API_KEY=SECRET)
    client = ChatClient(settings)
    with pytest.raises(LLMError, match="KBX_BLOCK_REAL_LLM"):
        client.complete_json(MESSAGES, Answer)


def test_guard_refuses_default_endpoint() -> None:
    client = ChatClient(Settings(OPENAI_API_KEY=SECRET, OPENAI_BASE_URL=None))
    with pytest.raises(LLMError, match="default OpenAI endpoint"):
        client.complete_json(MESSAGES, Answer)


def test_unconfigured_client_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        ChatClient(Settings(OPENAI_API_KEY=None, OPENAI_BASE_URL=None))


def test_api_key_never_logged(openai_stub: OpenAIStub, caplog: pytest.LogCaptureFixture) -> None:
    openai_stub.script(Reply.error(500), Reply.text("nope"), Reply.text("nope"))
    with caplog.at_level(logging.DEBUG), make_client(openai_stub) as client, \
            pytest.raises(ExtractionError):
        client.complete_json(MESSAGES, Answer)
    assert caplog.records
    assert SECRET not in caplog.text


@pytest.mark.parametrize("url, expected", [
    ("http://127.0.0.1:8000/v1", True), ("http://localhost/v1", True), ("http://[::1]:9/v1", True),
    ("http://127.3.4.5/v1", True), ("https://api.openai.com/v1", False),
    ("http://10.0.0.1/v1", False), ("http://127.0.0.1.evil.com/v1", False),
])
def test_is_loopback_url(url: str, expected: bool) -> None:
    assert is_loopback_url(url) is expected


def test_parse_json_reply_rejects_wrong_shape() -> None:
    with pytest.raises(ExtractionError) as info:
        parse_json_reply('{"name": 1}', Answer)
    assert info.value.raw == '{"name": 1}'

"""KBX_LLM_MAX_TOKENS caps each reply (a small local model would otherwise write until its
context is full); unset, no cap is sent and the endpoint's default applies."""

from __future__ import annotations

import pytest
from openai_stub import OpenAIStub, Reply
from pydantic import BaseModel

from core.llm import ChatClient
from core.settings import Settings

pytestmark = pytest.mark.llm  # the chat client's token limits


class Named(BaseModel):
    name: str


def test_max_tokens_is_sent_only_when_set(openai_stub: OpenAIStub) -> None:
    for cap in (64, None):
        openai_stub.reset()
        openai_stub.script(Reply.json({"name": "林冲"}))
        settings = Settings(OPENAI_BASE_URL=openai_stub.url, OPENAI_API_KEY="k",
                            llm_model="stub-model", llm_max_tokens=cap)
        with ChatClient(settings) as client:
            assert client.complete_json([{"role": "user", "content": "?"}], Named).value.name == "林冲"
        body = openai_stub.requests[0].body
        assert body.get("max_tokens") == cap
        assert ("max_tokens" in body) == (cap is not None)

"""The chat boundary: an OpenAI-compatible client that returns pydantic-validated JSON, with retries.

`ChatClient.complete_json(messages, Schema)` asks for a JSON object (`response_format`
json_object), parses it and validates it with the pydantic `Schema`; an invalid reply gets one
repair turn, then raises `ExtractionError` carrying the raw text. Transport failures (timeout,
connection error, 408/409/429, 5xx) are retried by the `openai` SDK itself, configured from the
settings (`max_retries=settings.llm_retries`, `timeout=settings.llm_timeout`): exponential
backoff with jitter, `Retry-After` / `retry-after-ms` honoured. What still fails is mapped to
`LLMError` naming the attempts and the last failure. Token usage is counted per call and in
total, with a cost when prices per 1,000 tokens are given.

Safety switch: when the environment has `KBX_BLOCK_REAL_LLM=1` (the test suite sets it), any
base URL whose host is not loopback is refused with `LLMError` before a request is made.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast
from urllib.parse import urlsplit

from pydantic import BaseModel, ValidationError

from core.errors import ConfigError, ExtractionError, LLMError
from core.settings import Settings

if TYPE_CHECKING:  # `openai` takes a third of a second to import: only a client that calls loads it
    import openai
    from openai.types.chat import ChatCompletionMessageParam
    from openai.types.shared_params import ResponseFormatJSONObject

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)
Message = Mapping[str, str]

BLOCK_ENV = "KBX_BLOCK_REAL_LLM"
"""Environment switch: `1` refuses every non-loopback endpoint (set by the tests' conftest)."""
JSON_OBJECT: ResponseFormatJSONObject = {"type": "json_object"}
RETRYABLE_STATUS = frozenset({408, 409, 429})
"""Statuses the SDK retries (with every 5xx); an error with one of them is reported as retried."""
REPAIR_PROMPT = ("Your previous reply could not be used: {error}. Reply again with one JSON object "
                 "only, no prose and no code fences, that follows the requested fields exactly.")


@dataclass(frozen=True)
class Pricing:
    """Prices per 1,000 tokens, in any currency; cost = tokens / 1000 × price."""

    prompt_per_1k: float = 0.0
    completion_per_1k: float = 0.0

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return prompt_tokens / 1000 * self.prompt_per_1k + completion_tokens / 1000 * self.completion_per_1k


@dataclass
class Usage:
    """Token accounting: calls are HTTP requests that got an answer (repair turns included)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage) -> None:
        self.calls += other.calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        if other.cost is not None:
            self.cost = (self.cost or 0.0) + other.cost


@dataclass(frozen=True)
class LLMResult(Generic[T]):
    """A validated reply: the parsed value, the raw text it came from and what it cost."""

    value: T
    raw: str
    model: str
    usage: Usage = field(default_factory=Usage)
    attempts: int = 1


def is_loopback_url(url: str) -> bool:
    """True when the URL's host is localhost or a loopback address (127.0.0.0/8, ::1)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def real_llm_blocked() -> bool:
    """The global test switch; read at call time, never at import time."""
    return os.environ.get(BLOCK_ENV, "").strip() in {"1", "true", "yes"}


def check_endpoint(base_url: str | None) -> None:
    """Refuse a non-loopback endpoint while real LLM calls are blocked."""
    if real_llm_blocked() and not (base_url and is_loopback_url(base_url)):
        raise LLMError(f"{BLOCK_ENV}=1: refusing to call {base_url or 'the default OpenAI endpoint'}; "
                       "only loopback endpoints are allowed")


def parse_json_reply(raw: str, schema: type[T]) -> T:
    """The reply as a `schema` instance; tolerates a ```json fence around the object."""
    text = raw.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text.removeprefix("json").strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ExtractionError(f"reply is not JSON ({exc.msg} at {exc.pos})", raw=raw) from exc
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise ExtractionError(f"reply does not match {schema.__name__}: {where}: {first['msg']} "
                              f"({exc.error_count()} errors)", raw=raw) from exc


class ChatClient:
    """An OpenAI-compatible chat endpoint; the constructor opens no connection.

    `retries` extra attempts (the SDK's `max_retries`) follow a timeout, a connection error, a
    408/409/429 or a 5xx. `backoff` is accepted for callers that set it and not used: the SDK's
    own wait (0.5 s doubling, at most 8 s, or the server's Retry-After) applies. `usage` totals
    every call made through this client (thread-safe).
    """

    def __init__(self, settings: Settings, *, pricing: Pricing | None = None,
                 backoff: float | None = None, retries: int | None = None,
                 timeout: float | None = None) -> None:
        if not settings.llm_configured:
            raise ConfigError("no LLM endpoint configured: set OPENAI_BASE_URL and/or OPENAI_API_KEY")
        self.base_url = settings.openai_base_url
        self.model = settings.llm_model
        self.timeout = timeout if timeout is not None else settings.llm_timeout
        self.retries = retries if retries is not None else settings.llm_retries
        self.max_tokens = settings.llm_max_tokens
        self.pricing = pricing
        self._api_key = settings.openai_api_key
        self._client: openai.OpenAI | None = None
        self._lock = threading.Lock()
        self.usage = Usage(cost=0.0 if pricing else None)

    @classmethod
    def from_settings(cls, settings: Settings, **kwargs: Any) -> ChatClient:
        return cls(settings, **kwargs)

    def __repr__(self) -> str:  # never shows the key
        return f"ChatClient(base_url={self.base_url!r}, model={self.model!r})"

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    def _openai(self) -> openai.OpenAI:
        import openai

        check_endpoint(self.base_url)
        with self._lock:
            if self._client is None:
                key = self._api_key.get_secret_value() if self._api_key else "unused-local-key"
                self._client = openai.OpenAI(base_url=self.base_url, api_key=key,
                                             timeout=self.timeout, max_retries=self.retries)
            return self._client

    def complete_json(self, messages: Sequence[Message], schema: type[T], *,
                      temperature: float = 0.0, repair: bool = True) -> LLMResult[T]:
        """One validated JSON reply; `ExtractionError(raw=…)` when it stays invalid after a repair."""
        conversation = [dict(m) for m in messages]
        usage = Usage(cost=0.0 if self.pricing else None)
        attempts = 0
        for turn in range(2 if repair else 1):
            raw, call_usage, tries = self._chat(conversation, temperature)
            usage.add(call_usage)
            attempts += tries
            try:
                value = parse_json_reply(raw, schema)
            except ExtractionError as exc:
                if turn == 1 or not repair:
                    raise
                log.info("invalid JSON reply, asking for a repair: %s", exc)
                conversation += [{"role": "assistant", "content": raw},
                                 {"role": "user", "content": REPAIR_PROMPT.format(error=exc)}]
                continue
            return LLMResult(value=value, raw=raw, model=self.model, usage=usage, attempts=attempts)
        raise AssertionError("unreachable")  # pragma: no cover

    def _chat(self, messages: list[dict[str, str]], temperature: float) -> tuple[str, Usage, int]:
        """The reply text of one chat completion (the SDK retries transient failures), its usage
        and the number of HTTP attempts it took."""
        import openai

        client = self._openai()
        attempts = f"{self.retries + 1} attempts"
        try:
            extra: dict[str, Any] = {} if self.max_tokens is None else {"max_tokens": self.max_tokens}
            raw = client.chat.completions.with_raw_response.create(
                model=self.model, messages=cast("list[ChatCompletionMessageParam]", messages),
                temperature=temperature, response_format=JSON_OBJECT, **extra)
        except openai.APITimeoutError as exc:
            raise LLMError(f"chat endpoint failed after {attempts}: timeout after "
                           f"{self.timeout:g} s") from exc
        except openai.APIConnectionError as exc:
            raise LLMError(f"chat endpoint failed after {attempts}: connection error: {exc}"
                           ) from exc
        except openai.APIStatusError as exc:
            status = exc.status_code
            if status in RETRYABLE_STATUS or status >= 500:
                raise LLMError(f"chat endpoint failed after {attempts}: HTTP {status}") from exc
            raise LLMError(f"chat endpoint refused the request: HTTP {status}: {exc.message}") from exc
        tries = raw.retries_taken + 1
        if tries > 1:
            log.warning("chat call needed %d attempts", tries)
        text, usage = self._read(raw.parse())
        return text, usage, tries

    def _read(self, reply: Any) -> tuple[str, Usage]:
        choices = getattr(reply, "choices", None) or []
        content = choices[0].message.content if choices else None
        usage = Usage(calls=1, cost=0.0 if self.pricing else None)
        if reply.usage is not None:
            usage.prompt_tokens = reply.usage.prompt_tokens or 0
            usage.completion_tokens = reply.usage.completion_tokens or 0
        if self.pricing:
            usage.cost = self.pricing.cost(usage.prompt_tokens, usage.completion_tokens)
        with self._lock:
            self.usage.add(usage)
        if content is None:
            raise ExtractionError("reply has no message content", raw=str(reply))
        return content, usage

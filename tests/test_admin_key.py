"""The admin key: at least 16 characters or the admin routes stay 503 saying why; wrong keys from
one address are refused with 429 after five, a right one included, until the window passes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hardening_support import hardened_settings, service
from pydantic import SecretStr

from api.admin_key import (
    MAX_FAILURES,
    MIN_KEY_CHARS,
    AdminDisabled,
    AdminGuard,
    TooManyAttempts,
    Unauthorized,
)
from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures"]

KEY = SecretStr("a-long-enough-admin-key")


@pytest.mark.parametrize("key", ["a", "x" * (MIN_KEY_CHARS - 1)])
def test_a_short_key_disables_the_admin_routes_saying_why(key: str) -> None:
    with pytest.raises(AdminDisabled, match=f"has {len(key)} characters, at least 16"):
        AdminGuard().check(SecretStr(key), key, "127.0.0.1")


def test_no_key_disables_them_too() -> None:
    with pytest.raises(AdminDisabled, match="no KBX_API_KEY"):
        AdminGuard().check(None, "anything", "127.0.0.1")


def test_wrong_keys_are_refused_then_the_address_waits() -> None:
    guard = AdminGuard()
    for _ in range(MAX_FAILURES):
        with pytest.raises(Unauthorized):
            guard.check(KEY, "wrong", "127.0.0.1")
    with pytest.raises(TooManyAttempts) as waiting:
        guard.check(KEY, KEY.get_secret_value(), "127.0.0.1")  # the right key waits as well
    assert 1 <= waiting.value.retry_after <= 60
    guard.check(KEY, KEY.get_secret_value(), "127.0.0.2")  # another address is not held


def test_failures_leave_the_window() -> None:
    guard = AdminGuard(max_failures=2, window=0.2)
    for _ in range(2):
        with pytest.raises(Unauthorized):
            guard.check(KEY, "wrong", "127.0.0.1")
    with pytest.raises(TooManyAttempts):
        guard.check(KEY, "wrong", "127.0.0.1")
    time.sleep(0.3)
    guard.check(KEY, KEY.get_secret_value(), "127.0.0.1")


@pytest.fixture(scope="module")
def short_key(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus, api_falkordb: str
              ) -> Iterator[httpx.Client]:
    settings = hardened_settings(Path(tmp_path_factory.mktemp("short-key")),
                                 corpus_name="short-key", falkordb_url=api_falkordb, api_key="a")
    with service(settings, api_corpus) as http:
        yield http


@pytest.fixture(scope="module")
def long_key(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus, api_falkordb: str
             ) -> Iterator[httpx.Client]:
    settings = hardened_settings(Path(tmp_path_factory.mktemp("long-key")),
                                 corpus_name="long-key", falkordb_url=api_falkordb,
                                 api_key=KEY.get_secret_value())
    with service(settings, api_corpus) as http:
        yield http


def test_over_http_a_one_letter_key_leaves_reload_503(short_key: httpx.Client) -> None:
    response = short_key.post("/admin/reload", headers={"X-API-Key": "a"})
    assert response.status_code == 503
    assert "KBX_API_KEY has 1 characters, at least 16" in response.json()["detail"]


def test_over_http_a_burst_of_wrong_keys_gets_429(long_key: httpx.Client) -> None:
    statuses = [long_key.post("/admin/reload", headers={"X-API-Key": f"guess-{n}"})
                for n in range(50)]
    assert [r.status_code for r in statuses] == [401] * MAX_FAILURES + [429] * 45
    assert int(statuses[-1].headers["Retry-After"]) >= 1
    assert "too many wrong X-API-Key" in statuses[-1].json()["detail"]
    assert long_key.post("/admin/reload", headers={"X-API-Key": KEY.get_secret_value()}
                         ).status_code == 429

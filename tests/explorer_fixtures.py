"""Fixtures of the explorer's browser tests (a pytest plugin: `pytest_plugins = [...]`).

The service is the whole book with the curated bundle (every chapter's shards), loaded into the
embedded FalkorDB, and the app under uvicorn on a loopback port; `make demo` adds the offline
extraction's records to the same curated ones. The browser is Debian's `chromium`, driven by Playwright
through `executable_path` (no browser download). Every page records the requests it makes and
its console errors; a test fails when a request went anywhere but 127.0.0.1 or when the page
logged an error. Screenshots go to `test-artifacts/explorer/` (kept after the run).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from api_support import offline_settings, serve
from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, Request, Route, sync_playwright

from api.app import create_app
from core.settings import DEFAULT_CORPUS, REPO_ROOT, Settings
from ingest.corpus import read_corpus
from ingest.store import store_dir
from retrieval.corpus import Corpus, build_corpus, save_corpus

CHROMIUM = Path(os.environ.get("KBX_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(os.environ.get("KBX_SCREENSHOTS", REPO_ROOT / "test-artifacts" / "explorer"))
VIEWPORT = {"width": 1280, "height": 800}
LOCAL_SCHEMES = ("data:", "blob:", "about:")


@dataclass
class Explorer:
    """The running service: its base URL, settings and corpus."""

    url: str
    settings: Settings
    corpus: Corpus


@dataclass
class Guard:
    """What a page did that a test must not allow: requests off 127.0.0.1, console errors."""

    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def request(self, request: Request) -> None:
        if not _local(request.url):
            self.outside.append(request.url)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"{message.text} @ {message.location}")


def _local(url: str) -> bool:
    return url.startswith(LOCAL_SCHEMES) or urlsplit(url).hostname == "127.0.0.1"


@pytest.fixture(scope="session")
def explorer(tmp_path_factory: pytest.TempPathFactory, api_falkordb: str) -> Iterator[Explorer]:
    """The whole book and the curated bundle, as the service serves them before `kbx extract`."""
    data_dir = tmp_path_factory.mktemp("explorer")
    settings = offline_settings(data_dir, corpus_name="explorer-test", falkordb_url=api_falkordb)
    corpus = build_corpus(read_corpus(DEFAULT_CORPUS), settings.chunk_size)
    save_corpus(corpus, store_dir(data_dir, settings.corpus_name),
                {"chapters": sorted(corpus.chapters), "chunk_size": settings.chunk_size})
    with serve(create_app(settings, corpus=corpus), startup_timeout=120) as url:
        yield Explorer(url, settings, corpus)


MISSING_BROWSER = (f"{CHROMIUM} is missing: the browser tests need Debian's chromium and a CJK "
                   "font (`sudo apt-get install chromium fonts-wqy-zenhei`; .ci/run installs "
                   "them), or KBX_CHROMIUM pointing at a Chromium binary")


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    """Playwright with Debian's chromium. Without it the browser tests are skipped, saying how
    to install it; where KBX_REQUIRE_BROWSER=1 (.ci/run sets it) they fail instead, so that CI
    never passes without having run them."""
    if not CHROMIUM.exists():
        if os.environ.get("KBX_REQUIRE_BROWSER") == "1":
            pytest.fail(MISSING_BROWSER)
        pytest.skip(MISSING_BROWSER)
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_session: Playwright) -> Iterator[Browser]:
    browser = playwright_session.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                                 args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """The kept folder of screenshots, emptied at the start of the run."""
    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def page(browser: Browser, explorer: Explorer) -> Iterator[Page]:
    """A fresh page; outside requests are aborted and recorded, console errors recorded, and
    both must be empty when the test ends."""
    guard = Guard()
    # bypass_csp: Playwright's wait_for_function evaluates strings in the page, which the page's
    # Content-Security-Policy forbids (test_explorer checks the header; the guard here checks
    # that nothing leaves 127.0.0.1 all the same).
    context = browser.new_context(viewport=VIEWPORT, locale="zh-CN", accept_downloads=True,
                                  bypass_csp=True)

    def only_local(route: Route) -> None:
        if _local(route.request.url):
            route.continue_()
        else:
            route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    page.on("request", guard.request)
    page.on("console", guard.console)
    page.on("pageerror", lambda exc: guard.errors.append(f"uncaught: {exc}"))
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()
    assert guard.outside == [], f"requests left 127.0.0.1: {guard.outside}"
    assert guard.errors == [], f"console errors: {guard.errors}"

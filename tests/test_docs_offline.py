"""`/docs` and `/redoc` load nothing from outside: vendored Swagger UI and ReDoc, in a browser.

The pages are read as a browser reads them (Debian's chromium through Playwright), every
request that is not to 127.0.0.1 aborted and recorded: there must be none, no console error,
and each viewer must have drawn this service's operations from its own OpenAPI document.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest
from api_support import offline_settings, serve
from playwright.sync_api import Browser, Page, Route

if TYPE_CHECKING:
    from explorer_fixtures import Guard

from api.app import create_app
from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures", "explorer_fixtures"]
pytestmark = [pytest.mark.falkordb, pytest.mark.browser]


@pytest.fixture(scope="module")
def docs_url(tmp_path_factory: pytest.TempPathFactory, api_corpus: Corpus, api_falkordb: str
             ) -> Iterator[str]:
    settings = offline_settings(tmp_path_factory.mktemp("docs"), corpus_name="docs-test",
                                falkordb_url=api_falkordb)
    with serve(create_app(settings, corpus=api_corpus), startup_timeout=120) as url:
        yield url


@pytest.fixture
def guarded(browser: Browser) -> Iterator[tuple[Page, Guard]]:
    """A page whose requests off 127.0.0.1 are aborted and recorded (with the page's own
    Content-Security-Policy in force: the viewers must work under it)."""
    from explorer_fixtures import VIEWPORT, Guard, _local  # the plugin's, once it is registered

    guard = Guard()
    context = browser.new_context(viewport=VIEWPORT)

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
        yield page, guard
    finally:
        context.close()


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_documentation_pages_name_only_files_of_this_origin(docs_url: str, path: str) -> None:
    page = httpx.get(docs_url + path)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "http" not in policy
    sources = re.findall(r'(?:src|href)="([^"#]+)"', page.text)
    assert sources
    for src in sources:
        assert src.startswith("/static/"), src
        assert httpx.get(docs_url + src).status_code == 200, src


def test_the_vendored_viewers_carry_their_licences(docs_url: str) -> None:
    assert "Apache License" in httpx.get(f"{docs_url}/static/vendor/swagger-ui/LICENSE").text
    assert "MIT License" in httpx.get(f"{docs_url}/static/vendor/redoc/LICENSE").text


def test_swagger_ui_draws_the_operations_offline(docs_url: str,
                                                 guarded: tuple[Page, Guard]) -> None:
    page, guard = guarded
    page.goto(docs_url + "/docs")
    page.locator(".opblock-summary-path", has_text="/search").first.wait_for()
    assert page.locator(".opblock").count() >= 10
    assert guard.outside == [] and guard.errors == [], (guard.outside, guard.errors)


def test_redoc_draws_the_operations_offline(docs_url: str,
                                            guarded: tuple[Page, Guard]) -> None:
    page, guard = guarded
    page.goto(docs_url + "/redoc")
    page.get_by_role("heading", name=re.compile("kbx")).first.wait_for()
    page.locator("text=/search").first.wait_for()
    assert guard.outside == [] and guard.errors == [], (guard.outside, guard.errors)

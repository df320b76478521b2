"""The explorer page in a real browser, used as a reader would: type, pick, click, read.

Debian's chromium (headless) through Playwright, against `make demo`'s service on 127.0.0.1.
Assertions are on what the page shows: the side panel's text, the source viewer's highlighted
passage, and the graph as cytoscape drew it (node labels, edge types). The page fixture fails a
test whose page requested anything off 127.0.0.1 or logged a console error. Each view leaves a
screenshot in test-artifacts/explorer/.
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

import httpx
import pytest
from playwright.sync_api import Page, expect

if TYPE_CHECKING:
    from explorer_fixtures import Explorer

pytest_plugins = ["api_fixtures", "explorer_fixtures"]
pytestmark = [pytest.mark.falkordb, pytest.mark.browser]

SWORN_QUOTE = "結義智深為兄"


def visit(page: Page, explorer: Explorer, route: str) -> None:
    page.goto(f"{explorer.url}/{route}")
    settled(page)


def settled(page: Page) -> None:
    """Wait until the page has rendered the view its URL names."""
    page.wait_for_function("document.body.dataset.ready === '1' && "
                           "document.body.dataset.route === location.hash")


def labels(page: Page) -> list[str]:
    result: list[str] = page.evaluate(
        "window.kbx.graph() ? window.kbx.graph().nodes().map(n => n.data('label')) : []")
    return result


def click_graph(page: Page, element_id: str) -> None:
    """Click a node or edge where it is drawn on the canvas."""
    point: dict[str, float] = page.evaluate(
        """(id) => { const cy = window.kbx.graph(); const el = cy.getElementById(id);
           const p = el.isNode() ? el.renderedPosition() : el.renderedMidpoint();
           const box = cy.container().getBoundingClientRect();
           return {x: box.left + p.x, y: box.top + p.y}; }""", element_id)
    page.mouse.click(point["x"], point["y"])


def edge_between(page: Page, a: str, b: str, relation_type: str) -> str:
    edge_id: str = page.evaluate(
        """([a, b, t]) => window.kbx.graph().edges().filter(e => e.data('type') === t &&
             [e.data('source'), e.data('target')].sort().join() === [a, b].sort().join())[0].id()""",
        [a, b, relation_type])
    return edge_id


def shot(page: Page, screenshots: Path, name: str) -> None:
    page.screenshot(path=str(screenshots / f"{name}.png"))


def source_shows(page: Page, chunk_id: str, highlighted: str) -> None:
    viewer = page.locator("#source")
    expect(viewer).to_be_visible()
    expect(viewer).to_have_attribute("data-chunk", chunk_id)
    expect(viewer.locator(".source-id")).to_contain_text(chunk_id)
    expect(viewer.locator("mark").first).to_contain_text(highlighted)


def test_the_page_and_its_files_come_from_this_origin_only(explorer: Explorer) -> None:
    page = httpx.get(f"{explorer.url}/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    assert "http" not in policy
    for src in re.findall(r'(?:src|href)="([^"#]+)"', page.text):
        assert src.startswith("/static/") or src.startswith("data:"), src
        if src.startswith("/static/"):
            assert httpx.get(f"{explorer.url}{src}").status_code == 200, src
    licence = httpx.get(f"{explorer.url}/static/vendor/cytoscape/LICENSE")
    assert "The Cytoscape Consortium" in licence.text


# --- the person view --------------------------------------------------------------------------

def test_the_page_opens_on_the_books_most_connected_person(page: Page, explorer: Explorer,
                                                          screenshots: Path) -> None:
    hub = httpx.get(f"{explorer.url}/books/{explorer.settings.corpus_name}").json()["hubs"][0]
    assert hub["name"] == "宋江"  # the most relations of the curated bundle
    visit(page, explorer, "")
    assert unquote(page.evaluate("location.hash")) == f"#/person/{hub['name']}"
    assert page.evaluate("window.kbx.graph().$('node.center').data('label')") == hub["name"]
    expect(page.locator("#brand")).to_have_text("kbx · 水浒传")
    assert page.title().endswith("水浒传 · kbx")


def test_the_lin_chong_neighbourhood(page: Page, explorer: Explorer, screenshots: Path) -> None:
    visit(page, explorer, f"#/person/{quote('林冲')}")
    assert page.evaluate("window.kbx.graph().$('node.center').data('label')") == "林冲"
    assert {"鲁智深", "高俅"} <= set(labels(page))
    expect(page.locator("#panel h3").first).to_contain_text("林冲")
    expect(page.locator("#panel .person-events")).to_contain_text("第7回")
    expect(page.locator(".legend-item").first).to_be_visible()
    shot(page, screenshots, "person-lin-chong")


@pytest.mark.parametrize(("typed", "shown"), [("林沖", "林冲"), ("豹子头", "豹子头"),
                                              ("天雄星", "天雄星"), ("及時雨", "及时雨")])
def test_suggestions_as_you_type_in_either_script(page: Page, explorer: Explorer, typed: str,
                                                  shown: str) -> None:
    visit(page, explorer, "#/person/林冲")
    page.locator("#search").press_sequentially(typed, delay=20)
    first = page.locator("#search-box .suggestions li").first
    expect(first).to_be_visible()
    expect(first).to_contain_text(shown)
    person = "宋江" if typed == "及時雨" else "林冲"
    expect(first.locator("b")).to_have_text(person)
    first.click()
    settled(page)
    assert unquote(page.evaluate("location.hash")) == f"#/person/{person}"
    assert page.evaluate("window.kbx.graph().$('node.center').data('label')") == person


def test_legend_filters_types_and_the_slider_turns_back_the_chapters(page: Page,
                                                                     explorer: Explorer) -> None:
    visit(page, explorer, "#/person/林冲")
    types = page.evaluate("window.kbx.graph().edges().map(e => e.data('type'))")
    common = max(set(types), key=types.count)
    page.locator(f".legend-item input[data-type='{common}']").uncheck()
    after = page.evaluate("window.kbx.graph().edges().map(e => e.data('type'))")
    assert after and common not in after  # (the cap may let in someone else's relation)
    page.locator(f".legend-item input[data-type='{common}']").check()
    assert page.evaluate("window.kbx.graph().edges().length") == len(types)

    everyone = set(labels(page))
    slider = page.locator("#ch-to")
    slider.fill("12")  # the graph as of chapter 12
    expect(page.locator(".range-label")).to_have_text(re.compile(r"第\d+–12回"))
    early = set(labels(page))
    assert "鲁智深" in early and len(early) < len(everyone)
    firsts = page.evaluate("window.kbx.graph().edges().map(e => Math.min(...e.data('chapters')))")
    assert firsts and max(firsts) <= 12


def test_a_hub_is_capped_with_more_and_a_node_expands(page: Page, explorer: Explorer,
                                                      screenshots: Path) -> None:
    visit(page, explorer, "#/person/宋江")
    shown = len(labels(page))
    more = page.locator("#more")
    expect(more).to_be_visible()
    expect(page.locator(".cap-label")).to_contain_text("另有")
    shot(page, screenshots, "person-song-jiang")
    more.click()
    assert len(labels(page)) > shown

    visit(page, explorer, "#/person/林冲")
    before = set(labels(page))
    click_graph(page, "lu_zhishen")
    expect(page.locator("#panel h3").first).to_contain_text("鲁智深")
    page.locator("#expand").click()
    page.wait_for_function(f"window.kbx.graph().nodes().length > {len(before)}")
    after = set(labels(page))
    assert before < after
    anchors = page.evaluate("window.kbx.graph().$('node.anchor').map(n => n.data('label'))")
    assert set(anchors) == {"林冲", "鲁智深"}


def test_a_relation_clicked_in_the_graph_opens_its_record_and_quotes(page: Page,
                                                                     explorer: Explorer) -> None:
    visit(page, explorer, "#/person/林冲")
    click_graph(page, edge_between(page, "lin_chong", "lu_zhishen", "sworn_brothers"))
    panel = page.locator("#panel")
    expect(panel).to_have_attribute("data-mode", "record")
    expect(panel.locator(".record")).to_contain_text("结义兄弟")
    expect(panel.locator(".record")).to_contain_text(re.compile("第7[回–、]"))
    quote_button = panel.locator("button.quote", has_text=SWORN_QUOTE).first
    quote_button.click()
    source_shows(page, "ch007_chunk_004", SWORN_QUOTE)


# --- the source viewer ------------------------------------------------------------------------

def test_the_sworn_brothers_quote_opens_its_block_highlighted_with_prev_and_next(
        page: Page, explorer: Explorer, screenshots: Path) -> None:
    visit(page, explorer, f"#/pair/{quote('林冲')}/{quote('鲁智深')}")
    relation = page.locator(".pair-relation[data-type='sworn_brothers']")
    expect(relation).to_contain_text("始于第7回")
    relation.locator("button.quote", has_text=SWORN_QUOTE).first.click()
    source_shows(page, "ch007_chunk_004", SWORN_QUOTE)
    viewer = page.locator("#source")
    expect(viewer.locator(".source-title")).to_contain_text("第七回")
    expect(viewer.locator(".source-id")).to_contain_text("第7回")
    shot(page, screenshots, "source-viewer")
    viewer.locator("button.next").click()
    expect(viewer).to_have_attribute("data-chunk", "ch007_chunk_005")
    expect(viewer.locator(".source-quote")).to_contain_text("引文不在此段")
    viewer.locator("button.prev").click()
    expect(viewer).to_have_attribute("data-chunk", "ch007_chunk_004")
    expect(viewer.locator("mark")).to_contain_text(SWORN_QUOTE)
    viewer.locator("button.prev").click()
    expect(viewer).to_have_attribute("data-chunk", "ch007_chunk_003")
    page.keyboard.press("Escape")
    expect(viewer).to_be_hidden()


# --- pair, journey, path ----------------------------------------------------------------------

def test_pair_view_relations_where_each_began_and_shared_events_in_book_order(
        page: Page, explorer: Explorer, screenshots: Path) -> None:
    visit(page, explorer, "#/pair")
    page.locator("#name-a").fill("")
    page.locator("#name-a").press_sequentially("魯智深", delay=20)
    expect(page.locator("#name-a").locator("xpath=..").locator(".suggestions li").first
           ).to_contain_text("鲁智深")
    page.locator("#name-a").press("Enter")
    page.locator("#name-b").fill("")
    page.locator("#name-b").press_sequentially("豹子頭", delay=20)
    picked = page.locator("#name-b").locator("xpath=..").locator(".suggestions li").first
    expect(picked).to_contain_text("林冲")
    page.locator("#name-b").press("Enter")
    settled(page)
    assert unquote(page.evaluate("location.hash")).startswith("#/pair/鲁智深/林冲")
    relations = page.locator(".pair-relation")
    assert relations.count() >= 1
    for i in range(relations.count()):
        expect(relations.nth(i).locator(".began")).to_contain_text("始于第")
    chapters = [int(t.removeprefix("第").removesuffix("回")) for t in
                page.locator(".timeline-item .chapter").all_inner_texts()]
    assert chapters and chapters == sorted(chapters)
    assert set(labels(page)) >= {"林冲", "鲁智深"}
    shot(page, screenshots, "pair")


def test_journey_stages_in_book_order_each_opening_to_events_and_passages(
        page: Page, explorer: Explorer, screenshots: Path) -> None:
    visit(page, explorer, f"#/journey/{quote('林冲')}")
    stages = page.locator(".stage")
    assert stages.count() >= 3
    firsts = []
    for text in page.locator(".stage .stage-box > summary .chapters").all_inner_texts():
        firsts.append(int(text.removeprefix("第").split("、")[0].split("–")[0].removesuffix("回")))
    assert firsts == sorted(firsts)
    assert firsts[0] == 7
    first = stages.first
    expect(first.locator(".stage-body")).to_be_hidden()
    first.locator("summary").click()
    expect(first.locator(".stage-body .events li").first).to_be_visible()
    passage = first.locator(".stage-body button.quote").first
    chunk = passage.get_attribute("data-chunk")
    assert chunk and chunk.startswith("ch00")
    passage.click()
    viewer = page.locator("#source")
    expect(viewer).to_have_attribute("data-chunk", chunk)
    expect(viewer.locator("mark").first).to_be_visible()
    shot(page, screenshots, "journey")
    first.locator(".stage-body .events button.link").first.click()
    expect(page.locator("#panel")).to_have_attribute("data-mode", "record")
    expect(page.locator("#panel .kind-tag")).to_have_text("event")


def test_a_hub_journey_pages_in_every_event_of_a_stage(page: Page, explorer: Explorer) -> None:
    """The first paint carries key events only; "more" must bring the rest, in book order."""
    visit(page, explorer, f"#/journey/{quote('宋江')}")
    index = page.locator(".stage").filter(has=page.locator("button.more")).first.get_attribute(
        "data-index")
    stage = page.locator(f'.stage[data-index="{index}"]')
    stage.locator("summary").click()
    listed = stage.locator(".stage-body .events li")
    keys = listed.count()
    total = int(stage.locator("button.more").inner_text().split()[1])
    assert total > keys > 0
    while stage.locator("button.more").count():
        stage.locator("button.more").click()
        page.wait_for_function("() => !document.querySelector('button.more[disabled]')")
    assert listed.count() == total
    chapters = [int(t.removeprefix("第").removesuffix("回"))
                for t in stage.locator(".stage-body .events li .chapter").all_inner_texts()]
    assert chapters == sorted(chapters)


def test_path_view_gives_the_shortest_chain(page: Page, explorer: Explorer,
                                            screenshots: Path) -> None:
    visit(page, explorer, f"#/path/{quote('林冲')}/{quote('宋江')}")
    summary = page.locator(".path-summary")
    expect(summary).to_contain_text("林冲")
    expect(summary).to_contain_text("宋江")
    hops = page.locator(".hop")
    assert hops.count() >= 1
    expect(hops.first.locator("button.quote").first).to_be_visible()
    chain = labels(page)
    assert chain[0] == "林冲" and chain[-1] == "宋江"
    shot(page, screenshots, "path")
    page.locator("#name-b").fill("武松")
    page.locator("#go").click()
    settled(page)
    expect(page.locator(".path-summary")).to_contain_text("武松")


# --- ask --------------------------------------------------------------------------------------

def test_ask_shows_the_answer_citations_quote_checks_used_records_and_trace(
        page: Page, explorer: Explorer, screenshots: Path) -> None:
    visit(page, explorer, "#/ask")
    page.locator("#question").fill("鲁智深和林冲怎么认识？")
    with page.expect_response(lambda r: r.url.endswith("/ask")) as asked:
        page.locator("#question").press("Enter")
    response: dict[str, Any] = asked.value.json()
    settled(page)
    answer = page.locator("#answer")
    expect(answer).to_contain_text("林冲")
    citations = page.locator("ul.citations button.citation")
    assert citations.count() == len(response["citations"]) > 0
    checks = page.locator(".quote-checks li")
    assert checks.count() == len(response["quotes"])
    assert page.locator(".quote-checks li.located").count() == sum(
        q["located"] for q in response["quotes"])
    first = response["citations"][0]["chunk_id"]
    citations.first.click()
    viewer = page.locator("#source")
    expect(viewer).to_have_attribute("data-chunk", first)
    expect(viewer.locator("mark").first).to_be_visible()
    page.keyboard.press("Escape")

    used = set(page.evaluate("window.kbx.graph().$('node.used').map(n => n.data('label'))"))
    assert {"林冲", "鲁智深"} <= used
    trace = page.locator("#trace")
    expect(trace.locator("table").first).to_be_hidden()
    trace.locator("summary").click()
    expect(trace.locator("table").first).to_be_visible()
    expect(trace).to_contain_text("ngram")
    shot(page, screenshots, "ask")


# --- the URL, export, errors ------------------------------------------------------------------

def test_the_url_holds_the_view_and_history_works(page: Page, explorer: Explorer) -> None:
    visit(page, explorer, f"#/pair/{quote('林冲')}/{quote('鲁智深')}")
    expect(page.locator("#tabs a.active")).to_have_attribute("data-tab", "pair")
    page.locator("#tabs a[data-tab='journey']").click()
    settled(page)
    expect(page.locator(".stage").first).to_be_visible()
    page.go_back()
    settled(page)
    assert unquote(page.evaluate("location.hash")) == "#/pair/林冲/鲁智深"
    expect(page.locator(".pair-relation").first).to_be_visible()


def test_export_png_and_json(page: Page, explorer: Explorer, tmp_path: Path) -> None:
    visit(page, explorer, "#/person/林冲")
    with page.expect_download() as png:
        page.locator("#export-png").click()
    png_path = tmp_path / "graph.png"
    png.value.save_as(png_path)
    data = png_path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 200 and height > 200
    with page.expect_download() as exported:
        page.locator("#export-json").click()
    json_path = tmp_path / "view.json"
    exported.value.save_as(json_path)
    view = json.loads(json_path.read_text(encoding="utf-8"))
    assert view["view"] == "person" and view["center"]["name"] == "林冲"
    assert {n["label"] for n in view["nodes"]} == set(labels(page))
    visit(page, explorer, f"#/journey/{quote('林冲')}")
    expect(page.locator("#export-png")).to_be_disabled()


def test_an_unknown_name_shows_the_closest_names(page: Page, explorer: Explorer) -> None:
    visit(page, explorer, f"#/person/{quote('林冲冲')}")
    error = page.locator("#error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("林冲冲")
    error.locator("button.chip", has_text="林冲").first.click()
    settled(page)
    assert page.evaluate("window.kbx.graph().$('node.center').data('label')") == "林冲"


def test_first_paint_of_the_densest_neighbourhood_is_recorded(page: Page, explorer: Explorer,
                                                              screenshots: Path) -> None:
    """The figure is printed and written beside the screenshots; `scripts/bench_explorer.py`
    measures it repeatedly."""
    visit(page, explorer, f"#/person/{quote('宋江')}")
    page.wait_for_function("window.kbxTimings.firstGraphPaint !== undefined")
    timings: dict[str, float] = page.evaluate("window.kbxTimings")
    (screenshots / "timings.json").write_text(json.dumps(timings, indent=2), encoding="utf-8")
    print(f"\nfirst graph paint of 宋江: {timings['firstGraphPaint']:.0f} ms after navigation")
    assert timings["firstGraphPaint"] > 0


# --- books ------------------------------------------------------------------------------------

def test_the_selector_switches_books_and_the_url_holds_the_book(
        page: Page, explorer: Explorer, tmp_path: Path, screenshots: Path) -> None:
    from books_support import build, few_chapters

    build(explorer.settings.resolved_data_dir(), "sanguo-few", few_chapters(tmp_path / "t", 3),
          "--title", "三国演义", falkordb_url=explorer.settings.falkordb_url)
    visit(page, explorer, f"#/person/{quote('林冲')}")
    select = page.locator("#book")
    expect(select).to_be_visible()
    assert set(select.locator("option").evaluate_all("os => os.map(o => o.value)")) == {
        explorer.settings.corpus_name, "sanguo-few"}
    select.select_option("sanguo-few")
    page.wait_for_url("**/?book=sanguo-few#/person/*")
    settled(page)
    expect(page.locator("#brand")).to_have_text("kbx · 三国演义")
    hub = httpx.get(f"{explorer.url}/books/sanguo-few").json()["hubs"][0]["name"]
    assert page.evaluate("window.kbx.graph().$('node.center').data('label')") == hub
    page.locator("#search").press_sequentially("关羽", delay=20)
    page.locator("#search").press("Enter")
    settled(page)
    assert page.evaluate("window.kbx.graph().$('node.center').data('label')") == "关羽"
    shot(page, screenshots, "book-sanguo-few")
    page.reload()  # the URL alone says which book
    settled(page)
    assert page.evaluate("window.kbx.graph().$('node.center').data('label')") == "关羽"
    page.goto(f"{explorer.url}/?book=nope")
    expect(page.locator("#error")).to_contain_text("nope")

"""Building a book from its text: read → blocks and indexes → people → records → a checked bundle.

`build_book` does every step inside a fresh directory (`<data>/.<book>-…`, made by
`core.atomic.replace_directory`), so a failure at any step leaves the book's previous data as it
was and nothing half-written; the caller loads the checked bundle into the book's graph and only
then is the directory swapped in for `<data>/<book>/`, `book.json` with it (see `kbx build`).

A book with a curated bundle (the settings' own corpus and `KBX_BUNDLE`, 水浒传 by default) is
extracted with its curated lexicon and measured against it (the precision gate); any other book
has its people discovered from its text alone (`extract.discover`), its records extracted with
that roster (offline by default, or by an LLM per block with the names discovered in the
prompt), resolved, and admitted whole: there is nothing to measure it against. The curated
bundle is never read for another book.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from core.books import BookCounts, BookManifest, Source, now_iso, write_manifest
from core.errors import CorpusError
from core.llm import ChatClient
from core.settings import CURATED_CHUNK_SIZE, Settings
from extract.cache import ReplyCache
from extract.discover import DISCOVERED_DIR, Discovery, discover_lexicon, write_discovery
from extract.llm_extractor import LLMExtractor
from extract.offline import OfflineExtractor
from extract.pipeline import ChapterExtractor, Inputs, RunSummary, load_inputs, run
from ingest.chunking import Block, chunk_chapter
from ingest.corpus import Chapter, read_corpus
from kb.knowledge.bundle import KnowledgeBundle, load_bundle
from kb.knowledge.profile import CorpusProfile, read_profile, write_profile
from retrieval.corpus import Corpus, save_corpus
from retrieval.retriever import Retriever

Tick = Callable[[int, int], None]
LLM_CACHE = "extract_cache"
"""The LLM's replies, kept across builds of the book (a rebuild asks only for changed blocks)."""
MAX_TITLE = 30
TITLE_MARKS = "《》〈〉「」\"' \u3000"


class Steps(Protocol):
    """How a build shows its progress: a step begins (with its size when known), ticks, ends."""

    def begin(self, step: str, total: int | None = None) -> Tick: ...

    def end(self, step: str, note: str = "") -> None: ...


@dataclass(frozen=True)
class BuildRequest:
    book: str
    corpus: Path
    chunk_size: int
    title: str | None = None
    llm: bool = False
    curated: Path | None = None
    """the curated bundle, for the one book that has one"""
    concurrency: int = 4


@dataclass
class Built:
    """What a build made inside its directory, checked; the caller loads `bundle`."""

    directory: Path
    manifest: BookManifest
    bundle: KnowledgeBundle
    blocks: list[Block]
    summary: RunSummary | None = None
    discovery: Discovery | None = None
    seconds: dict[str, float] = field(default_factory=dict)


def corpus_title(path: Path) -> str | None:
    """The title the text gives itself: in one file, the line above the first chapter heading;
    for a chapter directory, the first heading of a SOURCE.md or README.md beside the chapters
    (or one level up) — its leading words, without 《》."""
    if path.is_file():
        lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()
        for line in lines:
            if re.match(r"^\s*第.{1,8}回", line):
                break
            if line.strip():
                return _clean_title(line)
        return None
    for directory in (path, path.parent):
        for name in ("SOURCE.md", "README.md"):
            notes = directory / name
            if notes.is_file():
                heading = next((ln for ln in notes.read_text(encoding="utf-8", errors="replace")
                                .splitlines() if ln.startswith("#")), None)
                if heading:
                    return _clean_title(re.split(r"[(（—:：-]", heading.lstrip("# "))[0])
    return None


def _clean_title(text: str) -> str | None:
    title = text.strip().strip(TITLE_MARKS).strip()
    return title if 0 < len(title) <= MAX_TITLE else None


def build_settings(root: Settings, directory: Path, request: BuildRequest) -> Settings:
    """Settings whose book directory is the build's own (`corpus_dir()` = `directory`)."""
    return root.model_copy(update={
        "data_dir": directory.parent, "corpus_name": directory.name, "corpus": request.corpus,
        "chunk_size": request.chunk_size,
        "bundle": request.curated if request.curated is not None else directory / "no-curated"})


def read_chapters(request: BuildRequest, steps: Steps) -> list[Chapter]:
    steps.begin("read the text")
    chapters = read_corpus(request.corpus)
    if not chapters:
        raise CorpusError(f"{request.corpus}: no chapters found")
    steps.end("read the text", f"{len(chapters)} chapters, "
                               f"{sum(len(c.text) for c in chapters):,} characters")
    return chapters


def ingest(chapters: list[Chapter], request: BuildRequest, directory: Path,
           steps: Steps) -> Corpus:
    """Blocks and both BM25 indexes, saved under `directory/blocks`."""
    tick = steps.begin("cut into blocks", len(chapters))
    blocks: list[Block] = []
    for number, chapter in enumerate(chapters, start=1):
        blocks.extend(chunk_chapter(chapter, request.chunk_size))
        tick(number, len(chapters))
    steps.end("cut into blocks", f"{len(blocks)} blocks")
    steps.begin("index")
    corpus = Corpus({c.number: c for c in chapters}, Retriever.build(blocks))
    save_corpus(corpus, directory / "blocks", {"corpus": str(request.corpus),
                                               "chunk_size": request.chunk_size,
                                               "chapters": [c.number for c in chapters],
                                               "blocks": len(blocks)})
    steps.end("index", "ngram + unigram BM25")
    return corpus


def discover(blocks: list[Block], directory: Path, steps: Steps) -> Discovery:
    from extract.text import ChapterTexts

    tick = steps.begin("discover people")
    discovery = discover_lexicon(ChapterTexts(blocks), tick)
    write_discovery(discovery, directory / DISCOVERED_DIR)
    aliases = sum(len(e.aliases) for e in discovery.entries)
    steps.end("discover people", f"{len(discovery.entries)} people, {aliases} aliases, "
                                 f"{len(discovery.ambiguous)} shared forms")
    return discovery


def extractor_for(request: BuildRequest, inputs: Inputs, title: str, llm_cache: Path,
                  client: ChatClient | None) -> ChapterExtractor:
    if not request.llm:
        return OfflineExtractor(inputs.roster, inputs.texts)
    if client is None:
        raise ValueError("an LLM build needs a chat client")
    return LLMExtractor(client, inputs.roster, inputs.texts, ReplyCache(llm_cache),
                        concurrency=request.concurrency, book=f"《{title}》")


def build_book(root: Settings, request: BuildRequest, directory: Path, steps: Steps, *,
               llm_cache: Path, client: ChatClient | None = None) -> Built:
    """Every step of the build, written into `directory` (empty, of the caller's making)."""
    started = time.perf_counter()
    chapters = read_chapters(request, steps)
    curated_title = read_profile(request.curated).title if request.curated is not None else ""
    title = request.title or curated_title or corpus_title(request.corpus) or request.book
    corpus = ingest(chapters, request, directory, steps)
    blocks = corpus.blocks
    cfg = build_settings(root, directory, request)
    titles = {c.number: c.title for c in chapters}  # the 回目: headline events and summaries
    discovery = None if request.curated is not None else discover(blocks, directory, steps)
    inputs = load_inputs(cfg, blocks, discovery, titles)
    method = "llm" if request.llm else "offline"
    tick = steps.begin(f"extract records ({method}, per {'block' if request.llm else 'chapter'})")
    extractor = extractor_for(request, inputs, title, llm_cache, client)
    summary = run(cfg, inputs, extractor, progress=tick, gated=request.curated is not None)
    steps.end(f"extract records ({method}, per {'block' if request.llm else 'chapter'})",
              ", ".join(f"{k} {v}" for k, v in summary.extracted.items()))
    bundle = check(cfg, request, title, blocks, steps)
    source: Source = "curated" if request.curated is not None else \
        "llm" if request.llm else "extracted"
    manifest = BookManifest(
        name=request.book, title=title, corpus=request.corpus.resolve(),
        chunk_size=request.chunk_size, built_at=now_iso(), source=source,
        curated_bundle=request.curated.resolve() if request.curated is not None else None,
        counts=counts_of(bundle), text_chapters=len(chapters),
        seconds=round(time.perf_counter() - started, 2),
        ambiguous=len(discovery.ambiguous) if discovery else 0,
        llm=_usage(client))
    write_manifest(manifest, directory)
    return Built(directory, manifest, bundle, blocks, summary, discovery)


def check(cfg: Settings, request: BuildRequest, title: str, blocks: list[Block],
          steps: Steps) -> KnowledgeBundle:
    """The bundle the book will serve, every quote placed in its block (a record whose quote is
    not there fails the build here, before anything is swapped in); a book without a curated
    profile gets one that gives its title."""
    steps.begin("resolve and check")
    where = cfg.merged_bundle_dir()
    if request.curated is None and read_profile(where) == CorpusProfile():
        write_profile(CorpusProfile(title=title), where)
    bundle = load_bundle(where, blocks, across_blocks=cfg.chunk_size != CURATED_CHUNK_SIZE)
    counts = counts_of(bundle)
    steps.end("resolve and check", f"{counts.people} people, {counts.relations} relations, "
                                   "every quote in its block")
    return bundle


def counts_of(bundle: KnowledgeBundle) -> BookCounts:
    return BookCounts(people=len(bundle.people),
                      aliases=sum(len(p.aliases) for p in bundle.people),
                      events=len(bundle.events), relations=len(bundle.relations),
                      states=len(bundle.states), chapters=len(bundle.chapters))


def _usage(client: ChatClient | None) -> dict[str, float]:
    if client is None:
        return {}
    usage = client.usage
    figures = {"calls": float(usage.calls), "prompt_tokens": float(usage.prompt_tokens),
               "completion_tokens": float(usage.completion_tokens)}
    if usage.cost is not None:
        figures["cost"] = round(usage.cost, 6)
    return figures

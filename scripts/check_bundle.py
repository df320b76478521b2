"""Load the whole curated bundle as the service does; print its counts, or every problem."""

from __future__ import annotations

import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.errors import BundleError  # noqa: E402
from core.settings import Settings  # noqa: E402
from ingest.chunking import chunk_corpus  # noqa: E402
from ingest.corpus import read_corpus  # noqa: E402
from kb.knowledge.bundle import load_bundle  # noqa: E402


def main() -> int:
    settings = Settings()
    blocks = chunk_corpus(read_corpus(settings.corpus), settings.chunk_size)
    started = time.perf_counter()
    try:
        bundle = load_bundle(settings.bundle, blocks)
    except BundleError as exc:
        print(exc)
        return 1
    print(bundle.counts(), f"{time.perf_counter() - started:.2f} s")
    print(collections.Counter(r.type for r in bundle.relations).most_common())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

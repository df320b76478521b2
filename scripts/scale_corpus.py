"""Write an N-times corpus (the chapters repeated with new numbers) for scale measurements.

Usage: python scripts/scale_corpus.py N OUT_DIR [--corpus DIR]
Then e.g. `KBX_CORPUS=OUT_DIR KBX_CORPUS_NAME=x16 /usr/bin/time -v kbx ingest` (docs/performance.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import DEFAULT_CORPUS  # noqa: E402
from ingest.corpus import read_corpus  # noqa: E402
from ingest.scale import scaled_chapters, write_chapters  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("times", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    chapters = scaled_chapters(read_corpus(args.corpus), args.times)
    write_chapters(chapters, args.out)
    print(f"{len(chapters)} chapters, {sum(len(c.text) for c in chapters):,} characters "
          f"in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

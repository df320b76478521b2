"""Draw a fresh second-read sample: a seeded random share of each record kind, never an id an
earlier sample already held (so each round measures records nobody has judged before).

    python3 scripts/draw_sample.py --seed 4 --kinds event relation --out kb/data/shuihu/review/sample4

writes <out>_<kind>.jsonl with {id, kind, shard, writer} per line (the first shard that holds the
id; the writer is the reader of that shard's chapter, as in the earlier samples).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

BUNDLE = Path(__file__).resolve().parent.parent / "kb" / "data" / "shuihu"
READERS = 8  # chapters were read in eight contiguous runs of 15


def writer_of(shard: str) -> str:
    return f"reader-{(int(shard[2:]) - 1) // (120 // READERS) + 1}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--share", type=float, default=0.10)
    parser.add_argument("--kinds", nargs="+", default=["event", "relation"])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    seen = {json.loads(line)["id"] for path in (BUNDLE / "review").glob("sample*.jsonl")
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}
    first_shard: dict[str, tuple[str, str]] = {}
    for path in sorted((BUNDLE / "shards").glob("ch*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            first_shard.setdefault(row["id"], (row["record"], path.stem))
    rng = random.Random(args.seed)
    for kind in args.kinds:
        ids = sorted(i for i, (k, _) in first_shard.items() if k == kind)
        size = round(len(ids) * args.share)
        fresh = [i for i in ids if i not in seen]
        chosen = sorted(rng.sample(fresh, min(size, len(fresh))))
        out = args.out.with_name(f"{args.out.name}_{kind}.jsonl")
        out.write_text("".join(json.dumps({"id": i, "kind": kind, "shard": first_shard[i][1],
                                           "writer": writer_of(first_shard[i][1])},
                                          ensure_ascii=False) + "\n" for i in chosen),
                       encoding="utf-8")
        print(f"{kind}: {len(chosen)} of {len(ids)} ({len(fresh)} never sampled) -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

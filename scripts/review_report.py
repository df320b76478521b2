"""Precision of the second read per record kind: ok / checked, from the verdict files."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

REVIEW = Path(__file__).resolve().parent.parent / "kb" / "data" / "shuihu" / "review"
ROUNDS = {"first sample (before fixes)": "second_read_part*.jsonl",
          "second sample (after the first round's fixes)": "second_read2_*.jsonl",
          "third sample (after the whole-bundle fixes)": "second_read3_*.jsonl",
          "fourth sample (after the whole-event participant audit)": "second_read4_*.jsonl",
          "fifth sample, relations (after the relations added for pairs who act together and the "
          "kill/capture audit)": "second_read5_*.jsonl",
          "sixth sample, the newest records only (a fifth of the 119 relations and a third of the "
          "18 joining states added since the fifth)": "second_read6_*.jsonl",
          "seventh sample, relations (after the late comradeships were moved to where they "
          "begin)": "second_read7_*.jsonl"}


def main() -> int:
    for title, pattern in ROUNDS.items():
        checked: Counter[str] = Counter()
        ok: Counter[str] = Counter()
        for path in sorted(REVIEW.glob(pattern)):
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    checked[row["kind"]] += 1
                    ok[row["kind"]] += row["verdict"] == "ok"
        print(f"{title}:")
        print("| kind | checked | ok | wrong | precision |")
        print("|---|---|---|---|---|")
        for kind in ("event", "relation", "state", "person", "chapter"):
            if checked[kind]:
                print(f"| {kind} | {checked[kind]} | {ok[kind]} | {checked[kind] - ok[kind]} | "
                      f"{ok[kind] / checked[kind]:.3f} |")
        total, good = sum(checked.values()), sum(ok.values())
        if total:
            print(f"| all | {total} | {good} | {total - good} | {good / total:.3f} |\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

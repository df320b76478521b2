#!/usr/bin/env bash
# Offline answers on the answers dev set: the share that state their expected strings, refusals,
# quotes located. Usage: scripts/eval_answers.sh [question file] [--json]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-$here/eval/questions/answers_dev.jsonl}"
shift || true
exec "${KBX:-$here/.venv/bin/kbx}" eval --answers --questions "$file" "$@"

#!/usr/bin/env bash
# `make test-llm`: serve SmolLM2-135M-Instruct with llama-cpp-python on loopback and run the
# real-model suite (tests_llm/) against it through OPENAI_BASE_URL. Opt-in: not part of
# `make test`. The first run builds llama-cpp-python (see scripts/llm_env.sh); the model
# server's log and what each test saw are kept in test-artifacts/llm/. One inference thread by
# default (LLM_THREADS): on a busy 2-core machine a second thread spends its time waiting.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
LLM_VENV=${LLM_VENV:-.venv-llm}
mkdir -p test-artifacts/llm
GGUF=$(bash scripts/llm_env.sh)
PORT=${LLM_PORT:-$("$VENV/bin/python" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")}
"$LLM_VENV/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias smollm2 \
  --host 127.0.0.1 --port "$PORT" --n_ctx 8192 --n_threads "${LLM_THREADS:-1}" \
  > test-artifacts/llm/server.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 240); do
  if "$VENV/bin/python" -c "import httpx, sys; httpx.get('http://127.0.0.1:$PORT/v1/models', timeout=2).raise_for_status()" 2>/dev/null; then
    break
  fi
  kill -0 "$server" 2>/dev/null || { tail -20 test-artifacts/llm/server.log; exit 1; }
  sleep 0.5
done
echo "model server: http://127.0.0.1:$PORT/v1 ($GGUF)"
KBX_TEST_LLM_URL="http://127.0.0.1:$PORT/v1" KBX_TEST_LLM_MODEL=smollm2 \
  "$VENV/bin/pytest" tests_llm -p no:cacheprovider -q -rA -s "$@"

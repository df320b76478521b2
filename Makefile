# The two commands of the README: `make demo` (the main job) and `make test` (the whole suite).
VENV ?= .venv
PY := $(VENV)/bin/python
KBX := $(VENV)/bin/kbx
PORT ?= 8000
# Every package `make install` puts in the venv (and those of the other extras, bench and model),
# at the version the suite was run with: resolved from PyPI by `make lock` (uv, for CPython 3.11
# on x86_64 Linux); pyproject.toml keeps the ranges (upper bounds at the next major release),
# this file the exact versions.
LOCK := constraints.txt
PIP_VERSION := 26.3
UV_VERSION := 0.13.8

.PHONY: install bytecode demo test test-fast lint stop test-llm lock

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml $(LOCK)
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet 'pip==$(PIP_VERSION)'
	$(PY) -m pip install --quiet -c $(LOCK) -e '.[dev]'
	touch $@

# Resolve constraints.txt again after a change of pyproject.toml's dependencies; the versions
# already pinned are kept where they still fit (`make lock UPGRADE=--upgrade` takes the newest).
lock:
	python3 -m venv $(VENV)-lock
	$(VENV)-lock/bin/python -m pip install --quiet 'uv==$(UV_VERSION)'
	$(VENV)-lock/bin/uv pip compile pyproject.toml --all-extras $(UPGRADE) --python-version 3.11 \
	  --python-platform x86_64-unknown-linux-gnu --annotation-style line \
	  --custom-compile-command 'make lock' --quiet -o $(LOCK)

# An editable install leaves the project's own modules without bytecode, and where
# PYTHONDONTWRITEBYTECODE is set (CI images often set it) Python compiles every one of them again
# at each start: about 0.3 s of CPU on every `kbx` command. Compile them as a regular install
# would; compileall skips what is up to date, so running it each time costs little.
PACKAGES := core ingest retrieval kb providers extract api cli benchmarks
bytecode: install
	$(PY) -m compileall -q -j 0 $(PACKAGES)

demo: install bytecode
	KBX=$(KBX) PORT=$(PORT) bash scripts/demo.sh

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: lint bytecode
	$(VENV)/bin/pytest

# Unit and contract tests only: no browser, no LLM stub, no whole-book fixture, no benchmark or
# fault drill (the markers are set in tests/conftest.py and pyproject.toml); under 90 s here.
test-fast: install bytecode
	$(VENV)/bin/ruff check .
	$(VENV)/bin/pytest -m "not slow and not browser and not llm"

# Opt-in: a real local model (SmolLM2-135M via llama-cpp-python) on the LLM paths; the first run
# builds llama-cpp-python (~30 min on 2 cores) and caches the wheel outside the repo.
test-llm: install
	VENV=$(VENV) bash scripts/test_llm.sh

stop:
	-kill $$(cat var/serve.pid) 2>/dev/null; rm -f var/serve.pid
	-$(PY) -c "from pathlib import Path; from providers.embedded import EmbeddedServer; [s.stop(force=True) for d in [Path('var/falkordb'), *Path('var/stores').glob('*')] if (s := EmbeddedServer(d)).running()]"

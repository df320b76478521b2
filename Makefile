# The two commands of the README: `make demo` (the main job) and `make test` (the whole suite).
VENV ?= .venv
PY := $(VENV)/bin/python
KBX := $(VENV)/bin/kbx
PORT ?= 8000

.PHONY: install bytecode demo test lint stop test-llm

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

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

# Opt-in: a real local model (SmolLM2-135M via llama-cpp-python) on the LLM paths; the first run
# builds llama-cpp-python (~30 min on 2 cores) and caches the wheel outside the repo.
test-llm: install
	VENV=$(VENV) bash scripts/test_llm.sh

stop:
	-kill $$(cat var/serve.pid) 2>/dev/null; rm -f var/serve.pid
	-$(PY) -c "from pathlib import Path; from providers.embedded import EmbeddedServer; [s.stop(force=True) for d in [Path('var/falkordb'), *Path('var/stores').glob('*')] if (s := EmbeddedServer(d)).running()]"

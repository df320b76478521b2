"""The opt-in real-model suite (`make test-llm`): a local model served by llama-cpp-python on
loopback, reached through OPENAI_BASE_URL like any OpenAI-compatible endpoint.

`scripts/test_llm.sh` starts the model server and sets KBX_TEST_LLM_URL; this suite is not
collected by `make test` (testpaths = tests). Only loopback endpoints are allowed.
"""

from __future__ import annotations

import os

import pytest
from llm_support import LocalModel

os.environ["KBX_BLOCK_REAL_LLM"] = "1"


@pytest.fixture(scope="session")
def local_model(tmp_path_factory: pytest.TempPathFactory) -> LocalModel:
    url = os.environ.get("KBX_TEST_LLM_URL")
    if not url:
        pytest.fail("KBX_TEST_LLM_URL is not set: run `make test-llm` (it serves the model)")
    model = LocalModel(url, os.environ.get("KBX_TEST_LLM_MODEL", "smollm2"),
                       tmp_path_factory.mktemp("llm-data"))
    model.kbx("ingest")
    return model

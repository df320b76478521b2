"""The local model a `kbx` command talks to in the real-model suite."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

KBX = str(Path(sys.executable).with_name("kbx"))


@dataclass(frozen=True)
class LocalModel:
    url: str
    model: str
    data_dir: Path

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a `kbx` command talking to the local model (small budgets, so
        that a prompt fits the model's context)."""
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("OPENAI_", "KBX_", "FALKORDB_"))}
        env.update({"OPENAI_BASE_URL": self.url, "OPENAI_API_KEY": "local-key",
                    "KBX_LLM_MODEL": self.model, "KBX_LLM_TIMEOUT": "300",
                    "KBX_LLM_RETRIES": "1", "KBX_LLM_MAX_TOKENS": "256",
                    "KBX_BUDGET": "1200", "KBX_MAX_BLOCKS": "3", "KBX_KNOWLEDGE_BUDGET": "600",
                    "KBX_DATA_DIR": str(self.data_dir), "KBX_PROVIDER": "memory",
                    "KBX_BLOCK_REAL_LLM": "1", "KBX_LOG_LEVEL": "INFO"})
        env.update(extra)
        return env

    def kbx(self, *args: str, timeout: float = 3600) -> subprocess.CompletedProcess[str]:
        result = subprocess.run([KBX, *args], env=self.env(), capture_output=True, text=True,
                                timeout=timeout)
        assert result.returncode == 0, f"kbx {' '.join(args)}: {result.stderr[-2000:]}"
        return result

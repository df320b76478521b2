"""The LLM reply cache: one file per (model, prompt version, block text), written atomically.

A re-run with the same model and prompt asks nothing again; an interrupted run resumes where it
stopped, because each block's reply is saved as soon as it is validated.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from core.atomic import write_text


def block_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_key(model: str, prompt_version: str, text: str) -> str:
    """sha256 of the model, the prompt version and the block's text hash."""
    material = json.dumps([model, prompt_version, block_hash(text)])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedReply:
    raw: str
    block_id: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ReplyCache:
    """Validated raw replies on disk under `directory/<key[:2]>/<key>.json`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> CachedReply | None:
        path = self._path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return CachedReply(data["raw"], data["block_id"], data.get("prompt_tokens", 0),
                               data.get("completion_tokens", 0))
        except (OSError, ValueError, KeyError):
            return None

    def put(self, key: str, reply: CachedReply) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        write_text(path, json.dumps(reply.__dict__, ensure_ascii=False), temporary)

    def __len__(self) -> int:
        return sum(1 for _ in self.directory.glob("*/*.json")) if self.directory.exists() else 0

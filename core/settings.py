"""Settings: one pydantic-settings class, read once at the entry point and passed down."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "shuihu" / "zh-hant"
DEFAULT_BUNDLE = REPO_ROOT / "kb" / "data" / "shuihu"
GATE_FILE = "gate.json"
"""Written by `kbx extract` inside the merged bundle: the precision gate and the fingerprint of
the curated bundle it was built from (`extract.gate`)."""
FINGERPRINT_KEY = "curated_fingerprint"


def bundle_fingerprint(directory: Path) -> str:
    """sha256 over the names and bytes of a bundle's record files (`*.json`, `*.jsonl`, top level
    and `shards/`): what its records are made of, so a stale merged bundle is recognized."""
    digest = hashlib.sha256()
    files = [*directory.glob("*.json"), *directory.glob("*.jsonl"),
             *(directory / "shards").glob("*.jsonl")] if directory.is_dir() else []
    for path in sorted(files):
        if path.is_file() and path.name != "manifest.json":  # derived from the others
            digest.update(str(path.relative_to(directory)).encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


CURATED_CHUNK_SIZE = 600
"""The block length the curated bundle is checked at: there every quote lies within one block.
At another length a quote may straddle two blocks; it is then cited to the block it begins in
(`ingest.locate.QuoteLocator`), and quote checks read on into the next block."""


class Settings(BaseSettings):
    """Every knob of the service; environment variables use the `KBX_` prefix unless noted."""

    model_config = SettingsConfigDict(env_prefix="KBX_", extra="ignore", populate_by_name=True)

    data_dir: Path = Field(default=Path("var"), description="where blocks, indexes and the store live")
    corpus: Path = Field(default=DEFAULT_CORPUS, description="chapter directory or one text file")
    corpus_name: str = Field(default="shuihu", description="names the graph and the data files")
    bundle: Path = Field(default=DEFAULT_BUNDLE, description="curated knowledge bundle directory")
    chunk_size: int = Field(default=CURATED_CHUNK_SIZE, ge=100, le=5000,
                            description="target block length")

    budget: int = Field(default=8000, ge=100, le=200_000, description="evidence token budget")
    max_blocks: int = Field(default=12, ge=1, le=200, description="evidence block limit")
    policy: str = Field(default="stop", pattern="^(stop|skip)$")
    rrf_k: int = Field(default=60, ge=1)
    knowledge_budget: int = Field(default=3000, ge=0, le=100_000)
    query_expansion: bool = True

    provider: str = Field(default="falkordb", pattern="^(falkordb|memory)$")
    falkordb_url: str | None = Field(default=None, validation_alias="FALKORDB_URL")
    falkordb_port: int = Field(default=0, ge=0, le=65535, description="0 picks a free port")
    falkordb_linger: float = Field(
        default=5.0, ge=0, le=3600,
        description="seconds the embedded server outlives the last command-line read that used "
                    "it, so that the next one finds it running")
    graph_timeout: float = Field(default=2.0, gt=0, le=60,
                                 description="seconds a graph read may take (socket and FalkorDB)")
    graph_connect_timeout: float = Field(default=1.0, gt=0, le=30)
    graph_write_timeout: float = Field(default=60.0, gt=0, le=3600,
                                       description="seconds one write query of a load may take")
    graph_threads: int = Field(default=8, ge=1, le=64,
                               description="threads of the pool that runs graph work in the API")
    graph_queue: int = Field(default=512, ge=1, le=100_000,
                             description="graph calls that may wait for a thread before 503")

    openai_api_key: SecretStr | None = Field(default=None, validation_alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(default=None, validation_alias="OPENAI_BASE_URL")
    llm_model: str = "gpt-4o-mini"
    llm_timeout: float = Field(default=30.0, gt=0)
    llm_retries: int = Field(default=2, ge=0, le=10)
    llm_max_tokens: int | None = Field(default=None, ge=1, le=100_000,
                                       description="cap on each reply's tokens; unset = the "
                                                   "endpoint's default (a small local model may "
                                                   "otherwise run on to its context limit)")

    api_key: SecretStr | None = Field(default=None, description="guards /admin routes")
    max_question_chars: int = Field(default=500, ge=10, le=10_000)
    max_body_bytes: int = Field(default=64 * 1024, ge=1024, le=64 * 1024 * 1024,
                                description="request bodies above this get 413, counted while read")
    session_ttl: int = Field(default=24 * 3600, ge=60, le=30 * 24 * 3600,
                             description="seconds a session of the API outlives its last answer "
                                         "(kept in the graph store, shared by every worker)")
    instance: str | None = Field(default=None, max_length=100, description=(
        "a name of this service that /health shows: whoever started it (make demo) recognizes "
        "its own service, not another process on the same port"))
    workers: int = Field(default=1, ge=0, le=32,
                         description="`kbx serve` worker processes; 0 = one per core")

    @property
    def llm_configured(self) -> bool:
        return bool(self.openai_base_url or self.openai_api_key)

    def resolved_data_dir(self) -> Path:
        return self.data_dir if self.data_dir.is_absolute() else Path.cwd() / self.data_dir

    def corpus_dir(self) -> Path:
        """Everything built from one corpus: `blocks/`, `extracted/`, `bundle/`, caches."""
        return self.resolved_data_dir() / self.corpus_name

    def merged_bundle_dir(self) -> Path:
        """The curated records plus the extracted record kinds that pass the precision gate,
        written by `kbx extract` with its `gate.json`."""
        return self.corpus_dir() / "bundle"

    def active_bundle_dir(self) -> Path:
        """What `kbx kb load` and the service load: the merged bundle when `kbx extract` built it
        from the curated bundle as it is now (its gate.json carries the curated bundle's
        fingerprint), else the curated bundle (`KBX_BUNDLE`). A merged bundle left from an older
        curated bundle, or from before the gate, is never loaded in place of the curated one."""
        merged = self.merged_bundle_dir()
        try:
            gate = json.loads((merged / GATE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return self.bundle
        current = isinstance(gate, dict) and gate.get(FINGERPRINT_KEY) == bundle_fingerprint(self.bundle)
        return merged if current and (merged / "people.jsonl").exists() else self.bundle

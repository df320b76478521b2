"""Settings: one pydantic-settings class, read once at the entry point and passed down."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "shuihu" / "zh-hant"
DEFAULT_BUNDLE = REPO_ROOT / "kb" / "data" / "shuihu"


class Settings(BaseSettings):
    """Every knob of the service; environment variables use the `KBX_` prefix unless noted."""

    model_config = SettingsConfigDict(env_prefix="KBX_", extra="ignore", populate_by_name=True)

    data_dir: Path = Field(default=Path("var"), description="where blocks, indexes and the store live")
    corpus: Path = Field(default=DEFAULT_CORPUS, description="chapter directory or one text file")
    corpus_name: str = Field(default="shuihu", description="names the graph and the data files")
    bundle: Path = Field(default=DEFAULT_BUNDLE, description="curated knowledge bundle directory")
    chunk_size: int = Field(default=600, ge=100, le=5000, description="target block length")

    budget: int = Field(default=8000, ge=100, le=200_000, description="evidence token budget")
    max_blocks: int = Field(default=12, ge=1, le=200, description="evidence block limit")
    policy: str = Field(default="stop", pattern="^(stop|skip)$")
    rrf_k: int = Field(default=60, ge=1)
    knowledge_budget: int = Field(default=3000, ge=0, le=100_000)
    query_expansion: bool = True

    provider: str = Field(default="falkordb", pattern="^(falkordb|memory)$")
    falkordb_url: str | None = Field(default=None, validation_alias="FALKORDB_URL")
    falkordb_port: int = Field(default=0, ge=0, le=65535, description="0 picks a free port")

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
    max_question_chars: int = Field(default=500, ge=10)

    @property
    def llm_configured(self) -> bool:
        return bool(self.openai_base_url or self.openai_api_key)

    def resolved_data_dir(self) -> Path:
        return self.data_dir if self.data_dir.is_absolute() else Path.cwd() / self.data_dir

    def corpus_dir(self) -> Path:
        """Everything built from one corpus: `blocks/`, `extracted/`, `bundle/`, caches."""
        return self.resolved_data_dir() / self.corpus_name

    def merged_bundle_dir(self) -> Path:
        """Curated + extracted records, written by `kbx extract`."""
        return self.corpus_dir() / "bundle"

    def active_bundle_dir(self) -> Path:
        """What the service loads: the merged bundle once `kbx extract` has run, else the curated
        one (`KBX_BUNDLE`)."""
        merged = self.merged_bundle_dir()
        return merged if (merged / "people.jsonl").exists() else self.bundle

"""The one error hierarchy; outside exceptions are translated at their boundary with `raise … from`."""

from __future__ import annotations


class KBError(Exception):
    """Base of every error this project raises on purpose; the CLI and API map it to a message."""


class ConfigError(KBError):
    """A setting, path or input file is wrong; the message names it."""


class EncodingError(ConfigError):
    """A user's text file is not UTF-8; the message names the file, byte, line and column."""


class CorpusError(ConfigError):
    """The corpus cannot be read: missing path, empty directory, bad bytes, no chapter."""


class BundleError(KBError):
    """A knowledge bundle is invalid; the message names the file, the line and the record id."""


class QuestionFileError(ConfigError):
    """An evaluation question file is invalid; the message names the line and the quote."""


class NotFound(KBError):
    """An id or name is unknown; `suggestions` holds the closest known names, and for a name
    several people bear, `candidates` their ids."""

    def __init__(self, message: str, suggestions: list[str] | None = None,
                 candidates: list[str] | None = None) -> None:
        super().__init__(message)
        self.suggestions = suggestions or []
        self.candidates = candidates or []


class QueryRejected(KBError):
    """A request is well-formed but not acceptable (too long, budget out of range …)."""


class ProviderUnavailable(KBError):
    """The graph store cannot be reached or started."""


class ExtractionError(KBError):
    """An LLM reply could not be turned into records; `raw` keeps the text for diagnosis."""

    def __init__(self, message: str, raw: str = "") -> None:
        super().__init__(message)
        self.raw = raw


class LLMError(KBError):
    """The chat endpoint failed after retries (timeout, rate limit, bad reply)."""

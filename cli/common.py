"""What every command shares: settings, the console, structured logs, errors as exit code 2.

Nothing heavy is imported here or in any module `cli.main` imports at start: `kbx --help` and
the light commands must not pay for numpy, pydantic, rich, FastAPI or the OpenAI client; each
command imports what it uses (a test holds `import cli.main` to that).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import logging
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar, cast

import typer
from typer.core import TyperGroup

from core.errors import KBError, NotFound

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console

    from core.settings import Settings
    from retrieval.corpus import Corpus


class _LazyConsole:
    """A rich `Console` made on first use (rich costs a tenth of a second to import)."""

    def __init__(self, stderr: bool = False) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def real(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr)
            # in a pipe (or a file) a long line is one line, not cut at rich's assumed 80 columns
            self._console.soft_wrap = not self._console.is_terminal
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)


_stdout = _LazyConsole()
console = cast("Console", _stdout)
err_console = cast("Console", _LazyConsole(stderr=True))


def rich_console() -> Console:
    """The stdout console itself, for rich objects that hold it (progress bars)."""
    return _stdout.real()
P = ParamSpec("P")
R = TypeVar("R")


class JsonLogFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message and any `extra` fields."""

    _skip = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": round(record.created, 3), "level": record.levelname.lower(),
            "logger": record.name, "msg": record.getMessage(),
        }
        data.update({k: v for k, v in vars(record).items() if k not in self._skip})
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


class _CurrentStderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever `sys.stderr` is at each record, not the one at set-up: a command run
    in-process (the tests, a notebook) swaps and closes its stderr, and a later record from a
    thread still running must not hit the closed stream."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def configure_logging(level: str = "WARNING") -> None:
    handler = _CurrentStderr()
    handler.setFormatter(JsonLogFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for a short command (a block, or a decorator).

    Opening the store, the corpus and the bundle imports hundreds of modules and makes tens of
    thousands of objects (the records, their sources, the indexes) that all live until the
    command exits. The collector runs every few hundred new objects and, as the heap grows,
    walks all of them again, none of them garbage: about a tenth of a second of `kbx ask`
    (docs/performance.md, "Start-up, round 4"). It stays off to the command's end, and what
    was made meanwhile then goes to the oldest generation: turned back on with all of it still
    young, the collector's next run would walk it all once more (~20 ms). Reference counting
    still frees everything not in a cycle meanwhile. Only the commands that open, answer and
    exit use it; the long ones (`serve`, `ingest`, `eval`, the benchmarks) run as before."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:  # (nothing else keeps objects frozen)
                gc.freeze()  # what the command made goes to the oldest generation (frozen,
                gc.unfreeze()  # then unfrozen): the next young collection skips it
            gc.enable()


def settings(**overrides: Any) -> Settings:
    """Settings from the environment, with the command line's options on top."""
    from core.settings import Settings

    return Settings(**{k: v for k, v in overrides.items() if v is not None})


BookOpt = Annotated[str | None, typer.Option(
    "--book", help="the book to read (default KBX_BOOK, else shuihu; `kbx books` lists them)")]


def book_settings(book: str | None = None, **overrides: Any) -> Settings:
    """The settings of one book (`core.books.for_book`): its corpus, bundle and store; an
    unknown book is an error naming the built ones (exit 2)."""
    from core.books import for_book

    return for_book(settings(**overrides), book)


def fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Domain errors and I/O errors become a one-line message and exit code 2, never a
    traceback."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except NotFound as exc:
            hint = f" (closest: {', '.join(exc.suggestions)})" if exc.suggestions else ""
            raise fail(f"{exc}{hint}") from None
        except KBError as exc:
            raise fail(str(exc)) from None
        except ValueError as exc:  # pydantic's ValidationError is one: name its field
            raise fail(_value_error(exc)) from None
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise fail(os_error_line(exc)) from None

    return wrapper


def os_error_line(exc: OSError) -> str:
    """A disk full, a permission or a read-only file system, in one line naming the path (the
    data directory when the error names none)."""
    from core.oserrors import describe

    try:
        fallback: Path | None = settings().resolved_data_dir()
    except Exception:  # noqa: BLE001 - the settings themselves may be what cannot be read
        fallback = None
    return describe(exc, fallback)


class OneLineErrors(TyperGroup):
    """The `kbx` group: an I/O error or a domain error that escapes a command (whichever it is,
    decorated with `handle_errors` or not) is one line and exit code 2 all the same."""

    def invoke(self, ctx: Any) -> Any:  # click's Context (typer vendors click since 0.17)
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise fail(os_error_line(exc)) from None
        except KBError as exc:
            raise fail(str(exc)) from None


def _value_error(exc: ValueError) -> str:
    pydantic = sys.modules.get("pydantic")  # a ValidationError means pydantic is loaded
    if pydantic is not None and isinstance(exc, pydantic.ValidationError):
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "input"
        return f"{field}: {err['msg']}"
    return str(exc)


def print_json(data: BaseModel | dict[str, Any] | list[Any]) -> None:
    """A pydantic model, or plain data (which may hold models), as indented JSON on stdout."""
    from pydantic import BaseModel

    if isinstance(data, BaseModel):
        text = data.model_dump_json(indent=2)
    else:
        text = json.dumps(data, ensure_ascii=False, indent=2, default=_default)
    sys.stdout.write(text + "\n")


def _default(value: object) -> object:
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serializable: {type(value).__name__}")


def load_corpus_for(cfg: Settings) -> Corpus:
    from retrieval.corpus import open_corpus

    started = time.perf_counter()
    corpus = open_corpus(cfg.resolved_data_dir(), cfg.corpus_name, cfg.corpus, cfg.chunk_size)
    logging.getLogger("kbx.corpus").info(
        "corpus ready", extra={"blocks": len(corpus.blocks),
                               "ms": round((time.perf_counter() - started) * 1000, 1)})
    return corpus


def chapters_option(spec: str | None, available: Iterable[int]) -> set[int] | None:
    """`--chapters`, checked as the API checks `chapters` (`core.validation.parse_chapters`):
    every chapter named must be in the corpus, else an error naming its range; None = all."""
    from core.validation import parse_chapters

    return None if spec is None else parse_chapters(spec, available, "--chapters")

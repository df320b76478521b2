"""The extractor's tables about one novel (places, scene forms, alias chapter ranges, its own cues).

They live beside the corpus's bundle, in `extraction.json`, so the extractor's code names no
character or place; a novel without that file is extracted with empty tables. They are read once
(`read_tables`) and travel with the roster (`Roster.tables`). The cues a book adds to the genre's
(`relation_cues`, `state_cues`, `actions`, `cue_actions`: words of this book alone, such as
joining its band) have the genre's types (`kb.knowledge.genre`) and are checked the same way."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from core.errors import ConfigError
from core.utf8 import read_utf8
from kb.knowledge.genre import BookCues, validated

TABLES_FILE = "extraction.json"


@dataclass(frozen=True)
class ContextForm:
    """A generic form (娘子) that denotes `person` in chapters `first`–`last` when one of the
    `anchors` is named shortly before it."""

    person: str
    form: str
    anchors: tuple[str, ...]
    first: int
    last: int


@dataclass(frozen=True)
class SceneForms:
    """Inside chapters `first`–`last` the text calls `person` by these forms far more often than
    by name (scene coreference)."""

    person: str
    first: int
    last: int
    forms: tuple[str, ...]


@dataclass(frozen=True)
class CorpusTables:
    places: tuple[str, ...] = ()
    """Places recognized in event titles and place states (simplified), longest matched first."""
    name_context_exclude: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A name form is not a mention when preceded by one of these."""
    name_context_exclude_after: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A name form is not a mention when followed by one of these."""
    alias_chapters: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Short aliases that denote their person only in these chapters."""
    context_forms: tuple[ContextForm, ...] = ()
    scene_forms: tuple[SceneForms, ...] = ()
    name_forms_skipped: frozenset[str] = frozenset()
    """Forms never matched: titles and address terms that denote whoever holds them."""
    cues: BookCues = field(default_factory=BookCues)
    """The cues of this book alone, added to the genre's (`extract.cues.Cues.of`)."""

    @cached_property
    def place_pattern(self) -> re.Pattern[str]:
        """The places, longest first; a pattern that never matches when there are none."""
        places = sorted(self.places, key=len, reverse=True)
        return re.compile("|".join(map(re.escape, places)) if places else r"(?!x)x")


def read_tables(directory: Path) -> CorpusTables:
    path = directory / TABLES_FILE
    if not path.exists():
        return CorpusTables()
    try:
        data = json.loads(read_utf8(path))
        return CorpusTables(
            places=tuple(data.get("places", ())),
            name_context_exclude={k: tuple(v) for k, v in
                                  data.get("name_context_exclude", {}).items()},
            name_context_exclude_after={k: tuple(v) for k, v in
                                        data.get("name_context_exclude_after", {}).items()},
            alias_chapters={k: (int(v[0]), int(v[1])) for k, v in
                            data.get("alias_chapters", {}).items()},
            context_forms=tuple(ContextForm(f["person"], f["form"], tuple(f["anchors"]),
                                            int(f["first"]), int(f["last"]))
                                for f in data.get("context_forms", ())),
            scene_forms=tuple(SceneForms(f["person"], int(f["first"]), int(f["last"]),
                                         tuple(f["forms"])) for f in data.get("scene_forms", ())),
            name_forms_skipped=frozenset(data.get("name_forms_skipped", ())),
            cues=validated(BookCues, data, path),
        )
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise ConfigError(f"{path}: invalid extractor tables ({exc})") from exc


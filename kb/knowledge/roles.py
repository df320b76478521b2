"""The role vocabulary of event participants: a closed list, so that one act is named one way.

`roles.json` beside a bundle maps each role to the words it replaces (救人者: 救援者, 营救者 …);
a bundle with the file may use only its roles (the shard loader rejects any other), and
`canonical` turns a replaced word into its role. Without the file any role is accepted."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import BundleError
from core.utf8 import read_utf8

ROLES_FILE = "roles.json"


@dataclass(frozen=True)
class RoleVocabulary:
    roles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """role → the words it replaces"""

    @property
    def closed(self) -> bool:
        return bool(self.roles)

    def knows(self, role: str) -> bool:
        return not self.closed or role in self.roles

    def canonical(self, word: str) -> str | None:
        """The role a word is (itself) or stands for; None when the vocabulary has neither."""
        if word in self.roles:
            return word
        return next((role for role, words in self.roles.items() if word in words), None)


def read_roles(directory: Path) -> RoleVocabulary:
    path = directory / ROLES_FILE
    if not path.exists():
        return RoleVocabulary()
    try:
        data = json.loads(read_utf8(path))
        return RoleVocabulary({str(k): tuple(map(str, v)) for k, v in data["roles"].items()})
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BundleError(f"{path}: invalid role vocabulary ({exc})") from exc

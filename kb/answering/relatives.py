"""The one relative a kinship word leads to (甲的老婆, 甲的师父, 甲的管家): the people linked to a
person by a relation of the word's type, narrowed by the characters their names hold."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from core.errors import NotFound
from kb.knowledge.views import Neighbor

WHICH_ONE: dict[str, Callable[[Iterable[int]], int]] = {"spouse": max, "master_disciple": min}
"""Among several relatives of one type, the one asked for: the latest spouse (嫁给了谁: a
betrothal, then the marriage), the first master (the teacher who made him)."""


class Relatives:
    """Reads the store's neighbours of a person (kept by the caller's cache)."""

    def __init__(self, neighbors: Callable[[str], list[Neighbor]]) -> None:
        self._neighbors = neighbors

    def one(self, person_id: str, relation_type: str, hint: str = "", exclude: str = ""
            ) -> str | None:
        """The one person linked to `person_id` by a relation of this type (`>`: the relative is
        its source, `<`: its target) whose name holds no excluded character (弟弟: not a sworn
        sister 某三娘; 母亲: not 某太公); among several, the one whose name holds a hint character
        (某某之母 for 老娘), if exactly one does; among several spouses or masters, the one
        `WHICH_ONE` says."""
        try:
            neighbors = self._neighbors(person_id)
        except NotFound:
            return None
        side = relation_type[-1:] if relation_type.endswith(("<", ">")) else ""
        relation_type = relation_type.rstrip("<>")
        linked = [n for n in neighbors if any(
            r.type == relation_type
            and (not side or (r.source if side == ">" else r.target) == n.person.id)
            for r in n.relations)]
        if exclude:  # a father is never the answer to 母亲, a sworn sister never to 弟弟
            linked = [n for n in linked if not any(ch in n.person.name for ch in exclude)]
        if len(linked) > 1 and hint:
            linked = [n for n in linked
                      if any(ch in name for name in [n.person.name, *n.person.aliases] for ch in hint)]
        if len(linked) > 1 and relation_type in WHICH_ONE:  # betrothed to one, married another
            begun = [(min((s.chapter or 0) for r in n.relations if r.type == relation_type
                          for s in r.sources[:1]), n) for n in linked]
            chosen = WHICH_ONE[relation_type](c for c, _ in begun)
            linked = [n for c, n in begun if c == chosen]
        return linked[0].person.id if len(linked) == 1 else None

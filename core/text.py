"""Script and punctuation folding for matching: text is compared after this, shown as written.

Traditional→simplified conversion uses OpenCC `t2s`, which maps this corpus character for character
(checked on all 121 chapters), so a normalized position always maps back to one original position.
A few variants that `t2s` leaves alone are folded by `VARIANTS`. Punctuation, whitespace and
symbols are dropped; full-width letters and digits are folded to ASCII by NFKC.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING

import opencc

if TYPE_CHECKING:  # numpy is imported where it is used: the CLI's start must not pay for it
    import numpy as np
    from numpy.typing import NDArray

VARIANTS: dict[str, str] = {
    "著": "着",  # t2s keeps 著; in this novel it is almost always the particle 着
    "鎗": "枪",
    "箇": "个",
    "麽": "么",
    "纔": "才",
    "裏": "里",
    "喫": "吃",
    "雠": "仇",  # 報讎 → 报雠 by t2s; readers write 报仇
    "讐": "仇",
}
"""Variants OpenCC `t2s` keeps, folded so that a simplified query matches the traditional text."""


@lru_cache(maxsize=1)
def _converter() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


SHORT_TEXT = 200
"""Texts up to this length (names, words, questions, sentences) are converted once and kept
(`SHORT_CACHE` of them): answering one question converts the same names and sentences dozens of
times. Longer texts (blocks, chapters) are converted each time."""
SHORT_CACHE = 16384


def to_simplified(text: str) -> str:
    """OpenCC t2s plus the variant folds; same length as the input."""
    if len(text) <= SHORT_TEXT:
        return _simplified_short(text)
    return _simplified(text)


@lru_cache(maxsize=SHORT_CACHE)
def _simplified_short(text: str) -> str:
    return _simplified(text)


def _simplified(text: str) -> str:
    converted: str = _converter().convert(text)
    if len(converted) != len(text):  # keep offsets aligned if a phrase rule ever changes length
        converted = "".join(_converter().convert(ch) or ch for ch in text)
    for variant, folded in _VARIANT_ITEMS:  # a scan per variant beats translate's per-char
        if variant in converted:               # table lookups on long texts
            converted = converted.replace(variant, folded)
    return converted


_VARIANT_ITEMS = tuple(VARIANTS.items())


CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0xF900, 0xFAFF), (0x20000, 0x3134F))
"""CJK unified ideographs, extension A (the corpus uses a few, e.g. 㨄), the compatibility
ideographs and the supplementary planes' extensions B–H: OpenCC writes some simplified forms
there (綝 → 𬘭), so a name of the simplified text may hold one."""
CJK_CLASS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in CJK_RANGES)
"""The ranges as the body of a regular expression's character class: `f"[{CJK_CLASS}]"`."""


def is_cjk(ch: str) -> bool:
    """A character of the search index's runs: the basic plane's ideographs only (the index packs
    16 bits a character, `retrieval.bm25.term_code`), so a supplementary character (𬘭) breaks a
    run there, as punctuation does; the extraction's patterns use `CJK_CLASS`, which holds it."""
    code = ord(ch)
    return 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF


def _fold_char(ch: str) -> str:
    """One original character → its matching form, or '' when it carries no meaning for search."""
    if is_cjk(ch):
        return ch
    folded = unicodedata.normalize("NFKC", ch)
    if len(folded) == 1 and folded.isalnum():
        return folded.lower()
    return ""


_FOLDS: dict[str, str] = {}
"""`_fold_char` of every non-CJK character met so far (a few hundred in a novel)."""


def _fold_cached(ch: str) -> str:
    folded = _FOLDS.get(ch)
    if folded is None:
        folded = _FOLDS[ch] = _fold_char(ch)
    return folded


VECTOR_MIN = 200
"""From this length on, texts are folded with numpy (one pass over code points) instead of a
character loop; both give the same result (a property test holds them together)."""


def _fold_loop(simplified: str) -> tuple[str, list[int]]:
    chars: list[str] = []
    offsets: list[int] = []
    for index, ch in enumerate(simplified):
        folded = ch if "\u4e00" <= ch <= "\u9fff" else _fold_cached(ch)
        if folded:
            chars.append(folded)
            offsets.append(index)
    return "".join(chars), offsets


def _fold_numpy(simplified: str) -> tuple[str, NDArray[np.int64]]:
    """The character loop as array operations: CJK code points are kept, every distinct other
    code point is folded once (to one character or dropped)."""
    import numpy as np

    points = np.frombuffer(simplified.encode("utf-32-le"), dtype=np.uint32)
    keep = ((points >= 0x4E00) & (points <= 0x9FFF)) | ((points >= 0x3400) & (points <= 0x4DBF)) \
        | ((points >= 0xF900) & (points <= 0xFAFF))
    other = np.flatnonzero(~keep)
    out = points
    if len(other):
        distinct, inverse = np.unique(points[other], return_inverse=True)
        table = np.fromiter((ord(f) if (f := _fold_cached(chr(c))) else 0 for c in distinct.tolist()),
                            dtype=np.uint32, count=len(distinct))
        values = table[inverse]
        out = points.copy()
        out[other] = values
        keep[other] = values != 0  # no character folds to NUL (it is not alphanumeric)
    offsets = np.flatnonzero(keep)
    return out[offsets].tobytes().decode("utf-32-le"), offsets


def fold_with_offsets(text: str) -> tuple[str, NDArray[np.int64]]:
    """`normalize_with_offsets` with the offsets as an array (for whole chapters, at ingest)."""
    return _fold_numpy(to_simplified(text))


def normalize_with_offsets(text: str) -> tuple[str, list[int]]:
    """The normalized text and, for each of its characters, the index of the original character."""
    simplified = to_simplified(text)
    if len(simplified) >= VECTOR_MIN:
        try:
            folded, offsets = _fold_numpy(simplified)
        except UnicodeEncodeError:  # a lone surrogate: only the loop can carry it through
            return _fold_loop(simplified)
        return folded, offsets.tolist()
    return _fold_loop(simplified)


def normalize(text: str) -> str:
    """The form used for indexing and matching: simplified, no punctuation or whitespace."""
    if len(text) <= SHORT_TEXT:
        return _normalize_short(text)
    return normalize_with_offsets(text)[0]


@lru_cache(maxsize=SHORT_CACHE)
def _normalize_short(text: str) -> str:
    return normalize_with_offsets(text)[0]


def cjk_runs(text: str) -> list[str]:
    """Maximal runs of CJK characters of an already simplified text (punctuation splits runs)."""
    runs: list[str] = []
    current: list[str] = []
    for ch in text:
        if is_cjk(ch):
            current.append(ch)
        elif current:
            runs.append("".join(current))
            current = []
    if current:
        runs.append("".join(current))
    return runs

"""Numerals as the book and its readers write them (一百单八, 二十三, 23): one reading for every
step that needs a number's value (a whole count, a chapter named by number)."""

from __future__ import annotations

from kb.knowledge.language import language

TEN_THOUSAND = 10000


def numeral_value(text: str) -> int | None:
    """The value of a written numeral (一百单八 → 108, 十五 → 15, 四十 → 40); None when the text
    holds no plain numeral (数, 半)."""
    lang = language()
    digits, powers, joiners = lang.numerals.digits, lang.numerals.powers, lang.chars.numeral_joiners
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in digits:
            digit = digits[ch]
        elif ch in powers:
            power = powers[ch]
            if power == TEN_THOUSAND:
                total += (section + (digit or 0)) * power
                section = 0
            else:
                section += (1 if digit is None else digit) * power
            digit = None
        elif ch in joiners:
            continue
        else:
            break
    value = total + section + (digit or 0)
    return value or None


def chapter_number(text: str) -> int | None:
    """The value of a chapter's number as written after 第 (23, 二十三, 一百二十)."""
    return int(text) if text.isdigit() else numeral_value(text)


def numeral_of(value: int) -> str:
    """A number as the book writes it (3 → 三, 12 → 十二, 20 → 二十), for counts under 100."""
    digits = {v: d for d, v in reversed(language().numerals.digits.items()) if v < 10}
    ten = next(d for d, v in language().numerals.powers.items() if v == 10)
    if value < 10:
        return digits.get(value, str(value))
    if value < 100:
        tens, units = divmod(value, 10)
        return (digits[tens] if tens > 1 else "") + ten + (digits[units] if units else "")
    return str(value)

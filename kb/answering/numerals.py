"""Numerals as the book and its readers write them (一百单八, 二十三, 23): one reading for every
step that needs a number's value (a whole count, a chapter named by number)."""

from __future__ import annotations

DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
          "廿": 20}
POWERS = {"十": 10, "百": 100, "千": 1000, "万": 10000}


def numeral_value(text: str) -> int | None:
    """The value of a written numeral (一百单八 → 108, 十五 → 15, 四十 → 40); None when the text
    holds no plain numeral (数, 半)."""
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in DIGITS:
            digit = DIGITS[ch]
        elif ch in POWERS:
            power = POWERS[ch]
            if power == 10000:
                total += (section + (digit or 0)) * power
                section = 0
            else:
                section += (1 if digit is None else digit) * power
            digit = None
        elif ch in "单零":
            continue
        else:
            break
    value = total + section + (digit or 0)
    return value or None


def chapter_number(text: str) -> int | None:
    """The value of a chapter's number as written after 第 (23, 二十三, 一百二十)."""
    return int(text) if text.isdigit() else numeral_value(text)

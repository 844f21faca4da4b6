"""The host's phrases in English (audio/data/phrases_en.json): the same ids and placeholders as the
Russian catalogue (ANNOUNCEMENTS.md is Russian only; the English versions are the project's own), and
English numbers for speech («player number twelve»)."""

from __future__ import annotations

import json
from functools import cache

from audio.catalogue_md import DATA_PATH

PATH = DATA_PATH.with_name("phrases_en.json")

_ONES = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"),
)
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


@cache
def _data() -> tuple[dict[str, str], dict[str, str]]:
    data = json.loads(PATH.read_text(encoding="utf-8"))
    return dict(data["phrases"]), dict(data["singular"])


def text(phrase_id: str) -> str:
    """The English text of a phrase (KeyError for an id without one: the catalogue test finds it)."""
    return _data()[0][phrase_id]


def singular(phrase_id: str) -> str | None:
    """The one-seat form of a {seats} phrase («Nominated: player number six»), if it has one."""
    return _data()[1].get(phrase_id)


def ids() -> set[str]:
    return set(_data()[0])


def cardinal(n: int) -> str:
    """«twelve», «forty-two», «one hundred and five» (the numbers a game says: up to thousands)."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" and {cardinal(rest)}" if rest else "")
    thousands, rest = divmod(n, 1000)
    joined = "" if not rest else (f" and {cardinal(rest)}" if rest < 100 else f" {cardinal(rest)}")
    return f"{cardinal(thousands)} thousand{joined}"


def join(items: list[str]) -> str:
    """«three», «three and five», «three, five and seven»."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

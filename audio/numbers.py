"""Russian numerals in words and the agreement of a counted noun («один голос», «два голоса», «пять голосов»).

Only the nominative and genitive cases are implemented: host phrases read seat numbers after «номер»
(always nominative: «игроку номер три») and counts either after a colon or after «не меньше» (genitive).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Gender = Literal["m", "f", "n"]
Case = Literal["nom", "gen"]
PluralCategory = Literal["one", "few", "many"]

_UNITS_NOM = ("ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять")
_UNITS_GEN = ("нуля", "одного", "двух", "трёх", "четырёх", "пяти", "шести", "семи", "восьми", "девяти")
_ONE = {("nom", "m"): "один", ("nom", "f"): "одна", ("nom", "n"): "одно",
        ("gen", "m"): "одного", ("gen", "f"): "одной", ("gen", "n"): "одного"}  # fmt: skip
_TWO_NOM = {"m": "два", "f": "две", "n": "два"}
_TEENS_NOM = (
    "десять", "одиннадцать", "двенадцать", "тринадцать", "четырнадцать",
    "пятнадцать", "шестнадцать", "семнадцать", "восемнадцать", "девятнадцать",
)  # fmt: skip
_TENS_NOM = ("", "", "двадцать", "тридцать", "сорок", "пятьдесят", "шестьдесят", "семьдесят", "восемьдесят",
             "девяносто")  # fmt: skip
_TENS_GEN = ("", "", "двадцати", "тридцати", "сорока", "пятидесяти", "шестидесяти", "семидесяти",
             "восьмидесяти", "девяноста")  # fmt: skip
_HUNDREDS_NOM = ("", "сто", "двести", "триста", "четыреста", "пятьсот", "шестьсот", "семьсот", "восемьсот",
                 "девятьсот")  # fmt: skip
_HUNDREDS_GEN = ("", "ста", "двухсот", "трёхсот", "четырёхсот", "пятисот", "шестисот", "семисот", "восьмисот",
                 "девятисот")  # fmt: skip

_ORDINAL_UNITS = ("", "первый", "второй", "третий", "четвёртый", "пятый", "шестой", "седьмой", "восьмой",
                  "девятый")  # fmt: skip
_ORDINAL_TEENS = (
    "десятый", "одиннадцатый", "двенадцатый", "тринадцатый", "четырнадцатый",
    "пятнадцатый", "шестнадцатый", "семнадцатый", "восемнадцатый", "девятнадцатый",
)  # fmt: skip
_ORDINAL_TENS = ("", "", "двадцатый", "тридцатый", "сороковой", "пятидесятый", "шестидесятый", "семидесятый",
                 "восьмидесятый", "девяностый")  # fmt: skip

MAX_NUMBER = 999_999


@dataclass(frozen=True)
class Noun:
    """The forms a counted noun needs: «голос» / «голоса» / «голосов»."""

    gender: Gender
    nom_sg: str
    gen_sg: str
    gen_pl: str


VOTE = Noun("m", "голос", "голоса", "голосов")
PLAYER = Noun("m", "игрок", "игрока", "игроков")
FOUL = Noun("n", "замечание", "замечания", "замечаний")
BAN = Noun("m", "бан", "бана", "банов")
SECOND = Noun("f", "секунда", "секунды", "секунд")
THOUSAND = Noun("f", "тысяча", "тысячи", "тысяч")
GAME = Noun("f", "игра", "игры", "игр")


def plural_category(n: int) -> PluralCategory:
    """Which noun form follows the numeral ``n`` in the nominative: 1, 21 → one; 2–4, 22 → few; else many."""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


def _check(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"expected an int, got {n!r}")
    if not 0 <= n <= MAX_NUMBER:
        raise ValueError(f"{n} is outside 0…{MAX_NUMBER}")


def _below_thousand(n: int, gender: Gender, case: Case) -> list[str]:
    words: list[str] = []
    hundreds, rest = divmod(n, 100)
    if hundreds:
        words.append((_HUNDREDS_NOM if case == "nom" else _HUNDREDS_GEN)[hundreds])
    if 10 <= rest <= 19:
        words.append(_TEENS_NOM[rest - 10] if case == "nom" else _TEENS_NOM[rest - 10][:-1] + "и")
        return words
    tens, unit = divmod(rest, 10)
    if tens:
        words.append((_TENS_NOM if case == "nom" else _TENS_GEN)[tens])
    if unit == 1:
        words.append(_ONE[(case, gender)])
    elif unit == 2 and case == "nom":
        words.append(_TWO_NOM[gender])
    elif unit:
        words.append((_UNITS_NOM if case == "nom" else _UNITS_GEN)[unit])
    return words


def cardinal(n: int, *, gender: Gender = "m", case: Case = "nom") -> str:
    """``n`` in words: ``cardinal(21)`` → «двадцать один», ``cardinal(2, gender="f")`` → «две»."""
    _check(n)
    if n == 0:
        return _UNITS_NOM[0] if case == "nom" else _UNITS_GEN[0]
    thousands, rest = divmod(n, 1000)
    words: list[str] = []
    if thousands:
        words.append(count_phrase(thousands, THOUSAND, case=case))
    if rest:
        words.extend(_below_thousand(rest, gender, case))
    return " ".join(words)


def noun_form(n: int, noun: Noun, *, case: Case = "nom") -> str:
    """The form of ``noun`` that agrees with ``n``: (21, VOTE) → «голос», (22, VOTE) → «голоса»."""
    category = plural_category(n)
    if case == "gen":
        return noun.gen_sg if category == "one" else noun.gen_pl
    return {"one": noun.nom_sg, "few": noun.gen_sg, "many": noun.gen_pl}[category]


def count_phrase(n: int, noun: Noun, *, case: Case = "nom", digits: bool = False) -> str:
    """A number with its noun: «пять голосов»; genitive «двадцати одного голоса»; digits → «21 голоса»."""
    number = str(n) if digits else cardinal(n, gender=noun.gender, case=case)
    return f"{number} {noun_form(n, noun, case=case)}"


def ordinal(n: int, *, gender: Gender = "m") -> str:
    """Nominative ordinal for 1…99: «первый», «двадцать третья» (``gender="f"``)."""
    _check(n)
    if not 1 <= n <= 99:
        raise ValueError(f"ordinals are implemented for 1…99, not {n}")
    tens, unit = divmod(n, 10)
    if tens == 1:
        prefix, last = "", _ORDINAL_TEENS[unit]
    elif unit == 0:
        prefix, last = "", _ORDINAL_TENS[tens]
    else:
        prefix, last = (_TENS_NOM[tens] + " " if tens else ""), _ORDINAL_UNITS[unit]
    return prefix + _inflect_ordinal(last, gender)


def _inflect_ordinal(word: str, gender: Gender) -> str:
    if gender == "m":
        return word
    if word.endswith("ий"):  # третий → третья, третье
        return word[:-2] + ("ья" if gender == "f" else "ье")
    return word[:-2] + ("ая" if gender == "f" else "ое")

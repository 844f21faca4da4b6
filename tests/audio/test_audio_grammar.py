"""Numbers in words and their agreement, as the host reads them."""

from __future__ import annotations

import pytest

from audio import numbers, phrases
from audio.numbers import VOTE, cardinal, count_phrase, ordinal

SEAT_WORDS = [
    "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять",
    "одиннадцать", "двенадцать", "тринадцать", "четырнадцать", "пятнадцать", "шестнадцать",
    "семнадцать", "восемнадцать", "девятнадцать", "двадцать",
]  # fmt: skip
ORDINALS = [
    "первый", "второй", "третий", "четвёртый", "пятый", "шестой", "седьмой", "восьмой", "девятый", "десятый",
    "одиннадцатый", "двенадцатый", "тринадцатый", "четырнадцатый", "пятнадцатый", "шестнадцатый",
    "семнадцатый", "восемнадцатый", "девятнадцатый", "двадцатый",
]  # fmt: skip


@pytest.mark.parametrize(
    ("n", "nominative", "genitive"),
    [
        (1, "один голос", "одного голоса"),
        (2, "два голоса", "двух голосов"),
        (5, "пять голосов", "пяти голосов"),
        (11, "одиннадцать голосов", "одиннадцати голосов"),
        (21, "двадцать один голос", "двадцати одного голоса"),
        (22, "двадцать два голоса", "двадцати двух голосов"),
        (0, "ноль голосов", "нуля голосов"),
        (12, "двенадцать голосов", "двенадцати голосов"),
        (14, "четырнадцать голосов", "четырнадцати голосов"),
        (104, "сто четыре голоса", "ста четырёх голосов"),
        (111, "сто одиннадцать голосов", "ста одиннадцати голосов"),
    ],
)
def test_vote_count_agreement(n: int, nominative: str, genitive: str) -> None:
    assert count_phrase(n, VOTE) == nominative
    assert count_phrase(n, VOTE, case="gen") == genitive


@pytest.mark.parametrize(
    ("n", "words", "noun"),
    [
        (1, "одного", "голоса"),
        (2, "двух", "голосов"),
        (5, "пяти", "голосов"),
        (11, "одиннадцати", "голосов"),
        (21, "двадцати одного", "голоса"),
        (22, "двадцати двух", "голосов"),
    ],
)
def test_vote_threshold_phrase_agrees_with_its_number(n: int, words: str, noun: str) -> None:
    start = "Начинаем голосование. Чтобы покинуть игру, нужно набрать не меньше"
    assert phrases.render("sm_vote_start", {"count": n}) == f"{start} {words} {noun}."
    assert phrases.render("sm_vote_start", {"count": n}, numbers="digits") == f"{start} {n} {noun}."


def test_gender_agreement() -> None:
    feminine = ["одна", "две", "двадцать одна", "двадцать две"]
    assert [cardinal(n, gender="f") for n in (1, 2, 21, 22)] == feminine
    assert [cardinal(n, gender="n") for n in (1, 2)] == ["одно", "два"]
    assert count_phrase(1, numbers.FOUL) == "одно замечание"
    assert count_phrase(3, numbers.SECOND) == "три секунды"
    assert count_phrase(30, numbers.SECOND) == "тридцать секунд"
    foul = phrases.render("foul_given", {"seat": 4, "count": 1})
    assert foul == "Игроку номер четыре замечание. Замечаний: одно."
    ban = phrases.render("sm_ban_given", {"seat": 4, "count": 1})
    assert ban == "Игрок номер четыре получает бан. Банов: один."


@pytest.mark.parametrize(("n", "category"), [(1, "one"), (21, "one"), (101, "one"), (11, "many"), (2, "few"),
                                             (4, "few"), (22, "few"), (12, "many"), (14, "many"), (5, "many"),
                                             (0, "many"), (111, "many"), (1000, "many")])  # fmt: skip
def test_plural_category(n: int, category: str) -> None:
    assert numbers.plural_category(n) == category


def test_large_numbers() -> None:
    assert cardinal(1000) == "одна тысяча"
    assert cardinal(2022) == "две тысячи двадцать два"
    assert cardinal(21_000) == "двадцать одна тысяча"
    assert cardinal(999_999, case="gen").startswith("девятисот девяноста девяти тысяч")
    with pytest.raises(ValueError):
        cardinal(1_000_000)
    with pytest.raises(TypeError):
        cardinal(True)


def test_seats_one_to_twenty_are_read_as_cardinals_after_nomer() -> None:
    for seat, word in zip(range(1, 21), SEAT_WORDS, strict=True):
        assert cardinal(seat) == word
        # «номер» keeps the nominative whatever the case of «игрок»: «игроку номер три».
        assert phrases.render("city_speech_turn", {"seat": seat}) == (
            f"Слово предоставляется игроку номер {word}. Одна минута."
        )
        assert phrases.render("hw_lynched", {"seat": seat, "name": "Аня", "role": "Мафиози"}) == (
            f"Игрок номер {word}, Аня, предан суду Линча. Роль игрока: Мафиози."
        )
        assert phrases.render("city_speech_turn", {"seat": seat}, numbers="digits") == (
            f"Слово предоставляется игроку номер {seat}. Одна минута."
        )


def test_ordinals_one_to_twenty() -> None:
    assert [ordinal(n) for n in range(1, 21)] == ORDINALS
    assert ordinal(3, gender="f") == "третья"
    assert ordinal(3, gender="n") == "третье"
    assert ordinal(2, gender="f") == "вторая"
    assert ordinal(21) == "двадцать первый"
    assert ordinal(40) == "сороковой"
    with pytest.raises(ValueError):
        ordinal(0)


def test_lists_of_seats() -> None:
    one = phrases.render("city_immunity_list", {"seats": [3]})
    assert one == "Иммунитет в этой игре у игрока номер три."  # one seat: singular (issue 13)
    two = phrases.render("city_nominees_list", {"seats": [3, 12]})
    assert two == "Выставлены игроки номер три и двенадцать."
    assert phrases.render("hw_vote_tie", {"seats": [1, 5, 20]}) == (
        "Голоса разделились поровну. Переголосование между игроками номер один, пять и двадцать."
    )
    assert phrases.render("hw_vote_tie", {"seats": [1, 5, 20]}, numbers="digits").endswith("номер 1, 5 и 20.")

"""The host's phrase catalogue (ANNOUNCEMENTS.md as data) and rendering with Russian grammar.

``render("hw_vote_result", {"seat": 3, "count": 5})`` → «За игрока номер три подано голосов: пять.»
Numbers are spelled out for speech; ``numbers="digits"`` gives the same sentence for the text mirror.
``language="en"`` renders the same phrase from the English catalogue (audio/phrases_en.py).
(Somewhat over 400 lines: the catalogue, its rendering and the grammar it needs are one piece.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from audio import numbers as numerals
from audio import phrases_en
from audio.catalogue_md import DATA_PATH

NumberStyle = Literal["words", "digits"]
SEATS = range(1, 21)
COUNTS = range(0, 21)
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class PhraseError(Exception):
    """Base of the errors raised while looking up or rendering a phrase."""


class UnknownPhrase(PhraseError, LookupError):
    """No phrase with this id in ANNOUNCEMENTS.md."""


class MissingPlaceholder(PhraseError, LookupError):
    """The params lack a value that the phrase's text needs."""


class InvalidParam(PhraseError, ValueError):
    """A param has the wrong type or an impossible value (seat 0, a name that is not text…)."""


@dataclass(frozen=True)
class CountForm:
    """How ``{count}`` is read in one phrase: the counted noun's gender and, for «не меньше {count} голосов»,
    the case and the noun that must agree with the number (the text's fixed «голосов» is replaced)."""

    gender: numerals.Gender = "m"
    case: numerals.Case = "nom"
    noun: numerals.Noun | None = None
    replaces: str = ""


# Counts whose noun is not masculine or that govern a following noun. Everything else: masculine, nominative.
COUNT_FORMS: dict[str, CountForm] = {
    "foul_given": CountForm(gender="n"),  # «Замечаний: одно.»
    # «не меньше одного голоса», «не меньше пяти голосов»
    "sm_vote_start": CountForm(case="gen", noun=numerals.VOTE, replaces="голосов"),
}


@dataclass(frozen=True)
class Phrase:
    id: str
    text: str
    presets: tuple[str, ...]
    condition: str
    spoken: bool
    placeholders: tuple[str, ...]
    section: str
    when: str

    @property
    def fixed(self) -> bool:
        """True when the text has no placeholder, so one clip serves every game."""
        return not self.placeholders


@dataclass(frozen=True)
class PrebuildItem:
    """One text that ``prebuild`` renders ahead of time."""

    phrase_id: str
    params: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA_PATH.read_text(encoding="utf-8"))
    return data


def presets() -> tuple[str, ...]:
    """The presets ANNOUNCEMENTS.md writes phrases for (the columns of its "Generic events" table)."""
    return tuple(_data()["presets"])


@cache
def _catalogue() -> tuple[dict[str, Phrase], dict[str, dict[str, list[str]]]]:
    data = _data()
    catalogue = {
        row["id"]: Phrase(
            id=row["id"],
            text=row["text"],
            presets=tuple(row["presets"]),
            condition=row["condition"],
            spoken=row["spoken"],
            placeholders=tuple(row["placeholders"]),
            section=row["section"],
            when=row["when"],
        )
        for row in data["phrases"]
    }
    for phrase_id, form in COUNT_FORMS.items():
        if form.replaces and "{count} " + form.replaces not in catalogue[phrase_id].text:
            raise RuntimeError(f"{phrase_id}: expected «{{count}} {form.replaces}» in its text")
    return catalogue, data["generic_events"]


PROJECT_PATH = DATA_PATH.with_name("project_phrases.json")


@cache
def _project() -> tuple[dict[str, str], dict[str, Phrase]]:
    """The project's additions (data/project_phrases.json): one-seat forms of {seats} phrases, and lines
    the catalogue lacks. ANNOUNCEMENTS.md's own texts are never changed here."""
    data = json.loads(PROJECT_PATH.read_text(encoding="utf-8"))
    catalogue = _catalogue()[0]
    singular: dict[str, str] = dict(data["singular"])
    for phrase_id, text in singular.items():
        phrase = catalogue[phrase_id]
        if "seats" not in phrase.placeholders or sorted(_PLACEHOLDER.findall(text)) != sorted(
            phrase.placeholders
        ):
            raise RuntimeError(f"{phrase_id}: a one-seat form needs the phrase's own placeholders")
    extra = {}
    for row in data["phrases"]:
        if row["id"] in catalogue:
            raise RuntimeError(f"{row['id']} is an ANNOUNCEMENTS.md id: a project phrase needs its own")
        extra[row["id"]] = Phrase(
            id=row["id"],
            text=row["text"],
            presets=tuple(row["presets"]),
            condition=row.get("condition", ""),
            spoken=row["spoken"],
            placeholders=tuple(dict.fromkeys(_PLACEHOLDER.findall(row["text"]))),
            section="Project additions",
            when=row["when"],
        )
    return singular, extra


def get(phrase_id: str) -> Phrase:
    """A phrase of ANNOUNCEMENTS.md, or else of the project's additions."""
    found = _catalogue()[0].get(phrase_id) or _project()[1].get(phrase_id)
    if found is None:
        raise UnknownPhrase(f"unknown phrase id {phrase_id!r}")
    return found


def project_phrases() -> list[Phrase]:
    """The lines the project adds to the catalogue (all_phrases() is ANNOUNCEMENTS.md alone)."""
    return list(_project()[1].values())


def singular_forms() -> dict[str, str]:
    """Phrase id → its text when its {seats} list holds one seat («Выставлен игрок номер шесть.»)."""
    return dict(_project()[0])


def all_phrases(preset: str | None = None, *, spoken: bool | None = None) -> list[Phrase]:
    """Phrases in ANNOUNCEMENTS.md order, optionally only one preset's and only public (spoken) ones."""
    if preset is not None and preset not in presets():
        raise ValueError(f"unknown preset {preset!r}; known: {', '.join(presets())}")
    return [
        p
        for p in _catalogue()[0].values()
        if (preset is None or preset in p.presets) and (spoken is None or p.spoken == spoken)
    ]


def fixed_phrases(preset: str | None = None) -> list[Phrase]:
    """Spoken phrases without placeholders (one clip each), for one preset or all."""
    return [p for p in all_phrases(preset, spoken=True) if p.fixed]


def number_phrases(preset: str | None = None) -> list[Phrase]:
    """Spoken phrases whose only placeholder is ``seat`` or ``count``: finite, so prebuilt for 1–20."""
    return [p for p in all_phrases(preset, spoken=True) if p.placeholders in (("seat",), ("count",))]


def prebuild_items(preset: str | None = None) -> list[PrebuildItem]:
    """Every fixed phrase, plus each number phrase for seats 1–20 (counts 0–20); one item per text."""
    items: list[PrebuildItem] = []
    seen: set[str] = set()

    def add(phrase: Phrase, params: dict[str, Any]) -> None:
        text = render(phrase.id, params)
        if text not in seen:
            seen.add(text)
            items.append(PrebuildItem(phrase.id, params, text))

    for phrase in fixed_phrases(preset):
        add(phrase, {})
    for phrase in number_phrases(preset):
        for n in SEATS if phrase.placeholders == ("seat",) else COUNTS:
            add(phrase, {phrase.placeholders[0]: n})
    return items


def generic_phrase_ids(event: str, preset: str) -> list[str]:
    """Phrase ids that ANNOUNCEMENTS.md's "Generic events" table gives for ``event`` in ``preset``."""
    table = _catalogue()[1]
    if event not in table:
        raise UnknownPhrase(f"unknown generic event {event!r}")
    return list(table[event].get(preset, []))


def generic_events() -> list[str]:
    return list(_catalogue()[1])


def render(
    phrase_id: str,
    params: Mapping[str, Any] | None = None,
    *,
    numbers: NumberStyle = "words",
    names: Mapping[int, str] | None = None,
    speakable: Callable[[str], bool] | None = None,
    language: str = "ru",
) -> str:
    """The phrase's text with its placeholders filled, in ``language`` ("ru"; "en": audio/phrases_en.py).
    Extra params are ignored.

    The rules engine knows seats, not Discord names: ``names`` (seat → display name) fills ``{name}`` from
    ``seat`` and the names of ``seats_list`` / ``roles_list`` rows from their ``seat`` when they lack one.
    With ``speakable`` (the spoken text) a name it refuses is left out with its comma: «игрока номер
    три.» instead of a name the voice would mangle (audio/names.py).
    Raises UnknownPhrase, MissingPlaceholder or InvalidParam.
    """
    phrase = get(phrase_id)
    english = language == "en"
    values = _with_names(phrase, params or {}, names) if names else dict(params or {})
    text = phrases_en.text(phrase_id) if english else phrase.text
    if speakable is not None:
        values = _speakable_names(values, speakable)
        if "name" not in values:
            # «номер три, Имя, признан…»: the name's clause goes with both its commas (in either
            # language), or «игрок номер три, признан виновным» keeps a pause where nothing is said.
            text = _NAME_CLAUSE.sub("", text)
    missing = [name for name in phrase.placeholders if name not in values and "{" + name + "}" in text]
    if missing:
        raise MissingPlaceholder(f"{phrase_id} needs {', '.join(missing)}; got {sorted(values)}")
    digits = numbers == "digits"
    seats = values.get("seats")
    if isinstance(seats, Sequence) and not isinstance(seats, str) and len(seats) == 1:
        # «игрок номер шесть», not «игроки номер шесть»
        text = (phrases_en.singular(phrase_id) if english else _project()[0].get(phrase_id)) or text
    form = CountForm() if english else COUNT_FORMS.get(phrase_id, CountForm())
    if form.replaces:
        text = text.replace("{count} " + form.replaces, "{count}")
    return _PLACEHOLDER.sub(
        lambda m: _fill(phrase_id, m.group(1), values[m.group(1)], form, digits, english), text
    )


_NAME_CLAUSE = re.compile(r",? \{name\}(?:,(?= ))?")


def _speakable_names(values: dict[str, Any], speakable: Callable[[str], bool]) -> dict[str, Any]:
    """The values without the names a voice should not read (rows keep their seat, the name is None)."""
    out = dict(values)
    if "name" in out and not (isinstance(out["name"], str) and speakable(out["name"])):
        del out["name"]
    for key in ("seats_list", "roles_list"):
        rows = out.get(key)
        if isinstance(rows, Sequence) and not isinstance(rows, str):
            out[key] = [
                {**row, "name": None}
                if isinstance(row, Mapping)
                and not (isinstance(row.get("name"), str) and speakable(row["name"]))
                else row
                for row in rows
            ]
    return out


def _with_names(phrase: Phrase, params: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    values = dict(params)
    if "name" in phrase.placeholders and "name" not in values and values.get("seat") in names:
        values["name"] = names[values["seat"]]
    for key in ("seats_list", "roles_list"):
        rows = values.get(key)
        if isinstance(rows, Sequence) and not isinstance(rows, str):
            values[key] = [
                {**row, "name": names[row["seat"]]}
                if isinstance(row, Mapping) and "name" not in row and row.get("seat") in names
                else row
                for row in rows
            ]
    return values


def _fill(phrase_id: str, name: str, value: Any, form: CountForm, digits: bool, english: bool = False) -> str:
    where = f"{phrase_id}: {{{name}}}"
    if english and name in ("seat", "target", "seats", "count", "members", "seats_list", "roles_list"):
        return _fill_english(name, value, digits, where)
    if name in ("seat", "target"):
        return _seat(value, digits, where)
    if name == "seats":
        return _join([_seat(v, digits, where) for v in _sequence(value, where)])
    if name == "count":
        n = _int(value, where, minimum=0)
        if form.noun is not None:
            return numerals.count_phrase(n, form.noun, case=form.case, digits=digits)
        return str(n) if digits else numerals.cardinal(n, gender=form.gender, case=form.case)
    if name in ("name", "role", "preset", "role_description"):
        return _text(value, where)
    if name == "teams":
        return (
            _text(value, where)
            if isinstance(value, str)
            else _join([_text(v, where) for v in _sequence(value, where)])
        )
    if name == "seats_list":
        return "; ".join(_row(row, ("seat", "name"), digits, where) for row in _sequence(value, where))
    if name == "roles_list":
        return "; ".join(
            _row(row, ("seat", "name", "role"), digits, where) for row in _sequence(value, where)
        )
    if name == "members":
        return ", ".join(_member(row, digits, where) for row in _sequence(value, where))
    raise InvalidParam(f"{where} is a placeholder this renderer does not know")


def _fill_english(name: str, value: Any, digits: bool, where: str) -> str:
    def number(v: Any, minimum: int) -> str:
        n = _int(v, where, minimum=minimum)
        return str(n) if digits else phrases_en.cardinal(n)

    if name in ("seat", "target"):
        return number(value, 1)
    if name == "seats":
        return phrases_en.join([number(v, 1) for v in _sequence(value, where)])
    if name == "count":
        return number(value, 0)
    if name in ("seats_list", "roles_list"):
        keys = ("seat", "name") if name == "seats_list" else ("seat", "name", "role")
        listed = [_row(row, keys, True, where).split(" — ", 1) for row in _sequence(value, where)]
        return "; ".join(" — ".join([number(int(r[0]), 1), *r[1:]]) for r in listed)
    rows = [_row(row, ("seat", "role"), True, where).split(" — ", 1) for row in _sequence(value, where)]
    return ", ".join(f"number {number(int(seat), 1)} — {role}" for seat, role in rows)


def _int(value: Any, where: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidParam(f"{where} must be an int, got {value!r}")
    if not minimum <= value <= numerals.MAX_NUMBER:
        raise InvalidParam(f"{where} must be ≥ {minimum}, got {value}")
    return value


def _seat(value: Any, digits: bool, where: str) -> str:
    # After «номер» Russian keeps the nominative cardinal in every case: «игроку номер три».
    n = _int(value, where, minimum=1)
    return str(n) if digits else numerals.cardinal(n)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidParam(f"{where} must be a str, got {value!r}")
    return " ".join(value.split())  # newlines or tabs in a display name would break the sentence


def _sequence(value: Any, where: str) -> Sequence[Any]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or not value:
        raise InvalidParam(f"{where} must be a non-empty list, got {value!r}")
    return value


def _row(row: Any, keys: tuple[str, ...], digits: bool, where: str) -> str:
    """One «номер — имя (— роль)» entry, from a mapping with ``keys`` or a tuple in that order."""
    if isinstance(row, Mapping):
        if any(key not in row for key in keys):
            raise InvalidParam(f"{where} rows need keys {keys}, got {row!r}")
        fields = [row[key] for key in keys]
    elif isinstance(row, Sequence) and not isinstance(row, str) and len(row) == len(keys):
        fields = list(row)
    else:
        raise InvalidParam(f"{where} rows must be {keys} tuples or mappings, got {row!r}")
    # A name left out of the spoken text is None (see _speakable_names): the row says its seat alone.
    rest = [_text(f, where) for f in fields[1:] if f is not None]
    return " — ".join([_seat(fields[0], digits, where), *rest])


def _member(row: Any, digits: bool, where: str) -> str:
    """«номер 2 — дон»: a team member's seat and role, the role in lower case inside the sentence."""
    seat, role = _row(row, ("seat", "role"), digits, where).split(" — ", 1)
    if role[1:2].islower():  # «Дон» → «дон», but an abbreviation stays as written
        role = role[0].lower() + role[1:]
    return f"номер {seat} — {role}"


def _join(items: list[str]) -> str:
    """«три», «три и пять», «три, пять и семь»."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " и " + items[-1]


def iter_placeholders() -> Iterator[str]:
    """Every placeholder name used in the catalogue (for documentation tests)."""
    seen: set[str] = set()
    for phrase in _catalogue()[0].values():
        for name in phrase.placeholders:
            if name not in seen:
                seen.add(name)
                yield name

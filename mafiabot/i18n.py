"""What the bot says to players, in the server's language: message catalogues in Fluent
(``mafiabot/locales/<language>/*.ftl``), Russian and English.

Why Fluent rather than gettext: a message is found by a stable id (``panel-fouls``), not by its Russian
text, so fixing a Russian typo does not orphan the English; plural forms and other variants are chosen
inside the message by the language's own CLDR rules (Russian's one/few/many: «1 фол», «2 фола»,
«5 фолов»; English's one/other), so the code passes a number and never picks a form; and the ``.ftl``
files are read as they are, with no compile step. tests/i18n checks that both languages have every key
with the same variables and that no module of the bot or the voice writes player-facing text inline.

``text(language, key, **args)`` formats a message; a missing key is a bug that the catalogue test
catches, and at run time it falls back to Russian, then to the key itself, and is logged.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.types import fluent_number

log = logging.getLogger(__name__)

LANGUAGES = ("ru", "en")
DEFAULT = "ru"
LOCALES = Path(__file__).with_name("locales")


@cache
def bundle(language: str) -> FluentBundle:
    """Every ``.ftl`` file of a language, in one bundle (keys are unique across files: the test checks)."""
    found = FluentBundle([language], use_isolating=False)  # no Unicode isolation marks in Discord text
    for path in sorted((LOCALES / language).glob("*.ftl")):
        found.add_resource(FluentResource(path.read_text(encoding="utf-8")))
    return found


def language_of(value: str | None) -> str:
    """A language this bot speaks, from a setting or a Discord locale («en-US» → «en»)."""
    code = (value or "").split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT


def has(language: str, key: str) -> bool:
    return bundle(language_of(language)).has_message(key)


# Formatted messages by language, key and arguments (with their types: 1, 1.0 and True read
# differently). A message depends on nothing else, and the panel alone formats a dozen at every click
# (the step, each seat's name and marks: ≈ 0.1 ms through Fluent and Babel, issue 18), nearly all of them
# as at the click before. Emptied when full (most of a table's texts come again within seconds).
_FORMATTED: dict[tuple[Any, ...], str] = {}
FORMATTED_MAX = 20_000


def text(language: str, key: str, **args: Any) -> str:
    """The message ``key`` in ``language`` with ``args`` filled in."""
    known = (language, key, *((k, type(v), v) for k, v in args.items()))
    try:
        found = _FORMATTED.get(known)
    except TypeError:  # an argument that cannot be a key (a list): formatted each time
        return _format(language, key, args)
    if found is None:
        if len(_FORMATTED) >= FORMATTED_MAX:
            _FORMATTED.clear()
        found = _FORMATTED[known] = _format(language, key, args)
    return found


def _format(language: str, key: str, args: dict[str, Any]) -> str:
    for lang in dict.fromkeys((language_of(language), DEFAULT)):
        found = bundle(lang)
        if found.has_message(key):
            message = found.get_message(key)
            if message.value is None:
                break
            # Numbers without digit grouping: a seat, a record's number or a Discord id is not «1 234»
            # (Fluent's default); plural forms are chosen from the number all the same.
            # A number past any seat or Discord id (a forged select's 40 digits) is shown as it came:
            # Babel's decimal context cannot format it.
            shown = {
                k: fluent_number(v, useGrouping=False)
                if type(v) is int and abs(v) < 10**20
                else (str(v) if type(v) is int else v)
                for k, v in args.items()
            }
            value, errors = found.format_pattern(message.value, shown)
            if errors:
                log.warning("Message %s (%s) formatted with errors: %s", key, lang, errors)
            return str(value)
    log.error("No message %s in %s", key, language)
    return key


def catalogue(language: str) -> dict[str, set[str]]:
    """Every message id of a language's files with the variables it uses (for the catalogue test)."""
    from fluent.syntax import FluentParser, ast, visitor

    class Variables(visitor.Visitor):
        def __init__(self) -> None:
            super().__init__()
            self.found: set[str] = set()

        def visit_VariableReference(self, node: ast.VariableReference) -> None:
            self.found.add(node.id.name)

    messages: dict[str, set[str]] = {}
    for path in sorted((LOCALES / language).glob("*.ftl")):
        resource = FluentParser().parse(path.read_text(encoding="utf-8"))
        for entry in resource.body:
            if isinstance(entry, ast.Junk):
                raise ValueError(f"{path}: cannot parse {(entry.content or '')[:60]!r}")
            if isinstance(entry, ast.Message):
                if entry.id.name in messages:
                    raise ValueError(f"{path}: {entry.id.name} is defined twice")
                variables = Variables()
                variables.visit(entry)
                messages[entry.id.name] = variables.found
    return messages


def role_display(language: str, ruleset: Any, role: str) -> str:
    """A role's name: in Russian the rulebook's own (classic's civilian is «Честный горожанин»), in
    another language the catalogue's (a server's own variant's new role keeps its own name)."""
    key = f"role-{role}"
    if language_of(language) != DEFAULT and has(language, key):
        return text(language, key)
    return str(ruleset.roles[role].display)


def preset_title(language: str, ruleset: Any) -> str:
    """The rules' title: the rulebook's own in Russian, the commands' English name in English."""
    key = f"choice-{ruleset.id}"
    if language_of(language) != DEFAULT and has(language, key):
        return text(language, key)
    return str(ruleset.title)


def role_about(language: str, ruleset: Any, role: str) -> str:
    """What a role does, for its card: the rulebook's words in Russian, the catalogue's
    (``role-about-<id>``) elsewhere, or nothing where the catalogue has none (a server's own role)."""
    if language_of(language) == DEFAULT:
        return str(ruleset.roles[role].description)
    key = f"role-about-{role}"
    return text(language, key) if has(language, key) else ""


def season_name(language: str, season: Any) -> str:
    """A season's name: the one its moderators gave it, else the bot's own «Season N» in ``language``.
    The bot's own is stored as no name; a season stored before that keeps the Russian «Сезон N»."""
    own = text(DEFAULT, "season-name", number=season.number)
    if not season.name or season.name == own:
        return text(language, "season-name", number=season.number)
    return str(season.name)


# The sides a rating counts by (``rating-side-*`` in ratings.ftl): a profile's wins by side, a stored
# game's winners on the ratings' texts and web pages.
RATING_SIDES = ("town", "mafia", "maniac", "vampires", "hunters", "yakuza", "solo")


def rating_side(side_id: str, language: str = DEFAULT) -> str:
    """A side as the ratings name it; a side they do not know (a server's own variant's) by its id."""
    return text(language, f"rating-side-{side_id}") if side_id in RATING_SIDES else side_id


# The language each server was last seen with (read with its settings, set by `/mafia-admin language`):
# what an answer that has no game or lobby at hand (a refusal, an error) is written in.
_SERVERS: dict[int, str] = {}


def remember_language(guild_id: int, language: str | None) -> None:
    if language:
        _SERVERS[guild_id] = language
    else:
        _SERVERS.pop(guild_id, None)


def known_language(guild_id: int | None, default: str) -> str:
    return _SERVERS.get(guild_id or 0, default)


# The project's decision codes in the presets' own words: «(D-CL14)», «(…; D-FI15)», «(особый момент 3)».
_CODES = re.compile(r"\s*\(D-[A-Z]+\d+[^)]*\)|;\s*D-[A-Z]+\d+(?=\))|\s*\((?:\w+ ){1,2}\d+\)")


def variant_about(language: str, ruleset_id: str, name: str, description: str) -> str:
    """A preset's variant in words: the catalogue's ``variant-<preset>-<option>`` on an English server,
    the rulebook's own words in Russian; never the project's decision codes («(D-CL14)»)."""
    key = f"variant-{ruleset_id}-{name}"
    if language_of(language) != DEFAULT and has(language, key):
        return text(language, key)
    return _CODES.sub("", description).strip()

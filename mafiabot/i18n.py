"""What the bot says to players, in the server's language: message catalogues in Fluent
(``mafiabot/locales/<language>/*.ftl``), Russian and English.

Why Fluent rather than gettext: a message is found by a stable id (``panel-fouls``), not by its Russian
text, so fixing a Russian typo does not orphan the English; plural forms and other variants are chosen
inside the message by the language's own CLDR rules (Russian's one/few/many: «1 фол», «2 фола»,
«5 фолов»; English's one/other), so the code passes a number and never picks a form; and the ``.ftl``
files are read as they are, with no compile step. tests/i18n checks that both languages have every key
with the same variables and that the modules moved to the catalogues write no player-facing text inline.

``text(language, key, **args)`` formats a message; a missing key is a bug that the catalogue test
catches, and at run time it falls back to Russian, then to the key itself, and is logged.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource

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


def text(language: str, key: str, **args: Any) -> str:
    """The message ``key`` in ``language`` with ``args`` filled in."""
    for lang in dict.fromkeys((language_of(language), DEFAULT)):
        found = bundle(lang)
        if found.has_message(key):
            message = found.get_message(key)
            if message.value is None:
                break
            value, errors = found.format_pattern(message.value, args)
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

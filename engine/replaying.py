"""The replay of a game record: the engine commands sent so far, and the errors that name an entry.

A :class:`RecordError` names the phase and the entry; it also carries the rule that forbids the entry
(``python -m engine replay --explain``). For a command the engine refused that is the rule the refusing
function states: the engine's rule functions quote the rulebooks and cite the decisions of RULESETS.md
in their docstrings, so the innermost one that raised is the rule. For an entry the record's own
contract forbids it is the contract's line (README, "Game records").
"""

from __future__ import annotations

import inspect
import json
import re
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from engine.commands import Command
from engine.errors import EngineError, IllegalCommand
from engine.events import Event
from engine.game import apply
from engine.rules import Ruleset
from engine.state import GameState

# A docstring states a rule when it quotes a rulebook («…») or cites a decision (D-H10) or a seed (002:).
_CITES_A_RULE = re.compile(r"«|\bD-[A-Z]+\d+|\b00\d\b|RULESETS\.md")
# Modules that replay records or carry errors: their docstrings describe the replay, not a rule.
_NOT_RULES = ("engine.record", "engine.record_day", "engine.replaying", "engine.errors")


class RecordError(EngineError):
    """A record that breaks the rules or the format. The message names the phase and the entry; ``rule``
    is the rule that forbids it (empty when none is known)."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


@dataclass
class Replay:
    ruleset: Ruleset
    state: GameState
    events: list[Event] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    where: str = ""

    def send(self, command: Command, entry: Any = None) -> None:
        try:
            self.state, more = apply(self.state, command)
        except IllegalCommand as exc:
            shown = show(entry if entry is not None else command)
            raise RecordError(f"{self.where}: {shown}: {exc}", rule_of(exc)) from None
        self.commands.append(command)
        self.events.extend(more)

    def fail(self, entry: Any, message: str, rule: str = "") -> RecordError:
        return RecordError(f"{self.where}: {show(entry)}: {message}", rule)


def show(entry: Any) -> str:
    if isinstance(entry, Command):
        return json.dumps(entry.to_json(), ensure_ascii=False)
    return json.dumps(entry, ensure_ascii=False)


def rule_of(exc: BaseException) -> str:
    """The rule behind the engine's refusal ``exc``: the docstring of the innermost rule function (or of
    its class) that the refusal passed through and that quotes or cites a rule; else what the error's
    class says."""
    if isinstance(exc, IllegalCommand) and exc.rule:
        return exc.rule
    frames: list[FrameType] = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        module = str(frame.f_globals.get("__name__", ""))
        if not module.startswith("engine.") or module.startswith(_NOT_RULES):
            continue
        for doc in _docs_of(frame):
            if _CITES_A_RULE.search(doc):
                return _first_paragraph(doc)
    return _first_paragraph(inspect.getdoc(type(exc)) or "")


def _docs_of(frame: FrameType) -> list[str]:
    """The docstrings of the function running in ``frame`` and of the class it belongs to."""
    parts = frame.f_code.co_qualname.split(".")
    if "<locals>" in parts:
        return []
    found: Any = frame.f_globals.get(parts[0])
    owners = [found]
    for name in parts[1:]:
        found = getattr(found, name, None)
        owners.append(found)
    return [d for d in (inspect.getdoc(o) for o in reversed(owners) if o is not None) if d]


def _first_paragraph(doc: str) -> str:
    return " ".join(doc.split("\n\n")[0].split())

"""Commands: everything that can happen to a game. A game is its list of commands.

Each command carries ``at``, the time (seconds, from any fixed origin) when it was submitted: the engine
never reads a clock, it only records when steps started so that timers can be resumed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Command:
    type: ClassVar[str] = ""
    at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for key, value in asdict(self).items():
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class Advance(Command):
    """The current step ends: its time ran out, or the host moves on."""

    type: ClassVar[str] = "advance"


@dataclass(frozen=True, slots=True)
class Pass(Command):
    """The speaker ends his speech early («пас»)."""

    type: ClassVar[str] = "pass"
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Act(Command):
    """A seat uses its ability on one or more targets (``act`` picks between two abilities)."""

    type: ClassVar[str] = "act"
    seat: int = 0
    targets: tuple[int, ...] = ()
    act: str = ""


@dataclass(frozen=True, slots=True)
class Skip(Command):
    """A seat declines an optional action."""

    type: ClassVar[str] = "skip"
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Propose(Command):
    """A member of a team proposes the team's target (RULESETS.md D-H8)."""

    type: ClassVar[str] = "propose"
    seat: int = 0
    target: int = 0


@dataclass(frozen=True, slots=True)
class TeamAct(Command):
    """The team's final target, fixed directly (a game record, or the host)."""

    type: ClassVar[str] = "team_act"
    team: str = ""
    target: int = 0


@dataclass(frozen=True, slots=True)
class Nominate(Command):
    type: ClassVar[str] = "nominate"
    seat: int = 0
    target: int = 0


@dataclass(frozen=True, slots=True)
class Vote(Command):
    """A vote for the candidate now on the ballot (or, in a private ballot, for a named candidate)."""

    type: ClassVar[str] = "vote"
    seat: int = 0
    candidate: int = 0


@dataclass(frozen=True, slots=True)
class Unvote(Command):
    """A voter lowers his hand before the count of the candidate on the ballot closes (classic D-CL3:
    «may change until the candidate's count closes»), so that he may vote for a later candidate."""

    type: ClassVar[str] = "unvote"
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Answer(Command):
    """A yes/no answer to a question the host asked this seat (the maniac's question)."""

    type: ClassVar[str] = "answer"
    seat: int = 0
    yes: bool = False


@dataclass(frozen=True, slots=True)
class Claim(Command):
    """A night victim's only words in ``simple``: «Я комиссар» (D-S8)."""

    type: ClassVar[str] = "claim"
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Foul(Command):
    """A foul («замечание», in ``simple`` a «бан») given to a seat."""

    type: ClassVar[str] = "foul"
    seat: int = 0
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Remove(Command):
    """A seat leaves the table by the conduct rules (removal, confession, leaving)."""

    type: ClassVar[str] = "remove"
    seat: int = 0
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Permit(Command):
    """The speaker lets another seat talk during his minute, or withdraws it («разрешаю 5» / «запрещаю 5»)."""

    type: ClassVar[str] = "permit"
    seat: int = 0
    target: int = 0
    allow: bool = True


@dataclass(frozen=True, slots=True)
class AskNominees(Command):
    """The speaker asks the host «Кто выставлен?»."""

    type: ClassVar[str] = "ask_nominees"
    seat: int = 0


@dataclass(frozen=True, slots=True)
class RevokeImmunity(Command):
    """A moderator takes a seat's immunity away (city D-C5: «вскрылся любой ролью, прикрываясь
    иммунитетом»)."""

    type: ClassVar[str] = "revoke_immunity"
    seat: int = 0


@dataclass(frozen=True, slots=True)
class AwardVictory(Command):
    """A moderator awards the victory to the teams opposing a seat's (club rules, D-F3)."""

    type: ClassVar[str] = "award_victory"
    seat: int = 0
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Withdraw(Command):
    """The speaker takes back his nomination in his own minute («Я отзываю игрока № …», FIIM D-FI8)."""

    type: ClassVar[str] = "withdraw"
    seat: int = 0


@dataclass(frozen=True, slots=True)
class OnRecord(Command):
    """The speaker leaves colours «под протокол» (FIIM D-FI15 ``on_record``): ``targets`` and, for each,
    ``colours`` ("red" | "black")."""

    type: ClassVar[str] = "on_record"
    seat: int = 0
    targets: tuple[int, ...] = ()
    colours: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Abort(Command):
    """A moderator stops the game; nobody wins."""

    type: ClassVar[str] = "abort"
    reason: str = ""


COMMAND_TYPES: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (
        Advance,
        Pass,
        Act,
        Skip,
        Propose,
        TeamAct,
        Nominate,
        Vote,
        Unvote,
        Answer,
        Claim,
        Foul,
        Remove,
        Permit,
        AskNominees,
        RevokeImmunity,
        AwardVictory,
        Withdraw,
        OnRecord,
        Abort,
    )
}


def command_from_json(data: dict[str, Any]) -> Command:
    """Rebuild a command from :meth:`Command.to_json` output."""
    kind = data.get("type")
    cls = COMMAND_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown command type {kind!r}")
    names = {f.name for f in fields(cls)}
    kwargs = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k in names}
    unknown = set(data) - names - {"type"}
    if unknown:
        raise ValueError(f"unknown fields for {kind}: {sorted(unknown)}")
    command: Command = cls(**kwargs)  # type: ignore[arg-type]
    return command

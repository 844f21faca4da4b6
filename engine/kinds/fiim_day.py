"""«Спортивная мафия» (docs/rules/FIIM.md): the club's choices of the day that are more than a number.

The speaking order's rotation (D-FI7 ``rotation``), the withdrawal of one's nomination (D-FI8
``withdraw``) and the colours a speaker leaves «под протокол» (D-FI15 ``on_record``), each read from the
preset's [params] so that a club variant changes play by setting the key.
"""

from __future__ import annotations

from engine.announce import Out
from engine.errors import AlreadyActed, IllegalCommand, IllegalTarget, NotYourTurn, WrongPhase
from engine.events import EVERYONE, Event
from engine.flow import begin_speeches
from engine.registry import WITHDRAWALS, day_step
from engine.state import Draft, GameState

_CLOSER = "fiim_closer:"  # flag: the seat that spoke last in the previous day's round
ON_RECORD = "fiim_record:"  # flag: "fiim_record:<day>:<seat>:<round>:<target>=<colour>,…"
COLOURS = {"red": "красный", "black": "чёрный"}


def _flag(s: GameState, prefix: str) -> str:
    return next((f[len(prefix) :] for f in s.flags if f.startswith(prefix)), "")


# -- the speaking order ------------------------------------------------------------------------------


@day_step("fiim_speeches")
def fiim_speeches(s: Draft, out: Out) -> bool:
    """F.7 / D-FI7, [MR 6.3]. ``rotation = "opener"``: day 1 opens with seat 1, each later day with the
    next living seat after the previous day's opener. ``"closer"``: the day is closed by the next living
    seat after the previous day's closer (day 1 closes with seat 10: day 2 runs 2…1; without seat 1 it runs
    3…2), so the opener is the living seat after that closer."""
    living = s.living()
    if not living:
        return False
    previous = s.first_speaker
    if s.ruleset.params.get("rotation") == "closer" and previous:
        closer_before = int(_flag(s, _CLOSER) or 0)
        closer = _next_living(living, closer_before)
        first = _next_living(living, closer)
    else:
        first = next((x for x in living if x > previous), living[0]) if previous else living[0]
    i = living.index(first)
    order = living[i:] + living[:i]
    kept = frozenset(f for f in s.flags if not f.startswith(_CLOSER))
    s.first_speaker = first
    s.flags = kept | {f"{_CLOSER}{order[-1]}"}
    return begin_speeches(s, out, order, "day", s.ruleset.timer("speech"))


def _next_living(living: list[int], after: int) -> int:
    return next((x for x in living if x > after), living[0])


# -- withdrawing a nomination ------------------------------------------------------------------------


def _own_minute(s: GameState, seat: int) -> None:
    step = s.step
    if s.phase != "day" or step.kind != "speech":
        raise WrongPhase("Сейчас никто не говорит.", key="nobody-speaks")
    if seat != step.seat:
        raise NotYourTurn(f"Сейчас говорит игрок {step.seat}.", key="speaking-now", seat=step.seat)


def withdraw(s: Draft, seat: int, out: Out) -> None:
    """D-FI8, [MR 7.5]: «Во время своей минуты игрок имеет право отозвать выставленную им кандидатуру»;
    the judge answers «Отозвано», and the speaker may then nominate another. ``withdraw = "none"``:
    «Отозвать кандидатуру невозможно»."""
    mode = s.ruleset.params.get("withdraw", "none")
    if mode == "none":
        raise IllegalCommand(
            "По этим правилам выставленную кандидатуру отозвать нельзя.", key="no-withdrawal"
        )
    _own_minute(s, seat)
    if s.step.round != "day":
        raise WrongPhase(
            "Отозвать кандидатуру можно только в своей минуте дневного обсуждения.", key="withdraw-own-minute"
        )
    own = [t for by, t in s.nominations if by == seat]
    if not own:
        raise IllegalCommand("Вы никого не выставляли.", key="nominated-nobody")
    _take_back(s, seat, own[-1], out)


def _take_back(s: Draft, seat: int, target: int, out: Out) -> None:
    s.nominations = tuple(n for n in s.nominations if n != (seat, target))
    phrase = s.ruleset.phrase("nomination_withdrawn")
    out.append(
        Event("nomination_withdrawn", EVERYONE, {"seat": target, "by": seat}, phrase, {"seat": target})
    )


def _auto_withdraw(s: Draft, seat: int, target: int, out: Out) -> None:
    """``withdraw = "auto"``: «Отзывание игрока не обязательно для выставления другого игрока. Оно
    происходит автоматически при следующем выставлении» — called before the new nomination is checked;
    a refused nomination leaves the old one (the engine drops the whole command). Called only where the
    preset's ``withdraw`` is ``"auto"`` (engine.day.nominate asks, sparing every other preset the call)."""
    if s.phase != "day":
        return
    step = s.step
    if step.kind != "speech" or step.round != "day" or step.seat != seat:
        return
    own = [t for by, t in s.nominations if by == seat]
    nominated = {t for _, t in s.nominations}
    if own and target != own[-1] and target not in nominated and target in s.alive:
        _take_back(s, seat, own[-1], out)


WITHDRAWALS["auto"] = _auto_withdraw


# -- colours left on record ------------------------------------------------------------------------

# [MR 6.7]: in which speeches colours are written down.
ON_RECORD_ROUNDS = {
    "none": (),
    "night_victims": ("night_words",),
    "night_and_vote": ("night_words", "farewell"),
    "any_but_tie": ("night_words", "farewell", "day"),
    "any": ("night_words", "farewell", "day", "tie_word"),
}


def on_record(s: Draft, seat: int, targets: tuple[int, ...], colours: tuple[str, ...], out: Out) -> None:
    """D-FI15, [MR 6.7–6.8]: the speaker leaves colours «под протокол»; the judge writes them into the
    game's record (for the extra points of the tournament's regulation; the engine scores nothing for
    them). At most ``on_record_count`` seats, once per speech: «Поменять оставленных игроков в
    оставшееся время речи нельзя»."""
    mode = str(s.ruleset.params.get("on_record", "none"))
    rounds = ON_RECORD_ROUNDS.get(mode, ())
    if not rounds:
        raise IllegalCommand("По этим правилам цвета под протокол не записываются.", key="no-on-record")
    _own_minute(s, seat)
    if seat in s.no_speech and s.step.round == "day":
        raise NotYourTurn(
            "Без речи цвета под протокол не оставляют: у вас только выставление (D-FI8).",
            key="on-record-needs-speech",
        )
    if s.step.round not in rounds:
        raise WrongPhase("В этой речи цвета под протокол не записываются.", key="on-record-not-this-speech")
    limit = int(s.ruleset.params.get("on_record_count", 3))
    if not targets or len(targets) != len(colours):
        raise IllegalTarget("Назовите игроков и цвет каждого.", key="on-record-name-colours")
    if len(targets) > limit:
        raise IllegalTarget(
            f"Под протокол можно оставить не больше {limit} игроков.", key="on-record-limit", limit=limit
        )
    if len(set(targets)) != len(targets) or seat in targets:
        raise IllegalTarget("Назовите разных игроков, кроме себя.", key="on-record-others")
    if not all(1 <= t <= s.n_seats for t in targets) or not all(c in COLOURS for c in colours):
        raise IllegalTarget(
            "Игроки — номера за столом, цвет — «красный» или «чёрный».", key="on-record-format"
        )
    key = f"{ON_RECORD}{s.day}:{seat}:{s.step.round}:"
    if any(f.startswith(key) for f in s.flags):
        raise AlreadyActed("Цвета под протокол в этой речи уже оставлены.", key="on-record-done")
    pairs = ",".join(f"{t}={c}" for t, c in zip(targets, colours, strict=True))
    s.flags = s.flags | {key + pairs}
    data = {"seat": seat, "targets": list(targets), "colours": list(colours)}
    out.append(Event("on_record", EVERYONE, data))


def records_on_record(s: GameState) -> list[tuple[int, int, str, dict[int, str]]]:
    """Every speech's colours on record: (day, seat, round, {target: colour}), in day and seat order."""
    found = []
    for f in s.flags:
        if f.startswith(ON_RECORD):
            day, seat, round_, pairs = f[len(ON_RECORD) :].split(":")
            colours = {int(t): c for t, c in (p.split("=") for p in pairs.split(","))}
            found.append((int(day), int(seat), round_, colours))
    return sorted(found)

"""The other variants of classic Mafia (seed 002, RULESETS.md 6.13–6.18): the golden minute (D-CL15),
bets on day 1 (D-CL14), the reduced games for 2, 3 and 4–6 players (D-CL13) and the whole-deck deal
(D-CL16). The judges live in :mod:`engine.kinds.classic_judges`; the no-preset-host countdown (D-G1)
and hidden statuses (D-CL11) are data only (``classic.toml``).

Each day step here does nothing unless its variant is played, so that ``classic`` lists them all and
options only switch them on (options patch tables key by key, but replace lists).
"""

from __future__ import annotations

from typing import Any

from engine.announce import Out, line
from engine.ballot import candidates
from engine.errors import AlreadyActed, IllegalCommand, IllegalTarget, NotYourTurn
from engine.events import EVERYONE, Event, to_seats
from engine.flow import begin_speeches, next_day_step
from engine.outcome import finish
from engine.registry import composer, day_step, game_over_hook, step_kind
from engine.rules.model import Ruleset
from engine.state import Draft, GameState, Step

GOLDEN = "golden:"  # seats that took their golden minute (once per game)
BET = "bet:"  # "bet:<seat>:<target>"


def _timer(s: GameState, key: str, default: int) -> int:
    return int(s.ruleset.timers.get(key, default))


# -- golden minute (D-CL15) ------------------------------------------------------------------------


@day_step("golden_minute")
def _golden_window(s: Draft, out: Out) -> bool:
    """002: «Если игрок, попавший в число подозреваемых, уже сказал свое последнее слово, а … чувствует,
    что проголосуют сейчас за него, он может взять «золотую минуту»» — a window after the last words and
    before the vote, for candidates who have not used theirs."""
    if not s.ruleset.params.get("golden_minute"):
        return False
    seats = GoldenMinute.actors(s)
    if not seats:
        return False
    s.step = Step("golden", candidates=tuple(seats), seconds=_timer(s, "golden_window", 10))
    out.append(Event("golden_window", EVERYONE, {"seats": seats}))
    return True


@step_kind("golden")
class GoldenMinute:
    """«"Золотая минута" предоставляется каждому игроку только один раз за всю игру» — a candidate takes
    it with ``Act(seat, targets=(seat,))`` and speaks for a minute; the window then opens again."""

    record_key = "golden_minute"

    @staticmethod
    def actors(s: GameState) -> list[int]:
        return [c for c in candidates(s) if f"{GOLDEN}{c}" not in s.flags]

    @staticmethod
    def targets(s: GameState, seat: int) -> list[int]:
        return [seat]

    @staticmethod
    def act(s: Draft, seat: int, targets: tuple[int, ...], out: Out) -> None:
        if f"{GOLDEN}{seat}" in s.flags:
            raise AlreadyActed("Золотая минута даётся только один раз за игру.", key="golden-minute-once")
        if seat not in GoldenMinute.actors(s):
            raise NotYourTurn(
                f"Игрок {seat} не кандидат и не может взять золотую минуту.",
                key="golden-minute-not-candidate",
                seat=seat,
            )
        if targets != (seat,):
            raise IllegalTarget("Золотую минуту берут только для себя.", key="golden-minute-own")
        s.flags = s.flags | {f"{GOLDEN}{seat}"}
        s.agenda = ("golden_minute", *s.agenda)
        phrase = s.ruleset.phrase("golden_minute")
        out.append(Event("golden_minute", EVERYONE, {"seat": seat}, phrase, {"seat": seat}))
        begin_speeches(s, out, [seat], "golden_minute", _timer(s, "golden_minute", 60))

    @staticmethod
    def advance(s: Draft, out: Out) -> None:
        next_day_step(s, out)

    @staticmethod
    def unused(s: GameState, entry: Any) -> str:
        """Why a record's ``golden_minute`` entry found no window to take (for the replay's message)."""
        if not s.ruleset.params.get("golden_minute"):
            return 'the golden minute is a variant: this game\'s options do not include "golden_minute"'
        if f"{GOLDEN}{entry}" in s.flags:
            return (
                f"seat {entry} has had his golden minute already (002: ««Золотая минута» предоставляется"
                " каждому игроку только один раз за всю игру»)"
            )
        return (
            f"seat {entry} was not a candidate when the golden minute was offered (D-CL15: «only while he is"
            " a candidate, after his last word and before the vote»)"
        )

    @staticmethod
    def record(s: GameState, entries: list[Any]) -> list[tuple[Any, Any]]:
        """``"golden_minute": [seat, …]`` in the order the candidates take it."""
        from engine.commands import Act

        if entries and int(entries[0]) in GoldenMinute.actors(s):
            seat = int(entries.pop(0))
            return [(Act(seat=seat, targets=(seat,)), seat)]
        return []


# -- bets (D-CL14) ---------------------------------------------------------------------------------


@day_step("bets")
def _bets(s: Draft, out: Out) -> bool:
    """002: «После выступления последнего игрока все желающие … могут заключить пари на то, кто относится
    к «мафии». Обсуждения при этом не допускаются. Просто игроки заявляют: «Я считаю, что такой-то игрок
    мафия»»."""
    if not s.ruleset.params.get("bets"):
        return False
    s.step = Step("bets", seconds=_timer(s, "bets", 60))
    line(s, out, "bets_open")
    return True


def _bets_made(s: GameState) -> list[tuple[int, int]]:
    pairs = (f[len(BET) :].split(":") for f in s.flags if f.startswith(BET))
    return sorted((int(a), int(b)) for a, b in pairs)


@step_kind("bets")
class Bets:
    """D-CL14: a bet is ``Act(seat, targets=(target,))``, one per player, on another player; announced
    publicly; no discussion (nobody holds the floor)."""

    record_key = "bets"

    @staticmethod
    def actors(s: GameState) -> list[int]:
        made = {a for a, _ in _bets_made(s)}
        return [x for x in s.living() if x not in made]

    @staticmethod
    def targets(s: GameState, seat: int) -> list[int]:
        return [x for x in s.living() if x != seat]

    @staticmethod
    def act(s: Draft, seat: int, targets: tuple[int, ...], out: Out) -> None:
        if seat not in Bets.actors(s):
            raise AlreadyActed(f"Игрок {seat} уже заключил пари.", key="bet-made", seat=seat)
        if len(targets) != 1 or targets[0] not in Bets.targets(s, seat):
            raise IllegalTarget("Пари заключают на одного другого игрока за столом.", key="bet-on-other")
        s.flags = s.flags | {f"{BET}{seat}:{targets[0]}"}
        data = {"seat": seat, "target": targets[0]}
        out.append(Event("bet", EVERYONE, data, s.ruleset.phrase("bet_recorded"), dict(data)))

    @staticmethod
    def advance(s: Draft, out: Out) -> None:
        next_day_step(s, out)

    @staticmethod
    def unused(s: GameState, entry: Any) -> str:
        """Why a record's ``bets`` entry found no bets step (for the replay's message)."""
        if not s.ruleset.params.get("bets"):
            return 'bets are a variant: this game\'s options do not include "bets"'
        return "bets are made once, on day 1 after the introductions (D-CL14)"

    @staticmethod
    def record(s: GameState, entries: list[Any]) -> list[tuple[Any, Any]]:
        """``"bets": [[seat, target], …]``."""
        from engine.commands import Act

        taken = [(Act(seat=int(e[0]), targets=(int(e[1]),)), e) for e in entries]
        entries.clear()
        return taken


@game_over_hook
def _settle_bets(s: GameState, out: Out) -> None:
    """D-CL14: «settled at the end (`cl_bets_result`: who guessed right)». A bet is right when the target
    is a member of a mafia clan (mafia or yakuza, the mafia judge and the werewolf included; the bought
    lawyer is an ally, not a member)."""
    bets = _bets_made(s)
    if not bets:
        return
    right = []
    for seat, target in bets:
        role = s.ruleset.roles[s.roles[target - 1]]
        if role.side in ("mafia", "yakuza") and role.counts_for_win:
            right.append(seat)
    phrase = s.ruleset.phrase("bets_result") if right else None
    data = {"seats": right, "bets": [list(b) for b in bets]}
    out.append(Event("bets_result", EVERYONE, data, phrase, {"seats": right}))


# -- reduced games (D-CL13) ------------------------------------------------------------------------


@composer("classic_reduced")
def _reduced(ruleset: Ruleset, players: int) -> dict[str, int]:
    """D-CL13: 4–6 and 3 players: one mafioso, the rest honest, no commissar; 2 players: three cards,
    two honest and one mafia, of which two are dealt."""
    if players == 2:
        return {"civilian": 2, "mafioso": 1}
    if 3 <= players <= 6:
        return {"mafioso": 1, "civilian": players - 1}
    raise IllegalCommand(
        f"Игры в уменьшенном составе — для 2–6 игроков, а не для {players}.",
        key="short-table-size",
        players=players,
    )


@day_step("reduced_start")
def _reduced_start(s: Draft, out: Out) -> bool:
    """002: «игра сразу начинается с дня, когда горожане должны выбрать подозреваемого в связях с
    мафией, проголосовать за него и «убить»»; two players play the hidden-card game instead."""
    if s.n_seats == 2:
        return TwoCards.start(s, out)
    line(s, out, "small_day_start")
    return False


@day_step("one_turn")
def _one_turn(s: Draft, out: Out) -> bool:
    """3 players: «это «игра одного хода». … Если на этом первом ходу вычислить мафиози не удастся, то
    есть будет убит честный горожанин, то игра заканчивается победой мафии.» (D-CL13: a tie too.)"""
    if s.n_seats != 3 or s.over:
        return False
    finish(s, out, ("mafia",))
    return True


def hidden_card(s: GameState) -> str:
    """The card left face down: the deck of three minus the two dealt."""
    deck = _reduced(s.ruleset, 2)
    for role in s.roles:
        deck[role] = deck.get(role, 0) - 1
    return next((r for r, n in sorted(deck.items()) if n > 0), "civilian")


@step_kind("two_cards")
class TwoCards:
    """002, two players: «Если игроки сошлись на том, что «мафия» закрытая карта, карта открывается. …
    Если один из игроков пришел к выводу, что второй игрок — «мафия», он требует открыть карты».
    D-CL13: «Мафия — закрытая карта» is ``Vote(seat)`` by both players; «Мафия — соперник» is
    ``Act(seat, targets=(opponent,))`` by one. If the time runs out undecided, nobody wins (a draw)."""

    record_key = "cards"
    free_talk = True  # «Каждый из игроков смотрит свою карту, после чего начинается обсуждение»

    @staticmethod
    def start(s: Draft, out: Out) -> bool:
        s.ballots = ()
        s.step = Step("two_cards", seconds=_timer(s, "discussion", 300))
        line(s, out, "two_players_start")
        for seat in s.living():
            out.append(
                Event("prompt", to_seats(seat), {"seat": seat}, s.ruleset.phrase("two_players_buttons"))
            )
        return True

    @staticmethod
    def actors(s: GameState) -> list[int]:
        return s.living()

    @staticmethod
    def targets(s: GameState, seat: int) -> list[int]:
        return [x for x in s.living() if x != seat]

    @staticmethod
    def voters(s: GameState) -> list[int]:
        return [x for x in s.living() if not any(v == x for v, _ in s.ballots)]

    @staticmethod
    def choices(s: GameState, seat: int) -> list[int]:
        return [0]

    @staticmethod
    def act(s: Draft, seat: int, targets: tuple[int, ...], out: Out) -> None:
        if seat not in s.alive:
            raise NotYourTurn(f"Игрок {seat} не играет.", key="not-playing", seat=seat)
        if len(targets) != 1 or targets[0] not in TwoCards.targets(s, seat):
            raise IllegalTarget("Обвинить можно только соперника.", key="accuse-rival-only")
        out.append(Event("accused", EVERYONE, {"seat": seat, "target": targets[0]}))
        TwoCards._open(s, targets[0], s.roles[targets[0] - 1], out)

    @staticmethod
    def vote(s: Draft, seat: int, candidate: int, out: Out) -> None:
        if seat not in TwoCards.voters(s):
            raise AlreadyActed(f"Игрок {seat} уже высказался.", key="spoken-already", seat=seat)
        if candidate != 0:
            raise IllegalTarget(
                "Голосуют только за то, что мафия — закрытая карта.", key="vote-closed-card-only"
            )
        s.ballots = (*s.ballots, (seat, 0))
        out.append(Event("hidden_card_vote", EVERYONE, {"seat": seat}))
        if not TwoCards.voters(s):
            TwoCards._open(s, 0, hidden_card(s), out)

    @staticmethod
    def _open(s: Draft, seat: int, role: str, out: Out) -> None:
        display = s.ruleset.roles[role].display
        data = {"seat": seat, "role": role, "role_name": display}
        out.append(
            Event("card_opened", EVERYONE, data, s.ruleset.phrase("two_players_reveal"), {"role": display})
        )
        if seat:
            s.revealed = s.revealed | {seat}
        finish(s, out, ("town",) if role == "mafioso" else ("mafia",))

    @staticmethod
    def advance(s: Draft, out: Out) -> None:
        finish(s, out, ())

    @staticmethod
    def record(s: GameState, entries: list[Any]) -> list[tuple[Any, Any]]:
        """``"cards": [[seat, "hidden" | "opponent"], …]``."""
        from engine.commands import Act, Vote

        taken: list[tuple[Any, Any]] = []
        for e in entries:
            seat, claim = int(e[0]), str(e[1])
            if claim == "hidden":
                taken.append((Vote(seat=seat, candidate=0), e))
            elif claim == "opponent":
                other = next((x for x in range(1, s.n_seats + 1) if x != seat), 0)
                taken.append((Act(seat=seat, targets=(other,)), e))
            else:
                raise ValueError(f"a card claim is hidden or opponent, not {claim!r}")
        entries.clear()
        return taken


# -- the whole deck (D-CL16) -----------------------------------------------------------------------


@composer("whole_deck")
def _whole_deck(ruleset: Ruleset, players: int) -> dict[str, int]:
    """002, special moment 3: «интересно брать всю колоду целиком. После того, как колода была тщательно
    перетасована, игрокам раздаются карты (оставшиеся невостребованными, откладывают в сторону …)» —
    the deck is ``params.deck``, an array of role ids (a server's file sets its own; a table of counts
    works too); ``deal`` hands out the first cards."""
    cards = ruleset.params.get("deck", [])
    if isinstance(cards, dict):
        deck = {str(r): int(n) for r, n in cards.items()}
    else:
        deck = {}
        for card in cards:
            deck[str(card)] = deck.get(str(card), 0) + 1
    size = sum(deck.values())
    if not 2 <= players <= size:
        raise IllegalCommand(
            f"В колоде {size} карт: на {players} игроков её не хватит.",
            key="deck-too-small",
            size=size,
            players=players,
        )
    for role in deck:
        if role not in ruleset.roles:
            raise IllegalCommand(
                f"В колоде роль «{role}», которой нет в правилах.", key="deck-unknown-role", role=role
            )
    return deck

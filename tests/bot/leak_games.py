"""Random whole games through the local Discord, and the check that nothing public told a secret
(issue 13, promise 2). Used by test_leak_games.py: one game per preset in CI, many by hand
(`MAFIABOT_LEAK_GAMES=50 pytest -s tests/bot/test_leak_games.py`; the figure is in BENCHMARKS.md).

Simulated players act at random through what the bot shows them: the night's prompts in their DMs, the
panel's «Пас», nomination selects and vote buttons; the moderator's `/mafia skip` moves on a step nobody
closes. Everything the bot makes public is collected from the stand-in's request log: messages and their
edits in the game's channel (the panel among them), thread names, nicknames, and every line the host
speaks: the table's speaker is a recorder (``SpokenLines``) that keeps what text-to-speech would say, in
words, at the moment it is asked to say it, without the audio (so no step waits for a voice).

The oracle is the engine, replayed from the table's command log:

* no text the rules sent privately (a role card, a team roster, a check's result, a prompt) appears in
  public before the end, unless the same line was also public;
* no role is written next to its seat («№3 — Шериф», «номер 3 — шериф», «№3 Шериф») before the rules have
  shown that seat's role to everyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass, field
from typing import Any

from fakediscord import Club, FakeDiscord, checks_v2
from game_driver import MEMBER_EDIT, TableDriver

import engine
from audio import numbers as numerals
from audio import phrases
from engine import queries
from mafiabot.bot import MafiaBot
from mafiabot.game.render import render

STEP_LIMIT = 600


@dataclass
class Outcome:
    preset: str
    seed: int
    steps: int = 0
    over: bool = False
    public_outputs: int = 0
    spoken: int = 0
    checks: int = 0
    leaks: list[str] = field(default_factory=list)


def _components(message: Any) -> list[dict[str, Any]]:
    return list(message.items())


class SpokenLines:
    """The host's voice without audio: each line the table asks it to say is rendered as the TTS engine
    would get it (numbers in words) and kept with the request count at that moment."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.lines: list[tuple[int, str]] = []
        self.queue = self

    def say(self, phrase_id: str, params: dict[str, Any], names: Any) -> asyncio.Future[Any]:
        self.lines.append((len(self.fake.calls), phrases.render(phrase_id, params, names=names)))
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    async def drain(self) -> None:
        return None

    async def close(self) -> None:
        return None


class RandomTable(TableDriver):
    """A table whose players click at random; the moderator (seat of players[0]) skips what nobody ends."""

    flush_gateway = False

    def __init__(
        self, fake: FakeDiscord, club: Club, bot: MafiaBot, players: int, rng: random.Random
    ) -> None:
        super().__init__(fake, club, bot, club.players[:players])
        self.rng = rng
        self.voice = SpokenLines(fake)
        host_voice = bot.games.host_voice

        async def join(table: Any) -> None:  # the host "speaks" in every game of this table
            table.speaker = self.voice

        host_voice.join = join  # type: ignore[method-assign]
        self.marks: list[tuple[int, frozenset[int]]] = []  # (request count, seats revealed) after each move

    async def _try(self, coro: Any) -> None:
        # A disabled or vanished control: a player's click that Discord would not send.
        with contextlib.suppress(AssertionError, LookupError):
            await coro

    async def _pick(self, seat: int, message: Any) -> None:
        items = [c for c in _components(message) if c["type"] in (2, 3) and not c.get("disabled")]
        if not items:
            return
        item = self.rng.choice(items)
        member = self.member(seat)
        if item["type"] == 3:
            options = [o["value"] for o in item.get("options", [])]
            if options:
                values = self.rng.sample(options, min(len(options), max(1, item.get("min_values", 1))))
                await self._try(self.fake.select(member, message, item["custom_id"], values))
        else:
            await self._try(self.fake.click(member, message, custom_id=item["custom_id"]))

    async def move(self) -> None:
        s = self.state
        before = self.table.session.serial if self.table else 0
        step = s.step
        if s.phase != "day" or step.kind in ("question", "tiebreak"):
            for seat in sorted(
                queries.actors(s) | ({step.seat} if step.kind in ("question", "tiebreak") else set())
            ):
                try:
                    prompt = self.latest_prompt(seat)
                except LookupError:
                    continue
                if self.rng.random() < 0.85:
                    await self._pick(seat, prompt)
        elif step.kind == "speech":
            if self.rng.random() < 0.3:
                selects = [c for c in _components(self.panel()) if c["type"] == 3]
                if selects:
                    options = [o["value"] for o in selects[0].get("options", [])]
                    if options:
                        await self._try(
                            self.fake.select(
                                self.member(step.seat),
                                self.panel(),
                                selects[0]["custom_id"],
                                [self.rng.choice(options)],
                            )
                        )
            await self._try(self.fake.click(self.member(step.seat), self.panel(), label="Пас"))
        elif step.kind == "nominations":
            for _ in range(self.rng.randint(0, 2)):
                selects = [c for c in _components(self.panel()) if c["type"] == 3]
                if not selects or not s.alive:
                    break
                options = [o["value"] for o in selects[0].get("options", [])]
                if options:
                    by = self.rng.choice(sorted(self.state.alive))
                    await self._try(
                        self.fake.select(
                            self.member(by), self.panel(), selects[0]["custom_id"], [self.rng.choice(options)]
                        )
                    )
        elif step.kind == "vote":
            for seat in sorted(queries.voters(s)):
                if self.rng.random() < 0.6:
                    buttons = [b for b in self.panel().buttons() if b["label"].startswith("Голосую")]
                    if buttons:
                        await self._try(
                            self.fake.click(self.member(seat), self.panel(), label=buttons[0]["label"])
                        )
        await self.settled()
        if not self.state.over and self.table is not None and self.table.session.serial == before:
            await self.skip_step()
        self.marks.append((len(self.fake.calls), frozenset(self.state.revealed)))


def _secrets(s: engine.GameState, log: list[engine.Command], roles: list[str], seed: int) -> set[str]:
    """Every private line the rules said in this game that was not also said in public."""
    state, events = engine.new_game(s.ruleset, roles, seed, immune=s.immune)
    every = list(events)
    for command in log:
        state, more = engine.apply(state, command)
        every += more
    private: set[str] = set()
    public: set[str] = set()
    for ev in every:
        line = render(ev, lambda seat: "")
        if line is None or not line.text.strip():
            continue
        texts = {line.text.strip()}
        if ev.phrase:  # as the voice would say it: numbers in words
            with contextlib.suppress(phrases.PhraseError):
                texts.add(phrases.render(ev.phrase, line.params).strip())
        (public if ev.audience.kind == "public" else private).update(texts)
    return private - public


def _pairs(s: engine.GameState, seat: int) -> list[str]:
    role = s.ruleset.roles[s.role_of(seat)].display
    word = numerals.cardinal(seat)
    return [
        f"№{seat} — {role}",
        f"№{seat} {role}",
        f"номер {seat} — {role.lower()}",
        f"номер {seat} — {role}",
        f"номер {word} — {role.lower()}",
        f"номер {word} — {role}",
        f"номер {word}, {role.lower()}",
    ]


def check(d: RandomTable, outcome: Outcome) -> None:
    assert d.table is not None
    s = d.state
    session = d.table.session
    secrets = _secrets(s, list(session.log), list(s.roles), session.seed)
    text_id = str(d.club.text.id)
    end = d.marks[-2][0] if s.over and len(d.marks) > 1 else len(d.fake.calls)
    revealed_at: list[tuple[int, frozenset[int]]] = d.marks
    mark = 0
    spoken: dict[int, list[str]] = {}
    for at, line in d.voice.lines:
        if at < end:
            spoken.setdefault(at, []).append(line)
    for index, call in enumerate([*d.fake.calls[:end], None]):
        while mark < len(revealed_at) - 1 and revealed_at[mark][0] <= index:
            mark += 1
        revealed = revealed_at[mark][1] if revealed_at else frozenset()
        texts = []
        if call is not None:
            body = call.json if isinstance(call.json, dict) else {}
            if call.params.get("channel_id") == text_id and "/messages" in call.route:
                if body.get("content"):
                    texts.append(str(body["content"]))
                texts += [t for t in checks_v2.texts(body.get("components") or []) if t]  # the V2 panel
            if call.route == MEMBER_EDIT and body.get("nick"):
                texts.append(str(body["nick"]))
            if "/threads" in call.route and body.get("name"):
                texts.append(str(body["name"]))
        said = spoken.pop(index, [])
        outcome.spoken += len(said)
        for text in texts + said:
            outcome.public_outputs += 1
            for secret in secrets:
                outcome.checks += 1
                if secret in text:
                    outcome.leaks.append(f"private line in public: {secret!r} in {text[:120]!r}")
            for seat in range(1, s.n_seats + 1):
                if seat in revealed:
                    continue
                for pair in _pairs(s, seat):
                    outcome.checks += 1
                    if pair in text:
                        outcome.leaks.append(f"hidden role of seat {seat}: {pair!r} in {text[:120]!r}")


async def play(fake: FakeDiscord, club: Club, bot: MafiaBot, preset: str, seed: int, players: int) -> Outcome:
    rng = random.Random(seed)
    fake.rate_limits.set(MEMBER_EDIT, 10_000, 1.0)
    d = RandomTable(fake, club, bot, players, rng)
    await d.start(preset)
    outcome = Outcome(preset, seed)
    while not d.state.over and outcome.steps < STEP_LIMIT:
        await d.move()
        outcome.steps += 1
    outcome.over = d.state.over
    check(d, outcome)
    if not d.state.over:
        await fake.slash(d.players[0], "mafia stop", channel=club.text)
        await fake.wait_for(lambda: not d.games.tables, what="the stop")
    await d.settled()
    return outcome

"""`mafiabot demo`: one game of simulated players, told in the terminal at a pace a reader can follow, as
the host would run it (the host's lines, and in brackets what only one player or the host learns).

The players follow a few sensible habits (engine/habits.py): the mafia never shoots its own, a checker
does not check a seat again, players nominate and vote on what their checks told them. With
``--voice FILE`` the host's spoken lines are also rendered with the offline voice (RHVoice where
installed, else espeak-ng) and written one after another to a WAV file.
"""

from __future__ import annotations

import argparse
import sys
import time
import wave
from collections.abc import Callable, Sequence
from pathlib import Path

import engine
from audio import phrases
from engine.demo import _NAMES
from engine.events import Event
from engine.habits import play_sensible_game
from mafiabot.game.describe import side_name
from mafiabot.game.render import in_language
from mafiabot.i18n import DEFAULT, LANGUAGES, preset_title, text

_GAP_SECONDS = 0.5  # between two of the host's lines in the voice file
# The simulated players' names on an English table (the Russian ones are the engine demo's).
_ENGLISH_NAMES = (
    "Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi",
    "Ivan", "Judy", "Ken", "Lena", "Mike", "Nina", "Oscar", "Peggy",
)  # fmt: skip


def player_names(players: int, language: str = DEFAULT) -> dict[int, str]:
    names = _NAMES if language == DEFAULT else _ENGLISH_NAMES
    return {i: n for i, n in enumerate(names[:players], start=1)}


def lines(
    ruleset: engine.Ruleset, events: Sequence[Event], names: dict[int, str], language: str = DEFAULT
) -> list[tuple[Event, str]]:
    """Each event a reader should see, with its line, in ``language``."""
    out: list[tuple[Event, str]] = []
    for ev in events:
        line = _line(ev, names, ruleset, language)
        if line:
            out.append((ev, line))
    return out


def spoken_params(
    ev: Event, names: dict[int, str], ruleset: engine.Ruleset, language: str
) -> dict[str, object]:
    """A host phrase's params with the seat's name, and its roles, title and winners in ``language``."""
    params = dict(ev.params)
    seat = params.get("seat")
    if isinstance(seat, int) and "name" not in params:
        params["name"] = names.get(seat, "")
    params = in_language(params, ruleset, language)
    if language != DEFAULT and ev.type == "victory_awarded":  # (the rulebook's side names)
        params["teams"] = ", ".join(side_name(str(w), ruleset, language) for w in ev.data["winners"])
    return params


def _line(ev: Event, names: dict[int, str], ruleset: engine.Ruleset, language: str) -> str | None:
    data, audience = ev.data, ev.audience
    if ev.phrase:
        params = spoken_params(ev, names, ruleset, language)
        try:
            said = phrases.render(ev.phrase, params, numbers="digits", names=names, language=language)
        except phrases.PhraseError:
            said = ""
        if not said:
            return None
        if audience.kind in ("seats", "team"):
            who = audience.seats[0] if len(audience.seats) == 1 else None
            if who is None:
                return text(language, "demo-host-note", line=said)
            return text(language, "demo-private", seat=who, name=names.get(who, ""), line=said)
        return said if audience.kind == "public" else text(language, "demo-host-note", line=said)
    if ev.type == "nominated":
        return text(language, "demo-nominated", seat=data["seat"], target=data["target"])
    if ev.type == "action" and data.get("targets"):
        target = data["targets"][0]
        if "team" in data:
            team = str(data["team"])
            key = f"team-{team}"
            team_name = text(language, key) if key in _TEAMS else team.capitalize()
            return text(
                language,
                "demo-host-note",
                line=text(language, "demo-team-act", team=team_name, target=target),
            )
        act = text(language, "demo-act", seat=data["seat"], target=target)
        return text(language, "demo-host-note", line=act)
    return None


_TEAMS = {"team-mafia", "team-yakuza", "team-hunters"}


def play(
    ruleset_id: str,
    players: int,
    seed: int,
    *,
    speed: float = 1.0,
    out: Callable[[str], None] = print,
    sleep: Callable[[float], None] = time.sleep,
    language: str = DEFAULT,
) -> list[tuple[Event, str]]:
    """Play and tell one game in ``language``; returns what was told (the voice file is made from it)."""
    ruleset = engine.load_ruleset(ruleset_id)
    game = play_sensible_game(ruleset, players, seed)
    names = player_names(players, language)
    out(text(language, "demo-title", title=preset_title(language, ruleset), players=players, seed=seed))
    out("")
    told = lines(ruleset, game.events, names, language)
    for _, line in told:
        if speed > 0:
            sleep((0.4 + len(line) / 45) / speed)  # about the time it takes to read the line
        out(line)
    return told


def write_voice(
    path: Path,
    told: Sequence[tuple[Event, str]],
    names: dict[int, str],
    ruleset: engine.Ruleset | None = None,
    language: str = DEFAULT,
) -> float:
    """The host's public, spoken lines in order, in ``language``, as a 48 kHz stereo WAV; returns its
    length in seconds."""
    from audio import opus
    from audio.announcer import Announcer
    from audio.cache import ClipCache
    from audio.cli import default_cache_dir
    from audio.engines import offline_engine
    from audio.pcm import CHANNELS, SAMPLE_RATE, SAMPLE_WIDTH

    announcer = Announcer(offline_engine(language), ClipCache(default_cache_dir()), language=language)
    gap = b"\x00" * int(SAMPLE_RATE * _GAP_SECONDS) * CHANNELS * SAMPLE_WIDTH
    frames = 0
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(CHANNELS)
        wav.setsampwidth(SAMPLE_WIDTH)
        wav.setframerate(SAMPLE_RATE)
        for ev, _ in told:
            if not ev.phrase or ev.audience.kind != "public":
                continue
            params = ev.params if ruleset is None else spoken_params(ev, names, ruleset, language)
            clip = announcer.prepare(ev.phrase, params, names=names).clip
            if clip is None:
                continue
            data = opus.decode(clip.packets) + gap
            wav.writeframes(data)
            frames += len(data) // (CHANNELS * SAMPLE_WIDTH)
    return frames / SAMPLE_RATE


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The demo's options, on `mafiabot demo` (and on this module's own parser)."""
    parser.add_argument(
        "--ruleset",
        default="classic",
        choices=engine.available_presets(),
        help="the rules (default: classic)",
    )
    parser.add_argument("--players", type=int, default=10, help="players at the table (default: 10)")
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="how fast the lines come (default 1: about reading speed; 2 twice as fast; 0 no pauses)",
    )
    parser.add_argument("--seed", type=int, default=7, help="the game's draws: the same seed, the same game")
    parser.add_argument(
        "--voice",
        type=Path,
        metavar="FILE",
        help="also write the host's speech to this WAV file (offline voice: RHVoice or espeak-ng)",
    )
    parser.add_argument(
        "--language",
        default=DEFAULT,
        choices=LANGUAGES,
        help=f"the host's language and the table's (default: {DEFAULT})",
    )


def run(args: argparse.Namespace) -> int:
    if args.speed < 0:
        print("mafiabot demo: --speed must be 0 or more", file=sys.stderr)
        return 2
    try:
        engine.composition(engine.load_ruleset(args.ruleset), args.players)
    except (engine.RulesetError, engine.IllegalCommand) as exc:  # a table size the rules do not deal for
        print(f"mafiabot demo: {exc}", file=sys.stderr)
        return 2
    language = args.language
    told = play(args.ruleset, args.players, args.seed, speed=args.speed, language=language)
    if args.voice is not None:
        ruleset = engine.load_ruleset(args.ruleset)
        try:
            seconds = write_voice(args.voice, told, player_names(args.players, language), ruleset, language)
        except (OSError, RuntimeError) as exc:
            print(text(language, "demo-voice-failed", why=str(exc)), file=sys.stderr)
            return 1
        print(
            text(language, "demo-voice-written", path=str(args.voice), seconds=round(seconds)),
            file=sys.stderr,
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mafiabot demo", description=DESCRIPTION)
    add_arguments(parser)
    return run(parser.parse_args(list(argv) if argv is not None else None))


DESCRIPTION = (
    "Play one game of simulated players in the terminal, paced for reading: the host's lines, and in "
    "brackets what only one player or the host learns. The players follow simple habits: the mafia never "
    "shoots its own, checkers do not recheck a seat, votes follow what the checks told."
)

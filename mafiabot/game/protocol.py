"""The protocol a judge signs (issue 19, item 4; FIIM.md F.14): one finished game's seats, roles, every
night's picks and checks, every day's nominations, votes with their voters, ties, the best move, fouls,
removals and the points, with the judge's extra points and who confirmed it.

How it is signed and verified: the protocol's body is written as canonical JSON (keys sorted, no spaces,
UTF-8); its SHA-256 is the protocol's fingerprint, posted in the game's channel when the judge confirms
it, and an Ed25519 signature over the same bytes is made with the bot's protocol key (PyNaCl). The file
carries the body, the fingerprint, the signature and the public half of the key. Anyone can check it:

    python -m mafiabot.game.protocol FILE [--key PUBLIC_KEY_HEX]

recomputes the fingerprint from the body, checks the signature, and with ``--key`` (the key
``/mafia judge key`` shows for the server's bot) that it was this bot that signed. The body holds the
game's commands too, so ``python -m engine replay`` replays it to the same events. Pure: no Discord.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from engine.errors import IllegalCommand
from engine.events import Event
from engine.kinds import fiim_scoring
from engine.record import play_record
from engine.state import GameState

FORMAT = "mafiabot-protocol/1"


@dataclass(frozen=True)
class Award:
    """The judge's extra points («доп. баллы», FIIM.md F.14, D-FI15) to one seat, with the reason."""

    seat: int
    points: float
    reason: str
    by: str = ""


def canonical(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def fingerprint(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(body)).hexdigest()


def new_key() -> str:
    """A fresh protocol key: the 32-byte Ed25519 seed in hex (kept by the bot, never in the repo)."""
    return bytes(SigningKey.generate()).hex()


def public_key(seed_hex: str) -> str:
    return bytes(SigningKey(bytes.fromhex(seed_hex)).verify_key).hex()


def sign(body: Mapping[str, Any], seed_hex: str) -> dict[str, Any]:
    """The signed file: the body, its SHA-256 and the Ed25519 signature over the canonical bytes."""
    key = SigningKey(bytes.fromhex(seed_hex))
    data = canonical(body)
    return {
        "format": FORMAT,
        "protocol": dict(body),
        "sha256": hashlib.sha256(data).hexdigest(),
        "signature": {
            "alg": "ed25519",
            "key": bytes(key.verify_key).hex(),
            "sig": key.sign(data).signature.hex(),
        },
    }


# What can be wrong with a file, by code: the CLI prints these; the bot says them from its catalogues
# («protocol-<code>» in mafiabot/locales).
PROBLEMS = {
    "fingerprint": "the fingerprint does not match the protocol: it was changed after it was signed",
    "other_key": "signed with another key than the one given",
    "not_protocol": "not a signed protocol",
    "signature": "the signature does not match the protocol",
    "replay": "the game's record does not replay to this protocol",
}


def problem(signed: Any, key_hex: str | None = None) -> tuple[str, str] | None:
    """What is wrong with a signed protocol as (code, detail), or None when its fingerprint and signature
    hold (and it is signed by ``key_hex`` when given)."""
    try:
        body = signed["protocol"]
        sig = signed["signature"]
        data = canonical(body)
        if hashlib.sha256(data).hexdigest() != signed["sha256"]:
            return "fingerprint", ""
        if key_hex is not None and sig["key"] != key_hex:
            return "other_key", str(sig["key"])
        VerifyKey(bytes.fromhex(sig["key"])).verify(data, bytes.fromhex(sig["sig"]))
    except (KeyError, TypeError, ValueError) as exc:
        return "not_protocol", f"{type(exc).__name__}: {exc}"
    except BadSignatureError:
        return "signature", ""
    return None


def verify(signed: Mapping[str, Any], key_hex: str | None = None) -> str | None:
    """What is wrong with a signed protocol, or None when its fingerprint and signature hold (and it is
    signed by ``key_hex`` when given)."""
    found = problem(signed, key_hex)
    if found is None:
        return None
    code, detail = found
    return PROBLEMS[code] + (f" ({detail})" if code == "not_protocol" else "")


def replays(body: Mapping[str, Any]) -> bool:
    """The protocol's own record, replayed through the engine with its awards, gives this very protocol:
    its seats, roles, log, result and points are what the rules decided (a signer that wrote them by
    hand, or an engine that now decides otherwise, is caught here)."""
    try:
        awards = [
            Award(int(a["seat"]), float(a["points"]), str(a["reason"]), str(a["by"])) for a in body["awards"]
        ]
        rebuilt = build(
            body["record"],
            awards,
            game_id=body["game_id"],
            confirmed_by=body["confirmed_by"],
            confirmed_at=body["confirmed_at"],
        )
    except Exception:  # whatever a record cannot replay with, it does not replay
        return False
    return canonical(rebuilt) == canonical(body)


# -- the body ----------------------------------------------------------------------------------------


def build(
    record: Mapping[str, Any],
    awards: Sequence[Award] = (),
    *,
    game_id: int = 0,
    confirmed_by: str = "",
    confirmed_at: str = "",
) -> dict[str, Any]:
    """The protocol of a finished game from its record (``records.game_record``/``stored_game_record``):
    replayed through the engine, so every line is what the rules decided."""
    rp = play_record(record)
    state, events = rp.state, rp.events
    if not state.over:
        raise IllegalCommand("A protocol is signed only once the game is over.", key="protocol-after-end")
    names = {int(p["seat"]): str(p.get("name", "")) for p in record.get("players", [])}
    seats = [
        {
            "seat": seat,
            "player": names.get(seat, ""),
            "user_id": next((str(p["user_id"]) for p in record.get("players", []) if p["seat"] == seat), ""),
            "role": state.role_of(seat),
            "side": state.ruleset.roles[state.role_of(seat)].side,
        }
        for seat in range(1, state.n_seats + 1)
    ]
    body: dict[str, Any] = {
        "game_id": game_id,
        "ruleset": state.ruleset.id,
        "options": sorted(state.ruleset.selected_options),
        "seats": seats,
        "result": {"winners": list(state.winners or ()), "draw": state.draw},
        "log": game_log(events),
        "awards": [{"seat": a.seat, "points": a.points, "reason": a.reason, "by": a.by} for a in awards],
        "points": points(state, events, names, awards),
        "record": dict(record),
        "confirmed_by": confirmed_by,
        "confirmed_at": confirmed_at,
    }
    return body


def points(
    state: GameState, events: Sequence[Event], names: Mapping[int, str], awards: Sequence[Award]
) -> list[dict[str, Any]]:
    """F.14 per seat where the preset has a scoring profile (fiim); the extra points are summed per seat."""
    extra: dict[int, float] = {}
    for a in awards:
        extra[a.seat] = round(extra.get(a.seat, 0.0) + a.points, 4)
    if not state.ruleset.params.get("scoring_profiles"):
        return [{"seat": seat, "extra": value, "total": value} for seat, value in sorted(extra.items())]
    players = [names.get(seat, str(seat)) for seat in range(1, state.n_seats + 1)]
    scored = fiim_scoring.score_game(state, events, players, extra)
    return [
        {
            "seat": sc.seat,
            "won": sc.won,
            "win": sc.win_points,
            "best_move": sc.best_move,
            "penalty": sc.penalty,
            "extra": sc.extra,
            "first_night_victim": sc.first_night_victim,
            "total": sc.total,
        }
        for sc in scored
    ]


_LOGGED = {
    "proposal": lambda d: {"pick": d["seat"], "target": d["target"]},
    "action": lambda d: {"by": d.get("seat", d.get("team")), "step": d["step"], "targets": d["targets"]},
    "check": lambda d: {"by": d["seat"], "target": d["target"], "result": d["result"]},
    "killed": lambda d: {"seat": d["seat"]},
    "nominated": lambda d: {"by": d["seat"], "target": d["target"]},
    "nomination_withdrawn": lambda d: {"by": d["by"], "target": d["seat"]},
    "voted": lambda d: {"voter": d["seat"], "candidate": d["candidate"]},
    "abstainers_added": lambda d: {"voters": d["seats"], "candidate": d["candidate"]},
    "vote_count": lambda d: {"candidate": d["candidate"], "count": d["count"]},
    "ballot_decided": lambda d: {"skipped": d["skipped"]},
    "tie": lambda d: {"seats": d["seats"]},
    "lift_count": lambda d: {"yes": d["count"], "of": d["eligible"], "passed": d["passed"]},
    "executed": lambda d: {"seat": d["seat"]},
    "lone_nominee": lambda d: {"seat": d["seat"]},
    "best_move": lambda d: {"seat": d["seat"], "seats": d["seats"]},
    "on_record": lambda d: {"by": d["seat"], "targets": d["targets"], "colours": d["colours"]},
    "foul": lambda d: {"seat": d["seat"], "count": d["count"], "reason": d["reason"]},
    "removed": lambda d: {"seat": d["seat"], "reason": d.get("reason", "")},
    "victory_awarded": lambda d: {"seat": d["seat"], "winners": d["winners"]},
    "no_elimination": lambda d: {"reason": d["reason"]},
    "quiet_draw": lambda d: {"rounds": d["rounds"]},
}


def game_log(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The game as the judge's sheet has it, each entry with its phase: «ночь 0» is the meeting (D-FI3),
    day n follows night n−1."""
    log: list[dict[str, Any]] = []
    nights, days = -1, 0
    phase = ""
    for ev in events:
        if ev.type == "announce" and ev.data.get("key") in ("night_falls", "intro_night_falls"):
            nights += 1
            phase = f"night {nights}"
        elif ev.type == "announce" and ev.data.get("key") == "day_breaks":
            days += 1
            phase = f"day {days}"
        make = _LOGGED.get(ev.type)
        if make is not None:
            log.append({"phase": phase, "event": ev.type, **make(ev.data)})
    return log


def tournament_table(
    bodies: Sequence[Mapping[str, Any]], profile: str | None = None
) -> list[fiim_scoring.Standing]:
    """The standings of a tournament from its games' signed protocols (FIIM.md F.14 via
    ``fiim_scoring.standings``: every game replayed from its record, the judge's extra points added, Ci
    where the preset turns it on); a player is known by his Discord id and shown by his last name."""
    games = []
    names: dict[str, str] = {}
    for body in bodies:
        rp = play_record(body["record"])
        ids = [str(s["user_id"] or s["player"]) for s in body["seats"]]
        for s, uid in zip(body["seats"], ids, strict=True):
            names[uid] = str(s["player"] or uid)
        extra: dict[int, float] = {}
        for a in body["awards"]:
            extra[int(a["seat"])] = round(extra.get(int(a["seat"]), 0.0) + float(a["points"]), 4)
        games.append(fiim_scoring.TournamentGame(ids, rp.state, rp.events, extra))
    table = fiim_scoring.standings(games, profile)
    return [replace(row, player=names[row.player]) for row in table]


def stored_standings(storage: Any, tournament: Any) -> list[fiim_scoring.Standing]:
    """A stored tournament's standings from its confirmed games' protocols (blocking: run it in a thread;
    every game is replayed). What `/mafia tournament table` and the web pages show."""
    bodies = [p.signed["protocol"] for p in storage.tournament_protocols(int(tournament.id))]
    return tournament_table(bodies, tournament.scoring) if bodies else []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mafiabot.game.protocol", description=__doc__)
    parser.add_argument("file", type=Path)
    parser.add_argument("--key", help="the bot's public protocol key (hex), from /mafia judge key")
    args = parser.parse_args(argv)
    signed = json.loads(args.file.read_text(encoding="utf-8"))
    wrong = verify(signed, args.key)
    if wrong is None and not replays(signed["protocol"]):
        wrong = PROBLEMS["replay"]
    if wrong:
        print(f"NOT VALID: {wrong}", file=sys.stderr)
        return 1
    body = signed["protocol"]
    print(f"valid: game {body.get('game_id')} ({body.get('ruleset')}), sha256 {signed['sha256']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

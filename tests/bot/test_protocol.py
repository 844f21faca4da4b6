"""The protocol a judge signs (mafiabot.game.protocol, issue 19 item 4): built from a finished game's
record by replaying it, its points by FIIM.md F.14, signed with Ed25519 over canonical JSON; any change of
the body, the fingerprint or the key is caught by the verifier."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import load_ruleset
from engine.errors import IllegalCommand
from engine.simulate import play_random_game
from mafiabot.game import protocol
from mafiabot.game.protocol import Award


def _record(seed: int, finished: bool = True) -> dict:  # type: ignore[type-arg]
    game = play_random_game(load_ruleset("fiim"), 10, seed)
    commands = game.commands if finished else game.commands[: len(game.commands) // 2]
    return {
        "ruleset": "fiim",
        "options": {},
        "seed": seed,
        "seats": list(game.roles),
        "players": [{"seat": i, "user_id": str(1000 + i), "name": f"игрок{i}"} for i in range(1, 11)],
        "commands": [c.to_json() for c in commands],
    }


def test_the_protocol_holds_the_game_and_its_points() -> None:
    record = _record(3)
    awards = [
        Award(seat=2, points=0.3, reason="лучший игрок", by="судья"),
        Award(seat=2, points=-0.1, reason="x"),
    ]
    body = protocol.build(
        record, awards, game_id=7, confirmed_by="судья", confirmed_at="2026-12-01T17:00:00Z"
    )
    assert [s["seat"] for s in body["seats"]] == list(range(1, 11))
    assert sorted(s["role"] for s in body["seats"]) == sorted(record["seats"])
    winners = set(body["result"]["winners"])
    for row in body["points"]:
        side = body["seats"][row["seat"] - 1]["side"]
        assert row["won"] is (side in winners)
        assert row["win"] == (1.0 if side in winners else 0.0)
    assert next(r for r in body["points"] if r["seat"] == 2)["extra"] == pytest.approx(0.2)
    events = {e["event"] for e in body["log"]}
    assert {"proposal", "voted", "nominated"} & events
    phases = {e["phase"] for e in body["log"]}
    assert all(p.split()[0] in ("night", "day") for p in phases)
    assert {e["phase"] for e in body["log"] if e["event"] == "proposal"} <= {
        f"night {n}" for n in range(1, 20)
    }
    assert body["record"]["commands"] == record["commands"]  # replayable as a game record
    assert body["awards"][0] == {"seat": 2, "points": 0.3, "reason": "лучший игрок", "by": "судья"}


def test_an_unfinished_game_has_no_protocol() -> None:
    with pytest.raises(IllegalCommand):
        protocol.build(_record(3, finished=False))


def test_the_signature_holds_and_any_change_is_caught(tmp_path: Path) -> None:
    key = protocol.new_key()
    signed = protocol.sign(protocol.build(_record(5)), key)
    assert protocol.verify(signed) is None
    assert protocol.verify(signed, protocol.public_key(key)) is None
    assert protocol.verify(signed, protocol.public_key(protocol.new_key())) is not None
    changed = copy.deepcopy(signed)
    changed["protocol"]["points"][0]["total"] += 1
    assert "fingerprint" in str(protocol.verify(changed))
    changed["sha256"] = protocol.fingerprint(changed["protocol"])
    assert "signature" in str(protocol.verify(changed))
    path = tmp_path / "protocol.json"
    path.write_text(json.dumps(signed, ensure_ascii=False), encoding="utf-8")
    assert protocol.main([str(path), "--key", protocol.public_key(key)]) == 0
    path.write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
    assert protocol.main([str(path)]) == 1


def test_the_fingerprint_is_of_the_canonical_bytes() -> None:
    a = {"b": 1, "a": "й"}
    assert protocol.canonical(a) == '{"a":"й","b":1}'.encode()
    assert protocol.fingerprint(a) == protocol.fingerprint({"a": "й", "b": 1})


def test_a_protocol_is_replayed_from_its_own_record(tmp_path: Path) -> None:
    """The body carries the game's commands: replayed through the engine with its awards they give the
    very same protocol; a body whose log or points were written otherwise (then signed) does not."""
    awards = [Award(seat=4, points=0.2, reason="лучший игрок", by="судья")]
    body = protocol.build(_record(8), awards, game_id=3, confirmed_by="судья", confirmed_at="t")
    assert protocol.replays(json.loads(json.dumps(body)))  # as read back from the file
    key = protocol.new_key()
    forged = copy.deepcopy(body)
    forged["points"][0]["total"] += 1  # a signer who wrote the points by hand
    signed = protocol.sign(forged, key)
    assert protocol.verify(signed) is None and not protocol.replays(signed["protocol"])
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(signed, ensure_ascii=False), encoding="utf-8")
    assert protocol.main([str(path)]) == 1
    broken = copy.deepcopy(body)
    broken["record"]["commands"] = broken["record"]["commands"][:3]
    assert not protocol.replays(broken)
    assert protocol.problem({"protocol": {}}) == ("not_protocol", "KeyError: 'signature'")

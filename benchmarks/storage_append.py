"""What storing one command costs: the group commit's write (`Storage.write_batch`) with one command per
transaction (a quiet bot) and with many (a loaded one). Run by hand, not a test.

python benchmarks/storage_append.py [--database sqlite|postgresql] [--commands 300] [--batch 100]

PostgreSQL comes from MAFIABOT_TEST_POSTGRES_URL (a scratch database is made and dropped). Wall time
includes the commit's wait for the disk (SQLite: WAL, synchronous=FULL; PostgreSQL: synchronous_commit
on); CPU is this process's.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mafiabot.storage import Storage


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()
    drop = None
    if args.database == "postgresql":
        import sqlalchemy as sa
        from sqlalchemy.engine import make_url

        base = make_url(os.environ["MAFIABOT_TEST_POSTGRES_URL"])
        name = f"mafiabot_append_{uuid.uuid4().hex[:8]}"
        admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
        url = base.set(database=name).render_as_string(hide_password=False)

        def drop() -> None:
            with admin.connect() as connection:
                connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
    else:
        url = f"sqlite:///{tempfile.mkdtemp()}/append.db"
    storage = Storage.open(url)
    try:
        games = [
            storage.create_game(
                guild_id=1, voice_channel_id=2 + i, text_channel_id=3, ruleset_id="classic", seed=i
            )
            for i in range(args.batch)
        ]
        command = {"type": "pass", "seat": 3, "at": 1764590000.0}
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(args.commands):
            storage.write_batch([(games[i % len(games)].id, command)], {})
        one = (time.perf_counter() - wall) / args.commands, (time.process_time() - cpu) / args.commands
        rounds = max(1, args.commands // args.batch)
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(rounds):
            storage.write_batch([(g.id, command) for g in games], {})
        many = (
            (time.perf_counter() - wall) / (rounds * len(games)),
            (time.process_time() - cpu) / (rounds * len(games)),
        )
        print(
            f"{args.database}: one command per transaction {one[0] * 1000:.2f} ms wall, "
            f"{one[1] * 1000:.2f} ms CPU; {len(games)} per transaction {many[0] * 1000:.3f} ms wall, "
            f"{many[1] * 1000:.3f} ms CPU per command"
        )
    finally:
        storage.close()
        if drop is not None:
            drop()


if __name__ == "__main__":
    main()

"""Lobbies are stored (a game row with status ``lobby``, its players in ``lobby_members``); the unused
``pending_unmutes`` table goes (the voice ledger took its rows in 0003).

Revision ID: 0005
Revises: 0004_judging
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004_judging"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "lobby_members",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
    )
    # Nothing has written pending_unmutes since 0003, but a member it still names is owed his voice.
    op.execute(
        "INSERT INTO voice_mutes (guild_id, user_id, game_id, voice_channel_id, text_channel_id,"
        " original_mute, state, failure, told, created_at, updated_at)"
        " SELECT p.guild_id, p.user_id, NULL, 0, 0, false, 'give_back', NULL, false, p.created_at,"
        " p.created_at FROM pending_unmutes p WHERE NOT EXISTS (SELECT 1 FROM voice_mutes v"
        " WHERE v.guild_id = p.guild_id AND v.user_id = p.user_id)"
    )
    op.drop_table("pending_unmutes")


def downgrade() -> None:
    op.create_table(
        "pending_unmutes",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.drop_table("lobby_members")
    # Before 0005 nothing knows stored lobbies or the "over" status: lobbies go, an over game runs (and closes
    # on the next start, from its log).
    op.execute("DELETE FROM games WHERE status = 'lobby'")
    op.execute("UPDATE games SET status = 'running' WHERE status = 'over'")

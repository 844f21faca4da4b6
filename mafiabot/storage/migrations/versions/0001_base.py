"""Base tables: players, seasons, games with their command log, participants, fouls, rating changes.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.UniqueConstraint("guild_id", "user_id", name="uq_players_guild_user"),
    )
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.UniqueConstraint("guild_id", "number", name="uq_seasons_guild_number"),
    )
    op.create_index("ix_seasons_guild_id", "seasons", ["guild_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("season_id", sa.Integer(), sa.ForeignKey("seasons.id"), nullable=False),
        sa.Column("voice_channel_id", sa.BigInteger(), nullable=False),
        sa.Column("text_channel_id", sa.BigInteger(), nullable=False),
        sa.Column("ruleset_id", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("end_reason", sa.String(length=200), nullable=True),
        sa.Column("winners", sa.JSON(), nullable=False),
    )
    op.create_index("ix_games_guild_status", "games", ["guild_id", "status"])
    op.create_index("ix_games_season_id", "games", ["season_id"])
    op.create_table(
        "game_commands",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "participants",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("role_id", sa.String(length=40), nullable=False),
        sa.Column("side_id", sa.String(length=40), nullable=False),
        sa.Column("result", sa.String(length=10), nullable=True),
        sa.Column("fouls", sa.Integer(), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("removed", sa.Boolean(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("game_id", "seat", name="uq_participants_game_seat"),
    )
    op.create_index("ix_participants_user", "participants", ["user_id"])
    op.create_table(
        "fouls",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("given_by", sa.BigInteger(), nullable=True),
        sa.Column("given_at", sa.DateTime(), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("automatic", sa.Boolean(), nullable=False),
        sa.Column("withdrawn_by", sa.BigInteger(), nullable=True),
        sa.Column("withdrawn_at", sa.DateTime(), nullable=True),
        sa.Column("withdrawn_reason", sa.String(length=200), nullable=True),
    )
    op.create_index("ix_fouls_game", "fouls", ["game_id"])
    op.create_index("ix_fouls_user_id", "fouls", ["user_id"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("season_id", sa.Integer(), sa.ForeignKey("seasons.id"), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("track", sa.String(length=20), nullable=False),
        sa.Column("delta", sa.Float(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index(
        "ix_rating_changes_board", "rating_changes", ["guild_id", "season_id", "track", "user_id"]
    )
    op.create_index("ix_rating_changes_game_id", "rating_changes", ["game_id"])


def downgrade() -> None:
    for table in ("rating_changes", "fouls", "participants", "game_commands", "games", "seasons", "players"):
        op.drop_table(table)

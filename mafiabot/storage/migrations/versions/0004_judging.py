"""The judge's records (issue 19): extra points, signed protocols, the bot's protocol key, tournaments.

Revision ID: 0004_judging
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision: str = "0004_judging"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "judge_awards",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("given_by", sa.BigInteger(), nullable=False),
        sa.Column("given_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_judge_awards_game", "judge_awards", ["game_id"])
    op.create_table(
        "game_protocols",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True, autoincrement=False),
        sa.Column("confirmed_by", sa.BigInteger(), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("signed", sa.JSON(), nullable=False),
    )
    op.create_table(
        "signing_keys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("judge_id", sa.BigInteger(), nullable=False),
        sa.Column("scoring", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_tournaments_guild", "tournaments", ["guild_id"])
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("position", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_index("ix_tournaments_guild", table_name="tournaments")
    op.drop_table("tournaments")
    op.drop_table("signing_keys")
    op.drop_table("game_protocols")
    op.drop_index("ix_judge_awards_game", table_name="judge_awards")
    op.drop_table("judge_awards")

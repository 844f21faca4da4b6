"""A tournament's seating schedule (issue 19: «seats fixed per game, or drawn»): how it was drawn, and
every scheduled game's places.

Revision ID: 0006_schedule
Revises: 0005
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision: str = "0006_schedule"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_schedules",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("seating", sa.String(10), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "tournament_seats",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("game_no", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("position", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_seats")
    op.drop_table("tournament_schedules")

"""State a restarted bot needs: game timers, pending unmutes; and per-guild settings.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Games created before this revision get empty timers: they resume with fresh phase deadlines.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("timers", sa.JSON(), server_default=sa.text("'{}'"), nullable=False))
    op.create_table(
        "pending_unmutes",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("host_role_id", sa.BigInteger(), nullable=True),
        sa.Column("volume", sa.Float(), nullable=False),
        sa.Column("audio_enabled", sa.Boolean(), nullable=False),
        sa.Column("ruleset_defaults", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("guild_settings")
    op.drop_table("pending_unmutes")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("timers")

"""The voice ledger: every member whose server mute the bot changed, stored before the change.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "voice_mutes",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("voice_channel_id", sa.BigInteger(), nullable=False),
        sa.Column("text_channel_id", sa.BigInteger(), nullable=False),
        sa.Column("original_mute", sa.Boolean(), nullable=False),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("failure", sa.String(200), nullable=True),
        sa.Column("told", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_voice_mutes_game", "voice_mutes", ["game_id"])
    # A pending unmute of the old list is a member owed his voice: the ledger owes it now.
    op.execute(
        "INSERT INTO voice_mutes (guild_id, user_id, game_id, voice_channel_id, text_channel_id,"
        " original_mute, state, failure, told, created_at, updated_at)"
        " SELECT guild_id, user_id, NULL, 0, 0, false, 'give_back', NULL, false, created_at, created_at"
        " FROM pending_unmutes"
    )


def downgrade() -> None:
    op.drop_index("ix_voice_mutes_game", "voice_mutes")
    op.drop_table("voice_mutes")

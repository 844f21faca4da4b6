"""What the bot keeps about itself (the fingerprint of the commands it last published).

Revision ID: 0007_bot_state
Revises: 0006_schedule
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision: str = "0007_bot_state"
down_revision: str | None = "0006_schedule"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "bot_state",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_state")

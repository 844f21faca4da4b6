"""What the bot keeps about itself, one short value a key (table ``bot_state``)."""

from __future__ import annotations

from datetime import datetime

from mafiabot.storage.base import StorageBase
from mafiabot.storage.models import BotState


class BotStateMixin(StorageBase):
    def bot_value(self, key: str) -> str | None:
        with self._session() as session:
            row = session.get(BotState, key)
            return None if row is None else row.value

    def set_bot_value(self, key: str, value: str, at: datetime | None = None) -> None:
        with self._session() as session:
            row = session.get(BotState, key)
            if row is None:
                session.add(BotState(key=key, value=value, updated_at=self._now(at)))
            else:
                row.value, row.updated_at = value, self._now(at)
                session.add(row)

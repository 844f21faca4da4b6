# The voice side (mafiabot/game/reconciler.py, voice.py, speaker.py): a member left muted, the audit
# log's reasons, a voice channel the bot cannot join.

unmute-failed = ⚠️ Не удалось вернуть микрофон: { $who } — { $why }. Бот вернёт его сам, как только сможет (или снимите заглушение вручную).
unmute-failed-no-permission = у бота нет права «Отключать участникам микрофон»
unmute-failed-http = Discord ответил ошибкой { $status }
audit-mute = Мафия: ход игры
audit-unmute = Мафия: возвращаем микрофон
voice-e2ee-required = Discord пускает в голос только со сквозным шифрованием (DAVE), а боту нечем: нужен пакет davey
# A withdrawn foul's commands taken out of a running game (mafiabot/game/session.py).
withdraw-not-replayed = Снять это замечание в идущей игре нельзя: запись игры не воспроизводится.
withdraw-too-late = Снять это замечание в идущей игре нельзя: игра уже пошла дальше с его последствиями.

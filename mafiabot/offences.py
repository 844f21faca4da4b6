"""The rulebook's offences (RULESETS.md 9.1, D-F2–D-F6): a foul's, a removal's and a leaving penalty's
reasons, by id, in the rulebook's own words.

The words are Russian on purpose, and do two jobs. They are the conduct commands' choices as Discord
shows them by default: Discord localises a choice by each member's client language, and every client but a
Russian or Ukrainian one reads the English (commands.ftl ``choice-<id>``, mafiabot/commands_i18n.py). And
they are what a foul is stored as («Маты: громко», with the moderator's note), the record a club keeps;
wherever a stored reason is shown, :func:`stored_reason_shown` says it in the server's language.
"""

from __future__ import annotations

from mafiabot.i18n import DEFAULT, has, text

# RULESETS.md 9.1: «За обращение к ведущему, речь не в свою минуту, религиозный или политический контекст
# речи, крики, оскорбления, маты, неадекватное поведение, клятвы, споры, угрозы – замечание» and «За
# выставление себя на голосование, голосование за себя, повторное голосование, отрыв руки при голосовании,
# ссылки на ночные ощущения, жестикуляцию во время голосования – замечание».
FOUL_REASONS: dict[str, str] = {
    "speech_out_of_turn": "Речь не в свою минуту",
    "addressing_host": "Обращение к ведущему",
    "religion_politics": "Религиозный или политический контекст",
    "shouting": "Крики",
    "insults": "Оскорбления",
    "swearing": "Маты",
    "misconduct": "Неадекватное поведение",
    "oath": "Клятвы",
    "argument": "Споры",
    "threats": "Угрозы",
    "self_nomination": "Выставление себя на голосование",
    "self_vote": "Голосование за себя",
    "second_vote": "Повторное голосование",
    "hand_off": "Отрыв руки при голосовании",
    "night_sensations": "Ссылки на ночные ощущения",
    "vote_gestures": "Жестикуляция во время голосования",
    "technical": "Технический фол",  # FIIM D-FI16: counts as a foul, named apart in the game's log
    "other": "Другое",
}
# Offences only the bot itself sees (D-F2: messages in the game channel from a player without the floor).
AUTO_REASONS: dict[str, str] = {
    "text_at_night": "Сообщение в канале игры ночью",
    "text_out_of_turn": "Сообщение в канале игры не в свою минуту",
}

# 9.1: «За речь после объявления ночи, клятвы, споры/пари, некорректное поведение, …, попытки подсмотреть
# ночью, жестикуляцию ночью, прикосновение к игроку, …, шантаж, слёзы, покидание игрового стола – удаление
# из текущей игры»; D-F4 (deliberate fouls) and D-F6 (a confession of being mafia).
REMOVAL_REASONS: dict[str, str] = {
    "night_speech": "Речь после объявления ночи",
    "oath": "Клятвы",
    "argument": "Споры, пари",
    "misconduct": "Некорректное поведение",
    "peeking": "Попытка подсмотреть ночью",
    "night_gestures": "Жестикуляция ночью",
    "touching": "Прикосновение к игроку ночью",
    "blackmail": "Шантаж",
    "tears": "Слёзы",
    "left": "Покинул игровой стол",
    "deliberate": "Намеренно набирал замечания, чтобы покинуть стол",
    "confession": "Признался, что он мафия",
    "other": "Другое",
}
# Removals that count as leaving the game before its end (D-F4: −5 in the rating).
LEAVING = frozenset({"left", "deliberate"})

# D-F3: «За открытую договоренность с обсуждением «кому отдать победу» … После того, как игрок покинул
# стол, ему нельзя говорить на тему текущей игры рядом с игровым столом».
PENALTY_REASONS: dict[str, str] = {
    "arranged_victory": "Открытая договорённость «кому отдать победу»",
    "talk_after_removal": "Разговор о текущей игре после удаления",
    "other": "Другое",
}


def reason_label(reason: str) -> str:
    return FOUL_REASONS.get(reason) or AUTO_REASONS.get(reason) or reason


def reason_shown(language: str, reason: str, label: str) -> str:
    """A foul's reason as the table reads it: the rulebook's words in Russian (``label``), the commands'
    English choice names (commands.ftl) or the bot's own reasons (conduct.ftl) elsewhere."""
    if language == DEFAULT:
        return label
    for key in (f"choice-{reason}", f"reason-{reason}"):
        if has(language, key):
            return text(language, key)
    return label


# A stored reason's words back to its id (a removal's «Клятвы» is a foul's too: the same id).
_BY_WORDS = {
    words: reason
    for table in (FOUL_REASONS, AUTO_REASONS, REMOVAL_REASONS, PENALTY_REASONS)
    for reason, words in table.items()
}


def stored_reason_shown(language: str, stored: str) -> str:
    """A stored foul's reason («Маты: громко»: the rulebook's words, then the moderator's note) in
    ``language``: «Swearing: громко». A reason the bot did not word (an older row's) is shown as stored."""
    words, colon, note = stored.partition(": ")
    reason = _BY_WORDS.get(words)
    return stored if reason is None else reason_shown(language, reason, words) + colon + note

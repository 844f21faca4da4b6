# The club rules' notices at the table (mafiabot/cogs/_conduct_record.py, _conduct_parts.py).

conduct-auto-foul = 🤖 Автоматическое замечание игроку №{ $seat } ({ $name }): { $reason }.
conduct-auto-foul-record = 🤖 Автоматическое замечание игроку №{ $seat } ({ $name }): { $reason }. Запись №{ $record }; ведущий может снять его кнопкой ниже или `/mafia conduct withdraw`.
conduct-left = 🚪 Игрок №{ $seat } ({ $name }) покинул голосовой канал и удалён из-за стола: минус пять баллов в рейтинге.
conduct-forgiven-post = Штраф за уход снят: игрок №{ $seat } выбыл без минус пяти баллов.
conduct-forgiven = Штраф за уход снят.
conduct-over = Игра уже окончена: штраф остаётся в рейтинге.
conduct-moderators = Это может сделать тот, кто начал игру, или ведущий с ролью ведущего.
conduct-no-database = Без базы данных рейтинга нет.
reason-text_at_night = Сообщение в канале игры ночью
reason-text_out_of_turn = Сообщение в канале игры не в свою минуту

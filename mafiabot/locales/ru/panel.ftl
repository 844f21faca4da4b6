# The game panel (mafiabot/game/panel.py) and its controls (components.py).

panel-over = Игра окончена.
panel-title = **{ $phase }** — { $step }{ $timer }
panel-until = { " · " }до { $when }
panel-paused = { " · " }пауза
panel-ten-left = { " · " }⏳ осталось десять секунд
panel-alive = За столом: { $seats }
phase-numbered = { $name } { $number }
phase-intro = { $name } (вводный)

step-speech = Говорит игрок №{ $seat }
# A speech handed over by a phrase of its own (its id after «step-speech-»: panel.py), in that phrase's
# words: the hand-over is not posted as a line, the panel says it (issue 18).
step-speech-cl_last_word = Последнее слово игрока №{ $seat }
step-speech-fiim_last_word = Последнее слово игрока №{ $seat }
step-speech-city_farewell = Прощальная речь игрока №{ $seat }
step-speech-city_defence_turn = Оправдательная речь игрока №{ $seat }
step-discussion = Свободное обсуждение
step-nominations = Выдвижение кандидатур
step-vote = Голосование: игрок №{ $seat }
step-tiebreak = Решающий голос игрока №{ $seat }
step-question = Вопрос маньяку
step-night = { $phase }
step-meet = { $phase }: знакомство
step-lift = Голосование: покинуть стол вместе?
step-acquittal = Осуждён игрок №{ $seat }
step-court = Суд судей: игрок №{ $seat }
step-court_choice = Суд выбирает среди помилованных
step-golden = Золотая минута: кандидаты могут взять слово
step-bets = Пари: кто мафия?
step-two_cards = Мафия — закрытая карта или соперник?

seat-out = выбыл
seat-speaks = 🎙️ говорит
seat-on-ballot = ✋ голосование
seat-nominated = выставлен
seat-fouls = { $count ->
    [one] { $count } фол
    [few] { $count } фола
   *[many] { $count } фолов
}

control-role = Моя роль
control-turn = Мой ход
control-pass = Пас
control-nominate = Выставить кандидатуру
control-vote = Голосую: №{ $seat } { $name }
control-unvote = Снять голос
control-yes = Да
control-no = Нет
control-skip = Пропустить
control-target = Выберите игрока
control-team-target = Цель команды
control-tiebreak = Кого исключить?
seat-option = №{ $seat } { $name }

prompt-question = Вы играете за мирных жителей? Ответ будет объявлен всем.
prompt-tiebreak = Ваш голос решающий.
prompt-your-turn = { $role }, ваш ход. Выберите игрока.
countdown-ten = ⏳ Осталось десять секунд.

# The presets' own controls (mafiabot/game/preset_controls.py).
control-nominees = Кто выставлен?
control-permit = Разрешаю говорить…
control-forbid = Запрещаю говорить…
control-lift = За то, чтобы { $seats } покинули стол
control-golden = Взять золотую минуту
control-bet = Пари: мафия — игрок…
control-card-hidden = Мафия — закрытая карта
control-card-opponent = Мафия — соперник
control-act-kill = Убить
control-act-check = Проверить
control-act-other = Выбрать
control-act-one = { $verb }: игрока
control-act-two = { $verb }: двух игроков
control-mafia-target = Цель мафии
control-best-move = Лучший ход: три игрока
control-acquit = Оправдать №{ $seat }
control-execute = Казнить
control-pardon = Помиловать
control-withdraw = Отозвать кандидатуру
control-suggest = Предложить дону…
prompt-suggest = { $role }, цель мафии назначает дон (№{ $leader }). Вы можете предложить ему игрока: предложение видит ваша команда, решает дон.
control-court-pick = Кого казнить?
seat-number = №{ $seat }
panel-immunity = Иммунитет: { $seats }
prompt-choose-act = { $role }, ваш ход. Выберите одно действие: { $acts }
prompt-act-or = { " " }или{ " " }
prompt-act-name = «{ $act }»
prompt-choose-two = { $role }, ваш ход. Выберите двух игроков.
prompt-designate = Дон, ваш выбор назначает цель мафии: выберите игрока.
prompt-best-move = Лучший ход: назовите трёх игроков, которых вы считаете чёрными.
prompt-acquittal = Игрок №{ $seat } осуждён. Вы можете его оправдать (раз в день).
prompt-court = Суд решает судьбу игрока №{ $seat }.
prompt-court-choice = Суд обязан казнить одного из помилованных сегодня. Ваш выбор:

# The table's notes in the game's channel (mafiabot/game/table.py).
table-no-mute-permission = ⚠️ Боту не хватает права «Отключать участникам микрофон» в голосовом канале.
table-record = Протокол игры:
table-record-not-attached = ⚠️ Протокол игры не приложен: боту не хватает права «Прикреплять файлы» в этом канале.
table-nick-reason = Мафия: номер места
table-nick-back-reason = Мафия: игра окончена
table-nick-not-numbered = ℹ️ Номер места не добавлен в ник: { $seats } (владелец сервера или роль выше роли бота).
table-voice-failed = 🔇 Не удалось подключиться к голосовому каналу ({ $why }): ведущий будет писать текстом.
table-seating-title = **Рассадка**
table-seating-row = №{ $seat } — <@{ $user }>
table-seating-dealt = Роли розданы: нажмите «Моя роль», копия — в личных сообщениях.
table-seating-scheduled = Места — по расписанию турнира «{ $name }», игра { $game }.
table-restarted = Бот перезапущен: игра продолжается с того же места.
table-ended-while-down = Игра закончилась, пока бот был недоступен: итоги ниже.
rating-game-title = **Рейтинг за игру**
rating-game-row = №{ $seat } { $name }: { $points }
rating-game-row-elo = №{ $seat } { $name }: { $points }, Эло { $elo }

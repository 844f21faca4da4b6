# The game panel (mafiabot/game/panel.py) and its controls (components.py).

panel-over = Игра окончена.
panel-title = **{ $phase }** — { $step }{ $timer }
panel-until = { " · " }до { $when }
panel-paused = { " · " }пауза
panel-alive = За столом: { $seats }
phase-numbered = { $name } { $number }
phase-intro = { $name } (вводный)

step-speech = Говорит игрок №{ $seat }
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

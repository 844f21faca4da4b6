# The judge's and the tournament's answers (mafiabot/cogs/judge.py).

judge-colours-unclear = Не понимаю «{ $part }»: пишите номер и цвет, например «3ч 5к».
judge-colours-none = Назовите хотя бы одного игрока, например «3ч».
judge-no-database = База данных недоступна: судейские записи сейчас не сохранить.
judge-server-only = Эта команда работает только на сервере.
judge-not-judge = Это может сделать судья: тот, кто начал игру, ведущий с ролью ведущего или судья турнира.
judge-no-finished-game = В этом канале нет законченной игры.
judge-no-such-game = Игры #{ $game } на этом сервере нет.
judge-not-finished = Игра #{ $game } не окончена по правилам: её результат не подтверждают.
judge-recorded = Записано под протокол от игрока №{ $seat }.
judge-no-extra-points = В этих правилах нет дополнительных баллов (они есть в «Спортивной мафии»).
judge-no-seat = За столом нет места №{ $seat }.
judge-points-final = Результат игры #{ $game } уже подтверждён: баллы не записаны, они окончательны.
judge-points-late = Результат игры #{ $game } уже подтверждён: баллы не записаны.
judge-points-given = Игра #{ $game }: игроку №{ $seat } { $points } ({ $reason }); всего доп. баллов у него { $total }.
judge-confirmed-already = Результат игры #{ $game } уже подтверждён.
judge-confirmed = Судья { $judge } подтвердил результат игры #{ $game }.
judge-confirmed-seat = №{ $seat } { $name }: { $total }
judge-confirmed-sha = SHA-256 протокола: `{ $sha }`
judge-key = Ключ протоколов (Ed25519): `{ $public }`
    Проверка файла: `python -m mafiabot.game.protocol ФАЙЛ --key КЛЮЧ`.
tournament-table-title = **Турнир «{ $name }»**
tournament-table-head = №  игрок                игры  поб.  итого  (ЛХ, доп., штр.)
tournament-table-empty = **Турнир «{ $name }»**: подтверждённых игр пока нет.
tournament-start-not-allowed = Турнир открывает тот, кто управляет сервером, или ведущий с ролью ведущего.
tournament-already-open = На сервере уже идёт турнир «{ $name }»: сначала /mafia tournament end.
tournament-other-open = Турнир не открыт: на сервере уже идёт другой.
tournament-opened = Открыт турнир «{ $name }». Судья: { $judge }. Каждая игра «Спортивной мафии», результат которой судья подтвердит (/mafia judge confirm), входит в таблицу.
tournament-scoring-fiim_mr19 = Очки по профилю ФИИМ (mafiaratings №19): победа +1, лучший ход +0.4 / +0.25, −0.5 за четыре фола или удаление, доп. баллы судьи.
tournament-scoring-fiim_mr19_ci = Очки по профилю ФИИМ (mafiaratings №19) и компенсация Ci красным, отстрелянным в первую ночь в проигранной игре.
tournament-no-scoring = Нет такого подсчёта очков: { $scoring }.
tournament-never = На этом сервере турниров ещё не было (/mafia tournament start).
tournament-none-open = Открытого турнира нет.
tournament-closed = Турнир закрыт.

# «Спортивная мафия» (FIIM, docs/rules/FIIM.md): what the panel and the judge's commands say of fiim's own
# steps. One file of its own so that the other catalogues' moves do not meet it.

# D-FI8: a player with three fouls has no speech; his turn is a few seconds to nominate only.
step-nomination_turn = Игрок №{ $seat } без речи (фолы): может только выставить кандидатуру
seat-nominates-only = 🔇 без речи, только выставление

# The tournament's seating schedule (/mafia tournament schedule | seating; FIIM.md F.2, [MR 4.2]).
tournament-schedule-no-tournament = Открытого турнира нет: сначала /mafia tournament start.
tournament-schedule-no-mentions = Назовите игроков упоминаниями (@игрок) или не указывайте никого: тогда в расписание войдут все в вашем голосовом канале.
tournament-schedule-no-voice = Назовите игроков упоминаниями (@игрок) или зайдите в голосовой канал с ними.
tournament-schedule-too-few = Названо { $count ->
    [one] { $count } игрок
    [few] { $count } игрока
   *[many] { $count } игроков
}, а за столом { $seats } мест: для расписания нужно не меньше { $seats }.
tournament-schedule-not-member = Участника с id { $id } на сервере нет.
tournament-schedule-none = У турнира «{ $name }» нет расписания рассадки (/mafia tournament schedule).
tournament-schedule-head = **Турнир «{ $name }»: рассадка на { $games ->
    [one] { $games } игру
    [few] { $games } игры
   *[many] { $games } игр
}** · { $seating ->
    [fixed] места по расписанию
   *[drawn] места жребием за столом
} · жребий { $seed }
tournament-schedule-game-fixed = Игра { $number }: { $seats }
tournament-schedule-game-drawn = Игра { $number }: { $players }

# /mafia judge verify: a protocol file checked (mafiabot/game/protocol.py; issue 19 item 4).
protocol-too-big = Файл слишком большой для протокола (больше { $kb } КБ).
protocol-refused = Протокол «{ $name }» не принят: { $why }
protocol-fingerprint = файл изменён после подписи (SHA-256 не совпадает с протоколом).
protocol-other_key = он подписан другим ключом ({ $signer }…), не ключом этого бота (или названным вами).
protocol-not_protocol = это не подписанный протокол бота (нужен файл mafia-protocol-N.json из /mafia judge confirm).
protocol-signature = подпись не сходится с протоколом: его подделали или повредили.
protocol-replay = подпись верна, но запись игры не переигрывается в этот протокол: его ход или очки записаны не по правилам.
protocol-valid = Протокол игры #{ $game } ({ $ruleset }) подлинный: { $own ->
    [yes] подписан этим ботом
   *[no] подписан названным ключом
}, запись игры переиграна по правилам и дала тот же протокол. Итог: { $outcome ->
    [town] победили красные
    [mafia] победили чёрные
    [draw] ничья
   *[other] { $outcome }
}. SHA-256: `{ $sha }`

# D-FI15, [MR 6.7–6.8]: the speaker's colours «под протокол» on the panel (mafiabot/game/fiim_controls.py).
control-on-record = Под протокол: до { $count ->
    [one] { $count } игрока
   *[other] { $count } игроков
} с цветом
control-on-record-black = №{ $seat } { $name } — чёрный
control-on-record-red = №{ $seat } { $name } — красный
answer-on-record = Под протокол: чёрные — { $black }; красные — { $red }.

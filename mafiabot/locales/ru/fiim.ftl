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

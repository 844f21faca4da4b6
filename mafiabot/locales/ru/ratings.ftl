# Ratings (mafiabot/cogs/ratings.py, mafiabot/cogs/_rating_texts.py).

track-points = Очки сезона
track-elo_red = Эло за красных
track-elo_black = Эло за чёрных
result-win = победа
result-loss = поражение
result-draw = ничья
result-aborted = остановлена
rating-side-town = мирные
rating-side-mafia = мафия
rating-side-maniac = маньяк
rating-side-vampires = вампиры
rating-side-hunters = охотники
rating-side-yakuza = якудза
rating-side-solo = одиночка
history-running = #{ $game } { $date } · { $rules } · №{ $seat } · идёт
history-line = #{ $game } { $date } · { $rules } · №{ $seat } { $role } · { $result } · { $points }
profile-head = **{ $name }** — игр: { $games }, побед: { $wins }
profile-tracks = Очки сезона: { $points } · Эло за красных: { $red } · Эло за чёрных: { $black }
profile-fouls = Замечаний за сезон: { $fouls }
profile-by-side = Победы по сторонам: { $sides }
profile-by-role = Победы по ролям: { $roles }
profile-last-games = **Последние игры**
board-head = **{ $track } · { $season }** (страница { $page } из { $pages })
board-empty = Пока никого: сыграйте рейтинговую игру.
board-row = { $rank }. { $name } — { $value } ({ $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
})
chart-line = График — { $track }: сейчас { $now }, наименьший { $low }, наибольший { $high }, изменений: { $changes }
history-title = **Игры: { $name }**
history-none = Игр пока нет.
ratings-no-database = Рейтинги недоступны: бот работает без базы данных.
ratings-no-season = Сезона { $season } нет.
ratings-no-game = Игры #{ $game } на этом сервере нет.
ratings-not-started = Игра #{ $game } ещё не началась: это набор игроков, записи у неё нет.
ratings-moderators = Это для ведущих: право «Управлять сервером» или роль ведущего.
ratings-season-default = сезон
season-name = Сезон { $number }
# `/mafia game`: a stored game's card and its protocol (mafiabot/cogs/_rating_texts.py).
game-status-lobby = лобби
game-status-running = идёт
game-status-over = закончена
game-status-finished = окончена
game-status-aborted = остановлена
game-card-head = **Игра #{ $game }** · { $rules } · { $when } · { $status } · победители: { $winners }
game-card-seat-hidden = №{ $seat } <@{ $user }>, замечаний { $fouls }
game-card-seat = №{ $seat } <@{ $user }> — { $role } ({ $side }), { $result }, очки { $points }, замечаний { $fouls }
game-card-removed = , удалён
game-card-left = , покинул игру
game-card-by-bot = бот
game-card-foul = Замечание №{ $number }: игрок №{ $seat }, день { $day }, { $reason } ({ $by })
game-card-foul-withdrawn = {" "}— снято: { $reason }
game-protocol-head = Игра #{ $game } · { $title }
game-protocol-seat = №{ $seat } { $name }{ $role }
game-protocol-running = (игра идёт: роли и ночные ходы откроются после её окончания)
game-protocol-not-applied = (команда { $command } не применилась)
game-protocol-private = [лично]
# The moderators' season tools (mafiabot/cogs/ratings.py).
season-started = Начат новый сезон: { $season }. Прежние сезоны — `/mafia top season:<номер>`.
season-bonus-not-played = { $name } не играл в игре #{ $game }.
season-bonus-cap = За одну игру можно добавить игроку не больше { $cap } очка.
season-bonus-given = { $name }: +{ $points } за игру #{ $game } ({ $reason }).
season-export = Таблица сезона:
# A rating's chart (mafiabot/ratings/chart.py).
chart-date = дата (UTC)
chart-season-start = начало сезона: { $value }
chart-after-game = после игры
chart-now = сейчас
chart-no-games = игр в этом сезоне пока нет

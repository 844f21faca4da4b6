# Answers to what a player or a moderator may cause (mafiabot/errors.py and the cogs' refusals).

error-generic = Что-то пошло не так. Ошибка записана в журнал, попробуйте ещё раз.
error-stale = Этот шаг игры уже закончился: кнопка больше не действует.
error-not-allowed-here = Этот бот не настроен для работы на этом сервере.
error-restarting = Ведущий перезапускается: через минуту игра продолжится с того же места, повторите тогда.
error-not-stored = Не получилось записать ход (база данных не отвечает): игра осталась как была, повторите.
error-cooldown = Слишком часто. Попробуйте снова через { $seconds } с.
error-bot-permissions = Боту не хватает прав: { $names }.
error-your-permissions = Вам не хватает прав: { $names }.
error-server-only = Эта команда работает только на сервере.
error-not-here = Эту команду здесь использовать нельзя.
error-game-over = Эта игра уже закончилась: кнопка больше не действует.
error-not-playing = Вы не играете в этой партии.
# The engine's refusals on a server whose language the rulebook's own sentence is not in: by its kind.
illegal-kind = Сейчас так нельзя по правилам игры.
illegal-kind-WrongPhase = Сейчас не время для этого.
illegal-kind-NotYourTurn = Сейчас не ваш ход.
illegal-kind-DeadPlayer = Вы выбыли из игры.
illegal-kind-IllegalTarget = Этого игрока выбрать нельзя.
illegal-kind-AlreadyActed = Вы уже сделали это.
illegal-kind-GameOver = Игра окончена.

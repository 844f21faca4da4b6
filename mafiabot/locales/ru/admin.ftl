# /mafia-admin: the server's settings (mafiabot/cogs/admin.py).

language-name-ru = Русский
language-name-en = English
admin-title = **Настройки сервера**
admin-host-role = Роль ведущего: { $role }
admin-host-role-none = не задана
admin-language = Язык: { $name }
admin-voice-on = Голос ведущего: говорит, громкость { $volume } %
admin-voice-off = Голос ведущего: молчит (только текст), громкость { $volume } %
admin-spectators-muted = Зрители в голосовом канале: без микрофона
admin-spectators-open = Зрители в голосовом канале: с микрофоном
admin-timers = Таймеры: речь { $speech }, ночной ход { $night }
admin-timer-seconds = { $seconds } с
admin-timer-rules = по правилам
admin-lobby-minutes = Набор закрывается через { $minutes } мин, если игру не начали
admin-only-managers = Настраивать бота может только тот, кто управляет сервером.
admin-no-database = База данных недоступна: настройки не сохранить.
admin-role-needed = Укажите роль (role) или уберите её (clear: True).
admin-role-or-clear = Либо роль, либо clear: не то и другое сразу.
admin-role-cleared = Роль ведущих убрана.
admin-role-set = Роль ведущих задана.
admin-next-game = Изменения действуют со следующей игры.
admin-next-lobby = Изменения действуют со следующего набора.
admin-timers-or-reset = Либо новое время, либо reset: не то и другое сразу.
admin-timers-needed = Укажите время речи (speech), ночного хода (night) или reset: True.
admin-no-such-language = Такого языка нет: есть { $languages }.
admin-language-saved = Язык сохранён: новые наборы и игры идут на нём, начатые игры доигрываются на своём.

# The bot's Discord permissions, as players and moderators read them (mafiabot/needs.py).

permission-view_channel = Просматривать канал
permission-send_messages = Отправлять сообщения
permission-attach_files = Прикреплять файлы
permission-manage_messages = Управлять сообщениями
permission-connect = Подключаться
permission-speak = Говорить
permission-mute_members = Отключать участникам микрофон
permission-deafen_members = Отключать участникам звук
permission-move_members = Перемещать участников
permission-manage_channels = Управлять каналами
permission-create_private_threads = Создавать приватные ветки
permission-send_messages_in_threads = Отправлять сообщения в ветках
permission-manage_threads = Управлять ветками
permission-manage_nicknames = Управлять никнеймами
place-text = текстовый канал { $channel }
place-voice = голосовой канал { $channel }
place-threads = ветки в { $channel }
need-place-missing = { $place }: { $names }
need-optional-missing = без права «{ $permission }» в { $channel } { $without }
need-without-attach_files = протокол игры не будет выложен файлом (он останется в /mafia game)
need-without-manage_messages = при автоматических замечаниях сообщения не по очереди останутся в канале
need-without-manage_nicknames = номера мест не появятся в никах
need-stage = в канале-трибуне игру не провести: слушатели трибуны молчат, пока их не пригласят выступать, а за игровым столом говорит каждый по очереди. Выберите обычный голосовой канал.

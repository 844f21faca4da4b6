# `/mafia web` (mafiabot/cogs/web.py) and the club's web pages (mafiabot/web).

web-off = Веб-страницы клуба выключены: владелец бота включает их в разделе [web] настроек (enabled = true).
web-no-database = База данных недоступна: страниц нет.
web-now-public = Страницы сервера теперь открыты всем, у кого есть адрес.
web-now-private = Страницы сервера теперь закрыты: только по ссылкам, которые даёт /mafia web.
web-board = Таблица сезона: { $link }
web-profile = Ваш профиль: { $link }
web-games = Игры: { $link }
web-table = Стол игры #{ $game }: { $link }
web-obs = Для OBS (#{ $game }): { $link }
web-links-until = Ссылки действуют до <t:{ $until }:f>; не пересылайте их тем, кому не следует их видеть.

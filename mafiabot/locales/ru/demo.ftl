# The offline demo (mafiabot/demo.py).

demo-title = Демо-игра «{ $title }»: { $players ->
    [one] { $players } игрок
    [few] { $players } игрока
   *[many] { $players } игроков
}, сид { $seed }.
demo-private = [лично №{ $seat } { $name }] { $line }
demo-host-note = [ведущему] { $line }
demo-act = №{ $seat } выбирает игрока №{ $target }.
demo-team-act = { $team } выбирает игрока №{ $target }.
demo-nominated = Игрок №{ $seat } выставляет игрока №{ $target }.
demo-voice-written = Речь ведущего записана в { $path } ({ $seconds } с).
demo-voice-failed = Речь ведущего не записана: { $why }
team-mafia = Мафия
team-yakuza = Якудза
team-hunters = Охотники

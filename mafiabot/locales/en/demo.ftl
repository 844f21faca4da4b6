# The offline demo (mafiabot/demo.py).

demo-title = A demo game of «{ $title }»: { $players ->
    [one] { $players } player
   *[other] { $players } players
}, seed { $seed }.
demo-private = [to #{ $seat } { $name }] { $line }
demo-host-note = [to the host] { $line }
demo-act = #{ $seat } picks player #{ $target }.
demo-team-act = { $team } picks player #{ $target }.
demo-nominated = Player #{ $seat } nominates player #{ $target }.
demo-voice-written = The host's speech is written to { $path } ({ $seconds } s).
demo-voice-failed = The host's speech was not written: { $why }
team-mafia = The mafia
team-yakuza = The yakuza
team-hunters = The hunters

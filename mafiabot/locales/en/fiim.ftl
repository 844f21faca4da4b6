# «Спортивная мафия» (FIIM, docs/rules/FIIM.md): what the panel and the judge's commands say of fiim's own
# steps. One file of its own so that the other catalogues' moves do not meet it.

# D-FI8: a player with three fouls has no speech; his turn is a few seconds to nominate only.
step-nomination_turn = Player { $seat } has no speech (fouls): may only nominate
seat-nominates-only = 🔇 no speech, nominating only

"""One family of typed errors: every rejected command raises an :class:`IllegalCommand`.

The message of each error is meant for the player who sent the command, and the state a command was
applied to is never modified. A refusal may name a message id and its arguments (``key``, ``args_``):
the bot then writes it in the server's language from its catalogues (``illegal-<key>``); without one it
says the error's kind (``WrongPhase``…) in words, and a Russian server reads the message as it is.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class RulesetError(EngineError):
    """A ruleset file is malformed: the message names the file and the key. Where a player can cause it
    (variants chosen that do not go together), ``says`` names the bot's message for it and ``args_`` the
    variants it names, by id: the message is the author's, not the player's."""

    def __init__(self, source: str, key: str, message: str, *, says: str = "", **args: str) -> None:
        self.source = source
        self.key = key
        self.message = message
        self.says = says  # a message id of the bot's catalogues (without its «ruleset-»), or ""
        self.args_ = args
        super().__init__(f"{source}: {key}: {message}" if key else f"{source}: {message}")


class IllegalCommand(EngineError, ValueError):
    """A command that the rules do not allow now. The state is left unchanged."""

    rule = ""  # where the refusal knows it: the rule that forbids the command (a record's --explain)

    def __init__(self, message: str = "", /, key: str = "", **args: object) -> None:
        super().__init__(message)
        self.key = key  # a message id of the bot's catalogues (without its «illegal-»), or ""
        self.args_ = args  # the values the message names (seats, counts), never a secret the text lacks


class WrongPhase(IllegalCommand):
    """The command does not belong to the current phase or step."""


class NotYourTurn(IllegalCommand):
    """The seat may not act (speak, nominate, vote, use an ability) at this moment."""


class DeadPlayer(IllegalCommand):
    """An eliminated player tried to act."""


class IllegalTarget(IllegalCommand):
    """The chosen target is not allowed by the ability or the procedure."""


class AlreadyActed(IllegalCommand):
    """The seat already used this right (a second vote, a second nomination, …)."""


class GameOver(IllegalCommand):
    """The game has ended; nothing more can happen."""

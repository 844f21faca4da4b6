"""Ability kinds, night resolutions and day procedures that belong to one preset's rulebook.

Each module registers its pieces by name (see :mod:`engine.registry`); importing :mod:`engine` imports
them, so a ruleset can name them.
"""

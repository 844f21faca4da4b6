"""Rulesets as data: TOML files validated by a schema, with ``extends`` and named options."""

from engine.rules.loader import available_presets, load_ruleset, role_catalogue, with_requirements
from engine.rules.model import AbilityDef, RoleDef, Ruleset, StepDef, TeamDef, VotingDef

__all__ = [
    "AbilityDef",
    "RoleDef",
    "Ruleset",
    "StepDef",
    "TeamDef",
    "VotingDef",
    "available_presets",
    "load_ruleset",
    "role_catalogue",
    "with_requirements",
]

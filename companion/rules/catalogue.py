"""Imports every edition, turn structure and module, so that their registries are complete."""

from companion.rules import (
    bean_coin,
    building_actions,
    building_effects,
    building_fields,
    duel,
    editions,
    expansion,
    field_beans,
    general_store,
    hand_at_end,
    high_bohn,
    magpie,
    orders,
    retrade,
    standard,
    town,
)

__all__ = ["bean_coin", "building_actions", "building_effects", "building_fields", "duel", "editions", "expansion",
           "field_beans", "general_store", "hand_at_end", "high_bohn", "magpie", "orders", "retrade", "standard",
           "town"]

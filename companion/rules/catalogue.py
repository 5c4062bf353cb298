"""Imports every edition, turn structure and module, so that their registries are complete."""

from companion.rules import (
    bean_coin,
    duel,
    editions,
    expansion,
    field_beans,
    hand_at_end,
    magpie,
    orders,
    retrade,
    standard,
)

__all__ = ["bean_coin", "duel", "editions", "expansion", "field_beans", "hand_at_end", "magpie", "orders", "retrade",
           "standard"]

"""Imports every edition, turn structure and module, so that their registries are complete."""

from companion.rules import bean_coin, duel, editions, expansion, field_beans, magpie, orders, standard

__all__ = ["bean_coin", "duel", "editions", "expansion", "field_beans", "magpie", "orders", "standard"]

"""Imports every edition, turn structure and module, so that their registries are complete."""

from companion.rules import duel, editions, expansion, field_beans, standard

__all__ = ["duel", "editions", "expansion", "field_beans", "standard"]

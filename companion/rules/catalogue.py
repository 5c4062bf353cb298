"""Imports every edition, turn structure and module, so that their registries are complete."""

from companion.rules import editions, expansion, field_beans, standard

__all__ = ["editions", "expansion", "field_beans", "standard"]

"""Imports every edition, turn structure and module, so that their registries are complete."""

from companion.rules import editions, standard

__all__ = ["editions", "standard"]

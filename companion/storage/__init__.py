"""Embedded SQLite store of games and their event logs."""

from companion.storage.store import GameStore, StoredGame, StoreError

__all__ = ["GameStore", "StoreError", "StoredGame"]

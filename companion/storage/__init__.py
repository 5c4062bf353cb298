"""Embedded SQLite store of games and their event logs."""

from companion.storage.store import GameStore, StaleLog, StoredGame, StoredLog, StoreError

__all__ = ["GameStore", "StaleLog", "StoreError", "StoredGame", "StoredLog"]

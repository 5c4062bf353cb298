"""Join codes and seat logins: how players' phones join a table without the table PIN.

The host (a browser with the PIN) hands out one join code for the table, shown as a QR code
of the game's page. A phone that opens that link picks its seat and gets a seat login, kept
like an editor login (``web.logins``): a random id in the phone's signed session cookie, and
only its hash in the instance folder (``joins.sqlite3``, mode 0600), so a restart keeps both.
Renewing or withdrawing the code starts a new generation and ends every seat login made
with an older one at once. The code itself is kept in clear, as the session key is: the
host's page shows it again.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from flask import Flask

from web.logins import digest
from web.private_db import PrivateDb

FILE = "joins.sqlite3"
MAX_SEAT_LOGINS = 1000
"""Live seat logins kept; beyond this the oldest end (phones that were cleared never leave)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS join_code (
    id INTEGER PRIMARY KEY CHECK (id = 1), code TEXT, generation INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seat_login (
    digest BLOB PRIMARY KEY, generation INTEGER NOT NULL, game_id INTEGER NOT NULL, seat INTEGER NOT NULL,
    made REAL NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class SeatLogin:
    """A phone's seat: the game and the seat (from 0) it may make moves for."""

    game_id: int
    seat: int


class Joins:
    """The ``joins`` extension: the table's join code and the live seat logins made with it."""

    def init_app(self, app: Flask) -> None:
        """Open (or make) the instance folder's join codes and seat logins."""
        self.db = PrivateDb(Path(app.instance_path) / FILE, _SCHEMA)
        app.extensions["joins"] = self

    def code(self) -> str | None:
        """The join code phones may use now (None: joining is closed)."""
        with self.db.connect() as db:
            row = db.execute("SELECT code FROM join_code").fetchone()
        return None if row is None else row[0]

    def renew(self) -> str:
        """A new join code; every seat login made with an earlier one ends."""
        code = secrets.token_urlsafe(12)
        self._next_generation(code)
        return code

    def close(self) -> None:
        """No join code: no phone may join, and every seat login ends."""
        self._next_generation(None)

    def join(self, code: str, game_id: int, seat: int) -> str | None:
        """A new seat login id for ``seat`` of ``game_id`` if ``code`` is the current join code, else None."""
        login_id = secrets.token_urlsafe(32)
        with self.db.transaction() as db:
            row = db.execute("SELECT code, generation FROM join_code").fetchone()
            if row is None or row[0] is None or not hmac.compare_digest(code.encode(), row[0].encode()):
                return None
            db.execute("INSERT INTO seat_login VALUES (?, ?, ?, ?, ?)",
                       (digest(login_id), row[1], game_id, seat, time.time()))  # fmt: skip
            db.execute("DELETE FROM seat_login WHERE digest IN "
                       "(SELECT digest FROM seat_login ORDER BY made DESC LIMIT -1 OFFSET ?)",
                       (MAX_SEAT_LOGINS,))  # fmt: skip
        return login_id

    def seat_of(self, login_id: object) -> SeatLogin | None:
        """The seat of a live seat login (None if it ended or never was)."""
        if not isinstance(login_id, str):
            return None
        with self.db.connect() as db:
            row = db.execute("SELECT game_id, seat FROM seat_login JOIN join_code USING (generation) "
                             "WHERE digest = ?", (digest(login_id),)).fetchone()  # fmt: skip
        return None if row is None else SeatLogin(int(row[0]), int(row[1]))

    def leave(self, login_id: object) -> None:
        """End one seat login (the phone goes back to watching)."""
        if isinstance(login_id, str):
            with self.db.transaction() as db:
                db.execute("DELETE FROM seat_login WHERE digest = ?", (digest(login_id),))

    def held(self, game_id: int) -> dict[int, int]:
        """How many phones hold each seat of ``game_id`` now (seats no phone holds are left out)."""
        with self.db.connect() as db:
            rows = db.execute("SELECT seat, COUNT(*) FROM seat_login JOIN join_code USING (generation) "
                              "WHERE game_id = ? GROUP BY seat", (game_id,)).fetchall()  # fmt: skip
        return {int(seat): int(count) for seat, count in rows}

    def _next_generation(self, code: str | None) -> None:
        with self.db.transaction() as db:
            row = db.execute("SELECT generation FROM join_code").fetchone()
            generation = 1 if row is None else int(row[0]) + 1
            db.execute("INSERT OR REPLACE INTO join_code VALUES (1, ?, ?)", (code, generation))
            db.execute("DELETE FROM seat_login WHERE generation < ?", (generation,))

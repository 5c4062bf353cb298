"""A Flask test client that has entered the table PIN and sends the CSRF token (web tests)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

PIN = "2468"


class Editor:
    """A test client that has entered the PIN and sends the CSRF token with every change."""

    def __init__(self, client: FlaskClient):
        self.client = client
        self.token = client.get("/api/session").get_json()["csrf_token"]
        response = self.post("/api/session", {"pin": PIN})
        assert response.status_code == 200, response.get_json()

    def post(self, path: str, body: Any = None, **kwargs: Any):
        headers = {"X-CSRF-Token": self.token, **kwargs.pop("headers", {})}
        if body is not None:
            kwargs["json"] = body
        return self.client.post(path, headers=headers, **kwargs)

    def delete(self, path: str):
        return self.client.delete(path, headers={"X-CSRF-Token": self.token})

    def get(self, path: str, **kwargs: Any):
        return self.client.get(path, **kwargs)

    def start(self, **header: Any) -> dict[str, Any]:
        """Start a game (default: amigo-25, Ann, Ben, Cid) and return its snapshot."""
        body = {"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"], **header}
        response = self.post("/api/games", body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()


class Phone:
    """A test client that joined a seat with the table's join code (no PIN) and sends the CSRF token."""

    def __init__(self, client: FlaskClient, code: str, game: int, seat: int):
        self.client = client
        self.token = client.get("/api/session").get_json()["csrf_token"]
        self.joined = self.post("/api/join", {"code": code, "game": game, "seat": seat})

    def post(self, path: str, body: Any = None):
        return self.client.post(path, json=body, headers={"X-CSRF-Token": self.token})

    def delete(self, path: str):
        return self.client.delete(path, headers={"X-CSRF-Token": self.token})

    def move(self, game: int, event: dict[str, Any]):
        return self.post(f"/api/games/{game}/moves", event)

    def session(self) -> dict[str, Any]:
        return self.client.get("/api/session").get_json()

"""Fixtures for the web tests: an app on a temporary instance folder, and clients with and without the PIN."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from support.web_client import PIN, Editor
from web import create_app


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Builds apps on instance folders under ``tmp_path`` (extra settings as keywords); all closed at the end."""
    made: list[Flask] = []

    def build(instance: str = "instance", **settings: Any) -> Flask:
        app = create_app({"TABLE_PIN": PIN, "TESTING": True, **settings}, instance_path=tmp_path / instance)
        made.append(app)
        return app

    yield build
    for app in made:
        app.extensions["hardware"].close()
        app.extensions["tables"].store.close()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def editor(app: Flask) -> Editor:
    return Editor(app.test_client())

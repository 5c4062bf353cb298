"""Fuzzing the API from its own OpenAPI document (schemathesis) on a real server: no request makes it fail.

Requests come from a session that entered the PIN and sends its CSRF token, so they
reach the handlers behind the guard, with a card game and a dice game in store.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings

from support.live_server import LiveServer, live_server
from web.api.docs import openapi_document

STREAMS = r"^/api/(live|camera/stream)$"
"""Endless responses: tested on a real server elsewhere."""
SCHEMA = schemathesis.openapi.from_dict(openapi_document()).exclude(path_regex=STREAMS)
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, requests.Session]]:
    with live_server(tmp_path_factory.mktemp("fuzz")) as server, requests.Session() as session:
        session.headers["X-CSRF-Token"] = session.get(f"{server.url}/api/session").json()["csrf_token"]
        assert session.post(f"{server.url}/api/session", json={"pin": "2468"}).ok
        for game in ({"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"]},
                     {"game": "dice", "players": ["Ann", "Ben"], "options": {"harvest_cards": "sample"}}):  # fmt: skip
            assert session.post(f"{server.url}/api/games", json=game).status_code == 201
        yield server, session


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.label)
def test_no_request_makes_the_server_fail(operation, served: tuple[LiveServer, requests.Session]) -> None:
    server, session = served

    @given(case=operation.as_strategy())
    @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def request(case: schemathesis.Case) -> None:
        response = case.call(base_url=server.url, session=session, timeout=10)
        assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text[:300]}"

    request()


def test_the_fuzzing_covers_every_documented_operation() -> None:
    documented = sum(len(operations) for operations in openapi_document()["paths"].values())
    assert len(OPERATIONS) == documented - 2  # all but the two streams

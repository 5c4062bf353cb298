"""Fuzzing the API from its own OpenAPI document on a real server: no request makes it fail, no refusal changes a game.

Three kinds of request reach the handlers, from a session that entered the PIN and sends its
CSRF token, with a card game and a dice game in store:

* schemathesis' own cases for every documented operation (valid and invalid by the schema);
* the same cases with a hostile value (lone surrogates, NUL, bidi controls, nesting deeper than
  the door allows, numbers beyond 2^53) put somewhere in their JSON body;
* raw hostile bodies (brackets nested thousands deep, numbers of thousands of digits, NaN,
  invalid UTF-8, oversized, wrong shapes) posted to every documented POST, PUT and DELETE operation.

Every answer is below 500, and every 4xx leaves the stored games as they were.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from support.json_parts import inject
from support.live_server import LiveServer, live_server
from web.api.docs import openapi_document

STREAMS = r"^/api/(live|camera/stream)$"
"""Endless responses: tested on a real server elsewhere."""
SCHEMA = schemathesis.openapi.from_dict(openapi_document()).exclude(path_regex=STREAMS)
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
CHANGES = [op for op in OPERATIONS if op.method.upper() in ("POST", "PUT", "DELETE")]
PIN = "2468"
FIELDS = ("type", "player", "bean", "source", "field", "beans", "count", "after", "event", "pin", "players", "ruleset",
          "start_player", "options", "meta", "deck", "orders", "printed", "id", "card", "dice", "game")  # fmt: skip
"""Field names the API reads: hostile values under them get past "unknown field" checks to the parsers."""


def nested(depth: int) -> Any:
    """A value nested ``depth`` arrays deep."""
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


ODD_TEXT = st.one_of(
    st.sampled_from(["\ud800", "Ann\udfff", "a\x00b", "\u202eevil", "\u2067x\u2069", "\u200f", "\ufeff", "Zoe\u0308",
                     "line\u2028break", "\x1b[31m", "", " ", "x" * 5000]),  # fmt: skip
    st.text(st.characters(codec=None, categories=["Cs", "Cc", "Cf", "Co", "Zl", "Zp", "Mn"]), min_size=1, max_size=8),
)
BIG_NUMBERS = st.integers(2**53, 10**300) | st.integers(-(10**300), -(2**53)) | st.sampled_from([2**63, 2**64 + 1])
HOSTILE = st.one_of(
    ODD_TEXT,
    BIG_NUMBERS,
    st.integers(33, 300).map(nested),
    st.sampled_from([None, True, -1, 0.5, 1e308, [], {}, [["plant"]], {"type": {"a": 1}}]),
    st.lists(ODD_TEXT | BIG_NUMBERS, min_size=1, max_size=3),
)
"""Values that must be refused, or kept intact, wherever they appear (JSON-serialisable: no NaN)."""



@SCHEMA.hook
def before_generate_body(context: Any, strategy: st.SearchStrategy) -> st.SearchStrategy:
    """Half of the generated JSON bodies carry a hostile value somewhere."""
    if context.operation is None or any(b.media_type != "application/json" for b in context.operation.body):
        return strategy
    return strategy | st.builds(inject, strategy, HOSTILE, st.integers(0, 2**16))


RAW_BODIES = st.one_of(
    st.integers(33, 3000).map(lambda n: ("[" * n + "]" * n).encode()),
    st.integers(33, 3000).map(lambda n: ('{"event": ' * n + "{}" + "}" * n).encode()),
    st.integers(17, 5000).map(lambda n: f'{{"type": "plant", "player": {"9" * n}, "count": 1}}'.encode()),
    st.sampled_from([
        b"NaN", b"[Infinity]", b'{"count": -Infinity}', b'{"player": 1e999}', b"\xff\xfe{}", b'{"pin": "\xed\xa0\x80"}',
        b'{"type": ["plant"]}', b'{"event": null}', b'{"event": [1]}', b"[]", b"[2]", b'"x"', b"null", b"{", b"}",
        b'{"count": "x"}', b'{"a": 1, "a": 2}', b'{"x": "' + b"a" * (300 * 1024) + b'"}',
    ]),  # fmt: skip
    st.dictionaries(st.sampled_from(FIELDS), HOSTILE | st.integers(0, 3) | st.sampled_from(["plant", "blue", "dice"]),
                    max_size=5).map(lambda d: json.dumps(d).encode()),  # fmt: skip
    st.dictionaries(st.sampled_from(FIELDS), HOSTILE, max_size=3).map(lambda d: json.dumps({"event": d}).encode()),
)
"""Bodies as bytes: what no JSON library would send, too."""


class Stats:
    """How many requests the fuzzing sent, and how many got a 5xx (reported at the end of the module)."""

    sent = 0
    failed = 0


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, requests.Session, dict[str, int]]]:
    with live_server(tmp_path_factory.mktemp("fuzz"), PIN_ATTEMPTS=10**9) as server, requests.Session() as session:
        session.headers["X-CSRF-Token"] = session.get(f"{server.url}/api/session").json()["csrf_token"]
        games = {}
        for game in ({"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"]},
                     {"game": "dice", "players": ["Ann", "Ben"], "options": {"harvest_cards": "sample"}}):  # fmt: skip
            assert session.post(f"{server.url}/api/session", json={"pin": PIN}).ok
            response = session.post(f"{server.url}/api/games", json=game)
            assert response.status_code == 201
            games[game.get("game", "bohnanza")] = response.json()["game_id"]
        yield server, session, games
    print(f"\nAPI fuzzing: {Stats.sent} requests, {Stats.failed} answered 5xx")


@pytest.fixture
def editor(served: tuple[LiveServer, requests.Session, dict[str, int]]) -> tuple[str, requests.Session, dict[str, int]]:
    """The served session with the PIN entered again (an earlier test may have left it)."""
    server, session, games = served
    assert session.post(f"{server.url}/api/session", json={"pin": PIN}).ok
    return server.url, session, games


def stored(url: str, session: requests.Session) -> list[tuple[Any, ...]]:
    """What a refused request must not change: every game with its event count and last change."""
    games = session.get(f"{url}/api/games").json()["games"]
    return [(g["id"], g["events"], g["updated"], g["finished"]) for g in games]


def answered(response: requests.Response, what: str) -> None:
    Stats.sent += 1
    Stats.failed += response.status_code >= 500
    assert response.status_code < 500, f"{what}: {response.status_code} {response.text[:300]}"


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.label)
def test_no_request_makes_the_server_fail(operation, editor: tuple[str, requests.Session, dict[str, int]]) -> None:
    url, session, games = editor

    @given(case=operation.as_strategy(), game=st.sampled_from([None, *games.values()]))
    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def request(case: schemathesis.Case, game: int | None) -> None:
        if game is not None and "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = game  # a game that exists, so the body reaches its parser
        before = stored(url, session) if case.method.upper() != "GET" else None
        response = case.call(base_url=url, session=session, timeout=10)
        answered(response, f"{case.method} {case.formatted_path} {str(case.body)[:200]!r}")
        if before is not None and 400 <= response.status_code < 500:
            assert stored(url, session) == before, f"{case.method} {case.formatted_path} was refused but changed a game"

    request()


@pytest.mark.parametrize("operation", CHANGES, ids=lambda operation: operation.label)
def test_hostile_bodies_are_refused_with_a_sentence(operation, editor: tuple[str, requests.Session, dict[str, int]]):
    url, session, games = editor

    @given(body=RAW_BODIES, kind=st.sampled_from(list(games)),
           content_type=st.sampled_from(["application/json", "application/json", "text/plain"]))  # fmt: skip
    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @example(body=("[" * 1000 + "]" * 1000).encode(), kind="bohnanza", content_type="application/json")
    @example(body=b'{"type": ["plant"], "player": 0}', kind="dice", content_type="application/json")
    @example(body=b'{"event": null, "pin": "\\udfff", "count": [1], "orders": 7}', kind="bohnanza",
             content_type="application/json")  # fmt: skip
    def post(body: bytes, kind: str, content_type: str) -> None:
        path = operation.path.format(game_id=games[kind], proposal_id=1, bean="blue", photo=1, card=1)
        before = stored(url, session)
        response = session.request(operation.method.upper(), f"{url}{path}", data=body,
                                   headers={"Content-Type": content_type}, timeout=10)  # fmt: skip
        answered(response, f"{operation.method.upper()} {path} {body[:200]!r}")
        if 400 <= response.status_code < 500:
            error = response.json()["error"]
            assert isinstance(error, str) and 0 < len(error) < 500
            assert stored(url, session) == before, f"{path} refused {body[:100]!r} but changed a game"

    post()


def test_the_fuzzing_covers_every_documented_operation() -> None:
    documented = sum(len(operations) for operations in openapi_document()["paths"].values())
    assert len(OPERATIONS) == documented - 2  # all but the two streams
    assert {op.method.upper() for op in CHANGES} == {"POST", "PUT", "DELETE"}

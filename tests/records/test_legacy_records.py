"""Records written before the rules core was rebuilt for variants still replay, with the same result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games import game_kind
from companion.records import load_record, replay

LEGACY = sorted((Path(__file__).parent / "legacy").glob("*.jsonl"))
RESULTS = json.loads((Path(__file__).parent / "legacy" / "results.json").read_text())
"""Each record's final scores and winners, as the engine of November 2026 (before variants) gave them."""


def test_every_legacy_record_has_its_result() -> None:
    assert {p.name for p in LEGACY} == set(RESULTS)


@pytest.mark.parametrize("path", LEGACY, ids=lambda p: p.name)
def test_a_legacy_record_replays_to_the_same_result(path: Path) -> None:
    result = replay(load_record(path))
    assert result.error is None
    summary = game_kind("bohnanza").summary(result.state)
    assert summary["game_over"]
    assert {"scores": summary["scores"], "winners": summary["winners"]} == RESULTS[path.name]

"""``companion rulesets``: what a group can choose, each with its book and a sentence."""

from __future__ import annotations

import json
import subprocess
import sys

from companion.rules.editions import EDITIONS
from companion.rules.parts import MODULES, TURNS


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "rulesets", *args], capture_output=True, text=True,
                          timeout=60)  # fmt: skip


def test_the_json_lists_every_edition_turn_structure_and_module_with_book_and_sentence() -> None:
    out = run("--json")
    assert out.returncode == 0, out.stderr
    listing = json.loads(out.stdout)
    assert [e["name"] for e in listing["editions"]] == list(EDITIONS)
    assert [t["name"] for t in listing["turns"]] == list(TURNS)
    assert [m["name"] for m in listing["modules"]] == list(MODULES)
    for part in listing["editions"] + listing["turns"] + listing["modules"]:
        assert part["book"] and part["about"].endswith(".")
    coin = next(m for m in listing["modules"] if m["name"] == "bean-coin")
    assert coin["with"] == {"amigo-25": [3, 4, 5], "classic": [3, 4, 5]}
    duel = next(e for e in listing["editions"] if e["name"] == "amigo-25-duel")
    assert duel["turns"] == "duel-amigo" and duel["modules"] == ["magpie"]


def test_the_text_names_each_option_and_its_default() -> None:
    out = run()
    assert out.returncode == 0
    assert "protection=strict (default)" in out.stdout and "amigo-25-duel" in out.stdout

"""Every edition, turn structure, module and option, in players' words (``companion rulesets``, the API)."""

from __future__ import annotations

from typing import Any

from companion.rules.card_data import WHEN, to_json
from companion.rules.editions import EDITIONS
from companion.rules.parts import MODULES, TURNS, Option, Part
from companion.rules.rulesets import MODULES_KEY, Rules


def rules_catalogue() -> dict[str, Any]:
    """The JSON listing: what a group can choose, with the book each follows."""
    return {
        "editions": [_edition(name) for name in EDITIONS],
        "turns": [_part(cls) for cls in TURNS.values()],
        "modules": [{**_part(cls), "with": _combinations(name)} for name, cls in MODULES.items()],
    }


def _part(cls: type[Part]) -> dict[str, Any]:
    return {"name": cls.name, "title": cls.title, "book": cls.book, "about": cls.about,
            "options": [_option(o, None) for o in cls.options]}  # fmt: skip


def _option(option: Option, default: Any) -> dict[str, Any]:
    return {"name": option.key, "title": option.title, "default": default,
            "choices": [{"value": value, "about": about} for value, about in option.choices.items()]}  # fmt: skip


def _edition(name: str) -> dict[str, Any]:
    cls = EDITIONS[name]
    rules = Rules(name, cls.min_players, {})
    return {
        "name": name, "title": cls.title, "book": cls.book, "about": cls.about,
        "min_players": cls.min_players, "max_players": cls.max_players,
        "turns": cls.turns, "always_modules": list(cls.always_modules),
        "modules": [m for m in MODULES if m not in cls.always_modules and _combinations(m).get(name)],
        "options": [_option(o, rules.options[o.key]) for part in rules.parts[:2] for o in part.options],
        **({"card_data": {"when": WHEN, "cards": to_json(rules.cards)}}
           if any(part.reads_card_data for part in rules.parts) else {}),
    }  # fmt: skip


def _combinations(module: str) -> dict[str, list[int]]:
    """Edition -> player counts with which ``module`` may be played (as the books allow)."""
    found: dict[str, list[int]] = {}
    for name, cls in EDITIONS.items():
        if module in cls.always_modules:
            continue
        counts = []
        for players in range(cls.min_players, cls.max_players + 1):
            try:
                Rules(name, players, {MODULES_KEY: [module]})
            except ValueError:
                continue
            counts.append(players)
        if counts:
            found[name] = counts
    return found


def combinations() -> list[tuple[str, int, tuple[str, ...]]]:
    """Every (edition, players, chosen modules) the books allow: none, each module alone, and all together."""
    found: list[tuple[str, int, tuple[str, ...]]] = []
    for name, cls in EDITIONS.items():
        for players in range(cls.min_players, cls.max_players + 1):
            allowed = [m for m in MODULES if players in _combinations(m).get(name, [])]
            sets = [(), *((m,) for m in allowed)]
            if len(allowed) > 1:
                together = tuple(allowed)
                try:
                    Rules(name, players, {MODULES_KEY: list(together)})
                    sets.append(together)
                except ValueError:
                    pass
            found.extend((name, players, modules) for modules in sets)
    return found

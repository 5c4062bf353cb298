"""Ordering shared by the whole suite."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (marked ``slow``) run first: the two workers of ``make test`` then share out the short ones
    and finish together, instead of one waiting on a long test that was handed out last."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)

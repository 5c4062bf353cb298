"""Ordering and settings shared by the whole suite."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
"""Torch's OpenMP threads sleep as soon as a training step is done, instead of spinning for the core the other worker
of ``make test`` needs (the training tests took about half again as long with them spinning, on two cores)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (marked ``slow``) run first: the two workers of ``make test`` then share out the short ones
    and finish together, instead of one waiting on a long test that was handed out last."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)

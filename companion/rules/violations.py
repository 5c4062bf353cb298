"""Rule violations: which rule a refused move breaks, in words a player understands."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleViolation:
    """Why a move is refused: a stable rule id and a sentence for the players."""

    rule: str
    """Stable id such as ``"phase1.third-plant"``; the web page and tests key on it."""
    message: str

    def __str__(self) -> str:
        return self.message


class IllegalMove(ValueError):
    """Raised when a move that breaks a rule is pushed."""

    def __init__(self, violation: RuleViolation):
        super().__init__(violation.message)
        self.violation = violation

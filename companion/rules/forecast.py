"""When will the draw pile run out, and when will the game end? Known exactly from counts alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.rules.phases import Phase

if TYPE_CHECKING:
    from companion.rules.state import GameState


@dataclass(frozen=True, slots=True)
class Forecast:
    """Cards left until the next pass, and, when that pass ends the game, whose turn it ends in."""

    cards_until_pass: int
    next_pass: int
    end_pass: int
    ending_seat: int | None
    """Whose turn the game ends in, when the next pass is the last."""
    ending_phase: int | None
    """2 (finish phases 2 and 3) or 4 (ends at once)."""
    turns_ahead: int | None
    """0: this turn; 1: the next player's turn; ..."""
    text: str


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def forecast(state: GameState) -> Forecast | None:
    """The end-of-game gauge; None once the game is over."""
    if state.game_over:
        return None
    end = state.rules.end_pass()
    if state.last_pass:
        return Forecast(0, end, end, state.active, 2, 0,
                        f"The draw pile has run out for the {ordinal(end)} time: "
                        "the game ends when this turn's phase 3 is done.")  # fmt: skip
    left, next_pass = state.draw.size, state.passes + 1
    head = f"{left} card{'s' if left != 1 else ''} until the {ordinal(next_pass)} pass"
    if next_pass < end:
        return Forecast(left, next_pass, end, None, None, None, f"{head} (the game ends at the {ordinal(end)}).")
    seat, phase, ahead = _ending_turn(state, left)
    later = f"{state.names[seat]}'s turn, {ahead} turns from now"
    when = {0: "this turn", 1: "the next player's turn"}.get(ahead, later)
    if ahead in (0, 1):
        when += f" ({state.names[seat]})"
    how = "after phases 2 and 3" if phase == 2 else "at once, while drawing"
    return Forecast(left, next_pass, end, seat, phase, ahead, f"{head}: the game ends during {when}, {how}.")


def _ending_turn(state: GameState, left: int) -> tuple[int, int, int]:
    """Seat, phase and turns ahead in which ``left`` cards run out, at the rules' usual counts."""
    turn_over = state.rules.turn_over_count()
    seat, ahead = state.active, 0
    needs_turn_over = state.phase <= Phase.PLANT
    while True:
        if needs_turn_over:
            if left <= turn_over:
                return seat, 2, ahead
            left -= turn_over
        due = state.draws_due if ahead == 0 and state.phase is Phase.DRAW else state.rules.edition.draws(seat)
        draw = sum(count for _, count in due)
        if left <= draw:
            return seat, 4, ahead
        left -= draw
        seat, ahead, needs_turn_over = state.next_seat(seat), ahead + 1, True

"""A group that taps the tablet late, auto-accept on: the camera's proposals as the server keeps them, and the taps.

The referee evaluation (:mod:`models.evaluate_referee`) confirms each event before the next, as a group standing at
the tablet all along would. A group at play goes to the tablet only to enter what the camera cannot see (a trade, a
draw): the camera's proposals wait meanwhile, and each later change is explained against the game with them made.
:class:`LateTablet` keeps the game as the tablet has it and the proposals as the server does (:mod:`web.tables`,
:mod:`web.referee`): auto-accept pushes what the camera is sure of, a proposal sure but for those before it goes
in by itself once they are confirmed as they are, and proposals the camera later becomes sure of go in by themselves.
At each visit (:meth:`LateTablet.visit`) it plays the group: each event made since is confirmed from the first
proposal of it, or from one offering it as another reading, or entered by hand where none does, and the proposals left
are dismissed. It counts the taps (:class:`Taps`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from companion.rules.moves import move_from_dict
from companion.rules.state import GameState
from companion.tracker.explain import game_view, made
from companion.tracker.table import Observation
from web.proposals import Proposal, Proposals

Seen = tuple[Any, ...]
"""What the table shows of an event (:func:`substance`)."""


def substance(event: dict[str, Any], state: GameState) -> Seen:
    """What the table shows of an event, in ``state`` before it: who did what with which bean (a harvest: the
    field's bean). A plant into an empty field may name another empty field than the record (the table shows
    which field only by where a player lays it), so fields are left out."""
    if event["type"] == "harvest":
        return ("harvest", event["player"], state.players[event["player"]].fields[event["field"]].bean)
    return (event["type"], event["player"], event.get("bean"), tuple(sorted(event.get("beans", ()))))


@dataclass
class Taps:
    """How the events made at the table reached the tablet, and what the group tapped."""

    pushed: int = 0
    """Entered by the camera at once (it was sure)."""
    released: int = 0
    """Went in by themselves once the proposals they waited on were confirmed (each a tap without the release)."""
    became_sure: int = 0
    """Went in by themselves once the camera, seeing the table longer, became sure of them."""
    confirmed: int = 0
    """Proposals confirmed with a tap."""
    corrected: int = 0
    """Proposals confirmed with a tap on one of their other readings (else a dismissal and an entry by hand)."""
    by_hand: int = 0
    """Events no proposal named, entered by hand."""
    ends_by_hand: int = 0
    """Of those, the ends of the trading (which the camera tells only with the face-up beans planted after them)."""
    dismissed: int = 0
    """Proposals of events no one made, dismissed with a tap."""
    wrong: int = 0
    """Events the camera entered by itself that no one made, undone with a tap."""

    @property
    def total(self) -> int:
        """Taps on the tablet for the events the camera watches."""
        return self.confirmed + self.corrected + self.by_hand + self.dismissed + self.wrong


GAME = 0
"""The one game on the tablet."""


@dataclass
class LateTablet:
    """The tablet of a group that visits it late (see the module): ``game`` as the tablet has it."""

    game: GameState
    due: list[dict[str, Any]] = field(default_factory=list)
    """The record's events made at the table and not on the tablet yet, oldest first."""
    proposals: Proposals = field(default_factory=Proposals)
    """The camera's proposals waiting on the tablet, kept as the server keeps them."""
    taps: Taps = field(default_factory=Taps)

    @property
    def waiting(self) -> list[dict[str, Any]]:
        """The camera's proposals waiting on the tablet, oldest first (what the table tracker takes as made)."""
        return [proposal.event for proposal in self.proposals.pending(GAME)]

    def observed(self, observation: Observation) -> None:
        """What the server does with an observation, auto-accept on (:mod:`web.referee`): pushes its events where the
        camera is sure of them, else proposes them (each going in by itself after those before it, where the camera is
        sure but for the proposals waiting); confirms every proposal waiting where the camera became sure of them."""
        if observation.sure_of_waiting:
            for proposal in self.proposals.pending(GAME):
                outcome = self._entered(proposal.event)
                if outcome == "refused":
                    break
                self.taps.became_sure += outcome == "made"
                self.proposals.take(GAME, proposal.id)
            return
        if observation.sure:
            for event in observation.events:
                outcome = self._entered(event)
                self.taps.pushed += outcome == "made"
                if outcome == "refused":
                    break
            return
        pending = self.proposals.pending(GAME)
        after = frozenset(p.id for p in pending) if observation.sure_after_waiting else None
        for event, others in observation.offers():
            proposal = self.proposals.add(GAME, event, "camera", after, others)
            after = None if after is None else after | {proposal.id}

    def visit(self) -> None:
        """The group at the tablet: each event due is confirmed from the first proposal of it (those waiting on it
        then go in by themselves), or from the first offering it as another reading (a correction: those waiting on
        it wait for their own taps), or entered by hand where none does; the proposals left are dismissed."""
        while self.due:
            expected = substance(self.due[0], self.game)
            pending = self.proposals.pending(GAME)
            proposal = next((p for p in pending if substance(p.event, self.game) == expected), None)
            corrected = next((p for p in pending if proposal is None
                              and any(substance(other, self.game) == expected for other in p.alternatives)), None)
            event = self.due.pop(0)
            self.game.push(move_from_dict(event))
            if proposal is not None:
                self.taps.confirmed += 1
                self.proposals.take(GAME, proposal.id)
                self._release(proposal.id)
            elif corrected is not None:
                self.taps.corrected += 1
                self.proposals.take(GAME, corrected.id)
                self.proposals.hold(GAME, corrected.id)
            else:
                self.taps.by_hand += 1
                self.taps.ends_by_hand += event["type"] == "end-trading"
        for proposal in self.proposals.pending(GAME):
            self.taps.dismissed += 1
            self.proposals.take(GAME, proposal.id)

    def _entered(self, event: dict[str, Any]) -> str:
        """The server pushes ``event`` by itself: "made" where it is an event due that may go in ahead of those due
        before it (:meth:`_ahead`; the record's own is made); "wrong" where the game takes it otherwise (no one made it,
        or it would change what the events made earlier come to: the group undoes it); "refused" where the game does
        not take it."""
        match = next((k for k, due in enumerate(self.due)
                      if substance(due, self.game) == substance(event, self.game) and self._ahead(k)), None)
        if match is not None:
            self.game.push(move_from_dict(self.due.pop(match)))
            return "made"
        if made(self.game, [event])[1] == 1:
            self.taps.wrong += 1
            return "wrong"
        return "refused"

    def _ahead(self, k: int) -> bool:
        """Whether the event due ``k``-th, made first, and then the others due in order, come to the table they come
        to all in order."""
        first, done = made(self.game, self.due[k:k + 1])
        rest, taken = made(first, self.due[:k] + self.due[k + 1:])
        every = tuple(range(len(self.game.players)))
        return (done == 1 and taken == len(self.due) - 1
                and game_view(rest, every) == game_view(made(self.game, self.due)[0], every))

    def _release(self, confirmed: int) -> None:
        """Push the proposals that waited on ``confirmed`` as the server does (:meth:`web.proposals.Proposals.release`);
        one the game refuses waits for its own tap, and one that went in wrong is undone: either way those waiting on it
        wait for their own taps."""

        def push(proposal: Proposal) -> bool:
            outcome = self._entered(proposal.event)
            self.taps.released += outcome == "made"
            if outcome == "refused":
                self.proposals.put_back(GAME, replace(proposal, after=None))
            return outcome == "made"

        self.proposals.release(GAME, confirmed, push)

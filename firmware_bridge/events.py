"""What the bridge tells its user: counted rolls and status changes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

StateName = Literal["offline", "online", "error"]


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """One counted roll: the device's seq, the face index per die, and the beans shown."""

    seq: int
    faces: tuple[int, ...]
    beans: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": "roll", "seq": self.seq, "faces": list(self.faces), "beans": list(self.beans)}


@dataclass(frozen=True, slots=True)
class Status:
    """The dice link as the tablet shows it.

    ``state`` is "online" (handshake done), "offline" (no usable link; manual entry) or
    "error" (a device the bridge refuses, e.g. another protocol major). ``last_seen``
    is the wall-clock time (epoch seconds) of the last valid message, ``faces`` what
    the dice last showed, ``rejects`` the reject counts by reason since the bridge started.
    """

    state: StateName = "offline"
    port: str | None = None
    device: str | None = None
    firmware: str | None = None
    last_seen: float | None = None
    faces: tuple[int, ...] | None = None
    rejects: dict[str, int] = field(default_factory=dict)
    error: str | None = None

    @property
    def connected(self) -> bool:
        return self.state == "online"

    @property
    def message(self) -> str:
        """One line for the tablet, e.g. "dice offline"."""
        if self.state == "online":
            return f"dice online: {self.device} {self.firmware}"
        return f"dice offline: {self.error}" if self.error else "dice offline"

    def changed_from(self, other: Status | None) -> bool:
        """Whether this differs from ``other`` in more than ``last_seen`` and ``faces``."""
        if other is None:
            return True
        keys = ("state", "port", "device", "firmware", "rejects", "error")
        return any(getattr(self, k) != getattr(other, k) for k in keys)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["faces"] = list(self.faces) if self.faces is not None else None
        return {"event": "status", "connected": self.connected, "message": self.message, **data}


Event = DiceRoll | Status

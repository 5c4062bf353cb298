"""Bridge to electronic bean dice: protocol v1 (see PROTOCOL.md), driver, emulator and CLI.

The companion uses ``open_dice(spec, on_event)``; see ``firmware_bridge.bridge``.
"""

from firmware_bridge.bridge import DiceBridge, open_dice
from firmware_bridge.driver import Timing
from firmware_bridge.events import DiceRoll, Event, Status
from firmware_bridge.messages import PROTOCOL_MAJOR

__all__ = ["PROTOCOL_MAJOR", "DiceBridge", "DiceRoll", "Event", "Status", "Timing", "open_dice"]

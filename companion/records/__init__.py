"""Game records: a versioned JSON Lines format (header line, then one event per line)."""

from companion.records.format import FORMAT, VERSION, Header, Record, RecordError
from companion.records.jsonl import dumps_record, load_record, loads_record, write_record
from companion.records.replay import Replay, replay

__all__ = [
    "FORMAT", "VERSION", "Header", "Record", "RecordError", "Replay", "dumps_record", "load_record",
    "loads_record", "replay", "write_record",
]

"""The one error type of the vision area: a message for the user, never a traceback."""


class VisionError(Exception):
    """Something the user can fix: names the file and says what to do."""

"""The instance folder's private files: the session key and the logins, which decide who may change games.

They are made with mode 0600 from the start and never trusted as found: a file that another
user owns or could have written, or a link, stops the app with a sentence saying what to do.
"""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
from pathlib import Path

KEY_FILE = "secret_key"
KEY_CHARS = 64
REMEDY = "delete it (a new one is made at the next start; tablets then enter the PIN again)"
"""What to do about an unsafe file: without it, the app makes a new one."""


class UnsafeInstance(Exception):
    """A file or folder of the instance that others could have written: the app refuses to start."""


def prepare_folder(folder: Path) -> None:
    """Make ``folder`` (mode 0700 when new); refuse one that every user may write."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = folder.stat()
    if info.st_mode & stat.S_IWOTH:
        raise UnsafeInstance(f"the instance folder {folder} can be written by every user: "
                             f"choose a private folder with --instance, or run chmod o-w {folder}")  # fmt: skip


def secret_key(folder: Path) -> str:
    """The session-signing key kept in ``folder`` (made on first start), so logins survive a restart."""
    path = folder / KEY_FILE
    create_private(path, secrets.token_hex(KEY_CHARS // 2).encode())
    key = read_private(path).decode("ascii", "replace").strip()
    if len(key) < KEY_CHARS:
        raise UnsafeInstance(f"{path} is too short to be a session key: {REMEDY}")
    return key


def create_private(path: Path, data: bytes) -> None:
    """Write ``path`` unless it exists: mode 0600 from creation (O_CREAT | O_EXCL), whole or not at all."""
    if os.path.lexists(path):
        return
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(temp, path)  # atomic, and never replaces a file another process made first
        except FileExistsError:
            pass
    finally:
        os.unlink(temp)


def read_private(path: Path) -> bytes:
    """The bytes of ``path``, a plain file of this user that no one else may write."""
    with os.fdopen(_open_private(path), "rb") as file:
        return file.read()


def check_private(path: Path) -> None:
    """Refuse ``path`` unless it is a plain file of this user that no one else may write."""
    os.close(_open_private(path))


def _open_private(path: Path) -> int:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        raise UnsafeInstance(f"{path} cannot be opened as a plain file ({exc.strerror}): {REMEDY}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        problem = "is not a plain file"
    elif info.st_uid != os.getuid():
        problem = "belongs to another user"
    elif info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        problem = "can be written by other users"
    else:
        return fd
    os.close(fd)
    raise UnsafeInstance(f"{path} {problem}: {REMEDY}")

"""The instance folder's private files: made 0600 from the start, refused when others could have written them."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from web import create_app
from web.instance import REMEDY, UnsafeInstance


@pytest.fixture
def open_umask() -> Iterator[None]:
    """Files made while this is in use get every permission the code asks for (umask 0)."""
    old = os.umask(0)
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_key_and_logins_are_made_private_from_the_start(make_app, tmp_path: Path, open_umask,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    chmod = os.chmod

    def no_chmod_of_private_files(path, *args, **kwargs) -> None:
        assert Path(path).name not in ("secret_key", "logins.sqlite3"), f"{path} made open, then closed with chmod"
        chmod(path, *args, **kwargs)

    monkeypatch.setattr(os, "chmod", no_chmod_of_private_files)  # Path.chmod calls it too
    make_app()
    folder = tmp_path / "instance"
    assert _mode(folder) == 0o700
    assert _mode(folder / "secret_key") == 0o600 and _mode(folder / "logins.sqlite3") == 0o600
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_a_key_others_could_write_is_refused(tmp_path: Path) -> None:
    key = tmp_path / "secret_key"
    key.write_text("planted" * 10)
    key.chmod(0o666)
    with pytest.raises(UnsafeInstance) as refused:
        create_app({"TABLE_PIN": "2468"}, instance_path=tmp_path)
    assert str(refused.value) == f"{key} can be written by other users: {REMEDY}"
    key.chmod(0o620)
    with pytest.raises(UnsafeInstance, match="can be written by other users"):
        create_app({"TABLE_PIN": "2468"}, instance_path=tmp_path)


def test_a_key_of_another_user_or_a_link_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "elsewhere").write_text("0" * 64)
    (tmp_path / "secret_key").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UnsafeInstance, match="cannot be opened as a plain file"):
        create_app({"TABLE_PIN": "2468"}, instance_path=tmp_path)
    (tmp_path / "secret_key").unlink()
    (tmp_path / "secret_key").write_text("0" * 64)
    uid = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    with pytest.raises(UnsafeInstance, match="secret_key belongs to another user"):
        create_app({"TABLE_PIN": "2468"}, instance_path=tmp_path)


def test_a_logins_file_others_could_write_is_refused(make_app, tmp_path: Path) -> None:
    make_app()
    (tmp_path / "instance" / "logins.sqlite3").chmod(0o646)
    with pytest.raises(UnsafeInstance, match="logins.sqlite3 can be written by other users"):
        make_app()


def test_an_instance_folder_every_user_may_write_is_refused(tmp_path: Path) -> None:
    tmp_path.chmod(0o1777)
    with pytest.raises(UnsafeInstance, match="can be written by every user: choose a private folder with --instance"):
        create_app({"TABLE_PIN": "2468"}, instance_path=tmp_path)


def test_the_oldest_logins_end_beyond_the_most_kept(app, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web.logins.MAX_LOGINS", 3)
    logins = app.extensions["logins"]
    made = [logins.login() for _ in range(5)]
    assert [logins.is_live(login) for login in made] == [False, False, True, True, True]
    assert not logins.is_live(None) and not logins.is_live("made-up")

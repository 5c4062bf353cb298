"""``companion serve``: the tablet page on a production WSGI server (waitress).

Binds to localhost unless ``--lan`` is given; prints the address, a QR code of it for
tablets on the same network, and the table PIN that unlocks changes (and, with
``--private``, watching too).
"""

from __future__ import annotations

import argparse
import io
import ipaddress
import signal
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

from companion.cli.common import add_db_option, db_path, default_instance

DEFAULT_PORT = 8000
AUTO = "auto"
THREADS = 64
"""Worker threads. Each open page's live stream holds one, so only 40 streams are admitted and 24 threads
stay for requests (``web.serving.live_streams_max``); pages beyond that poll."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the tablet page (manual entry works with no camera or dice)")
    add_db_option(parser)
    parser.add_argument("--host", default=None, help="address to bind (default 127.0.0.1, or all with --lan)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--lan", action="store_true", help="accept tablets on the local network, not just this machine")
    parser.add_argument("--dice", metavar="PORT",
                        help="electronic dice: serial port, URL, usb:VID:PID, 'emulate', "
                             "or 'auto' (the first USB serial device)")
    parser.add_argument("--camera", metavar="INDEX",
                        help="camera index, video URL or file, folder of frames, 'synthetic', 'demo' (a recorded game "
                             "on a rendered table, refereed by the camera), or 'auto' (the first webcam); "
                             "default: none, manual entry")
    parser.add_argument(
        "--pin",
        help="table PIN (default: a new random PIN, printed at start; "
        "a PIN other than the last one ends every earlier login)",
    )
    parser.add_argument("--private", action="store_true", help="watching needs the table PIN too, not just changing")
    parser.add_argument(
        "--instance",
        type=Path,
        help="folder for the session key, logins and deck profiles "
        "(default: $XDG_DATA_HOME/bohnanza-companion, else ~/.local/share/bohnanza-companion)",
    )
    parser.set_defaults(func=_serve)


def _stop_on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM stops the server as Ctrl+C does, so the dice and the camera are closed on the way out."""
    raise KeyboardInterrupt


def _serve(args: argparse.Namespace) -> int:
    from web import create_app
    from web.instance import UnsafeInstance
    from web.serving import create_server  # fits the live-stream limit to THREADS

    db = db_path(args)
    host = args.host or ("0.0.0.0" if args.lan else "127.0.0.1")
    dice, camera = _auto_dice(args.dice), _auto_camera(args.camera)
    settings = {"DATABASE": str(db), "TABLE_PIN": args.pin, "DICE": dice, "CAMERA": camera,
                "WATCH_NEEDS_PIN": args.private}  # fmt: skip
    try:
        app = create_app(settings, instance_path=(args.instance or default_instance()).resolve())
    except UnsafeInstance as exc:  # a session key or login file others could have written: bad set-up
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a store that cannot be opened, a bad dice spec: say so, no traceback
        print(f"companion serve: {exc}", file=sys.stderr)
        return 1
    try:
        try:
            server = create_server(app, host=host, port=args.port, threads=THREADS, ident="bohnanza-companion")
        except OSError as exc:
            print(f"companion serve: cannot listen on {host}:{args.port}: {exc.strerror}; try another --port",
                  file=sys.stderr)  # fmt: skip
            return 1
        url = f"http://{_reachable_address(host)}:{server.effective_port}/"
        app.config["PUBLIC_URL"] = url  # the join links in the phones' QR codes
        print(_banner(url, app.config["TABLE_PIN"], db, lan=not _loopback(host), private=args.private), flush=True)
        signal.signal(signal.SIGTERM, _stop_on_sigterm)
        server.run()
    finally:
        app.extensions["hardware"].close()
    return 0


def _auto_dice(spec: str | None) -> str | None:
    """``auto``: the first USB serial device, found again by its ids if it moves; else no dice."""
    if spec != AUTO:
        return spec
    from serial.tools import list_ports

    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if port.vid is not None and port.pid is not None:
            return f"usb:{port.vid:04X}:{port.pid:04X}"
    return None


def _auto_camera(spec: str | None) -> str | None:
    """``auto``: the first video device, if any; else no camera."""
    if spec != AUTO:
        return spec
    devices = sorted(Path("/dev").glob("video[0-9]*"))
    return devices[0].name.removeprefix("video") if devices else None


def _loopback(host: str) -> bool:
    """Whether only this machine can reach an address bound to ``host``."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _reachable_address(host: str) -> str:
    """The address a tablet should open: the LAN address when bound to all interfaces."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent; this picks the outgoing interface
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


def _banner(url: str, pin: str, db: Path, *, lan: bool, private: bool) -> str:
    """The start-up text: address, QR code, PIN, who may watch, and store."""
    import qrcode

    code = qrcode.QRCode(border=1)
    code.add_data(url)
    picture = io.StringIO()
    code.print_ascii(out=picture, invert=True)
    if private:
        access = f"Table PIN: {pin}   (needed to watch and to change a game)\n"
    elif lan:
        access = (
            f"Table PIN: {pin}   (needed to change a game)\n"
            "Anyone on this network can watch the games at this address; start with --private to need the PIN.\n"
        )
    else:
        access = f"Table PIN: {pin}   (needed to change a game; anyone on this machine may watch)\n"
    reach = "" if lan else _loopback_note(url)
    return (f"Bohnanza companion on {url}\n{picture.getvalue()}{reach}{access}"
            f"Games are stored in {db}\nPress Ctrl+C to stop.")  # fmt: skip


def _loopback_note(url: str) -> str:
    """Beside the QR code of a loopback address: it opens on this machine only, and how to let tablets in."""
    return (
        f"This address works on this machine only: the server listens on {urlsplit(url).hostname} alone, so a tablet\n"
        "or phone that scans the QR code reaches nothing. To let the table's tablets in, start with:\n"
        "    companion serve --lan\n"
    )

"""Take the README's screenshots of the table page: a tablet and a player's phone, each in both orientations.

    .venv/bin/python scripts/make_screenshots.py [--out docs/screenshots]

Serves a fresh app on loopback (a temporary instance folder), plays a known-deck 4-player game through the API
to a trade in the making, and photographs it with Debian's headless Chromium (the test extra's selenium):
the tablet (PIN entered) at 1180 x 820 and 820 x 1180, and the active player's phone (joined with the
table's join code, no PIN) at 390 x 844 and 844 x 390.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.rules.moves import move_to_dict
from companion.rules.simulate import random_game, random_setup
from web import create_app
from web.serving import background_server

PIN = "2468"
SEED = 11
SHOTS = {
    "tablet-landscape": (1180, 820, False),
    "tablet-portrait": (820, 1180, True),
    "phone-portrait": (390, 844, True),
    "phone-landscape": (844, 390, True),
}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def post(client: FlaskClient, token: str, path: str, body: Any = None) -> Any:
    response = client.post(path, json=body, headers={"X-CSRF-Token": token})
    if response.status_code >= 300:
        raise SystemExit(f"{path}: {response.status_code} {response.get_json()}")
    return response.get_json()


def game_to_a_trade(client: FlaskClient, token: str) -> tuple[int, int]:
    """A 4-player known-deck game played to the first turn-over after its 70th event: its id and active seat."""
    setup = random_setup("amigo-25", 4, SEED)
    events = [move_to_dict(move) for move in random_game(setup, SEED).move_stack]
    count = next(n for n, event in enumerate(events, 1) if n >= 70 and event["type"] == "turn-over")
    game_id = int(post(client, token, "/api/games", {
        "ruleset": "amigo-25", "players": list(setup.players), "start_player": setup.start_player,
        "deck": {"seed": SEED}, "meta": {"title": "Friday beans"}})["game_id"])  # fmt: skip
    for event in events[:count]:
        post(client, token, f"/api/games/{game_id}/moves", event)
    return game_id, int(events[count - 1]["player"])


def chromium(profile: Path) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--hide-scrollbars", f"--user-data-dir={profile}"):  # fmt: skip
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def shoot(driver: webdriver.Chrome, url: str, size: tuple[int, int, bool], path: Path, ready: str) -> None:
    """Open ``url`` at ``size`` (width, height, mobile), wait for ``ready`` (CSS) and save the top of the page."""
    width, height, mobile = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})  # fmt: skip
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ready))
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(path))
    print(f"wrote {path}")


def unlock(driver: webdriver.Chrome, url: str) -> None:
    """Open ``url`` and enter the table PIN through the page's own dialog."""
    driver.get(url)
    wait = WebDriverWait(driver, 10)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pin-button"))
    driver.find_element(By.CSS_SELECTOR, "#pin-button").click()
    wait.until(lambda d: d.execute_script("return document.getElementById('pin-dialog').open"))
    driver.find_element(By.CSS_SELECTOR, "#pin-input").send_keys(PIN)
    driver.find_element(By.CSS_SELECTOR, "#pin-submit").click()
    wait.until(lambda d: d.execute_script("return document.body.dataset.editor") == "yes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DOCS)
    out = parser.parse_args(argv).out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TABLE_PIN": PIN}, instance_path=str(Path(tmp) / "instance"))
        client = app.test_client()
        token = client.get("/api/session").get_json()["csrf_token"]
        post(client, token, "/api/session", {"pin": PIN})
        game_id, active = game_to_a_trade(client, token)
        code = post(client, token, "/api/join/code")["code"]
        with background_server(app) as url:
            tablet, phone = chromium(Path(tmp) / "tablet"), chromium(Path(tmp) / "phone")
            try:
                unlock(tablet, f"{url}/games/{game_id}")
                phone.get(f"{url}/games/{game_id}?join={code}")
                seat = f'.join-seat[data-seat="{active}"]'
                WebDriverWait(phone, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, seat))
                phone.find_element(By.CSS_SELECTOR, seat).click()
                WebDriverWait(phone, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-bar"))
                for name, size in SHOTS.items():
                    tablet_shot = name.startswith("tablet")
                    driver, ready = (tablet, "#table .table-view") if tablet_shot else (phone, "#mine .seat")
                    shoot(driver, f"{url}/games/{game_id}", size, out / f"table-{name}.png", ready)
            finally:
                tablet.quit()
                phone.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Browser tests: a real headless Chromium (Debian's, driven by selenium) against a real server.

One server per module and one browser per test process keep the tests fast. Chromium and its driver come
from /usr/bin (selenium-manager never downloads one); without Chromium the browser tests are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import JavascriptException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from support.live_server import LiveServer, live_server
from support.web_client import PIN, Editor

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WAIT_S = 10

SHOWN_JS = """
return [...document.querySelectorAll(arguments[0])].some((node) => {
  const box = node.getBoundingClientRect();
  return box.width && box.height && !node.disabled;
});
"""
"""Whether an enabled element for a CSS selector is shown."""
PRESS_JS = """
for (const node of document.querySelectorAll(arguments[0])) {
  if (!node.getBoundingClientRect().width || node.disabled) continue;
  node.scrollIntoView({block: 'center', inline: 'center'});
  const box = node.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (!hit || !node.contains(hit)) return false;
  node.click();
  return true;
}
return false;
"""
"""Tap the first shown, enabled element for a CSS selector, in the middle of the screen, if nothing covers it."""

FACTS_JS = """
const view = document.querySelector('#table .table-view');
if (!view) return null;
const all = (sel, root = document) => [...root.querySelectorAll(sel)];
return {
  phase: view.dataset.phase, active: view.dataset.active, over: view.dataset.over,
  fields: all('.field-plot').map((f) => `${f.dataset.seat}:${f.dataset.field}:${f.dataset.bean}:${f.dataset.count}`),
  faceUp: all('#face-up .card').map((c) => c.dataset.bean),
  received: all('.seat').map((s) => all('.received .card', s).map((c) => c.dataset.bean)),
  coins: all('.seat .coins b').map((b) => b.textContent),
  hands: all('.seat .hand b').map((b) => b.textContent),
  draw: document.querySelector('#draw-pile b').textContent,
};
"""

HOLD_ANSWERS_JS = """
const fetchNow = window.fetch;
let release;
const released = new Promise((resolve) => { release = resolve; });
window.held = { release, served: false, read: false };
window.fetch = (path, options) => {
  if (!String(path).endsWith(%s) || (options && options.method)) return fetchNow(path, options);
  return fetchNow(path, options).then((response) => {
    window.held.served = true;
    const json = response.json.bind(response);
    response.json = () => json().finally(() => setTimeout(() => { window.held.read = true; }, 0));
    return released.then(() => response);
  });
};
"""
"""Holds the page's answers to GETs of a path until ``held.release()``: ``held.served`` is set once the server has
answered, ``held.read`` once the page has read an answer (a task after the reply's promises have run)."""


class Browser:
    """One page of the headless Chromium: open, tap, wait, read the table."""

    def __init__(self, driver: webdriver.Chrome, base: str):
        self.driver = driver
        self.base = base

    def open(self, path: str) -> None:
        self.driver.get(self.base + path)

    def viewport(self, width: int, height: int, mobile: bool) -> None:
        """Emulate a device's viewport exactly (CSS pixels)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile,
        })  # fmt: skip

    @contextmanager
    def answers_held(self, path: str) -> Iterator[None]:
        """Pages opened meanwhile hold their answers to GETs of ``path`` (:data:`HOLD_ANSWERS_JS`) until
        :meth:`release_answers`."""
        script = {"source": HOLD_ANSWERS_JS % json.dumps(path)}
        held = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", script)
        try:
            yield
        finally:
            self.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": held["identifier"]})

    def answer_served(self) -> None:
        """Wait until the server has answered a held GET."""
        self.until(lambda: self.driver.execute_script("return window.held.served;"), "the held GET was never answered")

    def release_answers(self) -> None:
        """Let the held answers through, and wait until the page has read one."""
        self.driver.execute_script("window.held.release();")
        self.until(lambda: self.driver.execute_script("return window.held.read;"), "the held answer was never read")

    def until(self, condition: Callable[[], Any], message: str = "", timeout: float = WAIT_S) -> Any:
        """Wait (explicitly, no sleeps) until ``condition()`` is truthy; return its value."""

        def probe(_: Any) -> Any:
            try:
                return condition()
            except (StaleElementReferenceException, JavascriptException):
                return None

        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(probe, message)

    def find(self, css: str) -> WebElement:
        return self.until(lambda: self.visible(css), f"no visible {css}")

    def visible(self, css: str) -> WebElement | None:
        for node in self.driver.find_elements(By.CSS_SELECTOR, css):
            if node.is_displayed():
                return node
        return None

    def tap(self, css: str) -> None:
        """Tap an enabled control: scrolled to the middle of the screen, then clicked."""
        node = self.until(lambda: (n := self.visible(css)) is not None and n.is_enabled() and n, f"no enabled {css}")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", node)
        node.click()

    def press(self, css: str) -> None:
        """``tap`` in one round trip a try (where a finger would: nothing may cover the control), for pages that
        many windows drive in turn."""
        self.until(lambda: self.driver.execute_script(PRESS_JS, css), f"no enabled, uncovered {css}")

    def shows(self, css: str) -> bool:
        """Whether an enabled element for ``css`` is on the page and shown."""
        return bool(self.driver.execute_script(SHOWN_JS, css))

    def type(self, css: str, text: str) -> None:
        node = self.find(css)
        node.clear()
        node.send_keys(text)

    def facts(self) -> dict[str, Any] | None:
        """What the table shows: phase, active seat, fields, turned-over and received cards, coins, hands."""
        return self.driver.execute_script(FACTS_JS)

    def text(self, css: str) -> str:
        return self.find(css).text

    def unlock(self) -> None:
        """Enter the table PIN through the page's own dialog, if this browser has not yet."""
        self.until(lambda: self.driver.execute_script("return document.body.dataset.editor"), "session not loaded")
        if self.driver.execute_script("return document.body.dataset.editor") == "yes":
            return
        self.tap("#pin-button")
        self.enter_pin()
        self.until(lambda: self.driver.execute_script("return document.body.dataset.editor") == "yes", "PIN refused")

    def enter_pin(self) -> None:
        """Answer the PIN dialog that a change opens."""
        dialog_open = "return document.getElementById('pin-dialog').open"
        self.until(lambda: self.driver.execute_script(dialog_open), "no PIN dialog")
        self.type("#pin-input", PIN)
        self.tap("#pin-submit")

    def dismiss_alerts(self) -> None:
        self.driver.execute_script("document.querySelectorAll('#alerts .alert').forEach((a) => a.remove());")


def chrome(profile: Path, screenshots: bool = False) -> webdriver.Chrome:
    """A headless Chromium from /usr/bin with a fresh profile; selenium-manager is never used.

    It composites on its main thread (a page's update then costs it about half the processor time), unless it is to
    take ``screenshots``, which wait for frames that only a compositor thread draws."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=1180,820", f"--user-data-dir={profile}",
                 *([] if screenshots else ["--disable-threaded-compositing"])):  # fmt: skip
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("instance")) as running:
        yield running


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """One Chromium per test process, which the browser modules take in turn: each module's server is an origin of its
    own, so no module sees another's cookies, login or storage."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium chromium-driver)")
    browser = chrome(tmp_path_factory.mktemp("chromium-profile"))
    yield browser
    browser.quit()


@pytest.fixture(scope="module")
def driver(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """The module's Chromium: the test process's own, left after the module with one blank window; a module marked
    ``screenshots`` starts one of its own that takes them."""
    if request.node.get_closest_marker("screenshots") is None:
        shared: webdriver.Chrome = request.getfixturevalue("chromium")
        yield shared
        for handle in shared.window_handles[1:]:
            shared.switch_to.window(handle)
            shared.close()
        shared.switch_to.window(shared.window_handles[0])
        shared.get("about:blank")
        return
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium chromium-driver)")
    browser = chrome(tmp_path_factory.mktemp("chromium-profile"), screenshots=True)
    yield browser
    browser.quit()


@pytest.fixture(scope="module")
def module_page(driver: webdriver.Chrome, server: LiveServer) -> Browser:
    """The module's browser page, for module-wide set-up."""
    browser = Browser(driver, server.url)
    browser.viewport(1180, 820, mobile=False)
    return browser


@pytest.fixture
def page(module_page: Browser) -> Iterator[Browser]:
    """The module's browser, back on its first window at tablet-landscape size; no script errors allowed."""
    driver = module_page.driver
    driver.switch_to.window(driver.window_handles[0])
    module_page.viewport(1180, 820, mobile=False)
    driver.get_log("browser")
    yield module_page
    errors = [entry["message"] for entry in driver.get_log("browser")
              if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]]  # fmt: skip
    assert errors == [], "the page's scripts failed"


@pytest.fixture(scope="module")
def browsers(tmp_path_factory: pytest.TempPathFactory, server: LiveServer) -> Iterator[Callable[[int], list[Browser]]]:
    """More browsers beside the module's, each its own Chromium (its own cookies: its own login), started at once."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium chromium-driver)")
    started: list[webdriver.Chrome] = []

    def start(count: int) -> list[Browser]:
        with ThreadPoolExecutor(count) as pool:
            drivers = list(pool.map(lambda _: chrome(tmp_path_factory.mktemp("chromium-profile")), range(count)))
        started.extend(drivers)
        return [Browser(driver, server.url) for driver in drivers]

    yield start
    for driver in started:
        driver.quit()


@pytest.fixture
def api(server: LiveServer) -> Editor:
    """A client of the same app that has entered the PIN, to set games up quickly."""
    return Editor(server.app.test_client())

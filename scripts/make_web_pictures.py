"""Draw the tablet page's pictures: a bean per catalogue id and the back (web/static/beans/*.svg),
and the app icons (PNG)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.cards import BACK, CATALOGUE

COLOURS = {
    "coffee": ("#6b4226", "#3b2415"), "wax": ("#f2d35b", "#8a7420"), "brandy": ("#9b3d2a", "#5a2014"),
    "blue": ("#3b6fd1", "#1d3b78"), "chili": ("#d8432b", "#7a1f10"), "stink": ("#8b8f3a", "#4a4c1a"),
    "green": ("#4fa34a", "#24561f"), "soy": ("#d9c27a", "#7d6a2c"), "black-eyed": ("#f0ead6", "#555044"),
    "red": ("#b52533", "#5e1018"), "garden": ("#7cc36a", "#3a6e2d"), "cocoa": ("#5a3320", "#2b170c"),
    "field": ("#a4c639", "#566b14"), "magpie": ("#3a3a3a", "#111111"), "cognac": ("#c28a2c", "#6a4912"),
}  # fmt: skip
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
OUT = STATIC / "beans"
ICON_SIZES = (192, 512)


def bean_svg(bean_id: str) -> str:
    fill, dark = COLOURS[bean_id]
    eye = '<circle cx="36" cy="36" r="5" fill="#111"/>' if bean_id == "black-eyed" else ""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        '<path d="M14 46C6 32 14 12 32 10c14-1 22 10 18 20-3 7-10 6-13 11-4 8-16 14-23 5z"'
        f' fill="{fill}" stroke="{dark}" stroke-width="3"/>'
        '<path d="M22 20c4-4 9-5 13-4" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width="3"'
        ' stroke-linecap="round"/>'
        f'{eye}<circle cx="25" cy="31" r="2.6" fill="{dark}"/><circle cx="33" cy="29" r="2.6" fill="{dark}"/>'
        f'<path d="M24 38q5 4 10-1" fill="none" stroke="{dark}" stroke-width="2.4" stroke-linecap="round"/>'
        f"<title>{CATALOGUE[bean_id].name}</title></svg>\n"
    )


def back_svg() -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        '<circle cx="32" cy="32" r="26" fill="#e3b43c" stroke="#8a6510" stroke-width="4"/>'
        '<circle cx="32" cy="32" r="17" fill="none" stroke="#8a6510" stroke-width="2"/>'
        '<text x="32" y="40" font-size="22" text-anchor="middle" font-family="sans-serif" font-weight="bold"'
        ' fill="#8a6510">1</text>'
        "<title>Card back (coin)</title></svg>\n"
    )


def icon_png(size: int) -> np.ndarray:
    """The home-screen icon: a green bean on the companion's dark green (BGR)."""
    image = np.zeros((size, size, 3), np.uint8)
    image[:] = (52, 93, 47)
    centre, axes = (size // 2, size // 2), (int(size * 0.3), int(size * 0.2))
    cv2.ellipse(image, centre, axes, -30, 0, 360, (90, 193, 143), -1, cv2.LINE_AA)
    cv2.ellipse(image, centre, axes, -30, 0, 360, (32, 58, 29), max(2, size // 40), cv2.LINE_AA)
    cv2.circle(image, (int(size * 0.56), int(size * 0.44)), max(2, size // 24), (32, 58, 29), -1, cv2.LINE_AA)
    return image


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for bean_id in CATALOGUE:
        (OUT / f"{bean_id}.svg").write_text(bean_svg(bean_id))
    (OUT / f"{BACK}.svg").write_text(back_svg())
    for size in ICON_SIZES:
        cv2.imwrite(str(STATIC / "icons" / f"icon-{size}.png"), icon_png(size))


if __name__ == "__main__":
    main()

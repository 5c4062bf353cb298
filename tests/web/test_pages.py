"""The HTML pages: served to anyone, every asset local, installable on a tablet's home screen."""

from __future__ import annotations

import re

from support.web_client import Editor

EXTERNAL = re.compile(r"""(?:src|href)=["'](?:https?:)?//""")
ASSET = re.compile(r"""(?:src|href)=["'](/static/[^"']+)["']""")


def test_every_page_uses_only_local_assets_and_they_exist(client, editor: Editor) -> None:
    card = editor.start()["game_id"]
    dice = editor.start(game="dice", players=["Ann", "Ben"])["game_id"]
    for path in ("/", "/new", f"/games/{card}", f"/games/{dice}", f"/games/{card}/replay", "/camera"):
        response = client.get(path)
        html = response.get_data(as_text=True)
        assert response.status_code == 200 and "<html" in html, path
        assert not EXTERNAL.search(html), f"{path} loads something from another host"
        for asset in ASSET.findall(html):
            assert client.get(asset).status_code == 200, f"{path}: {asset} is missing"


def test_a_card_game_gets_the_table_and_a_dice_game_its_own_screen(client, editor: Editor) -> None:
    card = editor.start()["game_id"]
    dice = editor.start(game="dice", players=["Ann", "Ben"])["game_id"]
    assert 'data-page="table"' in client.get(f"/games/{card}").get_data(as_text=True)
    assert 'data-page="dice"' in client.get(f"/games/{dice}").get_data(as_text=True)


def test_the_web_app_manifest_names_the_app_and_its_icons(client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon["src"]


def test_every_bean_has_a_picture(client) -> None:
    from companion.cards import BACK, CATALOGUE

    for bean in [*CATALOGUE, BACK]:
        response = client.get(f"/static/beans/{bean}.svg")
        assert response.status_code == 200 and b"<svg" in response.data, bean

"""An address that is no page answers a page that says so (404); the API stays JSON."""

from __future__ import annotations

from pathlib import Path

from .server_helpers import AppFactory, TestClient


def test_an_address_of_no_page_gets_the_missing_page(make_app: AppFactory, tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir(parents=True)
    (web / "missing.html").write_text("<title>missing</title>")
    with TestClient(make_app()) as client:
        for path in ("/nonsense", "/table", "/rules/xx", "/leaderboards", "/a/b/c?x=1"):
            r = client.get(path)
            assert r.status_code == 404, path
            assert r.headers["content-type"].startswith("text/html"), path
            assert "<title>missing</title>" in r.text, path
        for path in ("/api/nonsense", "/static/nothing.js", "/ws/nothing"):
            r = client.get(path)
            assert r.status_code == 404, path
            assert r.json()["error"], path
        assert client.post("/nonsense").json()["error"]  # only a page is read as a page


def test_the_bar_s_pages_without_their_last_part_lead_to_the_bar_s_links(
    client: TestClient,
) -> None:
    """``/rules`` and ``/leaderboard``, typed by hand, open what the bar's links open: the
    rules in the reader's language (of those they are written in), the Draw leaderboard."""
    cases = {
        ("/rules", "fr-CH, fr;q=0.9, en;q=0.8"): "/rules/fr/kozel",
        ("/rules", "ru-RU,ru;q=0.9,de;q=0.7,en;q=0.8"): "/rules/ru/kozel",
        ("/rules", "es, ru;q=0.5, de;q=0.4"): "/rules/ru/kozel",
        ("/rules", "es, *;q=0.1"): "/rules/en/kozel",
        ("/rules/ru", "de"): "/rules/ru/kozel",
        ("/rules", "de;q=nonsense, fr;q=0.2"): "/rules/fr/kozel",
        ("/rules", ""): "/rules/en/kozel",
        ("/rules/de", "fr"): "/rules/de/kozel",
        ("/leaderboard", "de"): "/leaderboard/draw",
    }
    for (path, languages), there in cases.items():
        r = client.get(path, headers={"Accept-Language": languages}, follow_redirects=False)
        assert r.status_code == 307, (path, languages)
        assert r.headers["location"] == there, (path, languages)

"""An address that is no page answers a page that says so (404); the API stays JSON."""

from __future__ import annotations

from pathlib import Path

from .server_helpers import AppFactory, TestClient


def test_an_address_of_no_page_gets_the_missing_page(make_app: AppFactory, tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir(parents=True)
    (web / "missing.html").write_text("<title>missing</title>")
    with TestClient(make_app()) as client:
        for path in ("/nonsense", "/table", "/rules/de", "/a/b/c?x=1"):
            r = client.get(path)
            assert r.status_code == 404, path
            assert r.headers["content-type"].startswith("text/html"), path
            assert "<title>missing</title>" in r.text, path
        for path in ("/api/nonsense", "/static/nothing.js", "/ws/nothing"):
            r = client.get(path)
            assert r.status_code == 404, path
            assert r.json()["error"], path
        assert client.post("/nonsense").json()["error"]  # only a page is read as a page

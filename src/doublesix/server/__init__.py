"""The web server: lobby API, table sockets, persistence (issue 4).

    from doublesix.server import create_app
    app = create_app("sqlite+aiosqlite:///doublesix.sqlite3", bot_delay=0.6)

``app.py`` is the app factory and routes, ``ws.py`` the table socket,
``actor.py`` the single writer of each table, ``store.py`` the persistence
interface and its SQLAlchemy implementation, ``views.py`` what a seat sees.
"""

from doublesix.server.app import create_app

__all__ = ["create_app"]

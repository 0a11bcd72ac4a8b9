"""What a site's operator scrapes: ``doublesix serve --metrics HOST:PORT`` (Prometheus).

Every metric of the server is defined here, and counted where the I/O happens, never in
the rules or a table's state (``doublesix.rules``, ``doublesix.table``):

- ``HttpMetrics``, the outermost ASGI middleware (``app.py``, only with ``--metrics``):
  every HTTP request by method, route template and status class, and its seconds by route
  template. The template is the route's path with its parameters
  (``/api/tables/{table_id}``), never the raw path, so a table id is never a label; a
  request no route answered (an unknown path, a 429 of the limits per address) is
  ``route="none"``. Sockets pass through it uncounted.
- ``refresh_every`` (``app.py``, only with ``--metrics``): every second, the tables this
  process runs by status and its sockets by kind, read from what the process keeps already
  (``TableManager.hosts``; ``Lobby.sockets`` and ``Lobby.listeners``).
- ``host.py``: each command a table applied, refused or failed to store, by its class
  (``Play``, ``BotMove``, ``Tick``…), and the seconds from asking a bot for its move to the
  answer (the worker's queue, the search and its pad: ``thinking.Pad``), by level.
- ``store.py``: each group commit's seconds and how many commits it wrote (``_flush``).
- ``addresses.py``, ``connections.py``, ``player_limits.py``, ``logins.py``, ``uploads.py``,
  ``ws.py``, ``lobby_socket.py`` and the daily limits kept in the database (``messages.py``,
  ``reports.py``, ``tournament_sql.py``, ``routes/tables.py``; ``lobby_room.py``'s challenges
  waiting at once): each refusal by a limit (a 429 or 503, a socket closed with 4429, a
  frame or lobby chat line refused), by the limit's name: ``address:…`` for the limits per
  client address, ``player:…`` for those per player, ``name:…`` and ``name-address:…`` for
  the failed logins per account name, ``queue:…`` for the worker queues, ``socket:frames``.
- ``player_limits.py``, ``routes/health.py``: Redis's errors and time-outs where the server
  goes on without it.

No label is ever a table, a player or an address: each label takes a few known values.

**One process** serves its own metrics (``prometheus_client``'s default registry, with its
``process_…`` and ``python_…`` metrics) from a thread of its own. **Several**
(``--workers N``): ``serve`` makes a private temporary folder and names it in
``PROMETHEUS_MULTIPROC_DIR`` before uvicorn starts the workers, so each worker writes its
values to files there (``prometheus_client``'s multiprocess mode); the parent that
supervises them serves their sum (``MultiProcessCollector``) and removes the folder when
it stops. A worker that exits stops counting in the gauges: uvicorn's supervisor has no
hook for it, so each scrape first marks the workers gone since the last one dead
(``mark_process_dead``), whose counters stay in the sum. The library does not sum the
``process_…`` metrics of several processes, so the parent serves them for itself and each
live worker, labelled ``pid`` and ``role`` (``parent``, ``worker``), read from ``/proc``
by the library's ``ProcessCollector``; no ``python_…`` metrics then.

The folder's name carries the parent's pid and start time (``FOLDER_NAME``): a parent
killed with SIGKILL leaves the folder behind, and the next parent to start removes the
folders that no running process uses (``remove_orphans``). The name also tells who
writes there: only the parent's own children (uvicorn's workers), never their worker
processes (bots, reviews, uploads), which inherit the environment but count nothing.

The metrics listen on a port of their own, never the game's, so no player reaches them: a
site's proxy forwards the game's port, and the metrics port stays on the operator's
network (``--metrics 127.0.0.1:9100`` keeps it on the machine). It answers ``/metrics``
only, with ``prometheus_client``'s own WSGI app; any other path is a 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import socket
import tempfile
import threading
import time
from collections import Counter as Tally
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING
from wsgiref.simple_server import WSGIRequestHandler, make_server

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from doublesix.table.model import Table, TableStatus

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

    from doublesix.server.lobby_room import Lobby
    from doublesix.server.manager import TableManager

MULTIPROCESS_FOLDER = "PROMETHEUS_MULTIPROC_DIR"
"""Where each worker writes its values with ``--workers N`` (``prometheus_client``'s name)."""
FOLDER_PREFIX = "doublesix-metrics-"
"""The start of the folders' names, in the temporary directory."""
FOLDER_NAME = re.compile(rf"{FOLDER_PREFIX}(\d+)-(\d+)-")
"""A folder's name: the pid and start time (``start_ticks``) of the parent that made it."""


def _only_the_parent_s_children() -> None:
    """Forget the folder in a process that is not a child of the parent that made it: a
    worker process of a site's worker (bots, reviews, uploads) inherits the environment,
    and would leave a file of zeros there for each one started. ``prometheus_client``
    chooses its mode as it is imported, so this runs before."""
    named = FOLDER_NAME.match(Path(os.environ.get(MULTIPROCESS_FOLDER, "")).name)
    if named is not None and int(named[1]) != os.getppid():
        del os.environ[MULTIPROCESS_FOLDER]


_only_the_parent_s_children()

from prometheus_client import (  # noqa: E402 (after the folder's check)
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Metric,
    ProcessCollector,
    make_wsgi_app,
)
from prometheus_client.exposition import ThreadingWSGIServer  # noqa: E402
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead  # noqa: E402
from prometheus_client.registry import Collector  # noqa: E402

REFRESH_SECONDS = 1.0
"""How often a process counts its tables and sockets again."""
METRICS_PATH = "/metrics"
"""The one path the metrics' listener answers."""

# --- HTTP -----------------------------------------------------------------------------------

HTTP_REQUESTS = Counter(
    "doublesix_http_requests",
    "HTTP requests answered, by method, route template and status class (2xx, 4xx...)",
    ["method", "route", "status"],
)
HTTP_SECONDS = Histogram(
    "doublesix_http_request_seconds",
    "Seconds from an HTTP request's arrival to the end of its answer, by route template",
    ["route"],
)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods named in a label; any other is ``other`` (a client chooses the method)."""
NO_ROUTE = "none"
"""The route of a request no route answered: an unknown path, or one refused before."""

# --- tables and sockets ---------------------------------------------------------------------

TABLES = Gauge(
    "doublesix_tables",
    "Tables this process runs, by status (open: waiting for players; playing)",
    ["status"],
    multiprocess_mode="livesum",
)
SOCKETS = Gauge(
    "doublesix_sockets",
    "WebSockets open on this process, by kind (table, lobby, personal)",
    ["kind"],
    multiprocess_mode="livesum",
)
COUNTED_STATUSES = (TableStatus.OPEN, TableStatus.PLAYING)
SOCKET_KINDS = ("table", "lobby", "personal")
TABLE_COMMANDS = Counter(
    "doublesix_table_commands",
    "Commands handled by this process's tables, by command and outcome (applied; refused: "
    "an error to its sender; failed: a bug or the database, nothing changed)",
    ["command", "outcome"],
)

# --- the store and the bots ------------------------------------------------------------------

COMMIT_SECONDS = Histogram(
    "doublesix_store_commit_seconds",
    "Seconds a group commit took to write and settle its tables' commits",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
COMMIT_GROUP = Histogram(
    "doublesix_store_commit_group_size",
    "Commits written together by one group commit",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512),
)
BOT_SECONDS = Histogram(
    "doublesix_bot_move_seconds",
    "Seconds from asking a bot for its move to its answer, by level",
    ["level"],
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

# --- limits and Redis ------------------------------------------------------------------------

REFUSED = Counter(
    "doublesix_limit_refusals",
    "Requests, sockets and messages refused by a limit, by the limit's name",
    ["limit"],
)
REDIS_ERRORS = Counter(
    "doublesix_redis_errors",
    "Redis errors and time-outs the server went on without, by where and kind",
    ["where", "kind"],
)


def refused(limit: str) -> None:
    """Count a refusal by the limit named ``limit`` (``address:…`` or ``player:…``)."""
    REFUSED.labels(limit).inc()


def redis_failed(where: str, *, timeout: bool) -> None:
    """Count a Redis error at ``where``: a time-out, or any other error."""
    REDIS_ERRORS.labels(where, "timeout" if timeout else "error").inc()


def group_committed(commits: int, seconds: float) -> None:
    COMMIT_GROUP.observe(commits)
    COMMIT_SECONDS.observe(seconds)


# --- the HTTP middleware ---------------------------------------------------------------------


class HttpMetrics:
    """The ASGI middleware that counts and times every HTTP request (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # unless an answer starts: the app raised

        async def answer(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, answer)
        finally:
            route = route_template(scope)
            method = scope["method"] if scope["method"] in METHODS else "other"
            HTTP_REQUESTS.labels(method, route, f"{status // 100}xx").inc()
            HTTP_SECONDS.labels(route).observe(time.perf_counter() - started)


def route_template(scope: Scope) -> str:
    """The path template of the route that answered (Starlette's router puts it in the
    request's scope), else ``NO_ROUTE``."""
    route = scope.get("route")
    template = getattr(route, "path_format", None)
    return template if isinstance(template, str) and template else NO_ROUTE


# --- tables and sockets, counted every second ------------------------------------------------


def count_tables(tables: Iterable[Table]) -> None:
    statuses = Tally(table.status for table in tables)
    for status in COUNTED_STATUSES:
        TABLES.labels(status.value).set(statuses[status])


def count_sockets(lobby: Lobby) -> None:
    """Every socket the lobby keeps as present (``Lobby.present``: welcomed, counted for who
    is online), by kind: a table's (``ws.Socket``), one of the lobby's listeners, else a
    page's personal socket (``/ws/lobby?only=me``; a lobby socket being welcomed counts as
    one until it listens)."""
    from doublesix.server.ws import Socket  # ws.py imports the hosts, which import this

    listeners: AbstractSet[object] = lobby.listeners
    kinds = Tally(
        "table" if isinstance(socket, Socket) else "lobby" if socket in listeners else "personal"
        for socket in lobby.sockets
    )
    for kind in SOCKET_KINDS:
        SOCKETS.labels(kind).set(kinds[kind])


async def refresh_every(seconds: float, manager: TableManager, lobby: Lobby) -> None:
    """Count this process's tables and sockets every ``seconds``, in its event loop (where
    they change: a scrape's thread could see a set change size as it counts it)."""
    while True:
        count_tables(host.table for host in manager.hosts.values() if host.running)
        count_sockets(lobby)
        await asyncio.sleep(seconds)


# --- the listener ----------------------------------------------------------------------------


@contextlib.contextmanager
def listening(host: str, port: int, workers: int) -> Iterator[Path | None]:
    """Serve the metrics at ``http://host:port/metrics`` while inside (an ``OSError`` if it
    cannot listen there). With several ``workers``, their sum, through the multiprocess
    folder this makes (yielded; removed on the way out); call it before they start. Alone,
    this process's own (yields None)."""
    if workers == 1:
        with _serving(host, port, REGISTRY):
            yield None
        return
    folder = _new_folder()
    os.environ[MULTIPROCESS_FOLDER] = str(folder)  # the workers, started after, write there
    try:
        registry = CollectorRegistry()
        registry.register(SiteCollector(folder))
        with _serving(host, port, registry):
            yield folder
    finally:
        os.environ.pop(MULTIPROCESS_FOLDER, None)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def _serving(host: str, port: int, registry: CollectorRegistry) -> Iterator[None]:
    """``prometheus_client``'s WSGI app at ``/metrics`` (``only_at_metrics``), in the
    library's threaded WSGI server, from a thread of its own while inside."""
    family, _, _, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]

    class Server(ThreadingWSGIServer):
        address_family = family  # an IPv6 host needs its family before the bind

    app = only_at_metrics(make_wsgi_app(registry))
    server = make_server(str(address[0]), port, app, Server, _Quiet)
    thread = threading.Thread(target=server.serve_forever, name="metrics", daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _Quiet(WSGIRequestHandler):
    """No line on stderr for each scrape."""

    def log_message(self, format: str, *args: object) -> None:
        pass


def only_at_metrics(app: WSGIApplication) -> WSGIApplication:
    """``app`` at ``METRICS_PATH``, a 404 at any other path (``prometheus_client``'s app
    answers every path with the metrics)."""

    def answer(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == METRICS_PATH:
            return app(environ, start_response)
        start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
        return [f"not found: the metrics are at {METRICS_PATH}\n".encode()]

    return answer


# --- the multiprocess folder -----------------------------------------------------------------


def _new_folder() -> Path:
    """A private folder (only ours may read it) named for this process (``FOLDER_NAME``),
    the folders of parents that no longer run removed first. Where there is no ``/proc``
    to tell, none is removed."""
    pid = os.getpid()
    started = start_ticks(pid)
    if started is not None:
        remove_orphans(Path(tempfile.gettempdir()))
    return Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{pid}-{started or 0}-"))


def remove_orphans(where: Path) -> None:
    """Remove the folders in ``where`` that no process uses any more: their parent no longer
    runs (no process has its pid, or the one that has it started at another time: the pid
    was used again), nor any process that wrote there (uvicorn's workers outlive a parent
    killed with SIGKILL by their graceful shutdown, ``orphans.end_with_parent``, and go on
    writing until they have stopped)."""
    for folder in where.glob(f"{FOLDER_PREFIX}*"):
        named = FOLDER_NAME.match(folder.name)
        if named is None or not folder.is_dir() or start_ticks(int(named[1])) == int(named[2]):
            continue
        if not any(_exists(pid) for pid in _writers(folder, "*")):
            shutil.rmtree(folder, ignore_errors=True)


def start_ticks(pid: int) -> int | None:
    """When process ``pid`` started, in clock ticks since the machine's boot (field 22 of
    ``/proc/<pid>/stat``, after the command's name in parentheses); None if no process has
    that pid, or there is no ``/proc``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    return int(stat.rsplit(b")", 1)[1].split()[19])


class SiteCollector(Collector):
    """The sum of the workers' metrics in ``folder``, the gauges of exited workers dropped,
    and the ``process_…`` metrics of the parent and each live worker (``processes``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        # (``prometheus_client.multiprocess`` has no type annotations)
        self._sum = MultiProcessCollector(None, str(folder))  # type: ignore[no-untyped-call]

    def collect(self) -> Iterable[Metric]:
        for pid in exited_workers(self.folder):
            mark_process_dead(pid, str(self.folder))  # type: ignore[no-untyped-call]
        summed: Iterable[Metric] = self._sum.collect()  # type: ignore[no-untyped-call]
        roles = {os.getpid(): "parent"} | dict.fromkeys(_workers(self.folder), "worker")
        return [*summed, *processes(roles)]


def _writers(folder: Path, kind: str) -> set[int]:
    """The processes that wrote values of ``kind`` in ``folder`` (``<kind>_<pid>.db``)."""
    return {int(file.stem.rsplit("_", 1)[1]) for file in folder.glob(f"{kind}_*.db")}


def _workers(folder: Path) -> set[int]:
    """The processes that wrote live gauges in ``folder`` (``gauge_livesum_<pid>.db``): the
    site's workers, each from its first second (``refresh_every``), until marked dead."""
    return _writers(folder, "gauge_live*")


def exited_workers(folder: Path) -> set[int]:
    """The workers of ``folder`` that exist no more. (One not yet reaped by its parent
    still exists: uvicorn's supervisor reaps its workers every half second.)"""
    return {pid for pid in _workers(folder) if not _exists(pid)}


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: not one of ours, but it exists
        return True
    return True


def processes(roles: Mapping[int, str]) -> list[Metric]:
    """``ProcessCollector``'s ``process_…`` metrics (CPU seconds, memory, open files, start
    time) of each process in ``roles``, one family each, every sample labelled with the
    process's pid and role. A process gone meanwhile has none."""
    families: dict[str, Metric] = {}
    for pid, role in roles.items():
        for family in _process(pid):
            into = families.setdefault(
                family.name, Metric(family.name, family.documentation, family.type)
            )
            labels = {"pid": str(pid), "role": role}
            into.samples += [sample._replace(labels=labels) for sample in family.samples]
    return list(families.values())


def _process(pid: int) -> Iterable[Metric]:
    return ProcessCollector(pid=lambda: pid, registry=None).collect()

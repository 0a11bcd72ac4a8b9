"""No orphans: a process the server starts ends when its parent dies, however it died.

``doublesix serve --workers N`` runs uvicorn's supervisor, whose server processes are
its children, and each server process starts worker processes of its own (bots, hints,
reviews, uploads: ``workers.py``). A parent killed with SIGKILL cannot stop them: without
this, uvicorn's server processes went on serving on the socket they inherited, orphaned,
until someone found and stopped them (systemd kills the whole cgroup; a shell does not).

``end_with_parent``, called in the child as it starts, sends it SIGTERM when its parent
ends: a server process then shuts down as on ``kill`` (uvicorn's graceful shutdown, the
lifespan's way out: the tables stored, the store closed), a worker process ends at once
(SIGTERM's default action). A daemon thread waits on ``multiprocessing``'s sentinel of
the parent, a pipe only the parent process holds open: it ends with the process, on any
system and whichever of its threads started the child. (Linux's ``PR_SET_PDEATHSIG``
would fire when that *thread* ends, and a pool started from an event loop may run in a
thread that comes and goes.)
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from multiprocessing.connection import wait


def end_with_parent() -> bool:
    """Have SIGTERM sent to this process when the process that started it ends (at once
    if it has ended already); False, and nothing done, where ``multiprocessing`` did not
    start this process (``serve`` with one process, under a shell or systemd)."""
    parent = multiprocessing.parent_process()
    sentinel = None if parent is None else parent.sentinel
    if sentinel is None:
        return False

    def watch() -> None:
        wait([sentinel])
        os.kill(os.getpid(), signal.SIGTERM)  # to the process: any thread may take it

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
    return True

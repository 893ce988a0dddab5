"""A load whose workers block, for :mod:`tests.test_cache`'s test of a pool whose parent is killed.

Not a test module: ``python -m tests.pool_orphan FOLDER METHOD SIGNAL`` starts a
:class:`~_conflict_gate.corpus.pool.PagePool` of two workers (start method ``METHOD``) and hands it
two chunks of pages. Each worker runs :func:`blocking_reader`: it takes an exclusive ``flock`` on
``FOLDER/worker-<pid>`` (released by the system only when the worker exits), writes its pid there,
and blocks forever, so the load would never end. Once both workers hold their lock, this process
sends itself ``SIGNAL`` (``SIGKILL``, ``SIGTERM``) in the middle of the load; the test then waits
for its output to end and for the locks.
"""

from __future__ import annotations

import fcntl
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from _conflict_gate.corpus.pool import CHUNK_PAGES, PagePool

_HELD: list[int] = []  # the locked descriptors, kept open for the worker's life


def blocking_reader(folder: str, pages: list[bytes]) -> list[tuple[Any, ...]]:
    """Lock ``folder/worker-<pid>``, write the pid into it, block forever (never returns)."""
    path = Path(folder) / f"worker-{os.getpid()}"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    _HELD.append(fd)
    os.write(fd, str(os.getpid()).encode())
    threading.Event().wait()
    raise AssertionError("unreachable")


def main(folder: str, method: str, signal_name: str) -> None:
    def refuse(*_: Any) -> Any:
        raise AssertionError("pages must not be read in this process")

    pool = PagePool(
        2, blocking_reader, (folder,), read_here=refuse, decode=refuse, done=refuse, method=method, min_pages=1
    )
    for index in range(2 * CHUNK_PAGES):
        pool.add(index, b"page\n")
    print("loading", flush=True)
    deadline = time.monotonic() + 60  # only against a hang: the workers start in milliseconds
    while sum(1 for path in Path(folder).glob("worker-*") if path.stat().st_size) < 2:
        if time.monotonic() > deadline:
            raise SystemExit("the workers did not start")
        time.sleep(0.01)
    os.kill(os.getpid(), getattr(signal, signal_name))
    pool.finish()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])

"""The first load in parallel: pages read for directives by worker processes, where it pays.

:func:`~_conflict_gate.corpus.load.load_documents` reads, hashes and verifies every
page itself, in manifest order (so the first problem it reports is the first
in manifest order, and two entries reaching one file are found as in one
process), looks each up in the reading cache, and hands the pages left to
read to a :class:`PagePool`: once at least :data:`PARALLEL_MIN_PAGES` are
waiting, they go to ``jobs`` worker processes in chunks of
:data:`CHUNK_PAGES`, at most :data:`IN_FLIGHT_CHUNKS` per worker at a time
(so memory stays bounded), and come back in order as JSON-shaped data
(:func:`~_conflict_gate.corpus.cache.encode_reading`, the cache's entries), never
pickled objects of the reader. Fewer pages are read in this process.

How workers start (:func:`start_method`): ``fork`` on Linux in a process with
one thread, ``forkserver`` when other threads run (a threaded service: a
forked child would inherit their locks), ``spawn`` on macOS; on Windows, in a
daemonic process (a ``multiprocessing.Pool`` worker, which may not have
children), and wherever a pool cannot start, every page is read in this
process. Results are identical to one process: the same function reads each page.

A worker never outlives the process that loads (:func:`_worker_started`, run
first in each worker): a thread waits on ``multiprocessing.parent_process().sentinel``,
the read end of a pipe whose write end only the loading process holds
(inherited, under ``fork``, by the workers forked after it too, which exit the
same way first), and ends the worker the moment it reports end of file, which the
system does when the loading process ends however it ends (``SIGKILL`` included).
This is the standard library's own parent-death signal on every start method
and platform, where Linux's ``PR_SET_PDEATHSIG`` is Linux-only and polling
``os.getppid()`` is late by its interval. The worker's standard output and error
are the null device (results and errors travel back through the pool), so a
caller reading the loading process's output to its end never waits on a worker.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..base.errors import IngestionError
from ..reading.reading_shapes import Reading

if TYPE_CHECKING:  # multiprocessing and concurrent.futures are imported only where workers start (40 ms)
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = ["CHUNK_PAGES", "DEFAULT_JOBS", "IN_FLIGHT_CHUNKS", "PARALLEL_MIN_PAGES", "PagePool", "start_method"]

#: Below this many pages to read, a pool costs more to start than it saves (``bench/run.py``'s
#: ``parallel`` figure: a fork pool of two starts in about 10 ms, a page costs 0.2-1 ms to read).
PARALLEL_MIN_PAGES: Final = 256
#: The command line's ``--jobs`` default: the CPUs, at most 2 (``bench/run.py`` measured 2 workers on 2 cores).
DEFAULT_JOBS: Final = max(1, min(2, os.cpu_count() or 1))
#: Pages per task sent to a worker: enough to pay for the hand-off, few enough to keep workers even.
CHUNK_PAGES: Final = 32
#: Chunks waiting or being read per worker, at most: bounds the page bytes held for the pool.
IN_FLIGHT_CHUNKS: Final = 4


def _daemonic() -> bool:
    """Whether this process is daemonic (a worker of a pool: it may not start children)."""
    import multiprocessing

    return bool(multiprocessing.current_process().daemon)


def start_method(platform: str = sys.platform, threads: int | None = None, daemonic: bool | None = None) -> str | None:
    """How worker processes start here, or ``None`` (read in this process): see the module docstring.
    ``threads`` (default: the threads running) and ``daemonic`` (default: whether this process is
    daemonic, and so may not start children) describe the process."""
    import multiprocessing

    daemonic = bool(multiprocessing.current_process().daemon) if daemonic is None else daemonic
    if platform == "win32" or daemonic:
        return None
    if platform == "darwin":
        return "spawn"
    threads = threading.active_count() if threads is None else threads
    methods = multiprocessing.get_all_start_methods()
    if threads == 1 and "fork" in methods:
        return "fork"
    return "forkserver" if "forkserver" in methods else None


class PagePool:
    """Pages to read for directives; read by workers once enough wait.

    ``worker(*arguments, pages)`` reads a list of pages in a worker process (a module-level function,
    so that a spawned worker can import it): per page ``(None, encoded reading)`` or ``(reason,
    detail)`` of its ingestion error. ``add(token, raw)`` queues one page; ``done(token, reading, reason, detail)`` is called once per
    page (``reading`` ``None`` with the reason and detail of an ingestion error), not necessarily in
    the order added: the caller keeps each outcome by its token. ``read_here(raw, token)`` reads one
    page in this process (raising :class:`~_conflict_gate.base.errors.IngestionError`);
    ``decode(data, token)`` turns a worker's encoded reading back into a :class:`Reading` for that page.
    Call :meth:`finish` at the end (it also stops the workers).
    """

    def __init__(
        self,
        jobs: int,
        worker: Callable[..., list[tuple[Any, ...]]],
        arguments: tuple[Any, ...],
        *,
        read_here: Callable[[bytes, Any], Reading],
        decode: Callable[[Any, Any], Reading],
        done: Callable[[Any, Reading | None, str | None, str | None], None],
        method: str | None = None,
        min_pages: int = PARALLEL_MIN_PAGES,
    ) -> None:
        self.jobs = jobs
        #: the start method, asked of :func:`start_method` (which imports multiprocessing, 15-20 ms) only
        #: when workers are about to start: a load of fewer than ``min_pages`` pages never pays it
        self.method = method
        self.min_pages = min_pages
        self.worker = worker
        self.arguments = arguments
        self.read_here = read_here
        self.decode = decode
        self.done = done
        self._waiting: list[tuple[Any, bytes]] = []
        self._flight: deque[tuple[list[tuple[Any, bytes]], Future[list[tuple[Any, ...]]]]] = deque()
        self._executor: ProcessPoolExecutor | None = None
        self._here_only = jobs <= 1  # one job: no workers
        #: whether worker processes read pages (for the tests and the benchmark)
        self.used_workers = False

    def add(self, token: Any, raw: bytes) -> None:
        if self._here_only:
            self._here(token, raw)
            return
        self._waiting.append((token, raw))
        if self._executor is not None or len(self._waiting) >= self.min_pages:
            self._send(final=False)

    def _here(self, token: Any, raw: bytes) -> None:
        try:
            reading = self.read_here(raw, token)
        except IngestionError as error:
            self.done(token, None, error.reason, error.detail)
            return
        self.done(token, reading, None, None)

    def _start(self) -> bool:
        if self._executor is None and not self._here_only:
            if self.method is None:
                self.method = start_method()
            # a daemonic process may not start children, whatever method it is told
            if self.method is None or _daemonic():
                self._here_only = True
                return False
            try:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                context = multiprocessing.get_context(self.method)
                self._executor = ProcessPoolExecutor(
                    max_workers=self.jobs, mp_context=context, initializer=_worker_started
                )
            except (OSError, ValueError, RuntimeError):
                self._here_only = True
                return False
            self.used_workers = True
        return self._executor is not None

    def _send(self, *, final: bool) -> None:
        while len(self._waiting) >= CHUNK_PAGES or (final and self._waiting):
            chunk, self._waiting = self._waiting[:CHUNK_PAGES], self._waiting[CHUNK_PAGES:]
            future = None
            if self._start():
                assert self._executor is not None
                try:
                    future = self._executor.submit(self.worker, *self.arguments, [raw for _, raw in chunk])
                except RuntimeError:  # the pool broke (a worker died): the rest is read here
                    self._here_only = True
            if future is None:
                for token, raw in chunk:
                    self._here(token, raw)
                continue
            self._flight.append((chunk, future))
            while len(self._flight) > IN_FLIGHT_CHUNKS * self.jobs:
                self._collect_one()

    def _collect_one(self) -> None:
        chunk, future = self._flight.popleft()
        try:
            results = future.result()
        except Exception:  # noqa: BLE001 - a worker died or failed: the same pages, read here
            self._here_only = True
            for token, raw in chunk:
                self._here(token, raw)
            return
        for (token, _), (reason, data) in zip(chunk, results):
            if reason is None:
                self.done(token, self.decode(data, token), None, None)
            else:
                self.done(token, None, reason, data)

    def finish(self) -> None:
        """Read what still waits (here, when fewer than ``min_pages`` ever waited), collect every
        result, stop the workers."""
        try:
            if self._executor is None:
                waiting, self._waiting = self._waiting, []
                for token, raw in waiting:
                    self._here(token, raw)
            else:
                self._send(final=True)
            while self._flight:
                self._collect_one()
        finally:
            self.close()

    def close(self) -> None:
        """Stop the workers (pages still in flight are dropped)."""
        executor, self._executor = self._executor, None
        self._flight.clear()
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


#: A worker's exit status when the loading process has ended (no one reads it: the status of a
#: process killed by ``SIGTERM``, as a shell reports it).
ORPHAN_EXIT: Final = 143


def _worker_started() -> None:
    """In each worker, before its first task: its standard output and error sent to the null device,
    and a daemon thread that ends the worker when the loading process ends (the module docstring)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            os.dup2(devnull, fd)
    finally:
        os.close(devnull)
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_exit_with, args=(parent.sentinel,), name="conflict-gate parent watch", daemon=True
        ).start()


def _exit_with(sentinel: int) -> None:
    """Wait until the loading process's sentinel is ready (it has ended), then end this worker at once
    (``os._exit``: the task it was reading has no one to go to)."""
    import multiprocessing.connection

    multiprocessing.connection.wait([sentinel])
    os._exit(ORPHAN_EXIT)

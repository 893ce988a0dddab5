"""The test suite (``python -m unittest discover``).

Every test process keeps the reading cache in a temporary folder of its own, removed at exit
(``CONFLICT_GATE_CACHE``, set here before any test runs, so subprocesses inherit it): no test
reads or writes the user's cache.

Temporary folders go in a folder of the process's own on ``/dev/shm`` when ``TMPDIR`` is not set and
that RAM-backed file system is there, writable, with 256 MB free (``TMPDIR`` is set for subprocesses
too; the folder is removed at exit). The suite makes and removes about 700 temporary folders; on a
disk file system mounted with ``discard`` removing them cost about a fifth of the suite's CPU time.
Set ``TMPDIR`` to keep them elsewhere.
"""

import atexit
import os
import shutil
import tempfile


def _ram_folder() -> str | None:
    """A new folder of this process's own on ``/dev/shm``, or ``None`` where there is none to use."""
    if os.environ.get("TMPDIR") or not os.path.isdir("/dev/shm") or not os.access("/dev/shm", os.W_OK):
        return None
    try:
        free = os.statvfs("/dev/shm")
        if free.f_bavail * free.f_frsize < 256 * 1024 * 1024:
            return None
        return tempfile.mkdtemp(prefix="conflict-gate-tests-", dir="/dev/shm")
    except OSError:
        return None


_RAM = _ram_folder()
if _RAM is not None:
    os.environ["TMPDIR"] = _RAM
    tempfile.tempdir = _RAM
    atexit.register(shutil.rmtree, _RAM, True)

_CACHE = tempfile.mkdtemp(prefix="conflict-gate-test-cache-")
os.environ["CONFLICT_GATE_CACHE"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

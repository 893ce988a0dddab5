"""The test suite (``python -m unittest discover``).

Every test process keeps the reading cache in a temporary folder of its own, removed at exit
(``CONFLICT_GATE_CACHE``, set here before any test runs, so subprocesses inherit it): no test
reads or writes the user's cache.
"""

import atexit
import os
import shutil
import tempfile

_CACHE = tempfile.mkdtemp(prefix="conflict-gate-test-cache-")
os.environ["CONFLICT_GATE_CACHE"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

# Type stub of the single-file module ``conflict_gate``, installed as the stub-only package
# ``conflict_gate-stubs`` (PEP 561): a type checker does not read types from a single-file
# module in site-packages, however it is marked. The names and their types come from
# ``_conflict_gate.api`` (which ships ``py.typed``), exactly as ``conflict_gate.py`` takes them.
from _conflict_gate.api import *
from _conflict_gate.api import __all__ as __all__

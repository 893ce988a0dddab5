"""conflict-gate: decide, before any model is asked, whether an answer about a versioned API
may be prepared, and check the model's answer afterwards.

The flow runs one way; each step is one module of ``_conflict_gate``::

    manifest.json --read_manifest--> Manifest (grammar, version scheme, pinned entries)
        --load_documents--> Corpus: every source verified against its pin, read for
                            directives as a reader of the rendered page sees them
                            (blocks -> inlines -> reader), claims kept, text dropped
        --gate----------->  decision (status, reason, claims)
        --answer_request->  chat messages, only when ready (prepared, never sent)
        --check_answer---> verdict on a model's answer, with every finding

Load once, decide many times::

    import conflict_gate
    corpus = conflict_gate.load_documents("docs/manifest.json")
    decision = conflict_gate.gate(corpus, ["guide", "reference"], "1.0", "create_copy", "existing_path")
    if decision["status"] == "ready":
        messages = decision["answer_request"]["messages"]   # send them yourself

The gate compares *declared values* of exact directives; it does not read
prose. Everything it accepts is data: the grammar, version scheme and page
statuses come from the manifest; reasons, decisions, verdicts and exit codes
are the tables re-exported here. ``__all__`` is the documented API
(``reference/api.md``); anything else under ``_conflict_gate`` is internal.
``python -m conflict_gate COMMAND ...`` runs the ``conflict-gate`` command line.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":  # python -m conflict_gate: the conflict-gate command line (it imports what it runs)
    from _conflict_gate.cli.main import main

    sys.exit(main(sys.argv[1:], prog="python -m conflict_gate"))

from _conflict_gate.api import *  # noqa: F403  (the public names, defined once)
from _conflict_gate.api import __all__ as __all__

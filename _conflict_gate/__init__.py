"""conflict-gate's implementation. Import the public names from :mod:`conflict_gate` instead.

One module per step of the flow, each importing only the steps before it::

    registry    every fixed vocabulary: reasons, statuses, decisions, verdicts, exit codes
    errors      the typed errors (one base class, one reason registry each)
    grammar     the directive grammar a manifest declares (a frozen value)
    manifest    manifest JSON -> validated entries, version schemes, page statuses, pins
    inlines     what a reader sees inside one block's inline content (no I/O)
    blocks      CommonMark 0.31.2 + GFM block structure (no I/O): a package of one
                construct table, the flavours that read with it, and their rules
    reader      blocks + inlines + grammar -> one source's directives, refusal, near-misses
    corpus      load_documents: read, verify and read every source once -> Corpus
    decision    gate, audit, answer_request
    answer      check_answer: a model's answer against a decision
    cli         the conflict-gate command line

The root modules ``conflict_gate.py`` (the public API) and ``run.py`` (the lab)
sit beside this package; ``pip install`` installs ``conflict_gate`` and this
package, nothing with a generic name.
"""

#: The release, read by pyproject.toml (``[tool.setuptools.dynamic]``) and ``conflict-gate --version``.
__version__ = "0.2.0"

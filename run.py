"""The conflict-gate lab: the controlled cases over the Quill fixtures, and the tool's commands.

    python run.py --output result.json      run the lab cases and check the canned answers, save the result
    python run.py --check                   compare a fresh run with expected-result.json
    python run.py gate|audit|pin|init|grammar|check-answer ...   the conflict-gate commands

The lab runs from a checkout (it reads ``manifest.json`` and ``docs/`` beside
this file); ``pip install`` gives the commands as ``conflict-gate``, without
the lab. A user error is one line on stderr and an exit code from the one
exit-code table; never a traceback. Nothing here sends anything to a model.
"""

from __future__ import annotations

import sys

if sys.version_info < (3, 10):  # noqa: UP036 - before the imports that need 3.10, so the message is readable
    raise SystemExit("conflict-gate needs Python 3.10 or newer")

import argparse
import difflib
import shlex
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Final

from _conflict_gate.answer.check import check_answer
from _conflict_gate.base.errors import IngestionError
from _conflict_gate.base.jsondata import render_json
from _conflict_gate.cli.main import main
from _conflict_gate.cli.support import CliError, exit_code, printable_path, write_atomically
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.decide.decision import gate, refusal_fields
from _conflict_gate.manifest.read import read_manifest
from _conflict_gate.results.lab import (
    CHANGED_SOURCE_FIELDS,
    INGESTION_REFUSAL_FIELDS,
    LAB_ANSWER_FIELDS,
    LAB_CASE_FIELDS,
    LAB_RESULT_FIELDS,
    ChangedSourceCase,
    IngestionRefusal,
    LabAnswer,
    LabCase,
    LabResult,
)
from _conflict_gate.results.shapes import build

HERE: Final = Path(__file__).resolve().parent
FIXTURE_MANIFEST: Final = HERE / "manifest.json"
EXPECTED_RESULT: Final = HERE / "expected-result.json"

#: The lab's controlled cases: (case id, candidate ids, requested version, operation, claim key, what it shows).
LAB_CASES: Final = (
    (
        "newer-wrong-version-excluded",
        ("quill-guide", "quill-new-version"),
        "1.0",
        "create_copy",
        "existing_path",
        "a newer 2.0 source is excluded, never used as a fallback; the 1.0 guide alone decides",
    ),
    (
        "compatible-agreement",
        ("quill-guide", "quill-reference"),
        "1.0",
        "create_copy",
        "existing_path",
        "two 1.0 sources declare the same value: ready, with a cited answer request",
    ),
    (
        "same-version-conflict",
        ("quill-guide", "quill-conflicting-guide"),
        "1.0",
        "create_copy",
        "existing_path",
        "two 1.0 sources disagree: conflict, both claims kept, request withheld",
    ),
    (
        "absent-version",
        ("quill-guide", "quill-new-version"),
        "3.0",
        "create_copy",
        "existing_path",
        "no candidate has 3.0: not_in_docs, listing the versions the candidates have",
    ),
    (
        "missing-claim",
        ("quill-guide",),
        "1.0",
        "create_copy",
        "close_required",
        "the only eligible source never declares close_required: not_in_docs, not a guess",
    ),
    (
        "partial-missing-claim",
        ("quill-guide", "quill-missing-claim"),
        "1.0",
        "create_copy",
        "existing_path",
        "one eligible source is silent: silence is not agreement, not_in_docs",
    ),
    (
        "unknown-directive-value",
        ("quill-guide", "quill-unknown-value"),
        "1.0",
        "create_copy",
        "existing_path",
        "a value outside the grammar refuses the request",
    ),
    (
        "malformed-directive",
        ("quill-guide", "quill-malformed"),
        "1.0",
        "create_copy",
        "existing_path",
        "a directive line that is not exact refuses the request",
    ),
    (
        "draft-set-aside",
        ("quill-guide", "quill-reference", "quill-draft"),
        "1.0",
        "create_copy",
        "existing_path",
        "a draft of the requested version is set aside: it never decides, never displaces "
        "approved evidence; the approved pages agree",
    ),
    (
        "draft-alone",
        ("quill-draft",),
        "1.0",
        "create_copy",
        "existing_path",
        "the only candidate of the version is a draft: not_in_docs, never a fallback",
    ),
)
#: Canned answers (no model is called): (answer id, the case whose decision it answers, what it shows).
#: Each is ``docs/answers/<answer id>.txt``; the saved result records the answer check's verdict.
LAB_ANSWERS: Final = (
    (
        "supported",
        "compatible-agreement",
        "every claim cited at its line, the quotes exact, the agreed value and the version stated",
    ),
    ("other-value", "compatible-agreement", "states the other value in the answer form"),
    ("missing-citation", "compatible-agreement", "cites the guide but not the reference"),
    ("unknown-citation", "compatible-agreement", "also cites a source id the decision does not hold"),
    (
        "misattributed",
        "compatible-agreement",
        "quotes the 2.0 page's directive (also in the guide's code example) as the guide's claim at line 37",
    ),
    ("invented-quote", "compatible-agreement", "quotes a directive that no pinned source contains"),
    ("withheld", "same-version-conflict", "answers a decision whose answer request was withheld"),
    (
        "realistic-code",
        "compatible-agreement",
        "a real answer: inline code, a decorator with keyword arguments in a Python fence, the forms in prose",
    ),
    (
        "hidden-evidence",
        "compatible-agreement",
        "shows a reader only prose; the citations, quotes and statements are in an HTML comment",
    ),
    (
        "encoded-citation",
        "compatible-agreement",
        "cites the 2.0 page with character references, which a chat window shows as a citation",
    ),
    (
        "look-alike-statement",
        "compatible-agreement",
        "states the other value with a look-alike equals sign (U+A78A, no NFKC mapping to '=')",
    ),
    ("other-value-in-code", "compatible-agreement", "shows the other directive in a code block fenced with tildes"),
    (
        "code-samples",
        "compatible-agreement",
        "code samples in Python, JavaScript, YAML and shell give the key as each writes it (existingPath, "
        "existing_path: refuse, --existing-path refuse), with the agreed value",
    ),
    (
        "split-statement",
        "compatible-agreement",
        "states the other value split at a code span's edge (`existing_path`=overwrite), as a chat window shows it",
    ),
    ("colon-in-code", "compatible-agreement", "states the other value as YAML in a fence (existing_path: overwrite)"),
    (
        "language-form-other-value",
        "compatible-agreement",
        'states the other value in a JavaScript object, the key in camelCase (existingPath: "overwrite")',
    ),
)
#: The changed-source case: a temporary copy whose file is edited without re-pinning.
CHANGED_SOURCE: Final = {
    "case_id": "changed-source",
    "source_id": "quill-guide",
    "edit": "in a temporary copy, the directive line 'existing_path=refuse' is changed to "
    "'existing_path=overwrite' and the pin is left as it was",
    "candidate_ids": ("quill-guide", "quill-reference"),
    "requested_version": "1.0",
    "operation": "create_copy",
    "claim_key": "existing_path",
}
#: The edit: this directive line (it occurs once in the source) is replaced by the other.
CHANGED_LINE: Final = (
    b"\n@quill create_copy existing_path=refuse\n",
    b"\n@quill create_copy existing_path=overwrite\n",
)
POLICY: Final = (
    "Every manifest source is verified against its pinned sha256 (raw bytes) before any decision.",
    "Only approved candidates whose version string equals the requested version are eligible; a newer version, a draft or a deprecated page is never a fallback.",
    "Only an exact directive on its own line of a top-level paragraph counts; directive-shaped text a reader sees anywhere else refuses its source; in code or hidden HTML it is context.",
    "ready only when every eligible source declares the claim and all values agree; silence is not agreement.",
    "Candidate order, URLs and recency never pick a winner; conflicts keep every claim.",
    "The answer request is prepared only when ready and is never sent; the model is not called.",
)
LIMIT: Final = (
    "The gate compares declared directive values. It does not read prose, so a contradiction "
    "written only in words is not detected; and it cannot tell whether a declared value is true."
)


def run_lab(manifest_path: Path = FIXTURE_MANIFEST) -> LabResult:
    """Run every lab case over the fixture corpus and check the canned answers; return the saved result.

    The corpus is loaded and verified once; the changed-source case works on
    a temporary copy, so the fixtures are only read. No model is called.
    """
    corpus = load_documents(manifest_path)
    cases = []
    for case_id, candidates, version, operation, claim_key, shows in LAB_CASES:
        cases.append(
            build(
                LabCase,
                LAB_CASE_FIELDS,
                {
                    "case_id": case_id,
                    "shows": shows,
                    "candidate_ids": list(candidates),
                    "requested_version": version,
                    "claim_key": claim_key,
                    "result": gate(corpus, list(candidates), version, operation, claim_key),
                },
            )
        )
    decisions = {case["case_id"]: case["result"] for case in cases}
    answers = []
    for answer_id, case_id, shows in LAB_ANSWERS:
        path = f"docs/answers/{answer_id}.txt"
        report = check_answer(corpus, decisions[case_id], (manifest_path.parent / path).read_bytes())
        answers.append(
            build(
                LabAnswer,
                LAB_ANSWER_FIELDS,
                {"answer_id": answer_id, "case_id": case_id, "path": path, "shows": shows, **report},
            )
        )
    return build(
        LabResult,
        LAB_RESULT_FIELDS,
        {
            "execution_mode": "offline and deterministic: pinned local fixtures, no network, answer requests built but never sent",
            "model_called": False,
            "fixture_kind": "fictional Quill SDK documentation (docs/), pinned by manifest.json",
            "grammar": corpus.grammar.summary(),
            "version_scheme": corpus.version_scheme.name,
            "cases": cases,
            "changed_source": _changed_source_case(manifest_path),
            "answers": answers,
            "policy": list(POLICY),
            "limit": LIMIT,
            "renderer": corpus.manifest.renderer_name,
        },
    )


def _changed_source_case(manifest_path: Path) -> ChangedSourceCase:
    """Edit one fixture in a temporary copy without re-pinning it, then ask the gate.

    Loading the copy fails (``IngestionError``, ``hash_mismatch``); the failure
    is recorded with a refused decision's fields, the eligibility fields
    ``None`` since nothing could be decided.
    """
    source_id = str(CHANGED_SOURCE["source_id"])
    candidate_ids = list(CHANGED_SOURCE["candidate_ids"])
    version, operation, claim_key = (
        str(CHANGED_SOURCE[key]) for key in ("requested_version", "operation", "claim_key")
    )
    with tempfile.TemporaryDirectory(prefix="conflict-gate-") as tmp:
        copy = Path(tmp) / manifest_path.name
        try:
            shutil.copytree(manifest_path.parent / "docs", Path(tmp) / "docs")
            shutil.copy2(manifest_path, copy)
        except (OSError, shutil.Error) as error:
            raise CliError("output", f"cannot copy the fixtures to a temporary folder: {error}") from None
        entry = next(e for e in read_manifest(copy).entries if e.source_id == source_id)
        edited = Path(tmp) / entry.path
        before, after = CHANGED_LINE
        raw = edited.read_bytes()
        if raw.count(before) != 1:
            raise CliError(
                "input",
                f"the lab's changed-source case edits the line "
                f"{before.strip().decode()!r}, which {entry.path} no longer holds "
                "exactly once; restore the fixtures (git checkout docs/ manifest.json)",
            )
        edited.write_bytes(raw.replace(before, after))
        try:
            decided = gate(load_documents(copy), candidate_ids, version, operation, claim_key)
        except IngestionError as error:
            result = build(
                IngestionRefusal,
                INGESTION_REFUSAL_FIELDS,
                {
                    "requested_version": version,
                    "claim_key": claim_key,
                    "operation": operation,
                    "candidate_ids": candidate_ids,
                    "eligible_source_ids": None,
                    "excluded_wrong_version_ids": None,
                    "excluded_unapproved_ids": None,
                    "candidates": None,
                    "status": "refused",
                    "reason": error.reason,
                    **refusal_fields(error),
                    "claims": [],
                    "answer_request": None,
                },
            )
        else:
            raise CliError(
                "input",
                "the lab's changed-source case expects the edited copy to fail "
                f"verification, but the gate decided {decided['status']!r}; restore "
                "the fixtures (git checkout docs/ manifest.json)",
            )
    return build(
        ChangedSourceCase, CHANGED_SOURCE_FIELDS, {**CHANGED_SOURCE, "candidate_ids": candidate_ids, "result": result}
    )


def lab_command(
    manifest_path: Path = FIXTURE_MANIFEST, expected_path: Path = EXPECTED_RESULT
) -> Callable[[argparse.Namespace], int]:
    """The lab as a command for :func:`~_conflict_gate.cli.main.main`, over ``manifest_path`` and
    compared with ``expected_path``: ``python run.py [--output FILE | --check]`` runs the lab and
    prints, saves or compares the result."""

    def lab(args: argparse.Namespace) -> int:
        if not manifest_path.is_file():
            raise CliError(
                "input",
                f"the lab runs from a checkout of conflict-gate: {manifest_path} is not "
                "there; on your own docs use the gate, audit and pin commands",
            )
        text = render_json(run_lab(manifest_path))
        if args.check:
            return _compare(text, expected_path)
        if args.output is None:
            sys.stdout.write(text)
        else:
            write_atomically(Path(args.output), text)
            print(
                f"wrote {printable_path(args.output)}: {len(LAB_CASES)} cases, the changed-source case and "
                f"{len(LAB_ANSWERS)} checked answers"
            )
        return exit_code("ok")

    return lab


def _compare(text: str, expected_path: Path) -> int:
    """``--check``: exit 0 when ``text`` is byte for byte the saved result, else print the drift, exit 1."""
    expected_bytes = expected_path.read_bytes() if expected_path.is_file() else b""
    if text.encode("utf-8") == expected_bytes:
        print(f"{expected_path.name} is up to date")
        return exit_code("ok")
    expected = expected_bytes.decode("utf-8", errors="replace")
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True), text.splitlines(keepends=True), expected_path.name, "fresh run"
    )
    sys.stdout.writelines(list(diff)[:200])
    print(f"drift: a fresh run differs from {expected_path.name}", file=sys.stderr)
    return exit_code("findings")


#: The lab over this checkout's fixtures and saved result.
lab: Final = lab_command()


def typed_prog(script: str) -> str:
    """How this script was started, as a user types it again: ``python run.py`` from the checkout,
    ``python /path/to/conflict-gate/run.py`` from elsewhere (the hints of every message use it)."""
    return "python " + shlex.quote(script)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], prog=typed_prog(sys.argv[0]), lab=lab))

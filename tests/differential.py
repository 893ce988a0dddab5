"""The judging of a reader differential: the gate's outcome per document against what readers see.

Shared by the differential tests (:mod:`tests.test_reader_differential`,
markdown-it-py; :mod:`tests.test_reader_differential_github`, cmark-gfm). A
*reader* is a name and a function from a document's text to a
:class:`tests.reader_oracle.ReaderView`; the gate is read once for all
documents through its public API (:func:`gate_outcomes`, the only code here
that touches it). Per document and per reader:

* **unsafe** (:func:`is_unsafe`): the gate did not refuse, and for some
  (operation, key) its claims' value set differs from the values the reader
  sees (directive lines plus other text that reads as a directive), or a
  claim's line is not one of the reader's directive lines;
* **missed** (:func:`is_missed`): the gate did not refuse, and the reader sees
  a directive line the gate has no claim for;
* **false refusal** (:attr:`Judged.false_refusal`): every reader shows the
  same one directive line and nothing else that counts (an :data:`Eligibility`
  rule decides what else may be there), and the gate did not return exactly
  that one claim unrefused;
* **not refused** (:attr:`Judged.unrefused`): a reader says the page must be
  refused whatever it shows (:attr:`tests.reader_oracle.ReaderView.must_refuse`:
  the site cannot build it, or a line pulls in content from elsewhere), and
  the gate did not refuse it. A page that does not build shows nothing, so it
  is never unsafe or missed for that reader; a page with an include is judged
  on what the site shows with the included content too, and is never eligible.

Standard library only; it imports :mod:`tests.reader_oracle` only for its
definitions (the directive pattern, the grammar, :class:`ReaderView`), which
import markdown-it-py, so callers import this module only when their
packages are there.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import conflict_gate
from tests import reader_oracle

__all__ = [
    "EVERY_RENDERER_PACKAGES",
    "EXAMPLES_SHOWN",
    "Claim",
    "Eligibility",
    "GateOutcome",
    "Judged",
    "Reader",
    "describe",
    "expected_claim",
    "gate_outcomes",
    "is_missed",
    "is_unsafe",
    "judge",
    "mentions_allowed",
    "renderer_supported",
    "renderers_disagree",
    "summary",
    "write_manifest",
]

EXAMPLES_SHOWN = 10

#: The Python packages of every real renderer the all-renderer tests judge by (markdown-it-py and its
#: plugins, cmark-gfm, the DOM builder, MkDocs' Python-Markdown and pymdown-extensions, MyST and docutils).
EVERY_RENDERER_PACKAGES = (
    "markdown_it",
    "mdit_py_plugins",
    "cmarkgfm",
    "justhtml",
    "mkdocs",
    "markdown",
    "pymdownx",
    "myst_parser",
    "docutils",
)


class Claim(NamedTuple):
    operation: str
    key: str
    value: str
    line: int


class GateOutcome(NamedTuple):
    """One source as the gate left it: ``refusal`` is None or the error's reason, place and message."""

    refusal: str | None
    claims: tuple[Claim, ...]
    near_misses: int


class Reader(NamedTuple):
    """A named view of documents: what one renderer shows a reader of a text."""

    name: str
    read: Callable[[str], reader_oracle.ReaderView]


# --------------------------------------------------------------------------
# The gate side.


def source_id(number: int) -> str:
    return f"d{number:05d}"


def write_manifest(folder: Path, texts: Sequence[str], extra: Mapping[str, object] | None = None) -> Path:
    """Write each text as ``dNNNNN.md`` (UTF-8) and a pinned ``manifest.json``; return the manifest's path.

    ``extra`` adds top-level manifest keys (``{"renderer": "github"}``).
    """
    grammar = {
        "namespace": reader_oracle.NAMESPACE,
        "product": reader_oracle.PRODUCT,
        "operations": {
            operation: {key: {"type": "enum", "values": list(values)} for key, values in keys.items()}
            for operation, keys in reader_oracle.GRAMMAR.items()
        },
    }
    documents = []
    for number, text in enumerate(texts, 1):
        raw = text.encode("utf-8")
        path = f"{source_id(number)}.md"
        (folder / path).write_bytes(raw)
        documents.append(
            {"source_id": source_id(number), "version": "1.0", "path": path, "sha256": hashlib.sha256(raw).hexdigest()}
        )
    manifest = folder / "manifest.json"
    manifest.write_text(
        json.dumps({"grammar": grammar, "version_scheme": "major.minor", "documents": documents, **(extra or {})}),
        encoding="utf-8",
    )
    return manifest


def gate_outcomes(texts: Sequence[str], extra: Mapping[str, object] | None = None) -> list[GateOutcome]:
    """Load the documents once through the gate's public API and read each source's outcome."""
    with tempfile.TemporaryDirectory(prefix="conflict-gate-diff-") as folder:
        corpus = conflict_gate.load_documents(write_manifest(Path(folder), texts, extra))
        outcomes = []
        for number in range(1, len(texts) + 1):
            source = corpus.sources[source_id(number)]
            error = source.refusal
            refusal = None if error is None else f"{error.reason} at {error.line}:{error.column}: {error}"
            claims = tuple(Claim(claim.operation, claim.claim_key, claim.value, claim.line) for claim in source.claims)
            outcomes.append(GateOutcome(refusal, claims, len(source.near_misses)))
        return outcomes


def renderer_supported(renderer: str) -> tuple[bool, str]:
    """Whether the gate accepts ``"renderer": renderer`` in a manifest, and why not.

    A one-page manifest with the key is loaded through the public API; a
    manifest error (``invalid_manifest`` or any other ingestion error) means
    the gate does not know the key or the value yet.
    """
    with tempfile.TemporaryDirectory(prefix="conflict-gate-renderer-") as folder:
        manifest = write_manifest(Path(folder), ["# Probe\n"], {"renderer": renderer})
        try:
            conflict_gate.load_documents(manifest)
        except conflict_gate.LocatedError as error:
            return False, f"{error.reason}: {error}"
    return True, ""


# --------------------------------------------------------------------------
# The comparison.


def claim_of(line: int, text: str) -> Claim:
    match = reader_oracle.DIRECTIVE.fullmatch(text)
    assert match is not None, text
    return Claim(match[1], match[2], match[3], line)


def is_unsafe(view: reader_oracle.ReaderView, outcome: GateOutcome) -> bool:
    """Not refused, yet a claimed value set differs from what the reader sees, or a claim is on another line."""
    if outcome.refusal is not None or view.build_error is not None:
        return False
    shown = view.values()
    claimed: dict[tuple[str, str], set[str]] = {}
    for claim in outcome.claims:
        claimed.setdefault((claim.operation, claim.key), set()).add(claim.value)
    reader_lines = {line for line, _ in view.directive_lines}
    return any(values != shown.get(key, set()) for key, values in claimed.items()) or any(
        claim.line not in reader_lines for claim in outcome.claims
    )


def is_missed(view: reader_oracle.ReaderView, outcome: GateOutcome) -> bool:
    """Not refused, yet the reader sees a directive line the gate has no claim for."""
    return (
        outcome.refusal is None
        and view.build_error is None
        and any(claim_of(line, text) not in outcome.claims for line, text in view.directive_lines)
    )


#: Which other directive-shaped text a page may hold and still expect its one claim.
Eligibility = Callable[[reader_oracle.ReaderView], bool]


def nothing_else_shaped(view: reader_oracle.ReaderView) -> bool:
    """The markdown-it test's rule: no other directive-shaped text at all."""
    return not view.other_shaped


def mentions_allowed(view: reader_oracle.ReaderView) -> bool:
    """Issue 15's rule: other shaped text only as mentions (:func:`reader_oracle.is_mention`)."""
    return all(reader_oracle.is_mention(text) for _, text in view.other_shaped)


def expected_claim(
    views: Sequence[reader_oracle.ReaderView], eligible: Eligibility = nothing_else_shaped
) -> Claim | None:
    """The one claim when every reader shows the same single directive line and nothing else that counts."""
    if all(len(view.directive_lines) == 1 and eligible(view) and not view.must_refuse for view in views):
        lines = {view.directive_lines[0] for view in views}
        if len(lines) == 1:
            return claim_of(*lines.pop())
    return None


class Judged(NamedTuple):
    label: str
    text: str
    names: tuple[str, ...]
    views: tuple[reader_oracle.ReaderView, ...]
    outcome: GateOutcome
    unsafe: tuple[str, ...]
    missed: tuple[str, ...]
    expected: Claim | None
    #: Readers for which the page must be refused (a build error, an include) while the gate did not refuse it.
    unrefused: tuple[str, ...] = ()

    @property
    def false_refusal(self) -> bool:
        return self.expected is not None and (self.outcome.refusal, self.outcome.claims) != (None, (self.expected,))


def judge(
    documents: Sequence[tuple[str, str]],
    readers: Sequence[Reader],
    outcomes: Sequence[GateOutcome],
    eligible: Eligibility = nothing_else_shaped,
    *,
    unbuilt_left_out: bool = False,
) -> list[Judged]:
    """Read every document with every reader and compare with the gate's outcome for it.

    ``unbuilt_left_out`` (the ``portable`` renderer, issue 29): a reader under which the page does not
    build (its view has a ``build_error``) is no way the page is shown while another reader builds it:
    it neither makes the page one that must be refused nor takes part in the expected claim. A page
    no reader builds must still be refused; content pulled in (``includes``) always must.
    """
    names = tuple(reader.name for reader in readers)
    judged = []
    for (label, text), outcome in zip(documents, outcomes):
        views = tuple(reader.read(text) for reader in readers)
        kept = views
        if unbuilt_left_out and any(view.build_error is None for view in views):
            kept = tuple(view for view in views if view.build_error is None)
        judged.append(
            Judged(
                label,
                text,
                names,
                views,
                outcome,
                tuple(name for name, view in zip(names, views) if is_unsafe(view, outcome)),
                tuple(name for name, view in zip(names, views) if is_missed(view, outcome)),
                expected_claim(kept, eligible),
                tuple(
                    name
                    for name, view in zip(names, views)
                    if view.must_refuse and outcome.refusal is None and (view in kept or view.includes)
                ),
            )
        )
    return judged


# --------------------------------------------------------------------------
# Reporting.


def renderers_disagree(item: Judged) -> bool:
    """The renderers show different directive lines, or only one shows other directive-shaped text."""
    return len({(view.directive_lines, bool(view.other_shaped)) for view in item.views}) > 1


def describe(item: Judged) -> str:
    """A failing document for a developer: numbered source lines, each renderer's view, the gate's outcome."""
    flagged = [
        f"{kind} for {', '.join(names)}"
        for kind, names in (("unsafe", item.unsafe), ("missed", item.missed), ("not refused", item.unrefused))
        if names
    ]
    lines = [f"--- {item.label}" + (f" ({'; '.join(flagged)})" if flagged else "")]
    lines += [f"{number:4}| {line!r}" for number, line in enumerate(item.text.split("\n"), 1)]
    for name, view in zip(item.names, item.views):
        lines.append(
            f"  {name}: directive_lines={list(view.directive_lines)} "
            f"other_shaped={list(view.other_shaped)} near_misses={len(view.near_misses)}"
            + (f" build_error={view.build_error!r}" if view.build_error is not None else "")
            + (f" includes={list(view.includes)}" if view.includes else "")
        )
    lines.append(
        f"  gate: refusal={item.outcome.refusal} claims={list(item.outcome.claims)} "
        f"near_misses={item.outcome.near_misses}"
    )
    return "\n".join(lines)


def summary(
    title: str,
    judged: Sequence[Judged],
    counts: Mapping[str, Counter[str]],
    names: Sequence[str],
    max_false_refusal_share: float,
    *,
    heading: str = "reader differential",
    eligible_means: str = "one directive line and nothing else shaped, for both renderers",
    per_group: str | None = None,
    notes: Sequence[str] = (),
) -> str:
    """The figures of one run, and up to :data:`EXAMPLES_SHOWN` shortest examples of each failure.

    ``per_group`` names a group of ``counts`` whose documents are labelled
    ``"... [name, name]"``: the unsafe, missed and false-refusal figures are
    then also given per name of that group (a document counts once for every
    name it carries).
    """
    eligible = [item for item in judged if item.expected is not None]
    false_refusals = [item for item in eligible if item.false_refusal]
    # Only pages some reader must see refused (site readers) add the "not refused" figures.
    refusing = any(view.must_refuse for item in judged for view in item.views)
    lines = [f"== {heading}: {title}: {len(judged)} documents", *(f"  {note}" for note in notes)]
    for group, counter in counts.items():
        lines.append(f"  documents per {group}: " + ", ".join(f"{name} {n}" for name, n in sorted(counter.items())))
    for name in names:
        lines.append(
            f"  {name}: unsafe {sum(name in item.unsafe for item in judged)}, "
            f"missed {sum(name in item.missed for item in judged)}"
            + (must_refuse_figures(judged, name) if refusing else "")
        )
    share = len(false_refusals) / len(eligible) if eligible else 0.0
    lines += [
        f"  refused by the gate: {sum(item.outcome.refusal is not None for item in judged)}",
        f"  renderers disagree on directive lines or other shaped text: {sum(map(renderers_disagree, judged))}",
        f"  not refused although a renderer shows other directive-shaped text (not asserted): "
        f"{sum(item.outcome.refusal is None and any(v.other_shaped for v in item.views) for item in judged)}",
        f"  {eligible_means}: {len(eligible)}",
        f"  false refusals: {len(false_refusals)} ({share:.2%}; at most {max_false_refusal_share:.0%} allowed)",
    ]
    if per_group is not None:
        lines.append(f"  per {per_group} (documents: unsafe, missed, false refusals of eligible):")
        for name in sorted(counts[per_group]):
            mine = [item for item in judged if name in group_names(item.label)]
            mine_eligible = [item for item in mine if item.expected is not None]
            lines.append(
                f"    {name}: {len(mine)}: unsafe {sum(bool(item.unsafe) for item in mine)}, "
                f"missed {sum(bool(item.missed) for item in mine)}, false refusals "
                f"{sum(item.false_refusal for item in mine_eligible)} of {len(mine_eligible)}"
                + (f", not refused {sum(bool(item.unrefused) for item in mine)}" if refusing else "")
            )
    for kind, items in (
        ("unsafe", [item for item in judged if item.unsafe]),
        ("missed", [item for item in judged if item.missed]),
        ("not refused", [item for item in judged if item.unrefused]),
        ("false refusal", false_refusals),
    ):
        for item in sorted(items, key=lambda item: len(item.text))[:EXAMPLES_SHOWN]:
            lines.append(f"{kind}:\n{describe(item)}")
    return "\n".join(lines)


def view_of(item: Judged, name: str) -> reader_oracle.ReaderView:
    """What the reader ``name`` showed of the document."""
    return item.views[item.names.index(name)]


def must_refuse_figures(judged: Sequence[Judged], name: str) -> str:
    """``, must be refused N (build errors B, includes I), not refused M`` for one reader."""
    views = [view_of(item, name) for item in judged]
    return (
        f", must be refused {sum(view.must_refuse for view in views)} (build errors "
        f"{sum(view.build_error is not None for view in views)}, includes {sum(bool(view.includes) for view in views)}"
        f"), not refused {sum(name in item.unrefused for item in judged)}"
    )


def group_names(label: str) -> set[str]:
    """The names a label carries in its trailing ``[a, b]`` (none without one)."""
    if not label.endswith("]") or " [" not in label:
        return set()
    return set(label[label.rindex(" [") + 2 : -1].split(", "))

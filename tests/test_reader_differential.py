"""Differential test: the gate's claims and refusals against what two Markdown renderers show a reader.

For every document, :mod:`tests.reader_oracle` computes what a CommonMark and
a GFM renderer (markdown-it-py) show: the directive lines, other
directive-shaped text, near-misses. The gate loads the same documents once
through its public API (:func:`gate_outcomes`, the only code that touches it).
Per document and per renderer:

* **unsafe**: the gate did not refuse, and for some (operation, key) its claims'
  value set differs from the values the reader sees (directive lines plus
  other text that reads as a directive), or a claim's line is not one of the
  reader's directive lines;
* **missed**: the gate did not refuse, and the reader sees a directive line the
  gate has no claim for;
* **false refusal**: both renderers show the same one directive line and no
  other directive-shaped text, and the gate did not return exactly that one
  claim unrefused.

Asserted: no unsafe and no missed document, and false refusals at most
:data:`MAX_FALSE_REFUSAL_SHARE` of the documents where a false refusal is
possible. A summary goes to stderr; failures print up to
:data:`EXAMPLES_SHOWN` of the shortest documents of each kind, with what each
renderer and the gate said.

Run it (markdown-it-py is needed only here; the class skips without it)::

    python -m pip install markdown-it-py==4.3.0 mdit-py-plugins==0.7.0 linkify-it-py
    python -m unittest tests.test_reader_differential -v
    CONFLICT_GATE_DIFF_DOCS=5000 python -m unittest tests.test_reader_differential -v

``CONFLICT_GATE_DIFF_DOCS`` (default :data:`DEFAULT_DOCS`) sets the number of
generated documents, ``CONFLICT_GATE_DIFF_SEED`` their seed. The CommonMark
spec examples come from ``CONFLICT_GATE_SPEC_JSON`` or else the spec text in
``../shared/reference``; without either, that test skips. The JSON is
markdown-it-py's own copy::

    pip download --no-deps --no-binary :all: markdown-it-py==4.3.0
    tar xzf markdown_it_py-4.3.0.tar.gz
    export CONFLICT_GATE_SPEC_JSON=$PWD/markdown_it_py-4.3.0/tests/test_cmark_spec/commonmark.json
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import random
import sys
import tempfile
import unittest
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, NamedTuple, Sequence

import conflict_gate
from tests.support import REPO

ORACLE_PACKAGES = ("markdown_it", "mdit_py_plugins", "linkify_it")
MISSING_PACKAGES = [name for name in ORACLE_PACKAGES if importlib.util.find_spec(name) is None]
if TYPE_CHECKING or not MISSING_PACKAGES:
    from tests import reader_oracle

SKIP_MESSAGE = (
    "markdown-it-py is not installed; to run the reader differential test: "
    "python -m pip install markdown-it-py==4.3.0 mdit-py-plugins==0.7.0 linkify-it-py && "
    "python -m unittest tests.test_reader_differential -v")
DEFAULT_DOCS = 400
DOCS = int(os.environ.get("CONFLICT_GATE_DIFF_DOCS", DEFAULT_DOCS))
SEED = int(os.environ.get("CONFLICT_GATE_DIFF_SEED", 20261130))
MAX_FALSE_REFUSAL_SHARE = 0.01
#: Each construct the generator flags must appear in at least this share of documents.
MIN_CONSTRUCT_SHARE = 0.05
EXAMPLES_SHOWN = 10
D = "@quill create_copy existing_path=refuse"
D2 = "@quill create_copy close_required=yes"


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


# --------------------------------------------------------------------------
# The gate side.

def source_id(number: int) -> str:
    return f"d{number:05d}"


def write_manifest(folder: Path, texts: Sequence[str]) -> Path:
    """Write each text as ``dNNNNN.md`` (UTF-8) and a pinned ``manifest.json``; return the manifest's path."""
    grammar = {"namespace": reader_oracle.NAMESPACE, "product": reader_oracle.PRODUCT,
               "operations": {operation: {key: {"type": "enum", "values": list(values)}
                                          for key, values in keys.items()}
                              for operation, keys in reader_oracle.GRAMMAR.items()}}
    documents = []
    for number, text in enumerate(texts, 1):
        raw = text.encode("utf-8")
        path = f"{source_id(number)}.md"
        (folder / path).write_bytes(raw)
        documents.append({"source_id": source_id(number), "version": "1.0", "path": path,
                          "sha256": hashlib.sha256(raw).hexdigest()})
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps({"grammar": grammar, "version_scheme": "major.minor",
                                    "documents": documents}), encoding="utf-8")
    return manifest


def gate_outcomes(texts: Sequence[str]) -> list[GateOutcome]:
    """Load the documents once through the gate's public API and read each source's outcome."""
    with tempfile.TemporaryDirectory(prefix="conflict-gate-diff-") as folder:
        corpus = conflict_gate.load_documents(write_manifest(Path(folder), texts))
        outcomes = []
        for number in range(1, len(texts) + 1):
            source = corpus.sources[source_id(number)]
            error = source.refusal
            refusal = None if error is None else f"{error.reason} at {error.line}:{error.column}: {error}"
            claims = tuple(Claim(claim.operation, claim.claim_key, claim.value, claim.line) for claim in source.claims)
            outcomes.append(GateOutcome(refusal, claims, len(source.near_misses)))
        return outcomes


# --------------------------------------------------------------------------
# The comparison.

def _claim_of(line: int, text: str) -> Claim:
    match = reader_oracle.DIRECTIVE.fullmatch(text)
    assert match is not None, text
    return Claim(match[1], match[2], match[3], line)


def is_unsafe(view: reader_oracle.ReaderView, outcome: GateOutcome) -> bool:
    """Not refused, yet a claimed value set differs from what the reader sees, or a claim is on another line."""
    if outcome.refusal is not None:
        return False
    shown = view.values()
    claimed: dict[tuple[str, str], set[str]] = {}
    for claim in outcome.claims:
        claimed.setdefault((claim.operation, claim.key), set()).add(claim.value)
    reader_lines = {line for line, _ in view.directive_lines}
    return (any(values != shown.get(key, set()) for key, values in claimed.items())
            or any(claim.line not in reader_lines for claim in outcome.claims))


def is_missed(view: reader_oracle.ReaderView, outcome: GateOutcome) -> bool:
    """Not refused, yet the reader sees a directive line the gate has no claim for."""
    return outcome.refusal is None and any(_claim_of(line, text) not in outcome.claims
                                           for line, text in view.directive_lines)


def expected_claim(views: Sequence[reader_oracle.ReaderView]) -> Claim | None:
    """The one claim when every renderer shows the same single directive line and nothing else shaped."""
    if all(len(view.directive_lines) == 1 and not view.other_shaped for view in views):
        lines = {view.directive_lines[0] for view in views}
        if len(lines) == 1:
            return _claim_of(*lines.pop())
    return None


class Judged(NamedTuple):
    label: str
    text: str
    views: tuple[reader_oracle.ReaderView, ...]
    outcome: GateOutcome
    unsafe: tuple[str, ...]
    missed: tuple[str, ...]
    expected: Claim | None

    @property
    def false_refusal(self) -> bool:
        return self.expected is not None and (self.outcome.refusal, self.outcome.claims) != (None, (self.expected,))


def judge(documents: Sequence[tuple[str, str]], oracles: Sequence[reader_oracle.Oracle],
          outcomes: Sequence[GateOutcome]) -> list[Judged]:
    """Read every document with every oracle and compare with the gate's outcome for it."""
    names = [oracle.name for oracle in oracles]
    judged = []
    for (label, text), outcome in zip(documents, outcomes):
        views = tuple(reader_oracle.read(oracle, text) for oracle in oracles)
        judged.append(Judged(label, text, views, outcome,
                             tuple(name for name, view in zip(names, views) if is_unsafe(view, outcome)),
                             tuple(name for name, view in zip(names, views) if is_missed(view, outcome)),
                             expected_claim(views)))
    return judged


# --------------------------------------------------------------------------
# Reporting.

def renderers_disagree(item: Judged) -> bool:
    """The renderers show different directive lines, or only one shows other directive-shaped text."""
    return len({(view.directive_lines, bool(view.other_shaped)) for view in item.views}) > 1


def describe(item: Judged) -> str:
    """A failing document for a developer: numbered source lines, each renderer's view, the gate's outcome."""
    flagged = [f"{kind} for {', '.join(names)}" for kind, names in (("unsafe", item.unsafe), ("missed", item.missed))
               if names]
    lines = [f"--- {item.label}" + (f" ({'; '.join(flagged)})" if flagged else "")]
    lines += [f"{number:4}| {line!r}" for number, line in enumerate(item.text.split("\n"), 1)]
    for name, view in zip(reader_oracle.ORACLE_NAMES, item.views):
        lines.append(f"  {name}: directive_lines={list(view.directive_lines)} "
                     f"other_shaped={list(view.other_shaped)} near_misses={len(view.near_misses)}")
    lines.append(f"  gate: refusal={item.outcome.refusal} claims={list(item.outcome.claims)} "
                 f"near_misses={item.outcome.near_misses}")
    return "\n".join(lines)


def summary(title: str, judged: Sequence[Judged], counts: Mapping[str, Counter[str]]) -> str:
    """The figures of one run, and up to :data:`EXAMPLES_SHOWN` shortest examples of each failure."""
    eligible = [item for item in judged if item.expected is not None]
    false_refusals = [item for item in eligible if item.false_refusal]
    lines = [f"== reader differential: {title}: {len(judged)} documents"]
    for group, counter in counts.items():
        lines.append(f"  documents per {group}: " + ", ".join(f"{name} {n}" for name, n in sorted(counter.items())))
    for name in reader_oracle.ORACLE_NAMES:
        lines.append(f"  {name}: unsafe {sum(name in item.unsafe for item in judged)}, "
                     f"missed {sum(name in item.missed for item in judged)}")
    share = len(false_refusals) / len(eligible) if eligible else 0.0
    lines += [
        f"  refused by the gate: {sum(item.outcome.refusal is not None for item in judged)}",
        f"  renderers disagree on directive lines or other shaped text: {sum(map(renderers_disagree, judged))}",
        f"  not refused although a renderer shows other directive-shaped text (not asserted): "
        f"{sum(item.outcome.refusal is None and any(v.other_shaped for v in item.views) for item in judged)}",
        f"  one directive line and nothing else shaped, for both renderers: {len(eligible)}",
        f"  false refusals: {len(false_refusals)} ({share:.2%}; at most {MAX_FALSE_REFUSAL_SHARE:.0%} allowed)",
    ]
    for kind, items in (("unsafe", [item for item in judged if item.unsafe]),
                        ("missed", [item for item in judged if item.missed]),
                        ("false refusal", false_refusals)):
        for item in sorted(items, key=lambda item: len(item.text))[:EXAMPLES_SHOWN]:
            lines.append(f"{kind}:\n{describe(item)}")
    return "\n".join(lines)


# --------------------------------------------------------------------------
# The tests.

class OracleTestCase(unittest.TestCase):
    """Skips, visibly, when the renderers are not installed."""

    oracles: tuple[reader_oracle.Oracle, ...]

    @classmethod
    def setUpClass(cls) -> None:
        if MISSING_PACKAGES:
            raise unittest.SkipTest(f"{SKIP_MESSAGE} (missing: {', '.join(MISSING_PACKAGES)})")
        cls.oracles = reader_oracle.oracles()


class ReaderOracleSelfTest(OracleTestCase):
    """The oracle on hand-written pages, each with the reader's view written down."""

    def assert_view(self, text: str, directive_lines: Sequence[tuple[int, str]] = (),
                    other_places: Sequence[str] = (), near_misses: int = 0, only: str | None = None) -> None:
        """Every renderer (or ``only`` the one named) shows these directive lines, shaped places, near-misses."""
        for oracle in self.oracles:
            if only is not None and oracle.name != only:
                continue
            with self.subTest(oracle=oracle.name, text=text):
                view = reader_oracle.read(oracle, text)
                self.assertEqual(view.directive_lines, tuple(directive_lines))
                self.assertEqual([place for place, _ in view.other_shaped], list(other_places))
                self.assertEqual(len(view.near_misses), near_misses, view.near_misses)

    def test_top_level_directive_lines(self) -> None:
        self.assert_view(f"# Guide\n\n{D}\n", [(3, D)])
        self.assert_view(f"Intro line.\n{D}\n{D2}\nOutro.\n", [(2, D), (3, D2)])
        self.assert_view(f"<details>\n<summary>More</summary>\n\n{D}\n\n</details>\n", [(4, D)])
        self.assert_view(f"# Guide\r\n\r\n{D}\r\n", [(3, D)])
        self.assert_view(f"{D}\n{D}\n", [(1, D), (2, D)])

    def test_probe_tells_lines_with_the_same_text_apart(self) -> None:
        """A code span hides the raw directive line; an escaped copy shows its text but is not a directive line."""
        self.assert_view(f"`x\n{D}\n`\n\\{D}\n", other_places=["p"], near_misses=1)
        self.assert_view(f"\\{D}\n{D}\n", [(2, D)], other_places=["p"])

    def test_directive_text_a_reader_sees_elsewhere(self) -> None:
        self.assert_view(f"- {D}\n", other_places=["ul>li>p"])
        self.assert_view(f"> Note\n{D}\n", other_places=["blockquote>p"])
        self.assert_view(f"## {D}\n", other_places=["h2"])
        self.assert_view(f"{D}\n===\n", other_places=["h1"])
        self.assert_view(f"Set {D} here.\n", other_places=["p"])
        self.assert_view(f"<div>\n{D}\n</div>\n", other_places=["html"])
        self.assert_view(f"![{D}](x.png)\n", other_places=["p>img"])
        self.assert_view(f"[{D}](https://example.com)\n", other_places=["p"])
        self.assert_view("@Quill create_copy existing_path=refuse\n", other_places=["p"])

    def test_same_text_but_not_the_raw_line(self) -> None:
        """An escaped, entity-written or indented line renders as the directive, but its source line is not one."""
        for prefix in ("\\", "&#64;", "   ", "&nbsp;", "&#8203;", "\u200b", "` `", "[]()"):
            line = prefix + (D[1:] if prefix == "&#64;" else D)
            self.assert_view(f"{line}\n", other_places=["p"])

    def test_near_misses(self) -> None:
        self.assert_view(f"```text\n{D}\n```\n", near_misses=1)
        self.assert_view(f"Intro:\n\n    {D}\n", near_misses=1)
        self.assert_view(f"Write `{D}` alone.\n", near_misses=1)
        self.assert_view(f"The 2.0 pages write `\n{D}\n` instead.\n", near_misses=1)
        self.assert_view(f"<!--\n{D}\n-->\n", near_misses=1)
        self.assert_view(f'<img src="b.svg" alt="Quill\n{D}\nbadge">\n', near_misses=1)
        self.assert_view(f'[m]: /url "The 2.0 pages say\n{D}\ninstead"\n', near_misses=1)
        self.assert_view("Mail support@quill.dev or ping @quill-bot, @quill_team, @quilljs.\n")
        self.assert_view(f"<div>\n<!--\n{D}\n", near_misses=1)  # a comment left open hides to the end

    def test_where_the_renderers_differ(self) -> None:
        table = f"| Key | Value |\n| --- | --- |\n| a | b |\n{D}\n"
        self.assert_view(table, [(4, D)], only="commonmark")
        self.assert_view(table, other_places=["table>tbody>tr>td"], only="gfm")
        script = f"<script>\n{D}\n</script>\n"
        self.assert_view(script, near_misses=1, only="commonmark")
        self.assert_view(script, other_places=["html"], only="gfm")
        front_matter = f"---\ntitle: Guide\n{D}\n---\n"
        self.assert_view(front_matter, other_places=["h2"], only="commonmark")
        self.assert_view(front_matter, other_places=["front_matter"], only="gfm")

    def test_directive_shaped(self) -> None:
        shaped = ["@quill", "x @QUILL y", "\uff20quill create_copy", "@q_u*i~ll!", "@quill_ x", "@qu\u200bill",
                  "\ufe6bquill", "@\uff51uill"]
        plain = ["@quill.dev", "@quill-bot", "@quill_team", "@quilljs", "quill", "@ quill", "@_quill"]
        for text in shaped:
            self.assertTrue(reader_oracle.is_directive_shaped(text), text)
        for text in plain:
            self.assertFalse(reader_oracle.is_directive_shaped(text), text)

    def test_lenient_values(self) -> None:
        view = reader_oracle.ReaderView(((3, D),), (("p", "**@Quill** create_copy  existing_path = Overwrite"),), ())
        self.assertEqual(view.values(), {("create_copy", "existing_path"): {"refuse", "overwrite"}})

    def test_spec_text_parser(self) -> None:
        fence = "`" * 32
        spec = f"intro\n\n{fence} example\n\u2192foo\n- bar\n.\n<p>x</p>\n{fence}\n\n{fence} example\n.\n{fence}\n"
        self.assertEqual(reader_oracle.parse_spec_text(spec), ["\tfoo\n- bar\n", ""])


class ReaderDifferentialTest(OracleTestCase):
    """The gate against the renderers, on generated pages and on the CommonMark spec's examples."""

    def assert_gate_agrees(self, title: str, documents: Sequence[tuple[str, str]],
                           counts: Mapping[str, Counter[str]]) -> None:
        try:
            outcomes = gate_outcomes([text for _, text in documents])
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise AssertionError(
                "the gate could not be read through the API the adapter expects (gate_outcomes: "
                "conflict_gate.load_documents(manifest).sources[id] with .refusal, .claims): "
                f"{type(error).__name__}: {error}") from error
        judged = judge(documents, self.oracles, outcomes)
        report = summary(title, judged, counts)
        print(report, file=sys.stderr)
        eligible = [item for item in judged if item.expected is not None]
        self.assertTrue(eligible, "no document where a false refusal is possible: the measurement is empty")
        self.assertEqual([item.label for item in judged if item.unsafe], [], "unsafe documents, see stderr")
        self.assertEqual([item.label for item in judged if item.missed], [], "missed directives, see stderr")
        false_refusals = sum(item.false_refusal for item in eligible)
        self.assertLessEqual(false_refusals, MAX_FALSE_REFUSAL_SHARE * len(eligible),
                             "too many false refusals, see stderr")

    def test_generated_documents(self) -> None:
        documents = reader_oracle.generate_documents(SEED, DOCS)
        counts = {"construct": Counter(name for document in documents for name in document.constructs),
                  "placement": Counter(name for document in documents for name in set(document.placements))}
        self.assert_gate_agrees(f"generated, seed {SEED}",
                                [(f"seed {SEED}, document {number}", document.text)
                                 for number, document in enumerate(documents, 1)], counts)

    def test_generator_covers_every_construct(self) -> None:
        """Each construct in a fair share of the documents, and every placement at least once."""
        documents = reader_oracle.generate_documents(SEED, max(DOCS, DEFAULT_DOCS))
        constructs = Counter(name for document in documents for name in document.constructs)
        placements = Counter(name for document in documents for name in document.placements)
        for name in reader_oracle.CONSTRUCTS:
            self.assertGreaterEqual(constructs[name], MIN_CONSTRUCT_SHARE * len(documents), name)
        self.assertEqual([name for name in reader_oracle.PLACEMENTS if not placements[name]], [])
        self.assertGreater(sum(document.realistic for document in documents), len(documents) / 2)

    def test_spec_examples(self) -> None:
        examples = reader_oracle.spec_examples(REPO)
        if examples is None:
            self.skipTest("no CommonMark spec examples: set CONFLICT_GATE_SPEC_JSON to markdown-it-py's "
                          "tests/test_cmark_spec/commonmark.json, or keep ../shared/reference/"
                          f"{reader_oracle.SPEC_TEXT.name} beside the repository")
        self.assertGreater(len(examples), 600, "the spec examples were not found in the spec source")
        documents = reader_oracle.spec_documents(examples, random.Random(SEED))
        counts = {"injection": Counter(label.partition(": ")[2] for label, _ in documents)}
        self.assert_gate_agrees(f"{len(examples)} CommonMark spec examples", documents, counts)


if __name__ == "__main__":
    unittest.main()

"""Benchmark: cold load against the verification floor, warm decisions, memory, adversarial inputs.

    python bench/run.py              # every figure below; a few minutes on 2 cores
    python bench/run.py --quick      # a smoke run in a few seconds (figures too small to judge)
    python bench/run.py --only corpora|recorded|realdocs|adversarial|operations|service|rag|suggest|init|answer
    python bench/run.py --json PATH  # where to save the figures (default: bench/results/)

Standard library only; runs from anywhere (it puts the repository root on
``sys.path``). Every corpus is generated from seeds, so runs compare.
MB = 10**6 bytes; N is a corpus's number of documents.

Corpora
-------
fence-heavy (N x 8 KB)
    Quill pages with headings, prose, lists, fenced Python with decorators,
    two to five directive lines in a contract paragraph, and one page in ten
    showing directive examples in fences and inline code (near-misses).
prose-heavy (N x 8 KB, and N/10 x 64 KB)
    Mostly prose, lists and headings, no fences, one directive line per page
    and the odd ``@handle`` or e-mail address.
long-paragraph (N x 8 KB)
    A heading and one paragraph of :data:`LONG_PARAGRAPH_LINES` (110) lines of
    the same prose (inline code, non-ASCII words, the odd ``@handle``), one of
    them, never the first, the page's directive line.
real docs (N pages, N/5 timed cold)
    Copies of the vendored real MkDocs pages (``tests/pages/``), each with a
    sentence of its own, a directive at the top of one page in twenty.

Figures
-------
floor
    Parse the manifest JSON, then, in one thread, for every entry: open,
    ``os.read`` and SHA-256 the file and compare with the pin. The least any
    verifying loader must do.
cold
    ``load_documents(manifest, cache=False)`` + ``audit(corpus)``: everything a
    process pays before its first decision, without a reading cache, in one
    process. Quoted as a ratio to the floor. Floor and cold alternate; each is
    the minimum of ``--repeat`` runs with a hot page cache.
cached
    The same with an up-to-date reading cache (written by a load before):
    every page read, hashed and verified, none read for directives.
cached parts
    Where that goes (:func:`measure_cached_parts`): the manifest's checks, the
    pages read and verified, the cache's section opened, its entries decoded,
    the audit; and floor + manifest checks + audit, the least any reading cache
    leaves (printed as the evidence of a cached target not met).
parallel
    ``cold`` with ``jobs=2`` (fence-heavy only), against one process.
recorded
    ``docs`` fence-heavy pages with recorded readings (``pin --site``'s file, named and pinned by
    the manifest): ``load_documents(manifest, cache=False)`` (every page read, hashed, verified and
    given its recorded reading; none read for directives), and with ``audit``, against the floor;
    and the readings file alone (read, checked against its pin, parsed).
github
    floor, cold and cached again over a manifest that says
    ``"renderer": "github"`` (the others name no renderer: the default).
warm
    Median microseconds of ``gate(corpus, [a, b], version, operation, key)``
    on a loaded corpus, at 10 documents and at N documents, timed in turns;
    also per decision status, and the growth as the largest ratio of those
    medians (like for like: the two corpora end in different mixes). Also the
    10-document requests on the N-document corpus, in the same turns: the same
    work, so what differs from the 10-document figure is where the objects
    sit in memory.
supported answer
    ``check_answer`` on the lab's supported answer, and its parts: the answer
    reader's reading (``read_answer``), the reading's findings and the
    decision check (minimum microseconds).
peak RSS
    ``ru_maxrss`` of a fresh interpreter that loads and audits the
    fence-heavy corpus and builds its quote index, and of one that only
    imports (the baseline); with ``--large``, also at 100,000 pages.
growth
    Each corpus figure again over its first N/10 documents: k in cost ~ N**k.
stages
    Where a cold source's time goes, per stage, in microseconds and as a
    multiple of the floor (over the first 1,000 sources of each corpus).
operations
    An API reference of N pages of one version, each declaring the two keys of its own operation
    (one page in 20 also one key of the next page's): seconds of ``load_documents``, of
    ``audit`` + ``render_json`` (minimum of ``--repeat``), the report's JSON and Markdown bytes, and
    the peak RSS of a fresh interpreter that loads, audits and renders both.
service
    What a long-running gate (the MCP server) pays to be never stale: median microseconds of
    ``gate()`` on a loaded corpus and of ``GateService.gate`` (the manifest's ``stat``, then the two
    eligible candidates read and hashed) over a copy of the lab; seconds of ``audit()`` and of
    ``GateService.audit`` (every page read and hashed first) over the operations corpus, and of the
    re-verification alone. Pages read for directives again must be 0.
rag
    240 seeded pages over four versions, each about one of twelve operations (a quarter also
    mention a second, one in twenty none), and 5,000 seeded RAG-style requests: one key of one
    operation at one version, with one to three retrieved pages about it and up to two on other
    topics (one time in ten also a page of another version). The share of ``not_in_docs`` under
    ``unrelated="withhold"`` (the default) and ``unrelated="set_aside"``.
suggest
    Median microseconds of the did-you-mean of an unknown id (a typo of a real one) at 10,000 and
    1,000,000 ids, and of the full ``difflib`` search it replaced, at 10,000.
adversarial
    One source of 1, 4 and 16 MB per input kind (lone-``\\r`` lines full of
    ``@``, ``@`` lines by the million, deep quotes and lists, long runs of
    backticks and brackets, ...): seconds of ``read_directives`` (minimum of
    three runs; k fitted over the three sizes), and the peak RSS above the
    import baseline of a fresh
    interpreter that reads, decodes and reads the directives of the 16 MB one.
init
    ``conflict-gate init`` (in process, stderr captured) over a tree of
    8,000 small pages in four version folders, each declaring a key of its
    own (so the proposed grammar has 8,000 keys), and over its first 2,000
    pages: seconds (minimum of ``--repeat`` runs, a new manifest each time)
    and k between the two.
answer
    ``check_answer`` over the fence-heavy corpus (N documents; the corpora's
    own when they were generated in this run) on a 64 KiB answer holding
    :data:`ANSWER_QUOTES` quotes that are no claim, each looked up in the
    pinned sources: milliseconds (minimum of ``5 * --repeat`` runs after one
    that builds the quote index, and that first one), and the quote index's
    memory per page (the sources' tuples of occurrences, each distinct text once since they are
    interned, and the sorted tuple, by ``sys.getsizeof``). Then, per adversarial answer kind of
    :data:`HOSTILE_ANSWERS` (control characters, emphasis inside names, hiding raw HTML, citations as
    link texts, tildes, glued values, look-alike names, statements split at code edges, colon forms and
    flags in code), ``check_answer`` on 16 KiB and 64 KiB of it: milliseconds
    (minimum of ``--repeat`` runs) and k between the two sizes.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import hashlib
import io
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from _conflict_gate.base.registry import DECISIONS, DEFAULT_RENDERER, EXIT_CODES  # noqa: E402
from _conflict_gate.cli.main import main as cli_main  # noqa: E402
from _conflict_gate.corpus.load import load_documents  # noqa: E402
from _conflict_gate.decide.decision import audit, gate  # noqa: E402
from _conflict_gate.manifest.grammar import grammar_from_json  # noqa: E402
from _conflict_gate.reading.reader import read_directives  # noqa: E402
from _conflict_gate.reading.renderers import RENDERER_VALUES  # noqa: E402

RESULTS_DIR = REPO_ROOT / "bench" / "results"
MB = 10**6

GRAMMAR_JSON = {
    "namespace": "quill",
    "product": "Quill",
    "operations": {
        "create_copy": {
            "existing_path": {"type": "enum", "values": ["refuse", "overwrite"]},
            "close_required": {"type": "enum", "values": ["yes", "no"]},
        }
    },
}
GRAMMAR = grammar_from_json(GRAMMAR_JSON)
CLAIMS = tuple((op, key, rule.values) for op, key, rule in GRAMMAR.claims())  # type: ignore[union-attr]
VERSIONS = ("1.0", "1.1", "2.0", "3.0")
CONFLICT_RATE = 0.03  # sources that contradict their version on one key
MISSING_RATE = 0.08  # chance a source does not declare a given key
SYNTAX_PAGE_RATE = 0.10  # fence-heavy pages that also show directive examples
CRLF_RATE = 0.03
BOM_RATE = 0.01

TOPICS = ("User Guide", "Reference", "Migration Notes", "Cookbook", "FAQ", "Release Notes")
WORDS = (
    "quill",
    "document",
    "handle",
    "copy",
    "destination",
    "source",
    "path",
    "scheduler",
    "task",
    "revision",
    "archive",
    "backup",
    "the",
    "a",
    "is",
    "when",
    "before",
    "after",
    "never",
    "always",
    "must",
    "may",
    "returns",
    "raises",
    "closes",
    "opens",
    "writes",
    "existing",
    "file",
    "target",
    "version",
    "release",
    "behaviour",
    "default",
    "flag",
    "callers",
    "should",
    "each",
    "every",
    "with",
    "without",
    "and",
    "or",
    "of",
    "to",
    "in",
)
NON_ASCII_WORDS = ("naïve", "café", "façade", "Größe", "déjà", "señal", "→", "—", "日本語", "Ωmega")
INLINE_CODE = (
    "`quill.create_copy(src, dst)`",
    "`dst`",
    "`quill.PathExists`",
    "`handle.close()`",
    "`quill.open`",
    "`create_copy`",
)
PYTHON_FENCES = (
    '@quill.task(name="{name}")\n'
    "def {name}(src: str, dst: str) -> None:\n"
    "    handle = quill.open(src)\n"
    '    handle.write("{word}")\n'
    "    handle.close()\n"
    "    quill.create_copy(src, dst)\n",
    "@retry(times={count})\n"
    "def safe_{name}(src: str, dst: str) -> None:\n"
    "    try:\n"
    "        quill.create_copy(src, dst)\n"
    "    except quill.PathExists:\n"
    "        quill.remove(dst)\n"
    "        quill.create_copy(src, dst)\n",
    "@dataclass(frozen=True)\n"
    "class {title}Job:\n"
    "    src: str\n"
    "    dst: str\n"
    "\n"
    "    @property\n"
    "    def target(self) -> str:\n"
    "        return self.dst  # questions: docs@quill.example\n",
)
#: Lines of the one paragraph of a long-paragraph page (the directive is one of them, never the first).
LONG_PARAGRAPH_LINES = 110
EXAMPLE_FENCES = (("```text", "```"), ("~~~markdown", "~~~"), ("````", "````"), ("```markdown", "```"))


# --------------------------------------------------------------------------
# Corpora


def canonical_values(version: str) -> dict[tuple[str, str], str]:
    """What each source of ``version`` declares unless it conflicts."""
    shift = VERSIONS.index(version)
    return {(op, key): values[(shift + i) % len(values)] for i, (op, key, values) in enumerate(CLAIMS)}


def sentence_pool(seed: int, count: int = 2000) -> list[str]:
    """Sentences shared by all documents (drawing every word per document would be slow)."""
    rng = random.Random(f"quill-bench-sentences:{seed}")
    pool = []
    for _ in range(count):
        words = []
        for _ in range(rng.randint(6, 18)):
            roll = rng.random()
            words.append(
                rng.choice(NON_ASCII_WORDS)
                if roll < 0.04
                else rng.choice(INLINE_CODE)
                if roll < 0.10
                else rng.choice(WORDS)
            )
        sentence = words[0].capitalize() + " " + " ".join(words[1:]) + "."
        if rng.random() < 0.03:  # '@' in prose that is neither a directive nor a near-miss
            sentence += " Ask the team (@docs-team) or write to docs@quill.example."
        pool.append(sentence)
    return pool


class Writer:
    """Markdown blocks for one source, drawn from that source's seeded RNG."""

    def __init__(self, rng: random.Random, sentences: Sequence[str]) -> None:
        self.rng = rng
        self.sentences = sentences

    def prose(self) -> str:
        return textwrap.fill(" ".join(self.rng.choice(self.sentences) for _ in range(self.rng.randint(3, 6))), width=79)

    def bullets(self) -> str:
        lines = []
        for _ in range(self.rng.randint(2, 5)):
            lines.append("- " + self.rng.choice(self.sentences))
            if self.rng.random() < 0.3:
                lines.append("  - " + self.rng.choice(self.sentences))
        return "\n".join(lines)

    def steps(self) -> str:
        return "\n".join(f"{i}. {self.rng.choice(self.sentences)}" for i in range(1, self.rng.randint(3, 6)))

    def heading(self) -> str:
        return f"## {self.rng.choice(WORDS).capitalize()} {self.rng.choice(WORDS)}"

    def python_fence(self) -> str:
        name = "_".join(self.rng.sample(WORDS[:12], 2))
        body = self.rng.choice(PYTHON_FENCES).format(
            name=name, title=name.title().replace("_", ""), word=self.rng.choice(WORDS), count=self.rng.randint(2, 5)
        )
        return f"```python\n{body}```"

    def example_fence(self) -> str:
        """Directive examples in a fence: near-misses, never claims (some malformed)."""
        opening, closing = self.rng.choice(EXAMPLE_FENCES)
        lines = []
        for op, key, values in self.rng.sample(CLAIMS, self.rng.randint(1, len(CLAIMS))):
            line = GRAMMAR.directive(op, key, self.rng.choice(values))
            lines.append(line.replace("=", " = ") if self.rng.random() < 0.2 else line)
        return "\n".join([opening, *lines, closing])

    def mention(self) -> str:
        op, key, values = self.rng.choice(CLAIMS)
        return textwrap.fill(
            f"To declare it, write `{GRAMMAR.directive(op, key, self.rng.choice(values))}` on its "
            "own line, outside any fence. Questions go to the team (@docs-team) or to "
            "support@quill.example. " + self.rng.choice(self.sentences),
            width=79,
        )

    def contract(self, version: str, declared: dict[tuple[str, str], str]) -> str:
        lines = [GRAMMAR.directive(op, key, value) for (op, key), value in declared.items()]
        self.rng.shuffle(lines)
        return "\n\n".join(
            [
                "## Contract",
                f"The following directives state the Quill {version} behaviour.",
                "\n".join(lines),
                self.prose(),
            ]
        )


def make_document(
    kind: str, index: int, size: int, seed: int, sentences: Sequence[str]
) -> tuple[str, bytes, dict[str, int]]:
    """``(version, raw bytes, traits)`` of document ``index`` of a ``kind`` corpus, about ``size`` bytes.

    A document depends only on its arguments, so a smaller corpus is a
    prefix of a larger one.
    """
    rng = random.Random(f"quill-bench:{kind}:{seed}:{index}")
    writer = Writer(rng, sentences)
    version = VERSIONS[index % len(VERSIONS)]
    declared = {claim: value for claim, value in canonical_values(version).items() if rng.random() >= MISSING_RATE}
    traits = {"missing_keys": len(CLAIMS) - len(declared), "conflicting": 0, "syntax_page": 0, "crlf": 0, "bom": 0}
    if declared and rng.random() < CONFLICT_RATE:
        op, key = rng.choice(sorted(declared))
        allowed = GRAMMAR.operations[op][key].values  # type: ignore[union-attr]
        declared[(op, key)] = allowed[(allowed.index(declared[(op, key)]) + 1) % len(allowed)]
        traits["conflicting"] = 1
    if kind == "long":  # the directive inside one long paragraph: LONG_PARAGRAPH_LINES lines, nothing else
        declared = dict([next(iter(declared.items()))]) if declared else {}
        lines = textwrap.wrap(" ".join(rng.choice(sentences) for _ in range(LONG_PARAGRAPH_LINES)), width=72)[
            : LONG_PARAGRAPH_LINES - 1
        ]
        if declared:
            (op, key), value = next(iter(declared.items()))
            lines.insert(rng.randint(1, len(lines) - 1), GRAMMAR.directive(op, key, value))
        text = f"# Quill {version} {rng.choice(TOPICS)} ({index})\n\n" + "\n".join(lines) + "\n"
        return version, text.encode("utf-8"), traits
    if kind == "prose":  # one directive line per page
        declared = dict([next(iter(declared.items()))]) if declared else {}
        makers: list[Callable[[], str]] = [writer.prose] * 6 + [writer.bullets] * 2 + [writer.steps]
    else:
        makers = [writer.prose] * 6 + [writer.bullets] * 2 + [writer.python_fence] * 3
        if rng.random() < SYNTAX_PAGE_RATE:
            makers += [writer.example_fence] * 2 + [writer.mention] * 2
            traits["syntax_page"] = 1
    blocks = [f"# Quill {version} {rng.choice(TOPICS)} ({index})", writer.prose(), "## Overview", writer.prose()]
    contract = writer.contract(version, declared) if declared else ""
    length = sum(len(block.encode()) + 2 for block in blocks) + len(contract.encode())
    body: list[str] = []
    while True:
        block = rng.choice(makers)()
        if rng.random() < 0.3:
            block = f"{writer.heading()}\n\n{block}"
        added = len(block.encode()) + 2
        if length + added // 2 > size:
            break
        body.append(block)
        length += added
    if contract:
        body.insert(rng.randint(0, len(body)), contract)
    text = "\n\n".join(blocks + body) + "\n"
    if rng.random() < CRLF_RATE:
        text = text.replace("\n", "\r\n")
        traits["crlf"] = 1
    raw = text.encode("utf-8")
    if rng.random() < BOM_RATE:
        raw = b"\xef\xbb\xbf" + raw
        traits["bom"] = 1
    return version, raw, traits


def generate_corpus(
    root: Path, kind: str, docs: int, size: int, seed: int
) -> tuple[list[dict[str, str]], dict[str, int]]:
    """Write ``docs`` sources under ``root/docs/``; return manifest entries and totals."""
    sentences = sentence_pool(seed)
    entries = []
    totals = {"documents": docs, "bytes": 0, "missing_keys": 0, "conflicting": 0, "syntax_page": 0, "crlf": 0, "bom": 0}
    for index in range(docs):
        version, raw, traits = make_document(kind, index, size, seed, sentences)
        source_id = f"{kind}-{index:05d}"
        path = f"docs/{version}/{source_id}.md"
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(raw)
        entries.append(
            {
                "source_id": source_id,
                "version": version,
                "path": path,
                "url": f"https://docs.quill.example/{version}/{source_id}",
                "sha256": hashlib.sha256(raw).hexdigest(),
            }
        )
        totals["bytes"] += len(raw)
        for trait, count in traits.items():
            totals[trait] += count
    return entries, totals


def write_manifest(path: Path, entries: Sequence[dict[str, str]], renderer: str | None = None) -> Path:
    """A manifest of ``entries``; ``renderer`` its ``"renderer"`` (``None``: none, the default renderer)."""
    data: dict[str, Any] = {"grammar": GRAMMAR_JSON, "version_scheme": "major.minor"}
    if renderer is not None:
        data["renderer"] = renderer
    path.write_text(json.dumps({**data, "documents": list(entries)}, indent=1) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------
# Measurements


def timed(run: Callable[[], object]) -> float:
    """Seconds taken by ``run()``, after a full collection; its result is dropped untimed."""
    gc.collect()
    start = time.perf_counter()
    result = run()
    elapsed = time.perf_counter() - start
    del result
    return elapsed


def verify_floor(manifest_path: Path) -> int:
    """Parse the manifest; read, SHA-256 and compare every source with its pin, one thread."""
    root = os.path.dirname(manifest_path)
    with open(manifest_path, "rb") as handle:
        entries = json.loads(handle.read())["documents"]
    total = 0
    for entry in entries:
        fd = os.open(os.path.join(root, entry["path"]), os.O_RDONLY)
        try:
            raw = os.read(fd, os.fstat(fd).st_size + 1)
        finally:
            os.close(fd)
        if hashlib.sha256(raw).hexdigest() != entry["sha256"]:
            raise ValueError(f"{entry['path']}: pin mismatch")
        total += len(raw)
    return total


def cold(manifest_path: Path, cache: Path | bool = False, jobs: int = 1) -> dict[str, Any]:
    """What a fresh process pays before its first decision: load, verify, read, audit (no reading
    cache unless ``cache`` names one; ``jobs`` worker processes)."""
    return audit(load_documents(manifest_path, cache=cache, jobs=jobs))


def measure_cold(
    manifests: dict[str, Path], repeat: int, cached: Sequence[str] = (), parallel: Sequence[str] = ()
) -> dict[str, dict[str, float]]:
    """Minimum seconds of floor and cold (no cache, one process) per manifest, alternating, after a
    warm-up read; for the labels in ``cached`` also ``cached`` (load + audit with an up-to-date reading
    cache, written by a load before), and in ``parallel`` also ``parallel`` (no cache, 2 workers)."""
    caches = {}
    for label, manifest in manifests.items():
        verify_floor(manifest)
        if label in cached:
            caches[label] = manifest.with_suffix(".readings.json")
            cold(manifest, caches[label])
    samples: dict[str, dict[str, list[float]]] = {label: {"floor": [], "cold": []} for label in manifests}
    for _ in range(repeat):
        for label, manifest in manifests.items():
            samples[label]["floor"].append(timed(lambda: verify_floor(manifest)))
            samples[label]["cold"].append(timed(lambda: cold(manifest)))
            if label in caches:
                samples[label].setdefault("cached", []).append(timed(lambda: cold(manifest, caches[label])))
            if label in parallel:
                samples[label].setdefault("parallel", []).append(timed(lambda: cold(manifest, jobs=2)))
    return {label: {name: min(times) for name, times in runs.items()} for label, runs in samples.items()}


#: The parts of a load + audit with an up-to-date reading cache, in order (see :func:`measure_cached_parts`).
CACHED_PARTS = (
    "floor",
    "manifest JSON",
    "manifest checks",
    "pages read and verified",
    "cache section",
    "entries decoded",
    "audit",
    "audit from its JSON",
    "whole",
)
#: The parts of a cached load + audit that no reading cache removes: the floor itself, the manifest's
#: checks (its JSON parse is in the floor) and the audit of every claim.
UNCACHED_PARTS = ("floor", "manifest checks", "audit")


def measure_cached_parts(manifest_path: Path, cache: Path, repeat: int) -> dict[str, float]:
    """Seconds of each of :data:`CACHED_PARTS` of a load + audit with the up-to-date reading cache
    ``cache`` (minimum of ``repeat`` runs, the collector paused as the load pauses it): the floor; the
    manifest's JSON parse (in the floor too) and the rest of ``read_manifest``, its checks; every page
    read through ``SourceFiles`` and compared with its pin; the cache's own section opened (read,
    checksum, JSON); every entry decoded into a reading; ``audit`` of the loaded corpus, and its report
    made again from its JSON text (``json.loads``: what a kept audit would still cost); and the whole
    of ``audit(load_documents(manifest, cache=cache))`` for comparison, collections and all."""
    from _conflict_gate.corpus.cache import ReadingCache
    from _conflict_gate.corpus.load import verified_digest
    from _conflict_gate.corpus.source_files import SourceFiles
    from _conflict_gate.manifest.read import read_manifest

    manifest = read_manifest(manifest_path)
    corpus = load_documents(manifest_path, cache=cache)
    report_json = json.dumps(audit(corpus))
    quiet: Callable[[str], None] = lambda message: None  # noqa: E731

    def pages() -> None:
        with SourceFiles(manifest.root) as files:
            for entry in manifest.entries:
                verified_digest(files.read(entry), entry)

    def section() -> ReadingCache:
        return ReadingCache.open(str(cache), manifest.grammar, manifest.renderer.name, quiet)

    def entries() -> list[object]:
        readings = section()
        return [readings.get(entry.sha256, entry.source_id, entry.path) for entry in manifest.entries]

    def paused(run: Callable[[], object]) -> Callable[[], object]:
        def call() -> object:
            gc.disable()
            try:
                return run()
            finally:
                gc.enable()

        return call

    runs: dict[str, Callable[[], object]] = {
        "floor": lambda: verify_floor(manifest_path),
        "manifest JSON": paused(lambda: json.loads(manifest_path.read_bytes())),
        "manifest": paused(lambda: read_manifest(manifest_path)),
        "pages read and verified": paused(pages),
        "cache section": paused(section),
        "cache section and entries": paused(entries),
        "audit": lambda: audit(corpus),
        "audit from its JSON": paused(lambda: json.loads(report_json)),
        "whole": lambda: cold(manifest_path, cache),
    }
    best = {name: min(timed(run) for _ in range(repeat)) for name, run in runs.items()}
    best["manifest checks"] = max(best.pop("manifest") - best["manifest JSON"], 0.0)
    best["entries decoded"] = max(best.pop("cache section and entries") - best["cache section"], 0.0)
    return {name: best[name] for name in CACHED_PARTS}


#: The stages of a cold source, in order, for the profile printed under each corpus.
STAGES = (
    "floor: open, read, SHA-256",
    "manifest entry (JSON, checks)",
    "UTF-8 validation",
    "candidate at signs",
    "block structure",
    "what a reader sees, claims",
    "Source, audit",
)


def measure_stages(manifest_path: Path, sample: int) -> dict[str, float]:
    """Microseconds per source of each of :data:`STAGES`, over the first ``sample`` sources: where a
    cold load's time goes, to set against the floor when a cold target is not met."""
    from _conflict_gate.corpus.load import Corpus, Source, source_digest
    from _conflict_gate.corpus.source_files import SourceFiles
    from _conflict_gate.manifest.read import read_manifest
    from _conflict_gate.reading.blocks import parse_blocks
    from _conflict_gate.reading.candidates import candidates_of as _candidates

    clock = time.perf_counter
    spent = dict.fromkeys(STAGES, 0.0)
    start = clock()
    manifest = read_manifest(manifest_path)
    spent[STAGES[1]] = (clock() - start) * len(manifest.entries[:sample]) / len(manifest.entries)
    files, grammar, sources = SourceFiles(manifest.root), manifest.grammar, {}
    for entry in manifest.entries[:sample]:
        t0 = clock()
        raw = files.read(entry)
        digest = source_digest(raw)
        t1 = clock()
        body = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw
        text = body.decode("utf-8")
        t2 = clock()
        candidates, _ = _candidates(body, grammar)
        t3 = clock()
        view = text if text.isascii() else body.decode("latin-1")
        if candidates:
            parse_blocks(view, candidates)
        t4 = clock()
        reading = read_directives(text, grammar, bom_bytes=len(raw) - len(body), encoded=body)
        t5 = clock()
        sources[entry.source_id] = Source(
            entry.source_id,
            entry.version,
            entry.status,
            entry.path,
            entry.url,
            digest,
            len(raw),
            reading.claims,
            reading.refusal,
            reading.near_misses,
            entry,
        )
        t6 = clock()
        # read_directives repeats the candidates and the blocks: only the rest is counted for it
        for stage, seconds in zip(
            STAGES[:1] + STAGES[2:6], (t1 - t0, t2 - t1, t3 - t2, t4 - t3, (t5 - t4) - (t4 - t2))
        ):
            spent[stage] += seconds
        spent[STAGES[6]] += t6 - t5
    t0 = clock()
    audit(Corpus(manifest, MappingProxyType(sources)))
    spent[STAGES[6]] += clock() - t0
    count = min(sample, len(manifest.entries))
    return {stage: max(seconds, 0.0) / count * 1e6 for stage, seconds in spent.items()}


Request = tuple[list[str], str, str, str]  # (candidate ids, version, operation, key)


def make_requests(entries: Sequence[dict[str, str]], count: int, seed: int) -> list[Request]:
    """``count`` seeded requests, each with 2 candidates of the requested version."""
    rng = random.Random(f"quill-bench-requests:{seed}")
    by_version: dict[str, list[str]] = {}
    for entry in entries:
        by_version.setdefault(entry["version"], []).append(entry["source_id"])
    versions = sorted(v for v, ids in by_version.items() if len(ids) >= 2)
    requests = []
    for _ in range(count):
        version = rng.choice(versions)
        op, key, _ = rng.choice(CLAIMS)
        requests.append((rng.sample(by_version[version], 2), version, op, key))
    return requests


def measure_warm(runs: dict[str, tuple[Path, Sequence[Request]]], passes: int) -> dict[str, dict[str, Any]]:
    """Median and 90th percentile microseconds per gate() on each loaded corpus, its requests timed
    in turns with the other corpora's (one pass each, ``passes`` times), so that a busy machine slows
    every corpus alike and their ratio stays meaningful; also the median per decision status
    (``by_status``), since the corpora's requests end in different mixes of statuses and a ready
    decision costs more than the others."""
    loaded: dict[Path, Any] = {}  # runs over one manifest share its corpus
    corpora = {
        label: loaded.get(manifest) or loaded.setdefault(manifest, load_documents(manifest, cache=False))
        for label, (manifest, _) in runs.items()
    }
    statuses: dict[str, list[str]] = {label: [] for label in runs}
    for label, (_, requests) in runs.items():  # untimed pass
        for candidates, version, op, key in requests:
            statuses[label].append(gate(corpora[label], candidates, version, op, key)["status"])
    clock = time.perf_counter_ns
    samples: dict[str, list[int]] = {label: [] for label in runs}
    gc.collect()
    for _ in range(max(passes, 3)):
        for label, (_, requests) in runs.items():
            corpus, times = corpora[label], samples[label]
            for candidates, version, op, key in requests:
                start = clock()
                gate(corpus, candidates, version, op, key)
                times.append(clock() - start)
    result = {}
    for label, times in samples.items():
        by_status: dict[str, list[int]] = {}
        for index, elapsed in enumerate(times):
            by_status.setdefault(statuses[label][index % len(statuses[label])], []).append(elapsed)
        result[label] = {
            "median_us": statistics.median(times) / 1000,
            "p90_us": statistics.quantiles(times, n=10)[-1] / 1000,
            "statuses": {status: len(values) // max(passes, 3) for status, values in sorted(by_status.items())},
            "by_status": {status: statistics.median(values) / 1000 for status, values in sorted(by_status.items())},
        }
    return result


def warm_ratio(warm: dict[str, dict[str, Any]], min_share: float = 0.05) -> tuple[float, str]:
    """The growth of a warm gate() from 10 documents to N, like for like: the largest ratio of the
    median per decision status, over the statuses that make at least ``min_share`` of both runs'
    decisions; and that status."""
    small, large = warm["small"], warm["large"]
    total_small, total_large = sum(small["statuses"].values()), sum(large["statuses"].values())
    shared = [
        status
        for status in large["by_status"]
        if status in small["by_status"]
        and small["statuses"][status] >= min_share * total_small
        and large["statuses"][status] >= min_share * total_large
    ]
    return max((large["by_status"][status] / small["by_status"][status], status) for status in shared)


_CHILD = """\
import resource, sys
sys.path.insert(0, sys.argv[1])
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.decide.decision import audit
from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.renderers import DEFAULT
task = sys.argv[2]
if task == "corpus":
    corpus = load_documents(sys.argv[3], cache=False)
    audit(corpus)
    corpus.quote_index
elif task == "audit":
    from _conflict_gate.cli.markdown import render_audit_markdown
    from _conflict_gate.base.jsondata import render_json
    report = audit(load_documents(sys.argv[3], cache=False))
    render_json(report)
    render_audit_markdown(report, sys.argv[3])
elif task == "source":
    import json
    grammar = grammar_from_json(json.loads(sys.argv[4]))
    with open(sys.argv[3], "rb") as handle:
        text = handle.read().decode("utf-8")
    from _conflict_gate.reading.renderers import RENDERER_VALUES
    read_directives(text, grammar, renderer=RENDERER_VALUES[sys.argv[5]] if len(sys.argv) > 5 else DEFAULT)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss(task: str = "import", *args: str) -> int | None:
    """Peak RSS in bytes of a fresh interpreter doing ``task``, or ``None`` without ``resource``.

    Linux keeps ``ru_maxrss`` across ``execve`` and ``subprocess`` forks
    with ``vfork``, so the child is started through ``/bin/sh``: otherwise it
    would report this (large) process's peak.
    """
    try:
        import resource  # noqa: F401
    except ImportError:
        return None
    command = [sys.executable, "-c", _CHILD, str(REPO_ROOT), task, *args]
    if os.path.exists("/bin/sh"):
        command = ["/bin/sh", "-c", '"$0" "$@"; exit $?', *command]
    maxrss = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()[-1]
    return int(maxrss) * (1 if sys.platform == "darwin" else 1024)


# --------------------------------------------------------------------------
# Real docs: vendored pages of real MkDocs sites (tests/pages/), a directive on one page in twenty

#: The vendored real pages the real-docs corpus is made of (MIT licensed; notices in its README).
REAL_PAGES_DIR = REPO_ROOT / "tests" / "pages"
#: One page in this many holds a directive (issue 33: "a directive on one page in twenty").
REAL_DIRECTIVE_EVERY = 20
#: The share of the real-docs corpus timed cold per renderer (six renderers x repeat loads of it).
REAL_COLD_SHARE = 5
#: The exit codes of ``conflict-gate gate`` that carry a decision (of any status).
GATE_STATUS_CODES = frozenset(EXIT_CODES[name][0] for name in ("ok", *DECISIONS) if name != "ready")


def real_pages() -> list[tuple[str, bytes]]:
    """The vendored real pages, ``(name, bytes)``, in name order."""
    pages = sorted(
        (str(path.relative_to(REAL_PAGES_DIR)), path.read_bytes())
        for path in REAL_PAGES_DIR.rglob("*.md")
        if path.name != "README.md"
    )
    if not pages:
        raise RuntimeError(f"no real pages under {REAL_PAGES_DIR}")
    return pages


def _with_directive(raw: bytes, directive: bytes) -> bytes:
    """``raw`` with ``directive`` as a paragraph of its own at the top, below any front matter."""
    if raw.startswith(b"---\n"):
        end = raw.find(b"\n---\n", 4)
        if end >= 0:
            cut = end + len(b"\n---\n")
            return raw[:cut] + b"\n" + directive + b"\n\n" + raw[cut:]
    return directive + b"\n\n" + raw


def generate_real_corpus(root: Path, docs: int) -> list[dict[str, str]]:
    """``docs`` pages under ``root/docs/``, each a vendored real page (in turn) with a sentence naming
    its copy appended (so no two pages share bytes), versions 1.0 and 2.0 alternating, and one page in
    :data:`REAL_DIRECTIVE_EVERY` with the directive of its version at the top; the manifest entries."""
    pages = real_pages()
    entries = []
    for index in range(docs):
        _name, raw = pages[index % len(pages)]
        version = VERSIONS[index % 2]
        raw = raw + f"\nThis is copy {index} of this page.\n".encode("ascii")
        if index % REAL_DIRECTIVE_EVERY == 0:
            value = canonical_values(version)[("create_copy", "existing_path")]
            raw = _with_directive(raw, f"@quill create_copy existing_path={value}".encode("ascii"))
        source_id = f"real-{index:05d}"
        path = f"docs/{version}/{source_id}.md"
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(raw)
        entries.append(
            {
                "source_id": source_id,
                "version": version,
                "path": path,
                "url": f"https://docs.quill.example/{version}/{source_id}",
                "sha256": hashlib.sha256(raw).hexdigest(),
            }
        )
    return entries


def markdown_it_parse() -> Callable[[list[str]], object] | None:
    """markdown-it-py's block and inline parse of every text (tokens, no HTML), or ``None`` when it is
    not installed (the bench itself needs the standard library only)."""
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        return None
    parser = MarkdownIt("commonmark")
    return lambda texts: [parser.parse(text) for text in texts]


def measure_real_docs(root: Path, docs: int, repeat: int) -> dict[str, Any]:
    """The real-docs figures: per renderer (and the default, no ``"renderer"``), floor and cold (load +
    audit, no cache, one process) over the first ``docs // REAL_COLD_SHARE`` pages, minimum of
    ``repeat``; markdown-it-py's parse of the same pages' text, when installed; and the command line's
    ``gate`` over the whole ``docs``-page manifest, two candidates, no cache, as a fresh process
    running from bytecode as an installed package does (minimum of ``repeat + 2`` runs), beside a bare
    interpreter's start and ``import conflict_gate``."""
    folder = root / "real-docs"
    entries = generate_real_corpus(folder, docs)
    part = entries[: max(docs // REAL_COLD_SHARE, 1)]
    manifests = {"default": write_manifest(folder / "manifest-default.json", part)}
    for name in RENDERER_VALUES:
        if name != DEFAULT_RENDERER:
            manifests[name] = write_manifest(folder / f"manifest-{name}.json", part, name)
    figures: dict[str, Any] = {
        "documents": len(part),
        "bytes": sum((folder / e["path"]).stat().st_size for e in part),
        "directive_every": REAL_DIRECTIVE_EVERY,
        "pages": [name for name, _ in real_pages()],
        "renderers": measure_cold(manifests, repeat),
    }
    figures["audit_summary"] = {name: cold(manifest)["summary"] for name, manifest in manifests.items()}
    parse = markdown_it_parse()
    if parse is not None:
        texts = [(folder / e["path"]).read_bytes().decode("utf-8") for e in part]
        figures["markdown_it_seconds"] = min(timed(lambda: parse(texts)) for _ in range(repeat))
    whole = write_manifest(folder / "manifest.json", entries)
    # As an installed package runs: from bytecode (pip compiles it; written here to a folder of the
    # bench's own, by the first run, so the checkout gets no __pycache__), never from source.
    environ = {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "CONFLICT_GATE_CACHE": "off",
        "PYTHONPYCACHEPREFIX": str(root / "pycache"),
    }
    command = [
        sys.executable,
        "-m",
        "conflict_gate",
        "gate",
        "--manifest",
        str(whole),
        "--version",
        "1.0",
        "--claim",
        "existing_path",
        entries[0]["source_id"],
        entries[2]["source_id"],
    ]

    def run(argv: list[str]) -> float:
        start = time.perf_counter()
        done = subprocess.run(argv, check=False, capture_output=True, cwd=REPO_ROOT, env=environ, text=True)
        elapsed = time.perf_counter() - start
        if done.returncode not in GATE_STATUS_CODES:  # a decision of any status; not a user or input error
            raise RuntimeError(f"{argv[1:4]} exited {done.returncode}: {done.stderr.strip()}")
        return elapsed

    runs = repeat + 2
    run(command)  # writes the bytecode
    figures["cli_gate"] = {
        "documents": docs,
        "seconds": min(run(command) for _ in range(runs)),
        "python_seconds": min(run([sys.executable, "-c", "pass"]) for _ in range(runs)),
        "import_seconds": min(run([sys.executable, "-c", "import conflict_gate"]) for _ in range(runs)),
        # what `python -m conflict_gate` imports before it reads anything (not the public API's modules)
        "cli_import_seconds": min(run([sys.executable, "-c", "import _conflict_gate.cli.main"]) for _ in range(runs)),
    }
    return figures


# --------------------------------------------------------------------------
# Adversarial inputs (one source each)

_TAIL = "\n\n@quill create_copy existing_path=refuse\n"


def _fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[: size - len(_TAIL)] + _TAIL


def _whole(unit: str, size: int, before_tail: str = "") -> str:
    """``unit`` repeated whole (never cut), then ``before_tail`` and the tail: about ``size`` characters."""
    return unit * max(1, (size - len(_TAIL) - len(before_tail)) // len(unit)) + before_tail + _TAIL


def _block_of(unit: str, size: int) -> str:
    """One paragraph of ``unit`` repeated, ending with the directive line: its inline markup is read."""
    line = _TAIL.strip("\n")
    return unit * max(1, (size - len(line) - 2) // len(unit)) + "\n" + line + "\n"


#: name -> (what it is, text of about ``size`` bytes). Each ends with a real directive, so the
#: gate must read the block structure all the way.
ADVERSARIAL: dict[str, tuple[str, Callable[[int], str]]] = {
    "lone_cr_at": (
        "lone-\\r line endings, every line a directive",
        lambda n: _fill("\r@quill create_copy existing_path=refuse", n),
    ),
    "at_lines": ("'@' alone on millions of lines", lambda n: _fill("@\n", n)),
    "at_namespace_lines": ("'@quill' alone on every line", lambda n: _fill("@quill\n", n)),
    "deep_quotes": ("'> ' nested on one line", lambda n: _fill("> ", n)),
    "deep_quote_lines": ("lines of 100 nested quotes", lambda n: _fill("> " * 100 + "x\n", n)),
    "deep_lists": ("'- ' nested on one line", lambda n: _fill("- ", n)),
    "list_lines": ("lines of deeply indented list items", lambda n: _fill("  " * 50 + "- x\n", n)),
    "quote_lines": ("a block quote of short lines", lambda n: _fill("> x\n", n)),
    "backtick_runs": ("runs of backticks of growing length", lambda n: _fill("` `` ``` x ", n)),
    "brackets": ("a long run of '['", lambda n: _fill("[", n)),
    "link_openers": ("'[a](' repeated", lambda n: _fill("[a](", n)),
    "tag_openers": ("'<a b=\"' repeated", lambda n: _fill('<a b="', n)),
    "one_long_line": ("one line of words", lambda n: _fill("word ", n)),
    # Under MAX_CANDIDATES at 16 MB (one candidate per 1.7 KB), so every one is read:
    "fenced_near_misses": (
        "a directive in a fence every 1.7 KB",
        lambda n: _fill("```\n@quill create_copy existing_path=overwrite\n```\n\n" + "word " * 330 + "\n\n", n),
    ),
    "quoted_code_spans": (
        "a code span in a list in quotes every 1.7 KB",
        lambda n: _fill("> > - `@quill create_copy existing_path=overwrite` here\n> > " + "word " * 330 + "\n\n", n),
    ),
    # Each was quadratic once (the restart search walked every opener again per line; a footnote
    # looked back to its line start and counted lines from the top; a closing fence was looked for at
    # every backtick run of a line), or read one block's inline markup at 200 bytes per byte.
    "fences_then_open": ("back-to-back fences, then an open fence", lambda n: _whole("```\nx\n```\n", n, "```\n")),
    "comment_lines_then_open": (
        "one-line HTML blocks (<!--x-->), then an open comment",
        lambda n: _whole("<!--x-->\n", n, "<!--\n"),
    ),
    "footnote_openers": ("a line of footnote openers '[^'", lambda n: _fill("[^", n)),
    "footnote_definitions": ("footnote definitions by the hundred thousand", lambda n: _whole("[^a]: x\n\n", n)),
    "fence_backtick_line": ("a line of backtick runs in an open fence", lambda n: "````\n" + _fill(" ```", n - 5)),
    "tag_lines": (
        "raw HTML on every other line, followed for what it leaves open",
        lambda n: _whole("<b>x</b>\n\n", n),
    ),
    "short_links_block": (
        "one paragraph of '[a] ' short links, the directive its last line",
        lambda n: _block_of("[a] ", n),
    ),
    # Each walked its indentation once per open container in Python, or reads each line as a reader
    # may take its look-alikes: linear, held to a small constant.
    "list_staircase": (
        "list items indented 0 to 68 spaces in turn",
        lambda n: _fill("".join("  " * k + "- a\n" for k in range(35)), n),
    ),
    "look_alike_lines": (
        "lines holding an at sign and look-alike letters",
        lambda n: _fill("@qu\u0456ll \u0441reate_copy existing_path=x and more\n", n),
    ),
    # The MkDocs model's line scan (read under the default, portable, which includes it).
    "mkdocs_nested_admonitions": (
        "admonitions nested 64 deep, again and again",
        lambda n: _whole("".join("    " * depth + "!!! note\n" for depth in range(64)) + "\n", n),
    ),
    "mkdocs_block_openers": ("'/// note' openers never closed", lambda n: _whole("/// note\n", n)),
    "mkdocs_md_in_html": ("'<div markdown>' opened on every line", lambda n: _whole("<div markdown>\n", n)),
    "mkdocs_snippets": ("a snippets line on every line", lambda n: _whole('--8<-- "a.md"\n', n)),
    "mkdocs_fence_closers": (
        "fence-only lines of every length (superfences closes on exact runs)",
        lambda n: _whole("".join("`" * length + "\n" for length in range(3, 40)), n),
    ),
    "mkdocs_abbreviations": ("abbreviation definitions by the thousand", lambda n: _whole("*[quill]: x\n\n", n)),
    # hostile round 3: critic marks never closed, and arithmatex's \( ... \) on every line of a paragraph
    "mkdocs_critic_openers": ("'{--' critic openers on every line, never closed", lambda n: _whole("{-- x\n", n)),
    "mkdocs_bracket_math": (
        "'\\( a \\)' on every line of one paragraph, the directive its last line",
        lambda n: _block_of("\\( a \\)\n", n),
    ),
    # The site readings (each row read under the renderer ADVERSARIAL_RENDERER names):
    "myst_directives": (
        "MyST directives and colon fences back to back (myst)",
        lambda n: _whole("```{note}\nx\n```\n:::{tip}\ny\n:::\n", n),
    ),
    "myst_comments_and_math": ("'%' comment lines and '$$' math lines (myst)", lambda n: _whole("% c\n$$x$$\n", n)),
    "myst_include_needles": ("'include}' on every line, no include (myst)", lambda n: _whole("x include} y\n", n)),
    "mdx_tags": ("JSX tags on every line, closed (docusaurus)", lambda n: _whole("<b>x</b>\n", n)),
    "mdx_expressions": (
        "expressions and comments on every line (docusaurus)",
        lambda n: _whole("a {1 + 2} {/* c */} b\n", n),
    ),
    "mdx_backtick_runs": ("backtick runs of growing length (docusaurus)", lambda n: _fill("` `` ``` x ", n)),
    "mdx_indented_lines": ("four-space-indented list lines (docusaurus)", lambda n: _whole("- a\n\n    b\n", n)),
    # hostile round 5: indented lines in one long stretch (each searched to the stretch's end), admonitions
    # left open around fences with a run of colons, superfences abandoning fences, VitePress containers
    "mdx_indented_stretch": (
        "indented fence lines in one stretch, no blank line (docusaurus)",
        lambda n: _whole("!!! note\n    ```\nx\n", n),
    ),
    "mdx_admonitions_colons_in_code": (
        "admonitions never closed, a run of colons in their fenced code (docusaurus)",
        lambda n: _whole(":::note\n```\n:::\nx\n```\n", n),
    ),
    "mkdocs_abandoned_fences": (
        "fences in admonitions, abandoned at the next line",
        lambda n: _whole("!!! note\n    ```\nx\n", n),
    ),
    "vitepress_containers_in_code": (
        "VitePress containers closed inside fenced code",
        lambda n: _whole("::: tip\n```\n:::\n", n),
    ),
    "vitepress_component_tags": (
        "Vue component tags with quoted attributes, none holding a candidate (commonmark)",
        lambda n: _whole("<Foo a=\"x\" b='y'> ", n, "\n\n"),
    ),
    "vitepress_v_pre_lines": (
        "interpolations under v-pre elements, each checked back to its line's tag (commonmark)",
        lambda n: _whole("<span v-pre>{{ x }}</span>\n\n", n),
    ),
}
#: Rows read under another renderer than the default.
ADVERSARIAL_RENDERER: dict[str, str] = {
    **dict.fromkeys(("myst_directives", "myst_comments_and_math", "myst_include_needles"), "myst"),
    **dict.fromkeys(
        (
            "mdx_tags",
            "mdx_expressions",
            "mdx_backtick_runs",
            "mdx_indented_lines",
            "mdx_indented_stretch",
            "mdx_admonitions_colons_in_code",
        ),
        "docusaurus",
    ),
    "mkdocs_abandoned_fences": "mkdocs",
    **dict.fromkeys(
        ("vitepress_containers_in_code", "vitepress_component_tags", "vitepress_v_pre_lines"), "commonmark"
    ),
}
ADVERSARIAL_SIZES = (1 * MB, 4 * MB, 16 * MB)
#: Rows whose input is one block whose inline markup is read: their sizes are the adversarial sizes
#: divided by this, so the largest stays under MAX_BLOCK_BYTES (a larger block is refused unread); and
#: the site readings slowest per byte (a JSX tag or an expression costs tens of microseconds), so a run
#: stays within minutes.
ADVERSARIAL_SCALE: dict[str, int] = {
    "short_links_block": 16,
    "myst_directives": 16,
    "mdx_tags": 16,
    "mdx_expressions": 16,
    "mdx_indented_lines": 16,
    "mdx_indented_stretch": 16,
    "mdx_admonitions_colons_in_code": 16,
    # portable reads each page four times, MDX's reading among them, which
    # costs tens of microseconds per tag or line of markup: 5-30 us per byte
    "lone_cr_at": 16,
    "tag_openers": 16,
    "fences_then_open": 16,
    "footnote_definitions": 16,
    "tag_lines": 16,
    "mkdocs_md_in_html": 16,
    "mkdocs_bracket_math": 16,
    # raw HTML on every line: the reader follows each element (tens of microseconds per tag)
    "vitepress_component_tags": 16,
    "vitepress_v_pre_lines": 16,
}
#: These rows are held to k <= 1.15 (the others to k <= 1.1).
ADVERSARIAL_K_LIMIT: dict[str, float] = dict.fromkeys(
    (
        "fences_then_open",
        "comment_lines_then_open",
        "footnote_openers",
        "footnote_definitions",
        "fence_backtick_line",
        "tag_lines",
        "short_links_block",
        "list_staircase",
        "look_alike_lines",
        "mkdocs_nested_admonitions",
        "mkdocs_block_openers",
        "mkdocs_md_in_html",
        "mkdocs_snippets",
        "mkdocs_fence_closers",
        "mkdocs_abbreviations",
        "mkdocs_critic_openers",
        "mkdocs_bracket_math",
        *ADVERSARIAL_RENDERER,
    ),
    1.15,
)


def measure_adversarial(root: Path, sizes: Sequence[int], repeat: int) -> dict[str, Any]:
    """Seconds (minimum of ``repeat``) and outcome per input and size; peak RSS at the largest size."""
    results: dict[str, Any] = {}
    baseline = peak_rss()
    for name, (what, make) in ADVERSARIAL.items():
        row_sizes = [size // ADVERSARIAL_SCALE.get(name, 1) for size in sizes]
        renderer = RENDERER_VALUES[ADVERSARIAL_RENDERER.get(name, DEFAULT_RENDERER)]
        entry: dict[str, Any] = {"what": what, "sizes": row_sizes, "seconds": {}, "outcome": None}
        for size in row_sizes:
            text = make(size)
            seconds = min(timed(lambda: read_directives(text, GRAMMAR, renderer=renderer)) for _ in range(repeat))
            entry["seconds"][str(size)] = seconds
            reading = read_directives(text, GRAMMAR, renderer=renderer)
            entry["outcome"] = reading.refusal.reason if reading.refusal else f"{len(reading.claims)} claim(s)"
        path = root / f"{name}.md"
        path.write_bytes(make(row_sizes[-1]).encode("utf-8"))
        peak = peak_rss("source", str(path), json.dumps(GRAMMAR_JSON), renderer.name)
        path.unlink()
        entry["peak_rss_above_baseline"] = None if peak is None or baseline is None else peak - baseline
        entry["k"] = fitted_exponent([(size, entry["seconds"][str(size)]) for size in row_sizes])
        results[name] = entry
    return results


# --------------------------------------------------------------------------
# In front of an assistant: an API reference of one operation per page, RAG-style requests, the
# did-you-mean of an unknown id

OPERATION_RULES = {
    "timeout": {"type": "integer", "min": 0, "max": 3600},
    "mode": {"type": "enum", "values": ["sync", "async"]},
}
CROSS_REFERENCE_EVERY = 20  # one page in 20 also declares one key of the next page's operation


def generate_operations_corpus(root: Path, docs: int, seed: int) -> tuple[Path, int]:
    """``docs`` API reference pages of one version, page ``i`` declaring both keys of its own
    operation ``api.op<i>`` (one page in :data:`CROSS_REFERENCE_EVERY` also declares ``mode`` of the
    next one, which is then partly silent); the manifest's path and the bytes written."""
    sentences = sentence_pool(seed)
    rng = random.Random(f"quill-bench-operations:{seed}")
    operations = {f"api.op{i:05d}": OPERATION_RULES for i in range(docs)}
    entries, total = [], 0
    for i in range(docs):
        writer = Writer(random.Random(f"quill-bench-operations:{seed}:{i}"), sentences)
        lines = [f"@acme api.op{i:05d} timeout={rng.randint(1, 3600)}", f"@acme api.op{i:05d} mode=sync"]
        if i % CROSS_REFERENCE_EVERY == 0 and i + 1 < docs:
            lines.append(f"@acme api.op{i + 1:05d} mode=sync")
        text = (
            "\n\n".join(
                [f"# api.op{i:05d}", writer.prose(), "## Contract", "\n".join(lines), writer.prose(), writer.bullets()]
            )
            + "\n"
        )
        raw = text.encode("utf-8")
        path = f"docs/op{i:05d}.md"
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(raw)
        entries.append(
            {"source_id": f"api/op{i:05d}", "version": "1.0", "path": path, "sha256": hashlib.sha256(raw).hexdigest()}
        )
        total += len(raw)
    manifest = root / "manifest.json"
    manifest.write_text(
        json.dumps(
            {
                "grammar": {"namespace": "acme", "product": "Acme", "operations": operations},
                "version_scheme": "major.minor",
                "documents": entries,
            }
        )
        + "\n",
        encoding="utf-8",
    )
    return manifest, total


def measure_operations(root: Path, docs: int, seed: int, repeat: int) -> dict[str, Any]:
    """Load, then ``audit`` + ``render_json`` (minimum of ``repeat``), the report's size, and the peak
    RSS of a fresh interpreter that loads, audits and renders JSON and Markdown."""
    from _conflict_gate.base.jsondata import render_json
    from _conflict_gate.cli.markdown import render_audit_markdown

    manifest, total = generate_operations_corpus(root / "operations", docs, seed)
    corpus = load_documents(manifest, cache=False)
    load = min(timed(lambda: load_documents(manifest, cache=False)) for _ in range(repeat))
    seconds = min(timed(lambda: render_json(audit(corpus))) for _ in range(repeat))
    report = audit(corpus)
    return {
        "documents": docs,
        "bytes": total,
        "load_seconds": load,
        "audit_seconds": seconds,
        "json_bytes": len(render_json(report).encode("utf-8")),
        "markdown_bytes": len(render_audit_markdown(report, str(manifest)).encode("utf-8")),
        "summary": report["summary"],
        "peak_rss": peak_rss("audit", str(manifest)),
    }


def measure_service(root: Path, docs: int, seed: int, repeat: int, calls: int = 2000) -> dict[str, Any]:
    """What freshness costs a long-running gate (the MCP server's ``GateService``): median
    microseconds of ``gate()`` on a loaded corpus and of the service's ``gate`` (the manifest's stat
    plus reading and hashing the two eligible candidates) over a copy of the lab; seconds (minimum of
    ``repeat``) of ``audit()`` and of the service's ``audit`` (every page re-verified) over the
    operations corpus of ``docs`` pages."""
    import shutil

    from _conflict_gate.service.gate import GateService

    lab = root / "service-lab"
    shutil.copytree(REPO_ROOT / "docs", lab / "docs")
    shutil.copy2(REPO_ROOT / "manifest.json", lab / "manifest.json")
    os.utime(lab / "manifest.json", (time.time() - 60, time.time() - 60))  # old enough: its stat is trusted
    request = (["quill-guide", "quill-reference"], "1.0", "create_copy", "existing_path")
    corpus = load_documents(lab / "manifest.json", cache=False)
    service = GateService(lab / "manifest.json", cache=False)
    candidates, version, operation, key = request
    clock = time.perf_counter_ns

    def median_us(call: Callable[[], object]) -> float:
        call()
        samples = []
        for _ in range(calls):
            start = clock()
            call()
            samples.append(clock() - start)
        return statistics.median(samples) / 1000

    gate_us = median_us(lambda: gate(corpus, candidates, version, operation, key))
    service_us = median_us(lambda: service.gate(candidates, version, key, operation))
    manifest, total = generate_operations_corpus(root / "service-operations", docs, seed)
    os.utime(manifest, (time.time() - 60, time.time() - 60))
    big = load_documents(manifest, strict=False, cache=False)
    big_service = GateService(manifest, cache=False)
    audit_seconds = min(timed(lambda: audit(big)) for _ in range(repeat))
    service_seconds = min(timed(big_service.audit) for _ in range(repeat))
    reverify_seconds = min(timed(lambda: big_service.current(None)) for _ in range(repeat))
    return {
        "gate_us": gate_us,
        "service_gate_us": service_us,
        "documents": docs,
        "bytes": total,
        "audit_seconds": audit_seconds,
        "service_audit_seconds": service_seconds,
        "reverify_seconds": reverify_seconds,
        "reread": service.reread + big_service.reread,
        "reloads": service.reloads + big_service.reloads,
    }


#: The RAG-style corpus: operations (each with its keys) a page can be about.
RAG_OPERATIONS: dict[str, dict[str, dict[str, Any]]] = {
    op: {
        "timeout": {"type": "integer", "min": 1, "max": 600},
        "retries": {"type": "integer", "min": 0, "max": 9},
        "mode": {"type": "enum", "values": ["sync", "async", "batch"]},
    }
    for op in (
        "files.copy",
        "files.move",
        "files.delete",
        "client.connect",
        "client.retry",
        "auth.login",
        "auth.refresh",
        "jobs.submit",
        "jobs.cancel",
        "cache.get",
        "cache.put",
        "events.subscribe",
    )
}
RAG_PAGES, RAG_REQUESTS = 240, 5000
RAG_KEY_MISSING = 0.12  # a page about an operation leaves out one of its keys
RAG_SECOND_TOPIC = 0.25  # a page also mentions one key of a second operation
RAG_NO_DIRECTIVES = 0.05  # an overview page: prose only
RAG_OTHER_VERSION = 0.10  # a request's retrieval also returns a page of another version


def generate_rag_corpus(root: Path, seed: int) -> tuple[Path, dict[str, list[str]], dict[str, str]]:
    """:data:`RAG_PAGES` pages over four versions, each about one operation (some about two, some about
    none); the manifest, ``"version operation" -> ids of the pages about it`` and id -> version."""
    sentences = sentence_pool(seed)
    rng = random.Random(f"quill-bench-rag:{seed}")
    operations = sorted(RAG_OPERATIONS)
    about: dict[str, list[str]] = {}
    versions: dict[str, str] = {}
    entries = []
    for i in range(RAG_PAGES):
        version = VERSIONS[i % len(VERSIONS)]
        writer = Writer(random.Random(f"quill-bench-rag:{seed}:{i}"), sentences)
        lines, topics = [], []
        if rng.random() >= RAG_NO_DIRECTIVES:
            primary = operations[(i // len(VERSIONS)) % len(operations)]
            topics.append(primary)
            keys = [k for k in RAG_OPERATIONS[primary] if rng.random() >= RAG_KEY_MISSING] or ["mode"]
            lines += [f"@acme {primary} {key}={rag_value(primary, key, version)}" for key in keys]
            if rng.random() < RAG_SECOND_TOPIC:
                second = rng.choice([op for op in operations if op != primary])
                topics.append(second)
                lines.append(f"@acme {second} mode={rag_value(second, 'mode', version)}")
        sid = f"{version}/page-{i:03d}"
        for topic in topics:
            about.setdefault(f"{version} {topic}", []).append(sid)
        versions[sid] = version
        text = "\n\n".join([f"# {sid}", writer.prose(), *(["\n".join(lines)] if lines else []), writer.prose()]) + "\n"
        raw = text.encode("utf-8")
        path = f"docs/{sid}.md"
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(raw)
        entries.append({"source_id": sid, "version": version, "path": path, "sha256": hashlib.sha256(raw).hexdigest()})
    manifest = root / "manifest.json"
    manifest.write_text(
        json.dumps(
            {
                "grammar": {"namespace": "acme", "product": "Acme", "operations": RAG_OPERATIONS},
                "version_scheme": "major.minor",
                "documents": entries,
            }
        )
        + "\n",
        encoding="utf-8",
    )
    return manifest, about, versions


def rag_value(operation: str, key: str, version: str) -> str:
    """The value every page of ``version`` declares for ``operation``/``key``."""
    shift = VERSIONS.index(version) + sorted(RAG_OPERATIONS).index(operation)
    rule = RAG_OPERATIONS[operation][key]
    if rule["type"] == "enum":
        values = rule["values"]
        return str(values[shift % len(values)])
    return str(rule["min"] + shift % (rule["max"] - rule["min"] + 1))


def measure_rag(root: Path, seed: int, count: int = RAG_REQUESTS) -> dict[str, Any]:
    """The share of ``not_in_docs`` over ``count`` seeded RAG-style requests, under each ``unrelated``
    option. A request asks one key of one operation at one version; its candidates are what a
    retriever returns: one to three pages about the operation and up to two on other topics, all of
    that version, and one time in ten a page of another version too."""
    manifest, about, versions = generate_rag_corpus(root / "rag", seed)
    corpus = load_documents(manifest, cache=False)
    rng = random.Random(f"quill-bench-rag-requests:{seed}")
    by_version: dict[str, list[str]] = {}
    for sid, version in versions.items():
        by_version.setdefault(version, []).append(sid)
    outcomes: dict[str, dict[str, int]] = {"withhold": {}, "set_aside": {}}
    for _ in range(count):
        topic = rng.choice(sorted(about))
        version, operation = topic.split(" ")
        key = rng.choice(sorted(RAG_OPERATIONS[operation]))
        related = rng.sample(about[topic], min(len(about[topic]), rng.randint(1, 3)))
        others = [sid for sid in by_version[version] if sid not in about[topic]]
        candidates = related + rng.sample(others, rng.randint(0, 2))
        if rng.random() < RAG_OTHER_VERSION:
            candidates.append(rng.choice(by_version[rng.choice([v for v in VERSIONS if v != version])]))
        rng.shuffle(candidates)
        for unrelated, counts in outcomes.items():
            result = gate(corpus, candidates, version, operation, key, unrelated=unrelated)
            label = f"{result['status']}/{result['reason']}"
            counts[label] = counts.get(label, 0) + 1
    return {
        "pages": len(versions),
        "requests": count,
        "not_in_docs": {
            unrelated: sum(n for label, n in counts.items() if label.startswith("not_in_docs/")) / count
            for unrelated, counts in outcomes.items()
        },
        "outcomes": {unrelated: dict(sorted(counts.items())) for unrelated, counts in outcomes.items()},
    }


def measure_suggest(sizes: Sequence[int], lookups: int) -> dict[str, Any]:
    """Microseconds per did-you-mean (median over ``lookups`` unknown ids, typos of real ones) at each
    number of ids, and the full difflib search it replaced at the smallest size."""
    import difflib

    from _conflict_gate.corpus.suggest import IdIndex

    rng = random.Random("quill-bench-suggest")
    figures: dict[str, Any] = {}
    for size in sizes:
        ids = [f"{VERSIONS[i % 4]}/{rng.choice(WORDS)}-{i:07d}" for i in range(size)]
        build = timed(lambda: IdIndex(ids))
        index = IdIndex(ids)
        unknowns = [typo(rng, rng.choice(ids)) for _ in range(lookups)]
        samples = []
        for unknown in unknowns:
            start = time.perf_counter_ns()
            index.close(unknown)
            samples.append(time.perf_counter_ns() - start)
        figures[str(size)] = {"build_seconds": build, "median_us": statistics.median(samples) / 1000}
    small = [f"{VERSIONS[i % 4]}/{rng.choice(WORDS)}-{i:07d}" for i in range(sizes[0])]
    start = time.perf_counter()
    for unknown in unknowns[:20]:
        difflib.get_close_matches(unknown, small, n=3)
    figures["full_search_us"] = (time.perf_counter() - start) / 20 * 1e6
    return figures


def typo(rng: random.Random, text: str) -> str:
    """``text`` with one character dropped, doubled or replaced, at the start, middle or end."""
    at = rng.choice((0, len(text) // 2, len(text) - 1))
    kind = rng.randrange(3)
    return text[:at] + ("" if kind == 0 else text[at] * 2 if kind == 1 else "#") + text[at + 1 :]


# init over a tree of one-key pages

INIT_SIZES = (2000, 8000)


def make_init_tree(folder: Path, pages: int) -> Path:
    """``pages`` small pages in four version folders, page ``i`` declaring key ``key-i`` of its own."""
    for index in range(pages):
        path = folder / VERSIONS[index % len(VERSIONS)] / f"page-{index:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"# Page {index}\n\nWhat the queue does when a publish fails.\n\n"
            f"@quill queue.publish key-{index:05d}=yes\n",
            encoding="utf-8",
        )
    return folder


#: Quotes that are no claim in the answer of the ``answer`` figure (the issue: about 3,800 fit in 64 KiB).
ANSWER_QUOTES = 3800


def make_quotes_answer(decision: dict[str, Any], quotes: int) -> str:
    """A supported answer to ``decision``, then ``quotes`` short quotes that no page holds
    (`` `@quill x=N` ``), forty to a line, each line ending with a claim's citation."""
    from _conflict_gate.manifest.form import ANSWER_FORM

    cites = [ANSWER_FORM.citation.format(source_id=c["source_id"], line=c["start_line"]) for c in decision["claims"]]
    head = (
        f"`{decision['claim_key']}={decision['agreed_value']}` for `version={decision['requested_version']}`: "
        + " ".join(cites)
        + "\n\n"
    )
    lines = []
    for start in range(0, quotes, 40):
        lines.append(" ".join(f"`@quill x={n}`" for n in range(start, min(start + 40, quotes))) + " " + cites[0])
    return head + "\n".join(lines) + "\n"


#: The adversarial answers of the ``answer`` figure: a unit repeated up to the size.
HOSTILE_ANSWERS: dict[str, str] = {
    "escape sequences": "\x1b[2K",
    "lone carriage returns": "a\r",
    "emphasis inside names": "exist*ing*_path=x ",
    "hiding raw HTML": "<span hidden>[source: quill-guide:37]</span> ",
    "citations as link texts": "[[source: quill-guide:37]](x) ",
    "tildes": "~ ",
    "glued values": "`version=1.0`.1 ",
    "look-alike names": "existlng_path=x ",
    "statements split at code edges": "`existing_path` `=` x ",
    "colon forms and flags in code": "`existingPath: x` `--existing-path x` ",
    "backticks after names": "existing_path" + "`" * 40 + "x:=1 ",
    # hostile round 3: the disguise reading (LaTeX, entity codes, arrows), calls, pairs, next-line values
    "disguises": "$\\text{existing\\_path} #61; -> ",
    "calls and pairs": 'o.setExistingPath("x", ("existing_path", ',
    "values on the next line": "existing_path: |\n\n  ",
    "hash rockets": "existing_path => ",
    # hostile round 4: code idioms (ENV, a name and a value on a line, XML pairs, Mermaid edges, keywords),
    # prose labels, enum constants, and tags left open over many blocks (quadratic before: each scanned to the end)
    "code idioms": '```\nENV QUILL_EXISTING_PATH x\n<e key="existingPath" value=\nA[existing_path] --> B[\n:existing-path ',
    "labels and enum constants": "**existing_path**: x\n\no.existingPath(ExistingPath.X) ",
    "block elements in HTML": "<dl><dt>existing_path</dt><dd>x\n\n",
    "mermaid edges": "```\nA[existing_path] -- a --> B\nB(x)\n```\n",
    "nested list pairs": "- `existing_path`\n  - `x`\n",
    "labels with words and CSV lines": "**existing_path**: refuse x\n\n```\nexisting_path,x\n```\n",
    "tags left open": "x <e a\n\n",
    # hostile round 6: a table's later and merged cells, nested items under a name, HTML rows, conditionals and
    # line continuations in code, a tool's own pins
    "later and merged table cells": "| existing_path | x | refuse |\n|---|---|---|\n| | refuse x |\n",
    "nested items under a name": "- existing_path:\n  - refuse (x)\n  - x\n",
    "HTML rows": "<tr><td>existing_path</td><td>x</td><td>refuse x</td></tr>\n",
    "conditionals, continuations, tool pins": '    existing_path="refuse" if a else "x" \\\n    a:quill:1.0 quill -v 1.0\n',
    # hostile round 6, items 5 and 6: a name on a line of its own and the block after it, a definition list's
    # descriptions, rowspan cells, and code forms (a YAML list under the key, set, a map's atom, enum constants)
    "a name on a line of its own": "### existing_path\n\n- 1.0: x\n- x\n\n**existing_path**\n\nx\n\n",
    "descriptions": "`existing_path`\n: refuse x\n: x\n",
    "row spans": '<td rowspan="2"><b>existing_path</b></td><td>x</td>\n',
    "YAML lists, set, maps, enums": '```\nexisting_path:\n  - x\nset existing_path x\n#{existing_path => x}\nExistingPath.X ExistingPath("x")\n```\n',
}


def measure_hostile_answers(corpus: Any, decision: Any, repeat: int) -> dict[str, Any]:
    """``check_answer`` on each of :data:`HOSTILE_ANSWERS` at 16 and 64 KiB: seconds and k."""
    from _conflict_gate.answer.check import check_answer

    out: dict[str, Any] = {}
    for name, unit in HOSTILE_ANSWERS.items():
        seconds = {}
        for size in (16384, 65536):
            answer = (unit * (size // len(unit) + 1))[:size]
            seconds[size] = min(timed(lambda: check_answer(corpus, decision, answer)) for _ in range(max(repeat, 1)))
        k = math.log(seconds[65536] / seconds[16384]) / math.log(4) if seconds[16384] > 0 else None
        out[name] = {"seconds_16k": seconds[16384], "seconds_64k": seconds[65536], "k": k}
    return out


def measure_supported_answer(calls: int) -> dict[str, Any]:
    """``check_answer`` on the lab's supported answer against its ready decision, and its parts: the
    answer reader's reading (``read_answer``, the floor of any check of the answer as its reader sees
    it), the reading's findings, and the decision check (the gate again, compared): minimum
    microseconds over ``calls`` calls each."""
    from _conflict_gate.answer.check import _check_decision, check_answer
    from _conflict_gate.answer.findings import reading_findings
    from _conflict_gate.answer.forms import FormWords
    from _conflict_gate.answer.reader import read_answer

    corpus = load_documents(REPO_ROOT / "manifest.json", cache=False)
    decision = dict(gate(corpus, ["quill-guide", "quill-reference"], "1.0", "create_copy", "existing_path"))
    raw = (REPO_ROOT / "docs" / "answers" / "supported.txt").read_bytes()
    text = raw.decode("utf-8")
    words = FormWords(corpus.grammar, "create_copy", "existing_path")
    reading = read_answer(text)

    def best_us(call: Callable[[], object]) -> float:
        call()
        samples = []
        for _ in range(calls):
            start = time.perf_counter_ns()
            call()
            samples.append(time.perf_counter_ns() - start)
        return min(samples) / 1000

    verdict = check_answer(corpus, decision, raw)["verdict"]
    return {
        "verdict": verdict,
        "answer_bytes": len(raw),
        "check_answer_us": best_us(lambda: check_answer(corpus, decision, raw)),
        "read_answer_us": best_us(lambda: read_answer(text)),
        "reading_findings_us": best_us(lambda: reading_findings(reading, words)),
        "decision_check_us": best_us(lambda: _check_decision(corpus, decision)),
        "gate_us": best_us(
            lambda: gate(corpus, ["quill-guide", "quill-reference"], "1.0", "create_copy", "existing_path")
        ),
    }


def measure_answer(manifest: Path, repeat: int, quotes: int = ANSWER_QUOTES) -> dict[str, Any]:
    """The ``answer`` figure (see the module docstring) over a loaded fence-heavy corpus."""
    from _conflict_gate.answer.check import check_answer

    corpus = load_documents(manifest, cache=False)
    pairs: dict[tuple[str, str], list[str]] = {}
    for source_id, source in corpus.sources.items():
        claim = source.claim("create_copy", "existing_path")
        if claim is not None and source.refusal is None:
            pairs.setdefault((source.version, claim.value), []).append(source_id)
    (version, _), ids = max(pairs.items(), key=lambda item: len(item[1]))
    decision = dict(gate(corpus, ids[:2], version, "create_copy", "existing_path"))
    answer = make_quotes_answer(decision, quotes)
    first = timed(lambda: check_answer(corpus, decision, answer))
    report = check_answer(corpus, decision, answer)
    times = [timed(lambda: check_answer(corpus, decision, answer)) for _ in range(5 * repeat)]
    index = corpus.quote_index
    texts = {id(o): o for s in corpus.sources.values() for o in s.occurrences}  # interned: shared by pages
    occurrence_bytes = sum(sys.getsizeof(s.occurrences) for s in corpus.sources.values() if s.occurrences) + sum(
        sys.getsizeof(o) for o in texts.values()
    )
    index_bytes = sys.getsizeof(index.occurrences)
    return {
        "documents": len(corpus),
        "answer_bytes": len(answer.encode("utf-8")),
        "quotes": quotes,
        "verdict": report["verdict"],
        "findings": len(report["findings"]),
        "first_seconds": first,
        "seconds": min(times),
        "median_seconds": statistics.median(times),
        "occurrences": sum(len(s.occurrences) for s in corpus.sources.values()),
        "distinct_occurrences": len(index),
        "index_bytes_per_page": (occurrence_bytes + index_bytes) / len(corpus),
        "hostile": measure_hostile_answers(corpus, decision, repeat),
    }


def measure_init(root: Path, sizes: Sequence[int], repeat: int) -> dict[str, Any]:
    """Minimum seconds of ``conflict-gate init`` per tree size, and k between the smallest and largest."""
    seconds: dict[str, float] = {}
    for pages in sizes:
        docs = make_init_tree(root / f"init-{pages}", pages)
        runs = []
        for run in range(repeat):
            manifest = docs / f"manifest-{run}.json"
            err = io.StringIO()

            def init() -> int:
                with contextlib.redirect_stderr(err):
                    return cli_main(["init", str(docs), "--version-from", "{version}/**", "--manifest", str(manifest)])

            runs.append(timed(init))
            if not manifest.is_file():
                raise RuntimeError(f"init wrote nothing: {err.getvalue()}")
            manifest.unlink()
        seconds[str(pages)] = min(runs)
    return {
        "seconds": seconds,
        "k": growth_exponent(sizes[0], seconds[str(sizes[0])], sizes[-1], seconds[str(sizes[-1])]),
    }


# --------------------------------------------------------------------------
# Report


def growth_exponent(small_n: float, small_cost: float | None, large_n: float, large_cost: float | None) -> float | None:
    """k in ``cost ~ n**k`` between two sizes (1.0 linear, 0.0 flat)."""
    if not small_cost or not large_cost or small_n == large_n or small_cost <= 0 or large_cost <= 0:
        return None
    return math.log(large_cost / small_cost) / math.log(large_n / small_n)


def fitted_exponent(points: Sequence[tuple[float, float]]) -> float | None:
    """k in ``cost ~ n**k`` fitted over every ``(n, cost)`` (least squares on the logarithms),
    so no single size, warm in a cache or not, decides it."""
    if len(points) < 2 or any(cost <= 0 for _, cost in points):
        return None
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(cost) for _, cost in points]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread if spread else None


def git_commit() -> str:
    try:
        result = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            check=False,
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return result.stdout.strip() if result.returncode == 0 and result.stdout.strip() else "unknown"


def environment() -> dict[str, Any]:
    """Where the figures come from; the digest of the package tells uncommitted edits apart."""
    digest = hashlib.sha256()
    for module in sorted((REPO_ROOT / "_conflict_gate").rglob("*.py")):  # every stage's modules
        digest.update(module.relative_to(REPO_ROOT).as_posix().encode() + b"\0" + module.read_bytes())
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "git_commit": git_commit(),
        "package_sha256": digest.hexdigest()[:12],
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def measure_recorded(root: Path, docs: int, seed: int, repeat: int) -> dict[str, Any]:
    """The recorded-readings figures: ``docs`` fence-heavy 8 KB pages whose readings are recorded (as
    ``pin --site`` records them: the file the manifest names and pins), loaded with no reading cache,
    against the floor over the same manifest; minimum of ``repeat`` runs each, alternating."""
    from _conflict_gate.corpus.load import read_recorded
    from _conflict_gate.corpus.recorded import render_recorded
    from _conflict_gate.manifest.read import read_manifest
    from _conflict_gate.reading.reading_shapes import Reading

    folder = root / "recorded"
    entries, totals = generate_corpus(folder, "fence", docs, 8192, seed)
    manifest = write_manifest(folder / "manifest.json", entries, "github")
    corpus = load_documents(manifest, cache=False, jobs=2)  # the readings to record (a build would agree)
    text = render_recorded(
        corpus.grammar,
        [
            (
                s.entry,
                s.sha256,
                Reading(
                    s.claims,
                    s.refusal if not s.failed else None,  # type: ignore[arg-type]
                    s.near_misses,
                    s.occurrences,
                    s.left_out,
                ),
            )
            for s in corpus.sources.values()
        ],
    )
    del corpus
    (folder / "manifest.readings.json").write_text(text, encoding="utf-8")
    data = json.loads(manifest.read_text(encoding="utf-8"))
    documents = data.pop("documents")
    data.update(
        readings="manifest.readings.json",
        readings_sha256=hashlib.sha256(text.encode()).hexdigest(),
        documents=documents,
    )
    manifest.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    checked = read_manifest(manifest)
    verify_floor(manifest)
    load_documents(manifest, cache=False)  # a warm-up; also checks every record is used
    samples: dict[str, list[float]] = {"floor": [], "load": [], "load + audit": [], "readings file": []}
    for _ in range(repeat):
        samples["floor"].append(timed(lambda: verify_floor(manifest)))
        samples["load"].append(timed(lambda: load_documents(manifest, cache=False)))
        samples["load + audit"].append(timed(lambda: audit(load_documents(manifest, cache=False))))
        samples["readings file"].append(timed(lambda: read_recorded(checked)))
    best = {name: min(times) for name, times in samples.items()}
    return {**best, "documents": docs, "bytes": totals["bytes"], "readings_bytes": len(text.encode())}


def evaluate_targets(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target with the measured value, the limit and whether it is met."""
    targets = []  # (target, value, limit, unit)
    at_least: set[str] = set()  # targets met at or above their limit (the rest: at or below)
    evidence: dict[str, str] = {}  # target -> what the same run measured of what stands in its way
    corpora = report.get("corpora", {})
    limits = {"fence-heavy": 8.0, "prose-heavy": 5.0, "long-paragraph": 8.0}
    for label, limit in limits.items():
        if label in corpora:
            figures = corpora[label]["large"]
            targets.append(
                (
                    f"{label}: cold load + audit, no cache, one process <= {limit:g} x floor",
                    figures["cold"] / figures["floor"],
                    limit,
                    "x floor",
                )
            )
    for label in ("fence-heavy", "prose-heavy"):
        for run, name in (("large", "default renderer"), ("github", '"renderer": "github"')):
            figures = corpora.get(label, {}).get(run, {})
            if "cached" in figures:
                target = f"{label} ({name}): load + audit with an up-to-date cache <= 1.3 x floor"
                targets.append((target, figures["cached"] / figures["floor"], 1.3, "x floor"))
                parts = corpora[label].get("cached_parts")
                if parts:
                    share = {name: parts[name] / parts["floor"] for name in CACHED_PARTS}
                    evidence[target] = (
                        f"floor + the manifest's checks + the audit, which no reading cache removes: "
                        f"{uncached_bound(parts):.2f} x floor (checks {share['manifest checks']:.2f} x, audit "
                        f"{share['audit']:.2f} x); the cache's own: its section {share['cache section']:.2f} x, "
                        f"entries decoded {share['entries decoded']:.2f} x (the parts under {label}, above, "
                        "default renderer)"
                    )
    recorded = report.get("recorded")
    if recorded:
        target = f"recorded readings: load of {recorded['documents']:,} pages <= 1.5 x floor"
        targets.append((target, recorded["load"] / recorded["floor"], 1.5, "x floor"))
        evidence[target] = (
            f"the readings file ({recorded['readings_bytes'] / MB:.1f} MB) read, checked and "
            f"parsed: {recorded['readings file'] / recorded['floor']:.2f} x floor"
        )
    fence = corpora.get("fence-heavy", {}).get("large", {})
    if "parallel" in fence:
        at_least.add("fence-heavy: the first load with 2 workers >= 1.4 x faster than one process (no cache)")
        targets.append(
            (
                "fence-heavy: the first load with 2 workers >= 1.4 x faster than one process (no cache)",
                fence["cold"] / fence["parallel"],
                1.4,
                "x faster",
            )
        )
    if "warm" in report:
        warm = report["warm"]
        targets.append(("warm gate() <= 30 us", warm["large"]["median_us"], 30.0, "us"))
        ratio, status = warm_ratio(warm)
        target = f"warm gate() at N docs <= 1.2 x at 10 docs (like for like: {status} decisions)"
        targets.append((target, ratio, 1.2, "x"))
        hot = warm.get("large, 10 sources")
        if hot and status in hot["by_status"]:
            evidence[target] = (
                f"the 10-doc requests on the N-doc corpus: {hot['by_status'][status]:.1f} us = "
                f"{hot['by_status'][status] / warm['small']['by_status'][status]:.2f} x the 10-doc "
                "corpus's (the same work; what grows is where the objects of the N-doc corpus's "
                "many different requests sit in memory)"
            )
    real = report.get("real_docs")
    if real:
        for name, figures in real["renderers"].items():
            label = "the default renderer" if name == "default" else f'"renderer": "{name}"'
            target = f"real docs ({label}): cold load + audit, no cache, one process <= 5 x floor"
            targets.append((target, figures["cold"] / figures["floor"], 5.0, "x floor"))
        if "markdown_it_seconds" in real:
            slowest = max(real["renderers"], key=lambda name: real["renderers"][name]["cold"])
            target = (
                f"real docs: the slowest renderer ({slowest}) >= 10 x faster than markdown-it-py's parse "
                "of the same pages"
            )
            at_least.add(target)
            targets.append((target, real["markdown_it_seconds"] / real["renderers"][slowest]["cold"], 10.0, "x faster"))
        cli = real["cli_gate"]
        target = f"conflict-gate gate, {cli['documents']:,}-page manifest, no cache, a fresh process <= 100 ms"
        targets.append((target, cli["seconds"] * 1e3, 100.0, "ms"))
        imported = cli.get("cli_import_seconds")  # (absent from results saved before it was measured)
        evidence[target] = (
            f"a bare interpreter starts in {cli['python_seconds'] * 1e3:.0f} ms and "
            + (
                f"importing the command line takes it to {imported * 1e3:.0f} ms"
                if imported is not None
                else f"'import conflict_gate' takes it to {cli['import_seconds'] * 1e3:.0f} ms"
            )
            + "; the rest is the manifest's read and checks and the two candidates' pages"
        )
    supported = report.get("supported_answer")
    if supported:
        target = "check_answer on the lab's supported answer <= 3 x the answer reader's reading of it"
        targets.append((target, supported["check_answer_us"] / supported["read_answer_us"], 3.0, "x read_answer"))
        rest = (
            supported["check_answer_us"]
            - supported["read_answer_us"]
            - supported["reading_findings_us"]
            - supported["decision_check_us"]
        )
        evidence[target] = (
            f"reading {supported['read_answer_us']:.0f} us, its findings "
            f"{supported['reading_findings_us']:.0f} us, the decision check "
            f"{supported['decision_check_us']:.0f} us, the rest (statements, quotes and citations "
            f"against the decision, control characters) {rest:.0f} us"
        )
    rss = report.get("peak_rss", {})
    baseline = rss.get("baseline (import only)")
    for run, documents in report.get("peak_rss_documents", {}).items():
        if rss.get(run) is not None and baseline is not None:
            targets.append(
                (
                    f"memory, {run} ({documents:,} pages, quote index included): (peak RSS - import) / pages <= 2.5 KB",
                    (rss[run] - baseline) / documents / 1000,
                    2.5,
                    "KB per page",
                )
            )
    operations = report.get("operations")
    if operations:
        docs = f"{operations['documents']:,}"
        targets.append(
            (f"audit + JSON, {docs} pages of one operation each <= 3 s", operations["audit_seconds"], 3.0, "s")
        )
        if operations["peak_rss"] is not None:
            targets.append(
                (
                    f"peak RSS, load + audit + render of those {docs} pages <= 200 MB",
                    operations["peak_rss"] / MB,
                    200.0,
                    "MB",
                )
            )
    suggest = report.get("suggest")
    if suggest:
        small, large = (str(n) for n in report["parameters"]["id_counts"])
        targets.append((f"did-you-mean at {int(large):,} ids <= 1000 us", suggest[large]["median_us"], 1000.0, "us"))
        targets.append(
            (
                f"did-you-mean at {int(large):,} ids <= 1.5 x at {int(small):,}",
                suggest[large]["median_us"] / suggest[small]["median_us"],
                1.5,
                "x",
            )
        )
    for name, entry in report.get("adversarial", {}).items():
        limit = ADVERSARIAL_K_LIMIT.get(name, 1.1)
        if entry["k"] is not None:
            targets.append((f"adversarial {name}: time growth k <= {limit:g}", entry["k"], limit, ""))
        if entry["peak_rss_above_baseline"] is not None:
            size = entry.get("sizes", report["parameters"]["adversarial_sizes"])[-1]
            targets.append(
                (
                    f"adversarial {name}: peak memory <= 10 x source above baseline",
                    entry["peak_rss_above_baseline"] / size,
                    10.0,
                    "x source",
                )
            )
    answer = report.get("answer")
    if answer:
        targets.append(
            (
                f"check_answer, {answer['answer_bytes'] / 1024:.0f} KiB answer, {answer['quotes']:,} quotes "
                f"that are no claim, {answer['documents']:,} pages <= 50 ms",
                answer["seconds"] * 1e3,
                50.0,
                "ms",
            )
        )
    init = report.get("init")
    if init and init["k"] is not None:
        small, large = report["parameters"]["init_sizes"][0], report["parameters"]["init_sizes"][-1]
        targets.append(
            (f"init over one-key pages: time growth k ({small:,} -> {large:,} pages) <= 1.15", init["k"], 1.15, "")
        )
    for label in limits:
        if "stages_us" in corpora.get(label, {}):
            evidence[f"{label}: cold load + audit, no cache, one process <= {limits[label]:g} x floor"] = (
                f"where a cold source's time goes: the stages under {label}, above"
            )
    return [
        {
            "target": name,
            "value": round(value, 4),
            "limit": limit,
            "unit": unit,
            "met": value >= limit if name in at_least else value <= limit,
            **({"evidence": evidence[name]} if name in evidence else {}),
        }
        for name, value, limit, unit in targets
    ]


def uncached_bound(parts: dict[str, float]) -> float:
    """What the parts of :data:`UNCACHED_PARTS` cost together, as a multiple of the floor: a load + audit
    with any reading cache costs at least this, unless the manifest's checks and the audit are kept too."""
    return sum(parts[name] for name in UNCACHED_PARTS) / parts["floor"]


def cached_parts_text(parts: dict[str, float]) -> str:
    """The parts of a cached load + audit, each in ms and as a multiple of the floor, on one line."""
    return ", ".join(
        f"{name} {parts[name] * 1e3:.0f} ms ({parts[name] / parts['floor']:.2f} x)" for name in CACHED_PARTS
    )


def _seconds(value: float) -> str:
    return f"{value:.3f} s" if value >= 1 else f"{value * 1e3:.2f} ms" if value >= 1e-3 else f"{value * 1e6:.1f} us"


def render(report: dict[str, Any]) -> str:
    env = report["environment"]
    lines = [
        f"conflict-gate bench  commit {env['git_commit']} (package {env['package_sha256']})  "
        f"Python {env['python']}  {env['platform']}  {env['cpu_count']} CPUs"
    ]
    if report["parameters"]["quick"]:
        lines.append("--quick: a smoke run; the figures are too small to judge the targets")
    recorded = report.get("recorded")
    if recorded:
        floor = recorded["floor"]
        lines += [
            "",
            f"recorded readings: {recorded['documents']:,} fence-heavy documents, "
            f"{recorded['bytes'] / MB:.1f} MB, readings file {recorded['readings_bytes'] / MB:.1f} MB",
            f"  floor {_seconds(floor)}; load {_seconds(recorded['load'])} = {recorded['load'] / floor:.2f}x "
            f"floor; load + audit {_seconds(recorded['load + audit'])} = "
            f"{recorded['load + audit'] / floor:.2f}x; the readings file alone "
            f"{_seconds(recorded['readings file'])} = {recorded['readings file'] / floor:.2f}x",
        ]
    for label, corpus in report.get("corpora", {}).items():
        small_n, large_n = corpus["small"]["documents"], corpus["large"]["documents"]
        lines += [
            "",
            f"{label}: {large_n:,} documents, {corpus['bytes'] / MB:.1f} MB "
            f"(mean {corpus['bytes'] // large_n:,} B); audit {corpus['audit_summary']}",
            f"  {'figure':<30}{f'{small_n:,} docs':>20}{f'{large_n:,} docs':>20}   k",
        ]
        for name in ("floor", "cold"):
            values = [corpus[size][name] for size in ("small", "large")]
            ratio = (
                ""
                if name == "floor"
                else "  "
                + " / ".join(f"{corpus[size]['cold'] / corpus[size]['floor']:.2f}x" for size in ("small", "large"))
            )
            lines.append(
                f"  {name:<30}{_seconds(values[0]):>20}{_seconds(values[1]):>20}   {corpus['k'][name]:.2f}{ratio}"
            )
        large = corpus["large"]
        extra = (
            [f"cached {_seconds(large['cached'])} = {large['cached'] / large['floor']:.2f}x floor"]
            if "cached" in large
            else []
        )
        if "parallel" in large:
            extra.append(f"2 workers {_seconds(large['parallel'])} = {large['cold'] / large['parallel']:.2f}x faster")
        github = corpus.get("github")
        if github:
            extra.append(
                f"github renderer: cold {github['cold'] / github['floor']:.2f}x, "
                f"cached {github['cached'] / github['floor']:.2f}x floor"
            )
        if extra:
            lines.append(f"  at {large_n:,} docs: " + "; ".join(extra))
        per_doc = [corpus[size]["cold"] / corpus[size]["documents"] for size in ("small", "large")]
        lines.append(f"  {'cold per document':<30}{_seconds(per_doc[0]):>20}{_seconds(per_doc[1]):>20}")
        parts = corpus.get("cached_parts")
        if parts:
            lines.append(f"  a load + audit with an up-to-date cache, its parts: {cached_parts_text(parts)}")
        stages = corpus.get("stages_us", {})
        if stages:
            floor = stages[STAGES[0]]
            lines.append("  where a cold source's time goes (us per source, x floor):")
            lines += [f"    {stage:<34}{value:9.1f}  {value / floor:5.2f}x" for stage, value in stages.items()]
    real = report.get("real_docs")
    if real:
        lines += [
            "",
            f"real docs: {real['documents']:,} copies of {len(real['pages'])} vendored MkDocs pages "
            f"({real['bytes'] / MB:.1f} MB), a directive on one in {real['directive_every']} "
            f"({real['documents'] // real['directive_every']:,} pages)",
        ]
        for name, figures in real["renderers"].items():
            summary = real["audit_summary"][name]
            lines.append(
                f"  {name:<12} floor {_seconds(figures['floor']):>10}  cold {_seconds(figures['cold']):>10}"
                f"  {figures['cold'] / figures['floor']:6.2f}x floor;  pages refused {summary['refused']:,}"
            )
        if "markdown_it_seconds" in real:
            lines.append(f"  markdown-it-py's parse of the same pages: {_seconds(real['markdown_it_seconds'])}")
        else:
            lines.append("  markdown-it-py's parse: SKIPPED (markdown-it-py is not installed)")
        cli = real["cli_gate"]
        lines.append(
            f"  conflict-gate gate over {cli['documents']:,} pages, a fresh process: {_seconds(cli['seconds'])} "
            f"(python alone {_seconds(cli['python_seconds'])}, the command line's imports "
            f"{_seconds(cli.get('cli_import_seconds', float('nan')))}, import conflict_gate "
            f"{_seconds(cli['import_seconds'])})"
        )
    if "warm" in report:
        warm = report["warm"]
        lines += [
            "",
            f"warm gate(): median {warm['small']['median_us']:.1f} us at 10 docs, "
            f"{warm['large']['median_us']:.1f} us at {report['parameters']['docs']:,} docs "
            f"(p90 {warm['large']['p90_us']:.1f} us); decisions {warm['large']['statuses']}",
            "  median per decision: "
            + ", ".join(
                f"{status} {warm['small']['by_status'].get(status, float('nan')):.1f} -> {median:.1f} us"
                for status, median in warm["large"]["by_status"].items()
            ),
        ]
        hot = warm.get("large, 10 sources")
        if hot:
            lines.append(
                "  the 10-doc requests on the large corpus (the same work): "
                + ", ".join(f"{status} {median:.1f} us" for status, median in hot["by_status"].items())
            )
    supported = report.get("supported_answer")
    if supported:
        lines.append(
            f"check_answer on the lab's supported answer ({supported['answer_bytes']} bytes, "
            f"{supported['verdict']}): {supported['check_answer_us']:.0f} us; its parts: the answer "
            f"reader's reading {supported['read_answer_us']:.0f} us, the reading's findings "
            f"{supported['reading_findings_us']:.0f} us, the decision check "
            f"{supported['decision_check_us']:.0f} us (the gate alone {supported['gate_us']:.0f} us)"
        )
    rss = report.get("peak_rss", {})
    if rss:
        lines.append("peak RSS: " + ", ".join(f"{k} {v / MB:.1f} MB" for k, v in rss.items() if v))
    operations = report.get("operations")
    if operations:
        peak = operations["peak_rss"]
        lines += [
            "",
            f"audit on {operations['documents']:,} pages of one operation each "
            f"({operations['bytes'] / MB:.1f} MB): load {_seconds(operations['load_seconds'])}, "
            f"audit + JSON {_seconds(operations['audit_seconds'])}; JSON {operations['json_bytes'] / MB:.1f} MB, "
            f"Markdown {operations['markdown_bytes'] / MB:.1f} MB; peak RSS "
            + ("n/a" if peak is None else f"{peak / MB:.1f} MB"),
            f"  summary {operations['summary']}",
        ]
    service = report.get("service")
    if service:
        lines += [
            "",
            f"service (the MCP server's freshness): gate {service['gate_us']:.1f} us on a loaded corpus, "
            f"{service['service_gate_us']:.1f} us re-verifying its two candidates first (the lab); "
            f"audit of {service['documents']:,} pages {_seconds(service['audit_seconds'])}, "
            f"{_seconds(service['service_audit_seconds'])} re-verifying every page first "
            f"(re-verification alone {_seconds(service['reverify_seconds'])}); pages read again "
            f"{service['reread']}, reloads {service['reloads']}",
        ]
    rag = report.get("rag")
    if rag:
        shares = rag["not_in_docs"]
        lines += [
            "",
            f"RAG-style requests: {rag['requests']:,} over {rag['pages']} pages; not_in_docs "
            f'{shares["withhold"]:.1%} (unrelated="withhold", the default), '
            f'{shares["set_aside"]:.1%} (unrelated="set_aside")',
        ]
        lines += [f"  {unrelated}: {outcomes}" for unrelated, outcomes in rag["outcomes"].items()]
    suggest = report.get("suggest")
    if suggest:
        sizes = report["parameters"]["id_counts"]
        lines += [
            "",
            "did-you-mean of an unknown id: "
            + ", ".join(
                f"{suggest[str(n)]['median_us']:.0f} us at {n:,} ids (index built in "
                f"{_seconds(suggest[str(n)]['build_seconds'])})"
                for n in sizes
            )
            + f"; the full difflib search it replaced: {suggest['full_search_us'] / 1000:.1f} ms at {sizes[0]:,}",
        ]
    if report.get("adversarial"):
        sizes = report["parameters"]["adversarial_sizes"]
        header = "".join(f"{f'{s // MB} MB':>10}" for s in sizes)
        lines += ["", f"adversarial (one source each)  {header}     k   peak above baseline  outcome"]
        for name, entry in report["adversarial"].items():
            row_sizes = entry.get("sizes", sizes)
            times = "".join(f"{_seconds(entry['seconds'][str(s)]):>10}" for s in row_sizes)
            peak = entry["peak_rss_above_baseline"]
            peak_text = "n/a" if peak is None else f"{peak / MB:.1f} MB ({peak / row_sizes[-1]:.1f}x)"
            scaled = "" if row_sizes == sizes else "  (sizes " + ", ".join(f"{s / MB:g} MB" for s in row_sizes) + ")"
            lines.append(f"  {name:<28}{times}  {entry['k'] or 0:4.2f}   {peak_text:<19}  {entry['outcome']}{scaled}")
    if report.get("init"):
        init = report["init"]
        figures = ", ".join(f"{int(pages):,} pages {_seconds(value)}" for pages, value in init["seconds"].items())
        lines += ["", f"init over one-key-per-page pages: {figures}; k {init['k'] or 0:.2f}"]
    if report.get("answer"):
        answer = report["answer"]
        lines += [
            "",
            f"check_answer on a {answer['answer_bytes']:,}-byte answer with {answer['quotes']:,} quotes that are "
            f"no claim, over {answer['documents']:,} fence-heavy pages: {_seconds(answer['seconds'])} "
            f"(median {_seconds(answer['median_seconds'])}; first call, building the quote index, "
            f"{_seconds(answer['first_seconds'])}); {answer['verdict']}, {answer['findings']:,} findings",
            f"  quote index: {answer['occurrences']:,} occurrences ({answer['distinct_occurrences']:,} distinct), "
            f"{answer['index_bytes_per_page']:.0f} bytes per page",
        ]
        for name, entry in answer.get("hostile", {}).items():
            lines.append(
                f"  adversarial answer, {name:<24} 16 KiB {_seconds(entry['seconds_16k'])}, 64 KiB "
                f"{_seconds(entry['seconds_64k'])}, k {entry['k'] or 0:.2f}"
            )
    lines += ["", "targets:"]
    for target in report["targets"]:
        lines.append(
            f"  [{'met    ' if target['met'] else 'NOT MET'}] {target['target']}: "
            f"{target['value']:.2f} {target['unit']} (limit {target['limit']:g})"
        )
        if not target["met"] and "evidence" in target:
            lines.append(f"            evidence: {target['evidence']}")
    return "\n".join(lines)


# --------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000, help="documents per 8 KB corpus (N)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of floor and cold (minimum kept)")
    parser.add_argument("--passes", type=int, default=5, help="timed passes over the warm requests")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument(
        "--only",
        choices=(
            "corpora",
            "recorded",
            "realdocs",
            "adversarial",
            "operations",
            "service",
            "rag",
            "suggest",
            "init",
            "answer",
        ),
    )
    parser.add_argument("--json", type=Path, help="where to save the figures (default: bench/results/)")
    parser.add_argument("--quick", action="store_true", help="a smoke run in a few seconds")
    parser.add_argument(
        "--large",
        action="store_true",
        help="also the peak RSS of a 100,000-page fence-heavy load (memory growth; minutes)",
    )
    args = parser.parse_args(argv)
    args.sizes = ADVERSARIAL_SIZES
    args.rag_requests, args.id_counts = RAG_REQUESTS, (10_000, 1_000_000)
    args.init_sizes = INIT_SIZES
    if args.quick:
        args.docs, args.repeat, args.passes, args.requests = 100, 1, 1, 100
        args.sizes = (20_000, 80_000)
        args.rag_requests, args.id_counts = 200, (1_000, 10_000)
        args.init_sizes = (200, 800)
    return args


def run_benchmark(args: argparse.Namespace, root: Path) -> dict[str, Any]:
    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    report: dict[str, Any] = {
        "environment": environment(),
        "parameters": {
            "docs": args.docs,
            "seed": args.seed,
            "repeat": args.repeat,
            "passes": args.passes,
            "requests": args.requests,
            "adversarial_sizes": list(args.sizes),
            "quick": args.quick,
            "rag_requests": args.rag_requests,
            "id_counts": list(args.id_counts),
            "init_sizes": list(args.init_sizes),
        },
    }
    if args.only in (None, "corpora"):
        report["corpora"] = {}
        for label, kind, docs, size in (
            ("fence-heavy", "fence", args.docs, 8192),
            ("prose-heavy", "prose", args.docs, 8192),
            ("long-paragraph", "long", args.docs, 8192),
            ("prose-heavy-64k", "prose", args.docs // 10, 65536),
        ):
            folder = root / label
            entries, totals = generate_corpus(folder, kind, docs, size, args.seed)
            progress(f"{label}: generated {docs:,} documents ({totals['bytes'] / MB:.1f} MB)")
            manifests = {
                "large": write_manifest(folder / "manifest.json", entries),
                "small": write_manifest(folder / "manifest-small.json", entries[: docs // 10]),
            }
            if label != "prose-heavy-64k":
                manifests["github"] = write_manifest(folder / "manifest-github.json", entries, "github")
            figures = measure_cold(
                manifests,
                args.repeat,
                cached=("large", "github"),
                parallel=("large",) if label == "fence-heavy" else (),
            )
            figures["large"]["documents"], figures["small"]["documents"] = docs, docs // 10
            if "github" in figures:
                figures["github"]["documents"] = docs
            figures["bytes"] = totals["bytes"]
            figures["k"] = {
                name: growth_exponent(docs // 10, figures["small"][name], docs, figures["large"][name])
                for name in ("floor", "cold")
            }
            figures["audit_summary"] = cold(manifests["large"])["summary"]
            figures["stages_us"] = measure_stages(manifests["large"], min(docs, 1000))
            if label != "prose-heavy-64k":
                figures["cached_parts"] = measure_cached_parts(
                    manifests["large"], manifests["large"].with_suffix(".readings.json"), args.repeat
                )
            report["corpora"][label] = figures
            if label == "fence-heavy":
                progress("warm decisions, check_answer and peak RSS ...")
                ten = write_manifest(folder / "manifest-10.json", entries[:10])
                ten_requests = make_requests(entries[:10], args.requests, args.seed)
                report["warm"] = measure_warm(
                    {
                        "small": (ten, ten_requests),
                        "large": (manifests["large"], make_requests(entries, args.requests, args.seed)),
                        "large, 10 sources": (manifests["large"], ten_requests),
                    },
                    args.passes,
                )
                report["supported_answer"] = measure_supported_answer(10 * args.passes * 20)
                report["peak_rss"] = {
                    "baseline (import only)": peak_rss(),
                    "fence-heavy": peak_rss("corpus", str(manifests["large"])),
                }
                report["peak_rss_documents"] = {"fence-heavy": docs}
                if args.large:
                    big = 100_000
                    progress(f"fence-heavy: {big:,} documents for the memory growth (--large) ...")
                    big_entries, _ = generate_corpus(root / "fence-heavy-100k", "fence", big, 8192, args.seed)
                    report["peak_rss"]["fence-heavy-100k"] = peak_rss(
                        "corpus", str(write_manifest(root / "fence-heavy-100k" / "manifest.json", big_entries))
                    )
                    report["peak_rss_documents"]["fence-heavy-100k"] = big
    if args.only in (None, "recorded"):
        progress(f"recorded readings: {args.docs:,} fence-heavy pages ...")
        report["recorded"] = measure_recorded(root, args.docs, args.seed, args.repeat)
    if args.only in (None, "realdocs"):
        progress(f"real docs: {args.docs:,} copies of the vendored pages, every renderer ...")
        report["real_docs"] = measure_real_docs(root, args.docs, args.repeat)
    if args.only in (None, "operations"):
        progress(f"audit of {args.docs:,} pages, one operation each ...")
        report["operations"] = measure_operations(root, args.docs, args.seed, args.repeat)
    if args.only in (None, "service"):
        progress(f"the service's freshness (the lab, {args.docs:,} pages) ...")
        report["service"] = measure_service(root, args.docs, args.seed, args.repeat)
    if args.only in (None, "rag"):
        progress(f"RAG-style requests ({args.rag_requests:,}) ...")
        report["rag"] = measure_rag(root, args.seed, args.rag_requests)
    if args.only in (None, "suggest"):
        progress("did-you-mean ...")
        report["suggest"] = measure_suggest(args.id_counts, 200)
    if args.only in (None, "adversarial"):
        progress("adversarial inputs ...")
        report["adversarial"] = measure_adversarial(root, args.sizes, 1)  # seconds per MB: one run is steady
    if args.only in (None, "init"):
        progress("init over one-key pages ...")
        report["init"] = measure_init(root, args.init_sizes, args.repeat)
    if args.only in (None, "answer"):
        manifest = root / "fence-heavy" / "manifest.json"
        if not manifest.exists():
            entries, totals = generate_corpus(root / "fence-heavy", "fence", args.docs, 8192, args.seed)
            progress(f"fence-heavy: generated {args.docs:,} documents ({totals['bytes'] / MB:.1f} MB)")
            write_manifest(manifest, entries)
        progress("check_answer on a 64 KiB answer of quotes ...")
        report["answer"] = measure_answer(manifest, args.repeat)
    report["targets"] = evaluate_targets(report)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="conflict-gate-bench-") as folder:
        report = run_benchmark(args, Path(folder))
    print(render(report))
    target = args.json
    if target is None:
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        target = RESULTS_DIR / f"bench-{report['environment']['git_commit']}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    target.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nsaved {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

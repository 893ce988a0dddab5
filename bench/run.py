"""Benchmark for issue 4: load once, decide in microseconds.

    python bench/run.py                   # 10,000 documents of about 8 KB (~82 MB); a minute or two
    python bench/run.py --quick           # tiny smoke run, a few seconds
    python bench/run.py --docs 2000 --size 4096 --json /tmp/bench.json

The script writes a deterministic synthetic Quill corpus (see
:func:`make_document`) to a temporary folder, measures the figures below in
one run, prints a table and saves everything as JSON (by default under
``bench/results/``, which git ignores). N is ``--docs``; MB = 10**6 bytes.

Figures
-------
floor
    Parse the manifest JSON, then, in one thread, for every entry: open the
    file, ``os.read`` its bytes, SHA-256 them and compare with the pin. No
    path checks, no decoding, no scanning: the least any verifying loader must
    do, i.e. the physical limit of verification on this machine.
cold
    ``load_documents(manifest, workers=W)`` followed by ``audit(corpus)``:
    everything a process pays before it can decide (the audit parses every
    source's directives, so afterwards the parse cache is full). Measured for
    ``workers=1`` and ``workers=2`` and quoted as a ratio to the floor; the
    targets use ``load_documents``'s default.
warm
    Median microseconds per ``gate(corpus, [a, b], version, key)`` on a
    loaded corpus with a full parse cache. The requests are a fixed, seeded
    set; both candidates have the requested version, so both are eligible and
    the whole decision (with the answer request when ready) is built. Measured
    on a 10-document and on the N-document corpus: their ratio shows whether
    a decision depends on the size of the corpus.
reference
    The design the issue replaces: ``gate(manifest_path, ...)``, which loads
    and verifies the whole manifest for every request. Seconds per request,
    quoted as a ratio to warm at the same corpus size.
peak RSS
    ``ru_maxrss`` of a fresh interpreter that imports the modules and runs
    ``load_documents`` + ``audit`` over the corpus, and nothing else. The
    baseline is a fresh interpreter that only imports the modules.
growth
    floor, cold and peak RSS are also measured over the first N/10 documents
    (the same files, listed by a second manifest). The per-document costs at
    both sizes, and the exponent k in ``cost ~ N**k`` between them (1 is
    linear, 0 is flat), show how each cost grows with the corpus.

Method: every figure comes from the same run and the same files. The corpus
is read once before timing, so floor and cold both see a hot page cache.
Floor and cold runs alternate, so noise hits both, and each figure is the
minimum of ``--repeat`` runs. The garbage collector stays enabled (it is part
of the real cost), but a full collection runs before every timed run. Warm is
the median over ``--passes`` timed passes after one untimed pass.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import inspect
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
from pathlib import Path
from typing import Any, Callable, Sequence

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from conflict_gate import GRAMMAR, NAMESPACE, audit, gate  # noqa: E402
from load_documents import load_documents  # noqa: E402

RESULTS_DIR = REPO_ROOT / "bench" / "results"
MEASURED_MODULES = ("load_documents.py", "conflict_gate.py")
DEFAULT_WORKERS: int = inspect.signature(load_documents).parameters["workers"].default
MB = 10**6

# --------------------------------------------------------------------------
# The synthetic corpus

VERSIONS = ("1.0", "1.1", "2.0", "3.0")
#: Every (operation, key, allowed values) of the grammar, in grammar order.
CLAIMS = tuple((op, key, values) for op, keys in GRAMMAR.items() for key, values in keys.items())
#: Share of sources that contradict their version on one declared key.
CONFLICT_RATE = 0.03
#: Chance that a source does not declare a given key at all.
MISSING_RATE = 0.08
#: Share of "syntax pages": sources that also show directive examples in fences
#: and name directives in inline code (the audit's near-misses). Other sources
#: only have prose, lists and Python examples around their real directives.
SYNTAX_PAGE_RATE = 0.10
#: Share of sources saved with CRLF line endings, and with a UTF-8 BOM.
CRLF_RATE = 0.03
BOM_RATE = 0.01

TOPICS = ("User Guide", "Reference", "Migration Notes", "Cookbook", "FAQ", "Release Notes")
WORDS = (
    "quill", "document", "handle", "copy", "destination", "source", "path", "scheduler",
    "task", "revision", "archive", "backup", "the", "a", "is", "when", "before", "after",
    "never", "always", "must", "may", "returns", "raises", "closes", "opens", "writes",
    "existing", "file", "target", "version", "release", "behaviour", "default", "flag",
    "callers", "should", "each", "every", "with", "without", "and", "or", "of", "to", "in",
)
NON_ASCII_WORDS = ("naïve", "café", "façade", "Größe", "déjà", "señal", "→", "—", "日本語", "Ωmega")
INLINE_CODE = ("`quill.create_copy(src, dst)`", "`dst`", "`quill.PathExists`", "`handle.close()`",
               "`quill.open`", "`create_copy`")
#: Python examples: decorators are '@' lines that are neither directives nor mentions.
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
    '        return self.dst  # questions: docs@quill.example\n',
)
#: (opening, closing) fence lines for directive examples; all CommonMark fences.
EXAMPLE_FENCES = (("```text", "```"), ("~~~markdown", "~~~"), ("````", "````"), ("```markdown", "```"))


def canonical_values(version: str) -> dict[tuple[str, str], str]:
    """What each source of ``version`` declares unless it conflicts; derived from the grammar."""
    shift = VERSIONS.index(version)
    return {(op, key): values[(shift + i) % len(values)]
            for i, (op, key, values) in enumerate(CLAIMS)}


def directive(op: str, key: str, value: str) -> str:
    return f"@{NAMESPACE} {op} {key}={value}"


def sentence_pool(seed: int, count: int = 2000) -> list[str]:
    """Sentences shared by all documents (drawing every word per document would be slow)."""
    rng = random.Random(f"quill-bench-sentences:{seed}")
    pool = []
    for _ in range(count):
        words = []
        for _ in range(rng.randint(6, 18)):
            roll = rng.random()
            words.append(rng.choice(NON_ASCII_WORDS) if roll < 0.04
                         else rng.choice(INLINE_CODE) if roll < 0.10 else rng.choice(WORDS))
        sentence = words[0].capitalize() + " " + " ".join(words[1:]) + "."
        if rng.random() < 0.03:  # '@' in prose that is neither a directive nor a mention
            sentence += " Ask the team (@docs-team) or write to docs@quill.example."
        pool.append(sentence)
    return pool


class DocumentWriter:
    """Markdown blocks for one source, drawn from that source's seeded RNG."""

    def __init__(self, rng: random.Random, sentences: Sequence[str]) -> None:
        self.rng = rng
        self.sentences = sentences

    def prose(self) -> str:
        picked = [self.rng.choice(self.sentences) for _ in range(self.rng.randint(3, 6))]
        return textwrap.fill(" ".join(picked), width=79)

    def bullets(self) -> str:
        return "\n".join("- " + self.rng.choice(self.sentences)
                         for _ in range(self.rng.randint(2, 4)))

    def python_fence(self) -> str:
        name = "_".join(self.rng.sample(WORDS[:12], 2))
        body = self.rng.choice(PYTHON_FENCES).format(
            name=name, title=name.title().replace("_", ""), word=self.rng.choice(WORDS),
            count=self.rng.randint(2, 5))
        return f"```python\n{body}```"

    def example_fence(self) -> str:
        """Directive examples inside a fence: near-misses, never claims (some malformed)."""
        opening, closing = self.rng.choice(EXAMPLE_FENCES)
        lines = []
        for op, key, values in self.rng.sample(CLAIMS, self.rng.randint(1, len(CLAIMS))):
            line = directive(op, key, self.rng.choice(values))
            lines.append(line.replace("=", " = ") if self.rng.random() < 0.2 else line)
        return "\n".join([opening, *lines, closing])

    def mention(self) -> str:
        """Prose naming a directive in inline code (a near-miss), a handle and an address."""
        op, key, values = self.rng.choice(CLAIMS)
        return textwrap.fill(
            f"To declare it, write `{directive(op, key, self.rng.choice(values))}` on its own "
            "line, outside any fence. Questions go to the team (@docs-team) or to "
            "support@quill.example. " + self.rng.choice(self.sentences), width=79)

    def contract(self, version: str, declared: dict[tuple[str, str], str]) -> str:
        """The real directives, one per line, in a random order."""
        lines = [directive(op, key, value) for (op, key), value in declared.items()]
        self.rng.shuffle(lines)
        intro = f"The following directives state the Quill {version} behaviour."
        return "\n\n".join(["## Contract", intro, "\n".join(lines), self.prose()])


def make_document(index: int, size: int, seed: int,
                  sentences: Sequence[str]) -> tuple[str, bytes, dict[str, int]]:
    """Return ``(version, raw bytes, traits)`` of document ``index``, about ``size`` bytes long.

    A document depends only on ``(index, size, seed)``, so a smaller corpus is
    a prefix of a larger one. ``traits`` counts what was planted: missing
    keys, a conflicting value, a syntax page, CRLF line endings, a BOM.
    """
    rng = random.Random(f"quill-bench:{seed}:{index}")
    writer = DocumentWriter(rng, sentences)
    version = VERSIONS[index % len(VERSIONS)]
    declared = {claim: value for claim, value in canonical_values(version).items()
                if rng.random() >= MISSING_RATE}
    traits = {"missing_keys": len(CLAIMS) - len(declared), "conflicting": 0,
              "syntax_page": 0, "crlf": 0, "bom": 0}
    if declared and rng.random() < CONFLICT_RATE:
        op, key = rng.choice(sorted(declared))
        allowed = GRAMMAR[op][key]
        declared[(op, key)] = allowed[(allowed.index(declared[(op, key)]) + 1) % len(allowed)]
        traits["conflicting"] = 1

    blocks = [f"# Quill {version} {rng.choice(TOPICS)} ({index})", writer.prose(),
              "## Overview", writer.prose(), writer.contract(version, declared)]
    makers: list[Callable[[], str]] = [writer.prose] * 6 + [writer.bullets] * 2 \
        + [writer.python_fence] * 3  # block kinds, repeated by weight
    if rng.random() < SYNTAX_PAGE_RATE:
        makers += [writer.example_fence] * 2 + [writer.mention] * 2
        traits["syntax_page"] = 1
    length = sum(len(block.encode()) + 2 for block in blocks)
    while True:
        block = rng.choice(makers)()
        if rng.random() < 0.3:
            block = f"## {rng.choice(WORDS).capitalize()} {rng.choice(WORDS)}\n\n{block}"
        added = len(block.encode()) + 2
        if length + added // 2 > size:  # stop as close to ``size`` as whole blocks allow
            break
        blocks.append(block)
        length += added
    text = "\n\n".join(blocks) + "\n"
    if rng.random() < CRLF_RATE:
        text = text.replace("\n", "\r\n")
        traits["crlf"] = 1
    raw = text.encode("utf-8")
    if rng.random() < BOM_RATE:
        raw = b"\xef\xbb\xbf" + raw
        traits["bom"] = 1
    return version, raw, traits


def generate_corpus(root: Path, docs: int, size: int,
                    seed: int) -> tuple[list[dict[str, str]], dict[str, int]]:
    """Write ``docs`` sources under ``root/docs/<version>/``; return manifest entries and totals."""
    sentences = sentence_pool(seed)
    entries = []
    totals = {"documents": docs, "bytes": 0, "missing_keys": 0, "conflicting": 0,
              "syntax_page": 0, "crlf": 0, "bom": 0}
    for index in range(docs):
        version, raw, traits = make_document(index, size, seed, sentences)
        source_id = f"quill-{index:05d}"
        path = f"docs/{version}/{source_id}.md"
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(raw)
        entries.append({"source_id": source_id, "version": version, "path": path,
                        "url": f"https://docs.quill.example/{version}/{source_id}",
                        "sha256": hashlib.sha256(raw).hexdigest()})
        totals["bytes"] += len(raw)
        for trait, count in traits.items():
            totals[trait] += count
    return entries, totals


def write_manifest(path: Path, entries: Sequence[dict[str, str]]) -> Path:
    path.write_text(json.dumps({"documents": list(entries)}, indent=2, ensure_ascii=False) + "\n",
                    encoding="utf-8")
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
    """Parse the manifest, read and SHA-256 every source and compare with its pin; one thread.

    Returns the number of bytes verified; raises ``ValueError`` on a mismatch
    (the generated corpus has none).
    """
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


def cold_run(manifest_path: Path, workers: int) -> dict[str, Any]:
    """What a fresh process pays before its first decision: load, verify, scan, audit."""
    return audit(load_documents(manifest_path, workers=workers))


def measure_verification(manifests: dict[str, Path], repeat: int) -> dict[str, dict[str, float]]:
    """Minimum seconds of floor, cold(workers=1) and cold(workers=2) per manifest, interleaved."""
    runs: dict[str, Callable[[Path], object]] = {
        "floor": verify_floor,
        "cold_workers_1": lambda manifest: cold_run(manifest, 1),
        "cold_workers_2": lambda manifest: cold_run(manifest, 2),
    }
    for manifest in manifests.values():
        verify_floor(manifest)  # warm the page cache for every run below
    samples: dict[str, dict[str, list[float]]] = {
        label: {name: [] for name in runs} for label in manifests}
    for _ in range(repeat):
        for label, manifest in manifests.items():
            for name, run in runs.items():
                samples[label][name].append(timed(lambda: run(manifest)))
    return {label: {name: min(times) for name, times in by_run.items()}
            for label, by_run in samples.items()}


Request = tuple[list[str], str, str, str]  # (candidate ids, version, claim key, operation)


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
        requests.append((rng.sample(by_version[version], 2), version, key, op))
    return requests


def measure_warm(manifest_path: Path, requests: Sequence[Request], passes: int) -> dict[str, Any]:
    """Median and 90th percentile microseconds per gate() on a loaded, audited corpus."""
    corpus = load_documents(manifest_path)
    summary = audit(corpus)["summary"]  # the state after a cold run: every source parsed
    statuses: dict[str, int] = {}
    for candidates, version, key, op in requests:  # untimed pass
        status = gate(corpus, candidates, version, key, operation=op)["status"]
        statuses[status] = statuses.get(status, 0) + 1
    clock = time.perf_counter_ns
    samples = []
    gc.collect()
    for _ in range(passes):
        for candidates, version, key, op in requests:
            start = clock()
            gate(corpus, candidates, version, key, operation=op)
            samples.append(clock() - start)
    return {"median_us": statistics.median(samples) / 1000,
            "p90_us": statistics.quantiles(samples, n=10)[-1] / 1000,
            "calls": len(samples), "statuses": dict(sorted(statuses.items())),
            "audit_summary": summary}


def measure_reference(manifest_path: Path, requests: Sequence[Request]) -> float:
    """Minimum seconds per ``gate(manifest_path, ...)`` over ``requests``."""
    path = str(manifest_path)
    return min(timed(lambda: gate(path, candidates, version, key, operation=op))
               for candidates, version, key, op in requests)


_RSS_CHILD = """\
import resource, sys
sys.path.insert(0, sys.argv[1])
from conflict_gate import audit
from load_documents import load_documents
if len(sys.argv) > 2:
    report = audit(load_documents(sys.argv[2], workers=int(sys.argv[3])))
hwm = "-"
try:
    with open("/proc/self/status") as status:
        hwm = next((line.split()[1] for line in status if line.startswith("VmHWM:")), "-")
except OSError:
    pass
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, hwm)
"""


def peak_rss(manifest_path: Path | None = None,
             workers: int = DEFAULT_WORKERS) -> dict[str, int | None] | None:
    """Peak RSS in bytes of a fresh interpreter that imports the modules (and loads + audits).

    Returns ``{"ru_maxrss": bytes, "vm_hwm": bytes or None}`` (``VmHWM`` from
    ``/proc/self/status``, Linux only, as a cross-check), or ``None`` where
    ``resource`` is unavailable (Windows).

    Linux keeps ``ru_maxrss`` across ``execve``, and ``subprocess`` starts a
    child with ``vfork``, so a child exec'd straight from this (large) process
    would report *this* process's peak. On POSIX the interpreter is therefore
    started by a small ``/bin/sh``, which forks it from its own image.
    """
    try:
        import resource  # noqa: F401  (only checks availability)
    except ImportError:
        return None
    args = [sys.executable, "-c", _RSS_CHILD, str(REPO_ROOT)]
    if manifest_path is not None:
        args += [str(manifest_path), str(workers)]
    if os.path.exists("/bin/sh"):
        args = ["/bin/sh", "-c", '"$0" "$@"; exit $?', *args]  # not exec: sh forks the child
    maxrss, hwm = subprocess.run(args, check=True, capture_output=True, text=True).stdout.split()
    # ru_maxrss is in kilobytes on Linux and the BSDs, in bytes on macOS; VmHWM is in kB.
    return {"ru_maxrss": int(maxrss) * (1 if sys.platform == "darwin" else 1024),
            "vm_hwm": None if hwm == "-" else int(hwm) * 1024}


# --------------------------------------------------------------------------
# Environment, targets and report


def git_commit() -> str:
    try:
        result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT,
                                capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return result.stdout.strip() if result.returncode == 0 and result.stdout.strip() else "unknown"


def environment() -> dict[str, Any]:
    """Where the figures come from; the module digests tell uncommitted edits apart."""
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "cpus_available": len(affinity) if affinity is not None else os.cpu_count(),
        "git_commit": git_commit(),
        "module_sha256": {name: hashlib.sha256((REPO_ROOT / name).read_bytes()).hexdigest()[:12]
                          for name in MEASURED_MODULES},
        "default_workers": DEFAULT_WORKERS,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def growth_exponent(small_n: int, small_cost: float | None, large_n: int,
                    large_cost: float | None) -> float | None:
    """k in ``cost ~ n**k`` between two corpus sizes (1.0 = linear, 0.0 = flat)."""
    if small_cost is None or large_cost is None or small_cost <= 0 or large_cost <= 0 \
            or small_n == large_n:
        return None
    return math.log(large_cost / small_cost) / math.log(large_n / small_n)


def evaluate_targets(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's targets, each with the measured value, the limit and whether it is met."""
    large = figures["verification"]["large"]
    cold_default = large[f"cold_workers_{DEFAULT_WORKERS}"]
    warm = figures["warm"]
    rss = figures["peak_rss_bytes"][f"cold_workers_{DEFAULT_WORKERS}"]
    corpus_mb = figures["corpus_bytes"] / MB
    targets = [  # (target, value, limit, unit, strict)
        (f"cold (default workers={DEFAULT_WORKERS}) <= 1.5 x floor",
         cold_default / large["floor"], 1.5, "x floor", False),
        ("stretch: cold(workers=2) < 1.0 x floor", large["cold_workers_2"] / large["floor"],
         1.0, "x floor", True),
        ("warm at N docs <= 100 us", warm["large"]["median_us"], 100.0, "us", False),
        ("warm at N docs <= 1.5 x warm at 10 docs",
         warm["large"]["median_us"] / warm["small"]["median_us"], 1.5, "x", False),
    ]
    if rss is not None:
        targets.append((f"peak RSS of cold run <= 55 MB (corpus {corpus_mb:.0f} MB; the target "
                        "is set for 80 MB)", rss["ru_maxrss"] / MB, 55.0, "MB", False))
    return [{"target": name, "value": round(value, 4), "limit": limit, "unit": unit,
             "met": value < limit if strict else value <= limit}
            for name, value, limit, unit, strict in targets]


def _seconds(value: float) -> str:
    if value >= 1:
        return f"{value:.3f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.2f} ms"
    return f"{value * 1e6:.1f} us"


def _mb(peak: dict[str, int | None] | None, key: str = "ru_maxrss") -> str:
    value = None if peak is None else peak[key]
    return "n/a" if value is None else f"{value / MB:.1f} MB"


def _k(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def render_table(report: dict[str, Any]) -> str:
    env, params, corpus, fig = (report[key]
                                for key in ("environment", "parameters", "corpus", "figures"))
    small_n, large_n = params["growth_docs"], params["docs"]
    ver, rss, warm, ref, grow = (fig[k] for k in ("verification", "peak_rss_bytes", "warm",
                                                 "reference_s", "growth_exponent"))
    lines = [
        f"conflict-gate bench  commit {env['git_commit']}  Python {env['python']}  "
        f"{env['platform']}  {env['cpu_count']} CPUs ({env['cpus_available']} available)",
        f"corpus: {corpus['documents']:,} documents, {corpus['bytes'] / MB:.1f} MB "
        f"(mean {corpus['bytes'] // corpus['documents']:,} B); {corpus['conflicting']} conflicting "
        f"sources, {corpus['missing_keys']} missing keys, {corpus['syntax_page']} syntax pages, "
        f"{corpus['crlf']} CRLF, {corpus['bom']} BOM",
        f"audit: {corpus['audit_summary']}",
        *(["--quick: a smoke run; the figures are too small to judge the targets"]
          if params["quick"] else []),
        "",
        f"{'figure':<36}{f'{small_n:,} docs':>22}{f'{large_n:,} docs':>22}   k (cost ~ N^k)",
    ]

    def row(label: str, small: str, large: str, k: float | None = None) -> None:
        lines.append(f"{label:<36}{small:>22}{large:>22}   {_k(k)}")

    sizes = (("small", small_n), ("large", large_n))
    row("floor (read + sha256, 1 thread)", *(_seconds(ver[s]["floor"]) for s, _ in sizes),
        grow["floor"])
    for workers in (1, 2):
        name = f"cold_workers_{workers}"
        default = " (default)" if workers == DEFAULT_WORKERS else ""
        row(f"cold load+audit, workers={workers}{default}",
            *(f"{_seconds(ver[s][name])} {ver[s][name] / ver[s]['floor']:.2f}x" for s, _ in sizes),
            grow[name])
    row("  floor per document", *(_seconds(ver[s]["floor"] / n) for s, n in sizes))
    row(f"  cold per document (workers={DEFAULT_WORKERS})",
        *(_seconds(ver[s][f"cold_workers_{DEFAULT_WORKERS}"] / n) for s, n in sizes))
    row("  workers=2 / workers=1",
        *(f"{ver[s]['cold_workers_2'] / ver[s]['cold_workers_1']:.2f}x" for s, _ in sizes))
    row(f"peak RSS cold, workers={DEFAULT_WORKERS}", _mb(rss["small_cold"]),
        _mb(rss[f"cold_workers_{DEFAULT_WORKERS}"]), grow["rss_above_baseline"])
    for workers in (1, 2):
        if workers != DEFAULT_WORKERS:
            row(f"peak RSS cold, workers={workers}", "", _mb(rss[f"cold_workers_{workers}"]))
    row("  VmHWM cross-check (Linux)", _mb(rss["small_cold"], "vm_hwm"),
        _mb(rss[f"cold_workers_{DEFAULT_WORKERS}"], "vm_hwm"))
    row("baseline RSS (import only)", "", _mb(rss["baseline"]))
    lines += ["", f"{'figure':<36}{'10 docs':>22}{f'{large_n:,} docs':>22}   k"]
    row("warm gate(), median", *(f"{warm[s]['median_us']:.1f} us" for s in ("small", "large")),
        grow["warm"])
    row("warm gate(), 90th percentile",
        *(f"{warm[s]['p90_us']:.1f} us" for s in ("small", "large")))
    row("reference gate(manifest_path)", *(_seconds(ref[s]) for s in ("small", "large")),
        grow["reference"])
    row("  reference / warm", *(f"{ref[s] * 1e6 / warm[s]['median_us']:,.0f}x"
                                for s in ("small", "large")))
    lines += [f"warm decisions at N docs: {warm['large']['statuses']}", "", "targets:"]
    for target in report["targets"]:
        mark = "met    " if target["met"] else "NOT MET"
        lines.append(f"  [{mark}] {target['target']}: {target['value']:.2f} {target['unit']} "
                     f"(limit {target['limit']:g})")
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000, help="documents in the corpus (N)")
    parser.add_argument("--size", type=int, default=8192, help="approximate bytes per document")
    parser.add_argument("--seed", type=int, default=1, help="seed of the corpus and the requests")
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs of floor and cold (minimum kept)")
    parser.add_argument("--passes", type=int, default=5, help="timed passes over the warm requests")
    parser.add_argument("--requests", type=int, default=2000, help="distinct warm requests")
    parser.add_argument("--reference-repeat", type=int, default=3,
                        help="requests timed for the reference at N docs (minimum kept)")
    parser.add_argument("--json", type=Path,
                        help="where to save the JSON (default: bench/results/)")
    parser.add_argument("--quick", action="store_true",
                        help="tiny smoke run: 200 documents of 2 KB, 1 repeat, few requests")
    parser.add_argument("--keep", action="store_true",
                        help="keep the generated corpus and print its folder")
    args = parser.parse_args(argv)
    if args.quick:
        args.docs, args.size, args.repeat, args.passes, args.requests, args.reference_repeat = \
            200, 2048, 1, 2, 200, 2
    if args.docs < 20:
        parser.error("--docs must be at least 20 (the growth corpus is N/10 documents)")
    return args


def run_benchmark(args: argparse.Namespace, root: Path) -> dict[str, Any]:
    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    small_n = args.docs // 10
    start = time.perf_counter()
    entries, corpus = generate_corpus(root, args.docs, args.size, args.seed)
    progress(f"generated {args.docs:,} documents ({corpus['bytes'] / MB:.1f} MB) in "
             f"{time.perf_counter() - start:.1f} s under {root}")
    manifests = {"large": write_manifest(root / "manifest.json", entries),
                 "small": write_manifest(root / "manifest-growth.json", entries[:small_n])}
    ten = write_manifest(root / "manifest-10.json", entries[:10])

    progress("measuring floor and cold ...")
    verification = measure_verification(manifests, args.repeat)
    progress("measuring warm and reference ...")
    requests = {"small": make_requests(entries[:10], args.requests, args.seed),
                "large": make_requests(entries, args.requests, args.seed)}
    warm = {"small": measure_warm(ten, requests["small"], args.passes),
            "large": measure_warm(manifests["large"], requests["large"], args.passes)}
    corpus["audit_summary"] = warm["large"].pop("audit_summary")
    del warm["small"]["audit_summary"]
    reference = {"small": measure_reference(ten, requests["small"][:20]),
                 "large": measure_reference(manifests["large"],
                                            requests["large"][:args.reference_repeat])}
    progress("measuring peak RSS in fresh interpreters ...")
    rss = {"baseline": peak_rss(),
           "cold_workers_1": peak_rss(manifests["large"], 1),
           "cold_workers_2": peak_rss(manifests["large"], 2),
           "small_cold": peak_rss(manifests["small"], DEFAULT_WORKERS)}

    growth = {name: growth_exponent(small_n, verification["small"][name], args.docs, seconds)
              for name, seconds in verification["large"].items()}
    growth["warm"] = growth_exponent(10, warm["small"]["median_us"], args.docs,
                                     warm["large"]["median_us"])
    growth["reference"] = growth_exponent(10, reference["small"], args.docs, reference["large"])
    growth["rss_above_baseline"] = None
    if rss["baseline"] is not None:
        base = rss["baseline"]["ru_maxrss"]
        growth["rss_above_baseline"] = growth_exponent(
            small_n, rss["small_cold"]["ru_maxrss"] - base,
            args.docs, rss[f"cold_workers_{DEFAULT_WORKERS}"]["ru_maxrss"] - base)
    figures = {"corpus_bytes": corpus["bytes"], "verification": verification, "warm": warm,
               "reference_s": reference, "peak_rss_bytes": rss, "growth_exponent": growth}
    report = {
        "environment": environment(),
        "parameters": {"docs": args.docs, "size": args.size, "seed": args.seed,
                       "repeat": args.repeat, "passes": args.passes, "requests": args.requests,
                       "reference_repeat": args.reference_repeat, "growth_docs": small_n,
                       "quick": args.quick},
        "corpus": corpus,
        "figures": figures,
    }
    report["targets"] = evaluate_targets(figures)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.keep:
        root = Path(tempfile.mkdtemp(prefix="conflict-gate-bench-"))
        report = run_benchmark(args, root)
    else:
        with tempfile.TemporaryDirectory(prefix="conflict-gate-bench-") as folder:
            report = run_benchmark(args, Path(folder))
    print(render_table(report))
    target = args.json
    if target is None:
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = RESULTS_DIR / f"bench-{report['environment']['git_commit']}-{stamp}.json"
    target.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nsaved {target}" + (f"; corpus kept in {root}" if args.keep else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

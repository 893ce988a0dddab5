"""Shared helpers for the test suite (standard library only).

* :data:`REPO`, :data:`FIXTURE_MANIFEST`: the repository root and the lab's manifest.
* :data:`QUILL_GRAMMAR`: the lab's grammar as manifest JSON.
* :func:`write_corpus`: write ``{relative path: raw bytes}`` and a pinned manifest into a folder.
* :class:`CorpusTestCase`: a TestCase whose :meth:`~CorpusTestCase.corpus` builds and loads a
  throw-away corpus (removed after the test).
* :class:`CorpusFolderCase`: a TestCase with a temporary ``corpus/`` folder (``self.root``, with
  ``docs/``), its ``self.manifest`` path and :meth:`~CorpusFolderCase.put` to write a file there.
* :func:`directive`: the exact directive line for a claim, as bytes.
* :func:`assert_span_invariants`: the span rule every claim must satisfy.
* :func:`run_cli`: ``main(argv)`` in process (with an environment passed in), returning
  ``(exit code, stdout, stderr)``.
* :func:`without_the_mcp_sdk`: a block in which the MCP SDK cannot be imported.
* :func:`modules_after_import`: the modules a fresh interpreter holds after ``import conflict_gate``,
  and after the command line's module too (one subprocess per test process).
* :func:`schema_validator`: a result schema's jsonschema validator, the schema checked against its
  dialect first; built once per test process (needs jsonschema).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any
from unittest import mock

from _conflict_gate.corpus.load import Corpus, load_documents, source_digest

REPO = Path(__file__).resolve().parent.parent
FIXTURE_MANIFEST = REPO / "manifest.json"
_BOM = b"\xef\xbb\xbf"

QUILL_GRAMMAR: dict[str, Any] = {
    "namespace": "quill",
    "product": "Quill",
    "operations": {
        "create_copy": {
            "existing_path": {"type": "enum", "values": ["refuse", "overwrite"]},
            "close_required": {"type": "enum", "values": ["yes", "no"]},
        }
    },
}


def write_corpus(
    root: str | Path,
    files: Mapping[str, bytes],
    *,
    versions: Mapping[str, str] | None = None,
    statuses: Mapping[str, str] | None = None,
    urls: Mapping[str, str | None] | None = None,
    grammar: Mapping[str, Any] = QUILL_GRAMMAR,
    scheme: str = "major.minor",
    manifest_name: str = "manifest.json",
    extra: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``files`` under ``root`` and a pinned ``root/manifest_name``; return its path.

    ``files`` maps a manifest-relative POSIX path to raw bytes, in manifest
    order; a source's id is the file name without its extension. ``versions``
    (default ``"1.0"``), ``statuses`` (omitted unless given) and ``urls``
    (default ``https://docs.quill.example/<version>/<id>``; ``None`` omits
    it) are keyed by source id. Pins are the SHA-256 of the bytes written.
    ``extra`` adds top-level manifest keys (``{"renderer": "github"}``).
    """
    root = Path(root)
    documents = []
    for rel, raw in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(raw)
        sid = PurePosixPath(rel).stem
        version = (versions or {}).get(sid, "1.0")
        entry: dict[str, str] = {"source_id": sid, "version": version, "path": rel}
        url = (urls or {}).get(sid, f"https://docs.quill.example/{version}/{sid}")
        if url is not None:
            entry["url"] = url
        if statuses and sid in statuses:
            entry["status"] = statuses[sid]
        entry["sha256"] = source_digest(raw)
        documents.append(entry)
    manifest = root / manifest_name
    manifest.write_text(
        json.dumps({"grammar": grammar, "version_scheme": scheme, **(extra or {}), "documents": documents}, indent=2)
        + "\n",
        encoding="utf-8",
    )
    return manifest


#: A source with one directive, the default content of :meth:`CorpusFolderCase.put`.
PAGE = b"# Page\n\n@quill create_copy existing_path=refuse\n"


class CorpusFolderCase(unittest.TestCase):
    """A temporary folder ``self.base`` holding ``corpus/`` (``self.root``, the manifest's folder,
    with ``docs/``); ``self.manifest`` is ``corpus/manifest.json`` (not written)."""

    prefix = "conflict-gate-test-"

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix=self.prefix)
        self.addCleanup(tmp.cleanup)
        self.base = Path(os.path.realpath(tmp.name))
        self.root = self.base / "corpus"
        (self.root / "docs").mkdir(parents=True)
        self.manifest = self.root / "manifest.json"

    def put(self, rel: str, raw: bytes = PAGE) -> Path:
        """Write ``raw`` at ``rel`` under the corpus folder (parents made); return its path."""
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        return path


def directive(value: str, key: str = "existing_path", operation: str = "create_copy") -> bytes:
    """The exact directive line (no line ending) ``@quill <operation> <key>=<value>``."""
    return f"@quill {operation} {key}={value}".encode("ascii")


class CorpusTestCase(unittest.TestCase):
    """A TestCase that can build throw-away corpora."""

    def folder(self) -> Path:
        """A temporary folder removed after the test."""
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-test-")
        self.addCleanup(tmp.cleanup)
        return Path(tmp.name)

    def corpus(self, files: Mapping[str, bytes], **options: Any) -> tuple[Corpus, Path]:
        """Write ``files`` (see :func:`write_corpus`) to a temporary folder; return (corpus, manifest)."""
        manifest = write_corpus(self.folder(), files, **options)
        return load_documents(manifest), manifest


_LINE_END = re.compile(r"\r\n|\r|\n")


def assert_span_invariants(raw: bytes, claim: Any) -> None:
    """Assert the span rule for a claim dict (or a ``Claim``) against the source's raw bytes.

    ``text[start:end] == quote == raw[byte_start:byte_end].decode("utf-8")``
    where ``text`` is ``raw`` without a leading BOM, decoded; the quote holds
    no line ending and does not end with a space or tab; it starts a CommonMark
    line (``\\n``, ``\\r\\n`` or a lone ``\\r`` ends one) and only spaces and
    tabs follow it on that line (issue 15: a reader sees nothing of them); and
    its line number is 1 + the line endings before it.
    """
    if isinstance(claim, Mapping):
        quote, start, end = claim["quote"], claim["start"], claim["end"]
        byte_start, byte_end, line = claim["byte_start"], claim["byte_end"], claim["start_line"]
        if claim["end_line"] != line:
            raise AssertionError(f"a directive spans one line: {claim!r}")
    else:
        quote, start, end = claim.quote, claim.start, claim.end
        byte_start, byte_end, line = claim.byte_start, claim.byte_end, claim.line
    text = (raw[len(_BOM) :] if raw.startswith(_BOM) else raw).decode("utf-8")
    checks = {
        "text[start:end] == quote": text[start:end] == quote,
        "raw[byte_start:byte_end].decode() == quote": raw[byte_start:byte_end].decode("utf-8") == quote,
        "no line ending in quote": not _LINE_END.search(quote),
        "only spaces and tabs after end on its line": not _LINE_END.split(text[end:], 1)[0].strip(" \t"),
        "no space or tab ends the quote": not quote.endswith((" ", "\t")),
        "line starts at start": start == 0 or text[start - 1] in "\r\n",
        "line == 1 + line endings before start": line == len(_LINE_END.findall(text, 0, start)) + 1,
    }
    failed = [name for name, ok in checks.items() if not ok]
    if failed:
        raise AssertionError(f"span invariants {failed} fail for {claim!r}")


def fixture_bytes(source_id: str) -> bytes:
    """Raw bytes of a lab fixture source, found through the lab's manifest."""
    documents = json.loads(FIXTURE_MANIFEST.read_text(encoding="utf-8"))["documents"]
    return (REPO / str(next(d["path"] for d in documents if d["source_id"] == source_id))).read_bytes()


@functools.cache
def modules_after_import() -> dict[str, list[str]]:
    """``sys.modules``'s names in a fresh interpreter (run from the checkout) after ``import conflict_gate``
    (``"conflict_gate"``), and after ``import _conflict_gate.cli.main`` as well (``"with_cli"``). One
    subprocess answers every test that asks what an import pulls in; raises ``AssertionError`` when it
    fails."""
    script = (
        "import json, sys\n"
        "import conflict_gate\n"
        "first = sorted(sys.modules)\n"
        "import _conflict_gate.cli.main\n"
        "print(json.dumps({'conflict_gate': first, 'with_cli': sorted(sys.modules)}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], check=False, cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    loaded: dict[str, list[str]] = json.loads(done.stdout)
    return loaded


@functools.cache
def schema_validator(name: str) -> Any:
    """The Draft 2020-12 validator of ``result_schema(name)``, after ``check_schema`` found the schema
    valid under its dialect (raises ``jsonschema.SchemaError`` otherwise; ``ImportError`` without
    jsonschema). Cached: checking a schema costs a tenth of a second, and two modules use each one."""
    import jsonschema

    from _conflict_gate.results.schema import result_schema

    schema = result_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def run_cli(
    argv: Sequence[str],
    *,
    stdin: bytes = b"",
    lab: Callable[..., int] | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[int, str, str]:
    """Run ``conflict-gate`` (or, with ``lab``, ``run.py``) in process: ``(exit code, stdout, stderr)``.

    ``environ`` is the environment the command sees (default: empty, so a test run inside GitHub
    Actions never writes to the real ``$GITHUB_STEP_SUMMARY``)."""
    from _conflict_gate.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(
                list(argv),
                prog="python run.py" if lab is not None else "conflict-gate",
                lab=lab,
                environ={} if environ is None else environ,
            )
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def without_the_mcp_sdk() -> Iterator[None]:
    """Inside the block, ``import mcp`` fails as it does where the optional extra is not installed
    (the server module is imported afresh, so an earlier import cannot hide it); restored after."""
    blocked = {name: None for name in list(sys.modules) if name.split(".")[0] == "mcp"}
    with mock.patch.dict(sys.modules, {**blocked, "mcp": None}):
        sys.modules.pop("_conflict_gate.service.mcp", None)
        yield


def simple_yaml(text: str) -> Any:
    """The value of ``text`` in the small YAML subset this repository's YAML uses (block mappings and
    sequences by indentation, ``[a, b]`` flow sequences, plain and quoted scalars, ``#`` comments after
    a space): enough to read ``.pre-commit-hooks.yaml`` and the README's snippets without PyYAML.
    ``tests/precommit_check.py`` compares it with PyYAML on those files."""
    lines: list[list[Any]] = []
    for raw in text.splitlines():
        content = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if content.strip():
            lines.append([len(content) - len(content.lstrip(" ")), content.strip()])
    value, end = _yaml_block(lines, 0, lines[0][0]) if lines else (None, 0)
    if end != len(lines):
        raise ValueError(f"unread YAML from line {lines[end][1]!r}")
    return value


def _yaml_block(lines: list[list[Any]], i: int, indent: int) -> tuple[Any, int]:
    if lines[i][1] == "-" or lines[i][1].startswith("- "):
        items = []
        while i < len(lines) and lines[i][0] == indent and (lines[i][1] == "-" or lines[i][1].startswith("- ")):
            rest = lines[i][1][1:].lstrip()
            if not rest:
                value, i = _yaml_block(lines, i + 1, lines[i + 1][0])
            else:
                lines[i] = [indent + len(lines[i][1]) - len(rest), rest]
                value, i = _yaml_block(lines, i, lines[i][0])
            items.append(value)
        return items, i
    match = re.match(r"([^:]+):(?:\s+(.*))?$", lines[i][1])
    if match is None:
        return _yaml_scalar(lines[i][1]), i + 1
    mapping = {}
    while i < len(lines) and lines[i][0] == indent:
        match = re.match(r"([^:]+):(?:\s+(.*))?$", lines[i][1])
        if match is None:
            raise ValueError(f"not a mapping entry: {lines[i][1]!r}")
        key, rest = match.group(1).strip(), match.group(2)
        i += 1
        if rest:
            mapping[key] = _yaml_scalar(rest)
        elif i < len(lines) and (lines[i][0] > indent or (lines[i][0] == indent and lines[i][1].startswith("- "))):
            mapping[key], i = _yaml_block(lines, i, lines[i][0])
        else:
            mapping[key] = None
    return mapping, i


def _yaml_scalar(text: str) -> Any:
    if text.startswith("[") and text.endswith("]"):
        return [_yaml_scalar(part.strip()) for part in text[1:-1].split(",") if part.strip()]
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"[0-9]+", text):
        return int(text)
    return text


def built_html(body: str, *, region: str = '<div class="col-md-9" role="main">') -> str:
    """A built page as the ``mkdocs`` theme writes one: navigation (which the site reading leaves
    out), then ``body`` inside the main content region."""
    return (
        f"<!DOCTYPE html>\n<html><head><title>T</title></head><body>\n"
        f'<nav><a href="#">@quill create_copy existing_path=nav</a></nav>\n{region}\n{body}\n</div>\n'
        f"<footer><p>Built with MkDocs.</p></footer></body></html>\n"
    )


def write_site(
    root: str | Path,
    pages: Mapping[str, bytes],
    built: Mapping[str, str],
    *,
    config: str = "site_name: T\n",
    **options: Any,
) -> Path:
    """A small MkDocs site under ``root``: ``mkdocs.yml`` (``config``), the source ``pages`` (paths
    relative to ``docs/``) listed in a pinned manifest beside it (:func:`write_corpus`, ``options``
    passed on), and the hand-written ``built`` pages (paths relative to ``site/``, HTML text). Returns
    the manifest's path; the site folder is ``root/"site"``."""
    root = Path(root)
    (root / "site").mkdir(parents=True, exist_ok=True)
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    for rel, text in built.items():
        target = root / "site" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return write_corpus(root, {f"docs/{rel}": raw for rel, raw in pages.items()}, **options)


def site_judged_corpus(root: str | Path, reason: str, *, status: str | None = None) -> Corpus:
    """A corpus of two pages ``a`` (clean) and ``b``, judged by a hand-written MkDocs build
    (``strict=False``), in which ``b`` (with ``status``) is refused for ``reason``: ``site_disagrees``
    (its built page does not show its directive) or ``built_page_missing`` (it has none)."""
    from _conflict_gate.site.build import judge_site, locate_site

    line = "@quill create_copy existing_path=refuse"
    built = {"a/index.html": built_html(f"<p>{line}</p>")}
    if reason == "site_disagrees":
        built["b/index.html"] = built_html("<p>Nothing here.</p>")
    elif reason != "built_page_missing":
        raise ValueError(reason)
    manifest = write_site(
        root,
        {"a.md": f"{line}\n".encode(), "b.md": f"{line}\n".encode()},
        built,
        statuses={"b": status} if status else None,
    )
    corpus = load_documents(manifest, cache=False)
    return judge_site(corpus, locate_site(str(Path(root) / "site"), corpus.manifest.root))

"""The reference pages' tables, each rendered from the data that defines it (no I/O at import).

Every vocabulary in the reference pages (reasons per error class, decisions,
verdicts, findings, exit codes, version schemes, page statuses, size caps,
result fields, the public API, the module map) is rendered here from
:mod:`~_conflict_gate.base.registry` and the modules that own the data; nothing is
typed twice. Where a table needs words the data does not hold (what a
manifest key means), the words are kept here keyed by the data's own names,
and rendering fails (:class:`DriftError`) when the two sets differ, so a new
field cannot go undocumented. A few names are private to their modules
(``_TOP_LEVEL``, ``_REQUIRED``, ``_WORD_LIMIT``); they are read, not copied,
for the same reason. :mod:`~reference._tools` puts the tables in the
pages.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from _conflict_gate.base.registry import (
    DEFAULT_RENDERER,
    MAX_ANSWER_BYTES,
    MAX_FOLDER_DEPTH,
    MAX_MANIFEST_BYTES,
    MAX_SOURCE_BYTES,
    NEAR_MISS_PLACES,
    RENDERERS,
    UNRELATED_OPTIONS,
)
from _conflict_gate.cli.markdown import code_span as code
from _conflict_gate.cli.markdown import grammar_table, markdown_table
from _conflict_gate.manifest.grammar import NAME, VALUE_TOKEN
from _conflict_gate.manifest.read import (
    _OPTIONAL_TOP_LEVEL,
    _REQUIRED,
    _TOP_LEVEL,
    ENTRY_FIELDS,
    SOURCE_ID,
    VERSION_SCHEMES,
    read_manifest,
)
from _conflict_gate.manifest.sources import MAX_PATTERN_CHARS, MAX_PATTERNS
from _conflict_gate.reading.blocks import MAX_DEPTH, MAX_LEAF_LINES
from _conflict_gate.reading.html_tree import MAX_OPEN
from _conflict_gate.reading.inline_spans import _WORD_LIMIT, MAX_NESTING
from _conflict_gate.reading.reader import MAX_CANDIDATES
from _conflict_gate.reading.reading_shapes import MAX_BLOCK_BYTES, MAX_HTML_LINES, MAX_NEAR_MISSES, QUOTE_LIMIT
from _conflict_gate.results.audit import (
    AUDIT_CLAIM_FIELDS,
    AUDIT_ENTRY_FIELDS,
    AUDIT_FIELDS,
    AUDIT_OPERATION_FIELDS,
    AUDIT_REFUSAL_FIELDS,
    AUDIT_SILENCE_FIELDS,
    AUDIT_SUMMARY_FIELDS,
    LEFT_OUT_FIELDS,
    NEAR_MISS_FIELDS,
    UNAPPROVED_CONFLICT_FIELDS,
)
from _conflict_gate.results.context import (
    AGREED_FIELDS,
    CONFLICT_FIELDS,
    CONTEXT_FIELDS,
    CONTEXT_PAGE_FIELDS,
    CONTEXT_REASON_FIELDS,
    CONTEXT_SET_ASIDE_FIELDS,
    CONTEXT_TAIL_FIELDS,
    PARTIAL_FIELDS,
    ContextDecision,
)
from _conflict_gate.results.context import SHAPES as CONTEXT_SHAPES
from _conflict_gate.results.schema import SCHEMAS
from _conflict_gate.results.service import (
    TOOL_ERROR_FIELDS,
    VERSION_LISTING_FIELDS,
    VERSION_SOURCE_FIELDS,
    VERSIONS_FIELDS,
)
from _conflict_gate.results.shapes import (
    CLAIM_FIELDS,
    REASON_FIELD_MEANINGS,
    REASON_FIELDS,
    REFUSED_FIELDS,
    RESULT_FIELDS,
    SET_ASIDE_FIELDS,
    TAIL_FIELDS,
)
from _conflict_gate.service.gate import TOOLS
from _conflict_gate.site.html import CONTEXT_PLACES, ELSEWHERE_PLACES, REGIONS

#: The pages that may hold generated regions, relative to the root (globs).


class DriftError(ValueError):
    """The words kept here no longer match the data they describe (a field or limit added or removed)."""


def _same_keys(what: str, words: Mapping[str, str], names: Sequence[str]) -> None:
    """Fail when the described names and the data's names differ."""
    if set(words) != set(names):
        missing = sorted(set(names) - set(words))
        extra = sorted(set(words) - set(names))
        raise DriftError(
            f"{what}: the data has {missing or 'nothing'} undescribed; "
            f"described but not in the data: {extra or 'nothing'}"
        )


def _size(limit: int) -> str:
    for unit, factor in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit % factor == 0 and limit >= factor:
            return f"{limit} bytes ({limit // factor} {unit})"
    return f"{limit} bytes"


# --------------------------------------------------------------------------
# The manifest


_TOP_LEVEL_WORDS: Final = {
    "grammar": "the directive grammar of the corpus: `namespace`, `product`, `operations` (see below)",
    "version_scheme": "how versions are written: one of the version schemes below",
    "renderer": "how the docs site renders the pages, so which reading the gate judges them by: one of the "
    f"renderers below (omitted: `{DEFAULT_RENDERER}`)",
    "sources": 'where the pages come from: `{"include": [patterns], "exclude": [patterns]}`, paths '
    "under the manifest's folder (see [Sources](#sources)); `init` writes it, `init --update`, "
    "`pin --check` and `audit` read it (omitted: none of that)",
    "readings": "the recorded readings file, relative to the manifest's folder: per page, what the site's build "
    "showed, bound to the page's SHA-256; `pin --site` writes it and names it here "
    "([site.md](site.md#recorded-readings)); a page is then read from it, not read as Markdown "
    "(omitted: none)",
    "readings_sha256": "the pin of the `readings` file: lowercase hex SHA-256 of its raw bytes, written by "
    "`pin --site`; given with `readings`, never alone",
    "documents": "the list of sources, one object each (see the entry fields below)",
}

_ENTRY_WORDS: Final = {
    "source_id": "the id candidates and citations use",
    "version": "the version this page documents, written in the manifest's version scheme",
    "path": "the file, relative to the folder that holds the manifest (its real folder, if the manifest is a symlink)",
    "url": "where readers find the page; copied into claims, never used to decide (omitted: none)",
    "status": "a page status (omitted: `approved`)",
    "sha256": 'the pin: lowercase hex SHA-256 of the file\'s raw bytes; `""` means not pinned yet: '
    "`pin` fills it in, and until then the page alone fails (`source_unpinned`) wherever it is read",
    "built": "`--site` only: the page's built page, relative to the built site (omitted: found by the "
    "generator's conventions; [site.md](site.md))",
}


def manifest_keys() -> list[str]:
    """The manifest's top-level keys."""
    _same_keys("manifest top-level keys", _TOP_LEVEL_WORDS, _TOP_LEVEL)
    return markdown_table(
        ("key", "required", "meaning"),
        [(code(key), "no" if key in _OPTIONAL_TOP_LEVEL else "yes", _TOP_LEVEL_WORDS[key]) for key in _TOP_LEVEL],
    )


def entry_fields() -> list[str]:
    """The fields of a manifest entry, in the order ``init`` writes them."""
    _same_keys("manifest entry fields", _ENTRY_WORDS, ENTRY_FIELDS)
    return markdown_table(
        ("field", "required", "meaning"),
        [(code(key), "yes" if key in _REQUIRED else "no", _ENTRY_WORDS[key]) for key in ENTRY_FIELDS],
    )


def name_patterns() -> list[str]:
    """The patterns every name must match whole (Python regular expressions)."""
    rows = [
        ("source id", code(SOURCE_ID.pattern)),
        ("namespace, operation, key", code(NAME.pattern)),
        ("enumerated value", code(VALUE_TOKEN.pattern)),
    ]
    return markdown_table(("name", "pattern (matched whole)"), rows)


def version_schemes() -> list[str]:
    """The version schemes a manifest may declare."""
    return markdown_table(
        ("scheme", "versions are written as", "examples", "pattern (matched whole)"),
        [
            (code(name), scheme.description, ", ".join(code(e) for e in scheme.examples), code(scheme.pattern.pattern))
            for name, scheme in VERSION_SCHEMES.items()
        ],
    )


_SIZE_CAPS: Final = {
    "MAX_SOURCE_BYTES": (MAX_SOURCE_BYTES, "a source file", "`source_too_large`, refused unread"),
    "MAX_MANIFEST_BYTES": (MAX_MANIFEST_BYTES, "the manifest file", "`manifest_unreadable`"),
    "MAX_ANSWER_BYTES": (
        MAX_ANSWER_BYTES,
        "an answer given to the answer check (UTF-8)",
        "finding `too_large`, verdict `malformed_answer`",
    ),
    "MAX_FOLDER_DEPTH": (
        MAX_FOLDER_DEPTH,
        "folders below the manifest's folder that the walk of `sources` enters",
        "`source_unreadable` (pages could hide there)",
    ),
    "MAX_PATTERNS": (MAX_PATTERNS, "patterns in `sources`' `include`, and in its `exclude`", "`invalid_manifest`"),
    "MAX_PATTERN_CHARS": (MAX_PATTERN_CHARS, "characters of one pattern", "`invalid_manifest`"),
}
#: The unit of a cap that does not count bytes.
_CAP_UNITS: Final = {"MAX_FOLDER_DEPTH": "folders", "MAX_PATTERNS": "patterns", "MAX_PATTERN_CHARS": "characters"}


def size_caps() -> list[str]:
    """The size caps of the registry."""
    return markdown_table(
        ("cap", "limit", "applies to", "beyond it"),
        [
            (code(name), f"{limit} {_CAP_UNITS[name]}" if name in _CAP_UNITS else _size(limit), what, beyond)
            for name, (limit, what, beyond) in _SIZE_CAPS.items()
        ],
    )


_READER_LIMITS: Final = {
    "MAX_CANDIDATES": (
        MAX_CANDIDATES,
        "at signs in one source that may start directive-shaped text",
        "the source is refused unread: `too_complex`",
    ),
    "MAX_LEAF_LINES": (
        MAX_LEAF_LINES,
        "lines of one block (other than code) that holds such an at sign",
        "the source is refused: `too_complex`",
    ),
    "MAX_BLOCK_BYTES": (
        MAX_BLOCK_BYTES,
        "bytes of one such block whose inline markup is read (not code)",
        "the source is refused: `too_complex`",
    ),
    "MAX_NESTING": (
        MAX_NESTING,
        "unmatched brackets or parentheses nested in one block",
        "the source is refused: `too_complex`",
    ),
    "_WORD_LIMIT": (
        _WORD_LIMIT,
        "characters after an at sign before the first whitespace",
        "the source is refused: `too_complex`",
    ),
    "MAX_DEPTH": (
        MAX_DEPTH,
        "block quotes and list items nested in each other",
        "deeper containers are not opened; the block is in doubt (`ambiguous_markup` "
        "if it holds directive-shaped text)",
    ),
    "MAX_HTML_LINES": (
        MAX_HTML_LINES,
        "lines holding raw HTML markup before a source's last candidate, followed for the elements they leave open",
        "blocks after them are in doubt (`ambiguous_markup` if they hold directive-shaped text)",
    ),
    "MAX_OPEN": (MAX_OPEN, "elements raw HTML leaves open at once", "the blocks after are in doubt"),
    "MAX_NEAR_MISSES": (MAX_NEAR_MISSES, "near-misses kept per source", "later ones are not reported"),
    "QUOTE_LIMIT": (QUOTE_LIMIT, "code points of a refusal's or near-miss's quote", "the quote is cut"),
}


def renderers() -> list[str]:
    """The renderers a manifest may name."""
    return markdown_table(
        ("renderer", "reads a page as"), [(code(name), meaning) for name, meaning in RENDERERS.items()]
    )


def near_miss_places() -> list[str]:
    """Where a near-miss sits (the audit's ``where``)."""
    return markdown_table(("where", "meaning"), [(code(name), meaning) for name, meaning in NEAR_MISS_PLACES.items()])


def site_places() -> list[str]:
    """Where a built page shows directive-shaped text (``--site``): what refuses the page, what counts for nothing."""
    rows = [
        (code(name), meaning, "refuses the page (`misplaced_directive`)") for name, meaning in ELSEWHERE_PLACES.items()
    ]
    rows += [(code(name), meaning, "counts for nothing") for name, meaning in CONTEXT_PLACES.items()]
    return markdown_table(("place", "meaning", "effect"), rows)


def site_regions() -> list[str]:
    """The main content region's conventions (``--site``), in the order they are tried."""
    return markdown_table(("order", "convention"), [(str(n), name) for n, (name, _) in enumerate(REGIONS, 1)])


def reader_limits() -> list[str]:
    """The limits of the reader: past them it refuses rather than guess."""
    return markdown_table(
        ("limit", "value", "counts", "beyond it"),
        [(code(name), value, what, beyond) for name, (value, what, beyond) in _READER_LIMITS.items()],
    )


# --------------------------------------------------------------------------
# The result


def result_fields() -> list[str]:
    """Every field of a gate result, in order, and when it is present."""
    rows = [(code(field), "always", meaning) for field, meaning in RESULT_FIELDS.items()]
    for field, meaning in REASON_FIELD_MEANINGS.items():
        reasons = [reason for reason, fields in REASON_FIELDS.items() if field in fields]
        rows.append((code(field), "reason " + " or ".join(code(r) for r in reasons), meaning))
    rows += [(code(field), "status `refused`", meaning) for field, meaning in REFUSED_FIELDS.items()]
    rows += [(code(field), "always", meaning) for field, meaning in TAIL_FIELDS.items()]
    rows += [
        (code(field), 'with `unrelated="set_aside"` (`--set-aside-unrelated`), whatever the reason', meaning)
        for field, meaning in SET_ASIDE_FIELDS.items()
    ]
    return markdown_table(("field", "present", "meaning"), rows)


def result_outline() -> list[str]:
    """A gate result's fields in order, by part and when present: the outline of :func:`result_fields`."""
    rows = [("the request, who is eligible, the status and reason", ", ".join(map(code, RESULT_FIELDS)), "always")]
    for field in REASON_FIELD_MEANINGS:
        reasons = [reason for reason, fields in REASON_FIELDS.items() if field in fields]
        rows.append(("the reason's own", code(field), "reason " + " or ".join(code(r) for r in reasons)))
    rows.append(("the refusal", ", ".join(map(code, REFUSED_FIELDS)), "status `refused`"))
    rows.append(("the claims and the answer request", ", ".join(map(code, TAIL_FIELDS)), "always"))
    rows.append(
        (
            "the pages set aside",
            ", ".join(map(code, SET_ASIDE_FIELDS)),
            'with `unrelated="set_aside"`, whatever the reason',
        )
    )
    return markdown_table(("part", "fields", "present"), rows)


def claim_outline() -> list[str]:
    """A claim's fields in order, as one line: the outline of :func:`claim_fields`."""
    return ["A claim's fields, in order: " + ", ".join(map(code, CLAIM_FIELDS)) + "."]


def unrelated_options() -> list[str]:
    """The values of ``gate(..., unrelated=...)``: what becomes of eligible pages about other operations."""
    return markdown_table(
        ("unrelated", "command line", "what it does"),
        [
            (code(name), code("--set-aside-unrelated") if name == "set_aside" else "(default)", meaning)
            for name, meaning in UNRELATED_OPTIONS.items()
        ],
    )


def context_fields() -> list[str]:
    """Every field of a context decision (``gate_context``), object by object, in order, and when it is present."""
    meanings = CONTEXT_SHAPES[ContextDecision]
    rows = [("the decision", code(field), "always", meaning) for field, meaning in CONTEXT_FIELDS.items()]
    for field in dict.fromkeys(f for fields in CONTEXT_REASON_FIELDS.values() for f in fields):
        reasons = [reason for reason, fields in CONTEXT_REASON_FIELDS.items() if field in fields]
        rows.append(("the decision", code(field), "reason " + " or ".join(code(r) for r in reasons), meanings[field]))
    rows += [("the decision", code(field), "status `refused`", meaning) for field, meaning in REFUSED_FIELDS.items()]
    rows += [("the decision", code(field), "always", meaning) for field, meaning in CONTEXT_TAIL_FIELDS.items()]
    rows += [
        ("the decision", code(field), 'made with `unrelated="set_aside"` (the last field)', meaning)
        for field, meaning in CONTEXT_SET_ASIDE_FIELDS.items()
    ]
    for where, table in (
        ("`agreed[]`", AGREED_FIELDS),
        ("`partial[]`", PARTIAL_FIELDS),
        ("`conflicts[]`", CONFLICT_FIELDS),
        ("`pages[]`", CONTEXT_PAGE_FIELDS),
    ):
        rows += [(where, code(field), "always", meaning) for field, meaning in table.items()]
    return markdown_table(("object", "field", "present", "meaning"), rows)


#: The audit's objects, in the order a reader meets them: (name in the report, its field table).
_AUDIT_OBJECTS: Final = (
    ("the report", AUDIT_FIELDS),
    ("`operations[]`", AUDIT_OPERATION_FIELDS),
    ("`operations[].keys[]`", AUDIT_ENTRY_FIELDS),
    ("`operations[].keys[].claims[]`", AUDIT_CLAIM_FIELDS),
    ("`operations[].keys[].silent[]`", AUDIT_SILENCE_FIELDS),
    ("`refused_sources[]`", AUDIT_REFUSAL_FIELDS),
    ("`unapproved_conflicts[]`", UNAPPROVED_CONFLICT_FIELDS),
    ("`near_misses[]`", NEAR_MISS_FIELDS),
    ("`left_out_readings[]`", LEFT_OUT_FIELDS),
    ("`summary`", AUDIT_SUMMARY_FIELDS),
)


def audit_fields() -> list[str]:
    """Every field of an audit report, object by object, in order."""
    return markdown_table(
        ("object", "field", "meaning"),
        [(where, code(field), meaning) for where, table in _AUDIT_OBJECTS for field, meaning in table.items()],
    )


def claim_fields() -> list[str]:
    """Every field of a claim, in order."""
    return markdown_table(("field", "meaning"), [(code(field), meaning) for field, meaning in CLAIM_FIELDS.items()])


# --------------------------------------------------------------------------
# The versions listing and the MCP server's tools


def versions_fields() -> list[str]:
    """Every field of the versions listing, object by object, in order."""
    objects = (
        ("the listing", VERSIONS_FIELDS),
        ("`versions[]`", VERSION_LISTING_FIELDS),
        ("`versions[].sources[]`", VERSION_SOURCE_FIELDS),
    )
    return markdown_table(
        ("object", "field", "meaning"),
        [(where, code(field), meaning) for where, table in objects for field, meaning in table.items()],
    )


def tool_error_fields() -> list[str]:
    """The structured content of a tool's error result."""
    return markdown_table(
        ("field", "meaning"), [(code(field), meaning) for field, meaning in TOOL_ERROR_FIELDS.items()]
    )


def mcp_tools() -> list[str]:
    """The MCP server's tools: what each does, its arguments and the schema of its result."""
    rows = []
    for name, spec in TOOLS.items():
        arguments = (
            "; ".join(
                f"{code(arg)}{'' if arg in spec.required else ' (optional)'}: {meaning}"
                for arg, meaning in spec.parameters.items()
            )
            or "none"
        )
        rows.append((code(name), spec.does, arguments, code(spec.schema)))
    return markdown_table(("tool", "what it does", "arguments", "result schema"), rows)


# --------------------------------------------------------------------------
# The public API and the schemas


#: What each exported value that has no docstring of its own is.
_CONSTANT_WORDS: Final = {
    "ANSWER_FORM": "the answer form: how an answer cites, quotes and states (an `AnswerForm`)",
    "DECISIONS": "status -> reason -> meaning, in precedence order",
    "VERDICTS": "verdict -> (class, meaning), in precedence order",
    "FINDINGS": "finding kind -> (the verdict it calls for, meaning)",
    "AUDIT_STATUSES": "audit status -> meaning",
    "PAGE_STATUSES": "page status -> meaning (`approved` is eligible)",
    "RENDERERS": "renderer name -> meaning: what a manifest's `renderer` may name (absent: `portable`)",
    "VERSION_SCHEMES": "version scheme name -> `VersionScheme`",
    "EXIT_CODES": "exit-code name -> (code, meaning)",
    "INGESTION_REASONS": "`IngestionError` reason -> meaning",
    "GRAMMAR_REASONS": "`GrammarError` reason -> meaning",
    "GATE_REASONS": "`GateError` reason -> meaning",
    "DIRECTIVE_REASONS": "`DirectiveError` reason (a refused decision's) -> meaning",
    "SOURCE_INGESTION_REASONS": "the `IngestionError` reasons of one source, which a non-strict load keeps "
    "(a refused decision's) -> meaning",
    "UNRELATED_OPTIONS": "`gate(..., unrelated=...)` option value -> what it does with eligible pages about "
    "other operations",
    "DECISION_FILE_REASONS": "`DecisionError` reason -> meaning",
    "TREE_FINDINGS": "what `pin --check` and `audit` find in the docs tree -> meaning",
    "MAX_FOLDER_DEPTH": "the deepest folder below the manifest's that the walk of `sources` enters",
    "SCHEMAS": "result name -> (its TypedDict, what it describes), for `result_schema`",
    "MAX_SOURCE_BYTES": "the largest source read, in bytes",
    "MAX_MANIFEST_BYTES": "the largest manifest read, in bytes",
    "MAX_ANSWER_BYTES": "the largest answer read, in bytes of UTF-8",
    "MAX_DECISION_BYTES": "the largest decision file read, in bytes",
}


_ROLE: Final = re.compile(r":[a-z]+:`~?(?:[\w.]+\.)?([^`]+)`")


def _summary(value: Any) -> str:
    """The first paragraph of a docstring, its reST markup as Markdown (``x`` and :role:`~a.b.x` -> `x`)."""
    first = " ".join((value.__doc__ or "").strip().split("\n\n")[0].split())
    return _ROLE.sub(r"`\1`", first).replace("``", "`")


_SENTENCE_END: Final = re.compile(r"(?<=[a-z0-9`)])\.(?= [A-Z`])")


def _first_sentence(summary: str) -> str:
    """The first sentence of a summary (up to a full stop that ends a word and is followed by a capital
    or a code span); the rest of the docstring is for ``help()`` and the pages that own the rule."""
    match = _SENTENCE_END.search(summary)
    return summary if match is None else summary[: match.end()]


def _api_rows() -> list[tuple[str, str, str]]:
    """``(name, kind, summary)`` of every name of ``conflict_gate.__all__``, in its order."""
    from _conflict_gate import api as public

    constants = [
        name
        for name in public.__all__
        if not (callable(getattr(public, name)) or isinstance(getattr(public, name), type))
    ]
    _same_keys("public constants", _CONSTANT_WORDS, constants)
    rows = []
    for name in public.__all__:
        value = getattr(public, name)
        if name in _CONSTANT_WORDS:
            kind, summary = "constant", _CONSTANT_WORDS[name]
        elif isinstance(value, type) and issubclass(value, BaseException):
            kind, summary = "error", _summary(value)
        elif isinstance(value, type) and hasattr(value, "__required_keys__"):
            kind, summary = "result (TypedDict)", _summary(value)
        elif isinstance(value, type):
            kind, summary = "class", _summary(value)
        else:
            kind, summary = "function", _summary(value)
        if not summary:
            raise DriftError(f"public name {name!r} has no docstring to summarise")
        rows.append((name, kind, _first_sentence(summary)))
    return rows


#: The kinds of public name the lookup page lists rather than the API page (types of results, constants).
LOOKUP_KINDS: Final = ("result (TypedDict)", "constant")


def api() -> list[str]:
    """The functions, classes and errors of ``conflict_gate.__all__``, each with the first sentence of its
    summary (the result types and constants are :func:`api_lookup`'s)."""
    rows = [(code(name), kind, summary) for name, kind, summary in _api_rows() if kind not in LOOKUP_KINDS]
    return markdown_table(("name", "kind", "summary"), rows)


def api_lookup() -> list[str]:
    """The result types (``TypedDict``) and constants of ``conflict_gate.__all__``, with their summaries."""
    rows = [(code(name), kind, summary) for name, kind, summary in _api_rows() if kind in LOOKUP_KINDS]
    return markdown_table(("name", "kind", "summary"), rows)


@functools.lru_cache(maxsize=256)
def _docstring(source: str) -> str | None:
    """The docstring of a module's ``source``, remembered by the text itself (``--check`` and the
    tests render the module table several times in one process; parsing every module each time cost
    about a quarter of a second)."""
    return ast.get_docstring(ast.parse(source))


def modules() -> list[str]:
    """Every module of the package in the flow's order (``_conflict_gate.MODULES``), with its summary
    (read from its source, not imported: ``mcp_server`` needs the optional extra)."""
    import _conflict_gate

    package = Path(_conflict_gate.__file__).resolve().parent
    rows = []
    for name, step in _conflict_gate.MODULES:
        path = package.joinpath(*name.split(".")).with_suffix(".py")
        is_package = not path.is_file()
        source = (package.joinpath(*name.split("."), "__init__.py") if is_package else path).read_text(encoding="utf-8")

        class Documented:
            __doc__ = _docstring(source)

        summary = _summary(Documented)
        if not summary:
            raise DriftError(f"module {name!r} has no docstring to summarise")
        rows.append((code(name + ("/" if is_package else "")), step, summary))
    return markdown_table(("module", "step", "what it does"), rows)


def schemas() -> list[str]:
    """Every result schema ``conflict-gate schema NAME`` prints."""
    return markdown_table(
        ("name", "root", "describes"),
        [(code(name), code(shape.__name__), what) for name, (shape, what) in SCHEMAS.items()],
    )


# --------------------------------------------------------------------------
# The lab


def lab_grammar(root: Path) -> list[str]:
    """The grammar the lab's ``manifest.json`` declares, as ``conflict-gate grammar`` prints it."""
    return grammar_table(read_manifest(root / "manifest.json", require_pins=False).grammar)


def _lab_result(root: Path) -> dict[str, Any]:
    """The lab's saved result (``expected-result.json``, which ``python run.py --check`` keeps current)."""
    data: dict[str, Any] = json.loads((root / "expected-result.json").read_text(encoding="utf-8"))
    return data


def lab_cases(root: Path) -> list[str]:
    """Every lab case with its status and reason, from the saved result."""
    data = _lab_result(root)
    rows = []
    for case in [*data["cases"], data["changed_source"]]:
        result = case["result"]
        rows.append(
            (
                code(case["case_id"]),
                ", ".join(case["candidate_ids"]),
                case["requested_version"],
                code(case["claim_key"]),
                f"{code(result['status'])} / {code(result['reason'])}",
                case.get("shows") or case.get("edit"),
            )
        )
    return markdown_table(("case", "candidates", "version", "key", "status / reason", "what it shows"), rows)


def _finding(finding: Mapping[str, Any]) -> str:
    """A finding as ``kind a–b`` (code points into the answer) or ``kind (no span)``."""
    if finding["start"] is None:
        return f"{code(finding['kind'])} (no span)"
    return f"{code(finding['kind'])} {finding['start']}–{finding['end']}"


def lab_answers(root: Path) -> list[str]:
    """Every canned answer of the lab with its verdict, class and findings, from the saved result."""
    data = _lab_result(root)
    rows = [
        (
            f"[{code(answer['answer_id'])}](../{answer['path']})",
            code(answer["case_id"]),
            code(answer["verdict"]),
            code(answer["verdict_class"]),
            ", ".join(_finding(f) for f in answer["findings"]) or "none",
            answer["shows"],
        )
        for answer in data["answers"]
    ]
    return markdown_table(
        ("answer", "answers the case", "verdict", "class", "findings (code points)", "what it shows"), rows
    )

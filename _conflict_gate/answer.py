"""After the model: check a generated answer against the decision, deterministically.

:func:`check_answer` reads only the answer form of
:data:`~_conflict_gate.request.ANSWER_FORM` (citations, quoted directives in
backticks, value and version statements in backticks); free prose around
them is not evidence either way. It returns one verdict from
:data:`~_conflict_gate.registry.VERDICTS`, the first in this precedence that
any finding calls for, and every finding so a person sees why:

1. ``no_answer_allowed``: the decision is not ``ready``; nothing an answer
   says can be supported.
2. ``malformed_answer``: the answer cannot be read reliably (not UTF-8, too
   large, empty, a form begun and not completed, a non-ASCII character
   inside a form). Reading around a broken form could miss what it says.
3. ``contradicts_decision``: another value or version stated in the form;
   the most harmful error, a false statement.
4. ``quote_not_found``: a quoted directive that no pinned source contains;
   fabricated evidence.
5. ``misattributed``: a quoted directive that is in a pinned source but is not
   the claim at the cited source and line; real text, wrong evidence.
6. ``unknown_citation``: a citation of a source or line that is not a claim of
   the decision; evidence the decision does not hold.
7. ``missing_statement``: the agreed value or the requested version is not stated.
8. ``missing_citation``: a claim of the decision is not cited, or a quote has
   no citation after it.
9. ``supported``: none of the above.

The decision is checked, not trusted: it must be exactly the result the gate
gives for its own request on this corpus (claims, answer request and all),
or :class:`DecisionError` is raised. A decision that ends with
``set_aside_unrelated_ids`` was made with ``unrelated="set_aside"`` and is
rebuilt so.

Normalisation is minimal on purpose: ``\\r\\n`` and ``\\r`` end lines like
``\\n``, and whitespace at the two ends of the answer is ignored. Nothing
else: Unicode normalisation would turn look-alikes (a Cyrillic ``о``) into
ASCII and let them pass, case folding would accept another key's spelling,
and collapsing spaces inside a form would accept text the form does not
allow. Offsets in findings are code points into the answer as given.
"""

from __future__ import annotations

import bisect
import os
import re
import unicodedata
from typing import Any, Final, Mapping, Sequence

from .corpus import Corpus, SourceFiles, source_digest
from .files import read_capped
from .decision import gate
from .errors import DecisionError, GateError, IngestionError, printable
from .jsondata import json_pointer, parse_strict, JsonProblem
from .registry import FINDINGS, MAX_ANSWER_BYTES, MAX_DECISION_BYTES, VERDICT_PRECEDENCE, VERDICTS
from .form import ANSWER_FORM
from .results import (
    ANSWER_CHECK_FIELDS,
    DECISION_ECHO_FIELDS,
    FINDING_FIELDS,
    AnswerCheck,
    Decision,
    DecisionEcho,
    Finding,
    build,
)

__all__ = ["check_answer", "verdict_of"]

_CITATION: Final = ANSWER_FORM.citation_pattern()
_CITATION_START: Final = ANSWER_FORM.citation_start()
#: A statement inside backticks: a key (or ``version``), ``=``, a value; no spaces.
_STATEMENT: Final = re.compile(r"([^\s=`]+)=([^\s=`]+)")
_LINE_END: Final = re.compile(r"\r\n|\r|\n")
#: Bracketed text on one line, ASCII or fullwidth brackets (look-alike citations are looked for there).
_BRACKETED: Final = re.compile(r"[\[\uff3b][^\[\]\uff3b\uff3d\r\n]*[\]\uff3d]")
#: After NFKC and case folding, a bracket that ends like a citation (``...:<digits>]``) or names a source.
_CITATION_LIKE: Final = re.compile(r"^\[\s*s\W*o\W*u\W*r\W*c\W*e|:\s*[0-9]+\s*\]$")


def verdict_of(findings: Sequence[Mapping[str, Any]], ready: bool) -> str:
    """The verdict for a list of findings: ``no_answer_allowed`` unless ``ready``, else the first
    verdict in :data:`~_conflict_gate.registry.VERDICT_PRECEDENCE` that a finding calls for
    (:data:`~_conflict_gate.registry.FINDINGS`), else ``supported``."""
    if not ready:
        return "no_answer_allowed"
    called = {FINDINGS[finding["kind"]][0] for finding in findings}
    return next((verdict for verdict in VERDICT_PRECEDENCE if verdict in called), "supported")


def _check_decision(corpus: Corpus, decision: Any) -> Decision:
    """The gate's result for the decision's own request; raise :class:`DecisionError` unless equal."""
    if not isinstance(decision, dict):
        raise DecisionError("invalid_decision", "a decision is a JSON object (a gate result)")
    for key in ("candidate_ids", "requested_version", "operation", "claim_key"):
        if key not in decision:
            raise DecisionError("invalid_decision", f"missing {key!r}: not a gate result", pointer=f"/{key}")
    # a decision made with unrelated="set_aside" says so: it ends with set_aside_unrelated_ids
    unrelated = "set_aside" if "set_aside_unrelated_ids" in decision else "withhold"
    try:
        expected = gate(corpus, decision["candidate_ids"], decision["requested_version"],
                        decision["operation"], decision["claim_key"], unrelated=unrelated)
    except GateError as error:
        raise DecisionError("invalid_decision", f"its request is not valid here: {error.detail} "
                            f"[{error.reason}]") from None
    difference = _first_difference(expected, decision, "")
    if difference is not None:
        reason, where = difference
        detail = ("the decision does not have the shape of a gate result" if reason == "invalid_decision"
                  else "the decision is not what the gate gives for its own request on this corpus "
                       "(edited, or made from other sources or pins)")
        raise DecisionError(reason, detail, pointer=where)
    return expected


def _first_difference(expected: Any, given: Any, pointer: str) -> tuple[str, str] | None:
    """``(reason, JSON pointer)`` of the first place ``given`` differs from ``expected``.

    A missing, extra or reordered key, or an object or list where the gate
    gives something else (or the reverse), is a shape problem
    (``invalid_decision``); another value, of any type, is ``decision_mismatch``.
    """
    if type(expected) is not type(given):
        containers = (dict, list)
        shape = isinstance(expected, containers) or isinstance(given, containers)
        return ("invalid_decision" if shape else "decision_mismatch", pointer)
    if isinstance(expected, dict):
        for key in expected:
            if key not in given:
                return ("invalid_decision", pointer + json_pointer(key))
        for key in given:
            if key not in expected:
                return ("invalid_decision", pointer + json_pointer(key))
        if list(expected) != list(given):
            return ("invalid_decision", pointer)
        for key in expected:
            found = _first_difference(expected[key], given[key], pointer + json_pointer(key))
            if found is not None:
                return found
        return None
    if isinstance(expected, list):
        if len(expected) != len(given):
            return ("decision_mismatch", pointer)
        for index, (a, b) in enumerate(zip(expected, given)):
            found = _first_difference(a, b, f"{pointer}/{index}")
            if found is not None:
                return found
        return None
    return None if expected == given else ("decision_mismatch", pointer)


def check_answer(corpus: Corpus, decision: Any, answer: str | bytes) -> AnswerCheck:
    """Check ``answer`` (text, or bytes that must be UTF-8) against ``decision`` over ``corpus``.

    Returns an :class:`~_conflict_gate.results.AnswerCheck`: ``verdict``,
    ``verdict_class``, ``findings`` and ``decision``. Each finding
    (:data:`~_conflict_gate.results.FINDING_FIELDS`) is ``{"kind", "detail",
    "start", "end"}`` (code points into the answer as given, the form's
    backticks or brackets included; both ``None`` for a finding about
    something the answer lacks or about the whole answer) plus ``quote`` (the
    form's content, without its backticks), ``source_id`` and ``line`` where
    they apply; ``decision`` echoes the request and status. Raises
    :class:`DecisionError` when the decision is not this tool's result for
    this corpus, and :class:`IngestionError` (``hash_mismatch``) when a quote
    must be looked up in the sources' bytes and a file changed since the
    corpus was loaded. Refuses to read anything but the answer form; never
    calls a model; no answer makes it raise (a broken one is
    ``malformed_answer``).
    """
    checked = _check_decision(corpus, decision)
    ready = checked["status"] == "ready"
    findings = _findings(corpus, checked, answer) if ready else []
    verdict = verdict_of(findings, ready)
    return build(AnswerCheck, ANSWER_CHECK_FIELDS, {
        "verdict": verdict,
        "verdict_class": VERDICTS[verdict][0],
        "findings": findings,
        "decision": build(DecisionEcho, DECISION_ECHO_FIELDS, {key: dict(checked)[key] for key in DECISION_ECHO_FIELDS}),
    })


def _finding(kind: str, detail: str, start: int | None, end: int | None, **extra: Any) -> Finding:
    return build(Finding, FINDING_FIELDS, {"kind": kind, "detail": detail, "start": start, "end": end, **extra})


def _findings(corpus: Corpus, decision: Decision, answer: str | bytes) -> list[Finding]:
    if isinstance(answer, (bytes, bytearray)):
        if len(answer) > MAX_ANSWER_BYTES:
            return [_finding("too_large", f"{len(answer)} bytes is over the {MAX_ANSWER_BYTES}-byte limit", None, None)]
        try:
            answer = bytes(answer).decode("utf-8")
        except UnicodeDecodeError as error:
            return [_finding("not_utf8", f"invalid UTF-8 at byte {error.start}", None, None)]
    if not isinstance(answer, str):
        return [_finding("not_utf8", "the answer is not text", None, None)]
    try:
        answer.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate: text no reader can be shown
        return [_finding("not_utf8", f"a lone surrogate at code point {error.start}", error.start, error.end)]
    if len(answer.encode("utf-8", "surrogatepass")) > MAX_ANSWER_BYTES:
        return [_finding("too_large", f"over the {MAX_ANSWER_BYTES}-byte limit", None, None)]
    if not answer.strip():
        return [_finding("empty", "the answer is empty", None, None)]
    reader = _AnswerReader(corpus, decision, answer)
    return reader.read()


class _AnswerReader:
    """Reads the forms of one answer and compares them with one ready decision."""

    def __init__(self, corpus: Corpus, decision: Decision, answer: str) -> None:
        self.corpus = corpus
        self.answer = answer
        self.claims = {(c["source_id"], c["start_line"]): c for c in decision["claims"]}
        self.quotes = {c["quote"] for c in decision["claims"]}
        self.key = decision["claim_key"]
        self.value = decision["agreed_value"]
        self.version = decision["requested_version"]
        self.line_ends = [m.start() for m in _LINE_END.finditer(answer)]
        self.findings: list[Finding] = []

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_ends, offset)

    def read(self) -> list[Finding]:
        citations = self._citations()
        spans = self._backtick_spans()
        stated_value = stated_version = False
        cited = set()
        for start, end, line, source_id, claim_line in citations:
            if (source_id, claim_line) in self.claims:
                cited.add((source_id, claim_line))
            else:
                self.add("unknown_citation", "this citation is not the line of a claim of the decision",
                         start, end, source_id=source_id, line=claim_line)
        for start, end, run in spans:
            content = self.answer[start + run:end - run]
            if run > 1 and content.startswith(" ") and content.endswith(" ") and content.strip():
                content = content[1:-1]  # CommonMark 6.1: one space at each end is not content
            kind = _form_of(content)
            if kind is None:
                continue
            if not content.isascii() or not content.isprintable():
                self.add("non_ascii_in_form", f"the {kind} holds a non-ASCII or control character",
                         start, end, quote=content)
                continue
            if kind == "quote":
                self._quote(content, start, end, citations)
                continue
            statement = _STATEMENT.fullmatch(content)
            if statement is None:
                self.add("broken_form", "a statement is `key=value` with no spaces", start, end, quote=content)
                continue
            key, value = statement.groups()
            if key == "version":
                stated_version = True
                if value != self.version:
                    self.add("other_version", f"states version {value}, not {self.version}", start, end,
                             quote=content)
            elif key == self.key and value == self.value:
                stated_value = True
            else:
                self.add("other_value", f"states {key}={value}; the decision is {self.key}={self.value}",
                         start, end, quote=content)
        for (source_id, claim_line) in sorted(self.claims):
            if (source_id, claim_line) not in cited:
                self.add("missing_citation", "a claim of the decision is not cited at its line",
                         None, None, source_id=source_id, line=claim_line)
        if not stated_value:
            self.add("missing_value", f"the answer does not state `{self.key}={self.value}`", None, None)
        if not stated_version:
            self.add("missing_version", f"the answer does not state `version={self.version}`", None, None)
        return self.findings

    def add(self, kind: str, detail: str, start: int | None, end: int | None, **extra: Any) -> None:
        self.findings.append(_finding(kind, detail, start, end, **extra))

    def _citations(self) -> list[tuple[int, int, int, str, int]]:
        """Every citation: (start, end, answer line, source id, claim line); a begun, broken one is a finding."""
        found = []
        answer = self.answer
        pos = answer.find(_CITATION_START)
        while pos != -1:
            match = _CITATION.match(answer, pos)
            if match is None or not match.group().isascii():
                end = answer.find("]", pos)
                self.add("broken_form", "a citation is begun but is not "
                         f"{ANSWER_FORM.citation.format(source_id='ID', line='LINE')} in ASCII",
                         pos, end + 1 if end != -1 else len(answer))
            else:
                digits = match.group(2)
                line = int(digits) if len(digits) <= 9 and digits == str(int(digits)) else -1
                found.append((match.start(), match.end(), self.line_of(pos), match.group(1), line))
            pos = answer.find(_CITATION_START, pos + 1)
        for match in _BRACKETED.finditer(answer):  # look-alikes: fullwidth brackets, Cyrillic letters
            segment = match.group()
            if answer.startswith(_CITATION_START, match.start()):
                continue  # judged above
            normalized = unicodedata.normalize("NFKC", segment).casefold()
            if _CITATION_LIKE.search(normalized) or (not segment.isascii() and "source" in normalized):
                self.add("broken_form", "text that looks like a citation is not the citation form "
                         "(ASCII only)", match.start(), match.end(), quote=segment)
        return found

    def _backtick_spans(self) -> list[tuple[int, int, int]]:
        """Code spans as a Markdown reader pairs them: a run of backticks up to the next run of the
        same length on the same line; ``(start, end, run length)``. An unpaired run is a broken form."""
        spans = []
        for start, text in self._lines():
            runs = [(m.start() + start, len(m.group())) for m in re.finditer(r"`+", text)]
            i = 0
            while i < len(runs):
                at, length = runs[i]
                close = next((j for j in range(i + 1, len(runs)) if runs[j][1] == length), None)
                if close is None:
                    self.add("broken_form", "a backtick is not closed on its line", at, at + length)
                    i += 1
                    continue
                spans.append((at, runs[close][0] + length, length))
                i = close + 1
        return spans

    def _lines(self) -> list[tuple[int, str]]:
        """``(start offset, text)`` of each line of the answer (``\n``, ``\r\n`` or ``\r`` ends one)."""
        lines, start = [], 0
        for end in [*self.line_ends, len(self.answer)]:
            lines.append((start, self.answer[start:end]))
            start = end + (2 if self.answer.startswith("\r\n", end) else 1)
        return lines

    def _quote(self, content: str, start: int, end: int,
               citations: list[tuple[int, int, int, str, int]]) -> None:
        line = self.line_of(start)
        after = [c for c in citations if c[0] >= end and c[2] == line]
        if not after:
            self.add("quote_without_citation", "a quoted directive has no citation after it on its line",
                     start, end, quote=content)
            return
        _, _, _, source_id, claim_line = after[0]
        claim = self.claims.get((source_id, claim_line))
        if claim is not None and claim["quote"] == content:
            return
        if _in_pinned_sources(self.corpus, content):
            self.add("misattributed", "this text is in a pinned source, but it is not the claim at "
                     f"{ANSWER_FORM.citation.format(source_id=source_id, line=claim_line)}",
                     start, end, quote=content, source_id=source_id, line=claim_line)
        else:
            self.add("quote_not_found", "no pinned source contains this directive", start, end,
                     quote=content, source_id=source_id, line=claim_line)


def _form_of(content: str) -> str | None:
    """What a backtick span is in the answer form: ``"quote"``, ``"statement"``, or ``None`` (prose)."""
    normalized = unicodedata.normalize("NFKC", content).strip()
    if normalized.startswith("@"):
        return "quote"
    if "=" in normalized:
        return "statement"
    return None


def _in_pinned_sources(corpus: Corpus, text: str) -> bool:
    """Is ``text`` anywhere in the pinned bytes of a source of the corpus?

    Claims and near-misses answer most quotes at once; otherwise every source
    is read again and verified against its pin (a corpus does not keep text);
    a source that failed verification (non-strict load) has no pinned bytes.
    Raises :class:`IngestionError` when a file no longer matches its pin.
    """
    for source in corpus.sources.values():
        if any(c.quote == text for c in source.claims) or any(text in n.quote for n in source.near_misses):
            return True
    with SourceFiles(corpus.manifest.root) as files:
        for source in corpus.sources.values():
            if source.failed:  # its bytes were never verified: nothing in them is pinned
                continue
            raw = files.read(source.entry)
            if source_digest(raw) != source.sha256:
                raise IngestionError("hash_mismatch", "the file changed since the corpus was loaded; load "
                                     "it again", source_id=source.source_id, path=source.path)
            if text.encode("utf-8") in raw:
                return True
    return False


def load_decision(path: str) -> Any:
    """Read a decision JSON file (``-`` for stdin is not accepted: the answer may use stdin).

    Read once, as :func:`~_conflict_gate.files.read_capped` reads (a regular
    file of at most :data:`~_conflict_gate.registry.MAX_DECISION_BYTES`; a
    symlink is followed, a FIFO never blocks) and parsed as strict JSON. Raises
    :class:`DecisionError`: ``decision_unreadable`` for a missing, unreadable,
    non-regular, too large, non-UTF-8 or non-JSON file (``NaN`` included);
    ``invalid_decision`` for an object that repeats a key, which readers
    disagree on (the last or the first wins), as the manifest refuses it.
    """
    def unreadable(reason: str, detail: str) -> DecisionError:
        return DecisionError("decision_unreadable", detail, path=path)

    raw = read_capped(os.path.realpath(path), MAX_DECISION_BYTES, unreadable)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DecisionError("decision_unreadable", f"invalid UTF-8 at byte {error.start}", path=path) from None
    try:
        return parse_strict(text)
    except JsonProblem as problem:
        if problem.kind == "duplicate_key":
            raise DecisionError("invalid_decision", f"{printable(problem.message)}: a decision never "
                                "repeats a key", path=path) from None
        where = f" at line {problem.line}, column {problem.column}" if problem.line is not None else ""
        raise DecisionError("decision_unreadable", f"not JSON ({printable(problem.message)[:120]}{where})",
                            path=path) from None

"""After the model: check a generated answer against the decision, deterministically.

:func:`check_answer` reads the answer as its reader sees it
(:mod:`~_conflict_gate.answer.reader`: CommonMark 0.31.2 + GFM, what a chat
window shows, and the raw text a terminal shows), requires that the form-like
text read the same both ways (:mod:`~_conflict_gate.answer.forms`), and judges
what it states: the citations and quotes of the answer form
(:data:`~_conflict_gate.manifest.form.ANSWER_FORM`), the required statements in
backticks, and every statement of the claim key, of another key of its
operation or of ``version``, and every directive of the namespace, wherever a
reader sees it (prose, code spans, code blocks, tables). Other code and
prose is free text. It returns one verdict from
:data:`~_conflict_gate.base.registry.VERDICTS`, the first in this precedence that
any finding calls for, and every finding so a person sees why:

1. ``no_answer_allowed``: the decision is not ``ready``; nothing an answer
   says can be supported.
2. ``malformed_answer``: the answer cannot be read reliably (not UTF-8, too
   large, empty, a form begun and not completed, a non-ASCII character
   inside a form, a look-alike of one, form-like text hidden, escaped or in
   doubtful markup, a control character a terminal acts on or a bidirectional
   control, :mod:`~_conflict_gate.answer.controls`). Reading around a broken
   form could miss what it says.
3. ``contradicts_decision``: another value or version stated anywhere a
   reader sees it; the most harmful error, a false statement.
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

Normalisation is minimal on purpose: whitespace at the two ends of the answer
is not read, and a reader's rendering decodes what Markdown decodes (entities,
escapes), which the check then requires to read the same raw. Unicode
normalisation is used only to fail closed (a run that reads as a form after
NFKC is a ``look_alike``), never to accept: it would turn look-alikes (a
Cyrillic ``о``) into ASCII and let them pass; case folding would accept
another key's spelling, and collapsing spaces inside a form would accept
text the form does not allow. Offsets in findings are code points into the
answer as given.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..base.errors import DecisionError, GateError, printable
from ..base.files import read_capped
from ..base.jsondata import JsonProblem, json_pointer, parse_strict
from ..base.registry import DECISIONS, FINDINGS, MAX_ANSWER_BYTES, MAX_DECISION_BYTES, VERDICT_PRECEDENCE, VERDICTS
from ..corpus.load import MEMO_ENTRY_BYTES, Corpus
from ..decide.context import gate_context, is_context_decision
from ..decide.decision import gate
from ..results.shapes import (
    ANSWER_CHECK_FIELDS,
    DECISION_ECHO_FIELDS,
    AnswerCheck,
    Decision,
    DecisionEcho,
    Finding,
    build,
)
from .controls import control_findings
from .findings import reading_findings
from .forms import FormWords
from .reader import AnswerReading, read_answer
from .statements import _Check, _finding

__all__ = ["CORPUS_WIDE_FINDINGS", "check_answer", "verdict_of"]

#: The finding kinds that depend on every verified source, not only the decision's: a quote that is
#: not the cited claim is looked up in :attr:`Corpus.quote_index <_conflict_gate.corpus.load.Corpus.quote_index>`.
CORPUS_WIDE_FINDINGS: Final = frozenset({"misattributed", "quote_not_found"})


def verdict_of(findings: Sequence[Mapping[str, Any]], ready: bool) -> str:
    """The verdict for a list of findings: ``no_answer_allowed`` unless ``ready``, else the first
    verdict in :data:`~_conflict_gate.base.registry.VERDICT_PRECEDENCE` that a finding calls for
    (:data:`~_conflict_gate.base.registry.FINDINGS`), else ``supported``."""
    if not ready:
        return "no_answer_allowed"
    called = {FINDINGS[finding["kind"]][0] for finding in findings}
    return next((verdict for verdict in VERDICT_PRECEDENCE if verdict in called), "supported")


def _check_decision(corpus: Corpus, decision: Any) -> Decision:
    """The gate's result for the decision's own request; raise :class:`DecisionError` unless equal."""
    if not isinstance(decision, dict):
        raise DecisionError("invalid_decision", "a decision is a JSON object (a gate result)")
    if is_context_decision(decision):  # checked as a Decision's dict: the check reads it by key
        context: Decision = _check_context_decision(corpus, decision)
        return context
    for key in ("candidate_ids", "requested_version", "operation", "claim_key"):
        if key not in decision:
            raise DecisionError("invalid_decision", f"missing {key!r}: not a gate result", pointer=f"/{key}")
    # a decision made with unrelated="set_aside" says so: it ends with set_aside_unrelated_ids
    unrelated = "set_aside" if "set_aside_unrelated_ids" in decision else "withhold"
    # a request made with the user's question carries it as its third message: asked again with it
    question = _question_of(decision)
    try:
        expected = gate(
            corpus,
            decision["candidate_ids"],
            decision["requested_version"],
            decision["operation"],
            decision["claim_key"],
            unrelated=unrelated,
            question=question,
        )
    except GateError as error:
        raise DecisionError(
            "invalid_decision", f"its request is not valid here: {error.detail} [{error.reason}]"
        ) from None
    checked: Decision = _same_as(expected, decision)
    return checked


def _check_context_decision(corpus: Corpus, decision: dict[str, Any]) -> Any:
    """:func:`_check_decision` of a context decision (``gate_context``'s result): asked again with its
    own candidates, version, question and ``max_context_chars``, and compared whole."""
    for key in ("candidate_ids", "requested_version"):
        if key not in decision:
            raise DecisionError("invalid_decision", f"missing {key!r}: not a gate result", pointer=f"/{key}")
    try:
        expected = gate_context(
            corpus,
            decision["candidate_ids"],
            decision["requested_version"],
            question=_question_of(decision),
            max_context_chars=decision["max_context_chars"],
            # made with unrelated="set_aside", it ends with set_aside_unrelated_ids
            unrelated="set_aside" if "set_aside_unrelated_ids" in decision else "withhold",
        )
    except GateError as error:
        raise DecisionError(
            "invalid_decision", f"its request is not valid here: {error.detail} [{error.reason}]"
        ) from None
    except ValueError as error:  # max_context_chars out of range
        raise DecisionError(
            "invalid_decision", f"its request is not valid here: {error}", pointer="/max_context_chars"
        ) from None
    checked: Any = _same_as(expected, decision)
    return checked


def _same_as(expected: Any, decision: dict[str, Any]) -> Any:
    """``expected`` (the gate's result for the decision's own request) when ``decision`` is exactly it;
    raises :class:`DecisionError` naming the first difference otherwise."""
    status = decision.get("status")
    if isinstance(status, str) and status in DECISIONS and status != expected["status"]:
        raise DecisionError(
            "decision_mismatch",
            f"the gate now answers {expected['status']!r}, not "
            f"{status!r}, for the decision's own request: its pages or pins changed "
            "since it was made; run the gate again",
            pointer="/status",
        )
    difference = None if _same(expected, decision) else _first_difference(expected, decision, "")
    if difference is not None:
        reason, where = difference
        detail = (
            "the decision does not have the shape of a gate result"
            if reason == "invalid_decision"
            else "the decision is not what the gate gives for its own request on this corpus "
            "(edited, or made from other sources or pins); if its pages changed, run the gate again"
        )
        raise DecisionError(reason, detail, pointer=where)
    return expected


def _question_of(decision: Mapping[str, Any]) -> str | None:
    """The user's question a decision's answer request carries (its third message's content, when that
    is a user message holding text), else ``None``; anything else is left to the comparison."""
    request = decision.get("answer_request")
    found = request.get("messages") if isinstance(request, dict) else None
    if (
        isinstance(found, list)
        and len(found) == 3
        and isinstance(found[2], dict)
        and found[2].get("role") == "user"
        and isinstance(found[2].get("content"), str)
    ):
        content: str = found[2]["content"]
        return content
    return None


def _same(expected: Any, given: Any) -> bool:
    """Is ``given`` exactly ``expected``: the same types, keys in the same order, equal values? The
    cheap test made first (no pointer is built); :func:`_first_difference` says where they differ."""
    kind = type(expected)
    if kind is not type(given):
        return False
    if kind is dict:
        if len(expected) != len(given):
            return False
        for (key, value), (other_key, other) in zip(expected.items(), given.items()):
            if type(key) is not type(other_key) or key != other_key:
                return False
            kind = type(value)
            if kind is not type(other) or not (
                _same(value, other) if kind is dict or kind is list else value == other
            ):  # a leaf compared here, not by a call
                return False
        return True
    if kind is list:
        return len(expected) == len(given) and all(map(_same, expected, given))
    return bool(expected == given)


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

    Returns an :class:`~_conflict_gate.results.shapes.AnswerCheck`: ``verdict``,
    ``verdict_class``, ``findings`` and ``decision``. Each finding
    (:data:`~_conflict_gate.results.shapes.FINDING_FIELDS`) is ``{"kind", "detail",
    "start", "end"}`` (code points into the answer as given, the form's
    backticks or brackets included; both ``None`` for a finding about
    something the answer lacks or about the whole answer) plus ``quote`` (the
    form's content, without its backticks), ``source_id`` and ``line`` where
    they apply; ``decision`` echoes the request and status. Raises
    :class:`DecisionError` when the decision is not this tool's result for
    this corpus. Quotes are looked up in the corpus as loaded
    (:attr:`Corpus.quote_index <_conflict_gate.corpus.load.Corpus.quote_index>`, built once): no
    source is read again. Never calls a model; no answer makes it raise (a
    broken one is ``malformed_answer``).
    """
    checked = _check_decision(corpus, decision)
    ready = checked["status"] == "ready"
    findings = _findings(corpus, checked, answer) if ready else []
    verdict = verdict_of(findings, ready)
    echoed: Mapping[str, Any] = checked
    return build(
        AnswerCheck,
        ANSWER_CHECK_FIELDS,
        {
            "verdict": verdict,
            "verdict_class": VERDICTS[verdict][0],
            "findings": findings,
            "decision": build(
                DecisionEcho, DECISION_ECHO_FIELDS, {key: echoed.get(key) for key in DECISION_ECHO_FIELDS}
            ),
        },
    )


#: The memo estimate of one claim's :class:`FormWords` (its compiled patterns; ``tracemalloc`` measured 14 KB
#: for the lab's grammar).
FORM_WORDS_BYTES: Final = MEMO_ENTRY_BYTES + (16 << 10)


def _form_words(corpus: Corpus, operation: str, claim_key: str) -> FormWords:
    """The :class:`FormWords` of a decision's claim, built once per corpus (its patterns compiled then)
    and kept in :attr:`Corpus.memo <_conflict_gate.corpus.load.Corpus.memo>`."""
    key = ("form words", operation, claim_key)
    words = corpus.memo.get(key)
    if words is None:
        words = FormWords(corpus.grammar, operation, claim_key)
        corpus.remember(key, words, FORM_WORDS_BYTES)
    return words


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
    if is_context_decision(decision):
        return _context_findings(corpus, decision, answer)
    words = _form_words(corpus, decision["operation"], decision["claim_key"])
    reading = read_answer(answer)
    checked = _Check(corpus, decision, reading, words).run()
    return control_findings(answer) + _read_findings(reading, words, checked) + checked


def _read_findings(reading: AnswerReading, words: FormWords, checked: list[Finding]) -> list[Finding]:
    """The reading's findings (:func:`reading_findings`), but a look-alike inside a form already found
    non-ASCII (one mistake in a form, one finding)."""
    in_forms = [_span(f) for f in checked if f["kind"] == "non_ascii_in_form"]
    return [
        f
        for f in reading_findings(reading, words)
        if not (f["kind"] == "look_alike" and any(a <= _span(f)[0] and _span(f)[1] <= b for a, b in in_forms))
    ]


def _context_findings(corpus: Corpus, decision: Any, answer: str) -> list[Finding]:
    """The findings of an answer to a ready context decision (``gate_context``): every key the answer
    states must be an agreed key with its agreed value (a partial or other key is ``other_value``), the
    version must be stated, at least one agreed key must be stated, and each agreed key stated must have
    every claim of it cited. One check per operation of the agreed keys; a finding two of them make is
    reported once."""
    agreed = {(a["operation"], a["claim_key"]): a["value"] for a in decision["agreed"]}
    citable = [c for c in decision["claims"] if (c["operation"], c["claim_key"]) in agreed]
    reading = read_answer(answer)
    found: list[Finding] = list(control_findings(answer))
    stated: set[tuple[str, str]] = set()
    stated_version = False
    for operation in dict.fromkeys(op for op, _ in agreed):
        first_key = next(key for op, key in agreed if op == operation)
        words = _form_words(corpus, operation, first_key)
        check = _Check(corpus, decision, reading, words, agreed=agreed, claims=citable)
        checked = check.run()
        found += _read_findings(reading, words, checked) + checked
        stated |= check.stated_keys
        stated_version = stated_version or check.stated_version
    unique: dict[tuple[Any, ...], Finding] = {}
    for item in found:
        unique.setdefault(tuple(item.items()), item)
    out = list(unique.values())
    if not stated:
        forms = ", ".join(f"`{key}={value}`" for (_, key), value in agreed.items())
        out.append(_finding("missing_value", f"the answer states no agreed claim (one of {forms})", None, None))
    if not stated_version:
        out.append(
            _finding(
                "missing_version", f"the answer does not state `version={decision['requested_version']}`", None, None
            )
        )
    return out


def _span(found: Finding) -> tuple[int, int]:
    """A finding's span, ``(-1, -1)`` when it has none."""
    start, end = found["start"], found["end"]
    return (-1, -1) if start is None or end is None else (start, end)


def load_decision(path: str) -> Any:
    """Read a decision JSON file (``-`` for stdin is not accepted: the answer may use stdin).

    Read once, as :func:`~_conflict_gate.base.files.read_capped` reads (a regular
    file of at most :data:`~_conflict_gate.base.registry.MAX_DECISION_BYTES`; a
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
            raise DecisionError(
                "invalid_decision", f"{printable(problem.message)}: a decision never repeats a key", path=path
            ) from None
        where = f" at line {problem.line}, column {problem.column}" if problem.line is not None else ""
        raise DecisionError(
            "decision_unreadable", f"not JSON ({printable(problem.message)[:120]}{where})", path=path
        ) from None

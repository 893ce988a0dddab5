"""What an answer's forms and statements are found to do wrong: near names, look-alikes, hidden code, broken citations."""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from ..manifest.form import ANSWER_FORM
from ..results.shapes import FINDING_FIELDS, Finding, build
from .forms import (
    _BACKTICK_RUN,
    _BRACKETED,
    _CITATION,
    _CITATION_LIKE,
    _CITATION_START,
    _CITATION_TOKEN,
    FormWords,
    resolve_markup,
)
from .html import HIDING_ELEMENTS
from .reader import AnswerBlock, AnswerReading, Mapped

__all__ = ["finding", "reading_findings"]


def finding(kind: str, detail: str, start: int | None, end: int | None, **extra: Any) -> Finding:
    return build(Finding, FINDING_FIELDS, {"kind": kind, "detail": detail, "start": start, "end": end, **extra})


def _overlaps(span: tuple[int, int], ranges: Sequence[tuple[int, int]]) -> bool:
    return any(a < span[1] and span[0] < b for a, b in ranges)


class _Findings:
    """Findings of the reading, deduplicated by kind and span."""

    def __init__(self) -> None:
        self.found: list[Finding] = []
        self.seen: set[tuple[str, int, int]] = set()

    def add(self, kind: str, detail: str, start: int, end: int, **extra: Any) -> None:
        if (kind, start, end) not in self.seen:
            self.seen.add((kind, start, end))
            self.found.append(finding(kind, detail, start, end, **extra))


def reading_findings(reading: AnswerReading, words: FormWords) -> list[Finding]:
    """Where the raw and the rendered reading of the answer part on form-like text (module
    docstring), in answer order."""
    out = _Findings()
    text = reading.text
    for block in reading.blocks:
        if not block.plain:
            _compare(out, block, words)
            if block.kind == "fenced_code" and block.hidden:
                _hidden_code_statements(out, block, words)
        if block.doubt is not None or block.unsure:
            _doubts(out, block, words)
        if block.kind in ("paragraph", "heading", "table"):
            _pairing(out, block, words)
            _links(out, reading, block)
        if block.hidden and block.kind in ("paragraph", "heading", "table", "html_block"):
            _hiding_markup(out, reading, block, words)
        _near_names(out, block, words)
        for start, end, run in words.look_alikes.runs(block.shown.text):
            answer_start, answer_end = block.shown.span(start, end)
            _look_alike(out, answer_start, answer_end, run)
    outside = _outside(reading)
    for _kind, token, i, j in words.tokens(outside.text, raw=True):
        out.add("hidden_form", "form-like text outside every block a reader sees", *outside.span(i, j), quote=token)
    for start, end, run in words.look_alikes.runs(text):
        _look_alike(out, start, end, run)
    _broken_citations(out, text)
    for block in reading.blocks:
        _look_alike_brackets(out, block.shown, block.shown.text)
    return sorted(out.found, key=lambda f: f["start"] if f["start"] is not None else -1)


def _outside(reading: AnswerReading) -> Mapped:
    """The text of the answer outside every block's lines (container markers, indentation, blank
    lines, what a block past the limits did not take), each stretch on a line of its own."""
    covered = sorted(
        (start, end) for block in reading.blocks for start, end in zip(block.raw.origins, block.raw.ends) if end > start
    )
    text = reading.text
    parts, starts, origins, strides, ends = [], [], [], [], []
    at = length = 0
    for start, end in [*covered, (len(text), len(text))]:
        if start > at:
            parts.append(text[at:start] + "\n")
            starts.append(length)
            origins.append(at)
            strides.append(1)
            ends.append(start)
            length += start - at + 1
        at = max(at, end)
    return Mapped("".join(parts), tuple(starts), tuple(origins), tuple(strides), tuple(ends))


def _near_names(out: _Findings, block: AnswerBlock, words: FormWords) -> None:
    """ASCII look-alikes of a statement name (:func:`near_name`), in the shown text as it stands and
    with its inline markup resolved (:func:`resolve_markup`)."""
    text = block.shown.text
    if "=" not in text:
        return
    found = [(start, end, name) for start, end, name in words.near_names(text)]
    resolved = resolve_markup(text)
    if resolved is not None:
        plain, where = resolved
        found += [(where(start), where(end - 1) + 1, name) for start, end, name in words.near_names(plain)]
    for start, end, name in found:
        out.add(
            "look_alike",
            f"{name!r} reads as a name of the answer form but is spelt otherwise; "
            "write the name exactly, or not as name=value",
            *block.shown.span(start, end),
            quote=name,
        )


def _look_alike(out: _Findings, start: int, end: int, run: str) -> None:
    out.add(
        "look_alike",
        "this text reads as a form (a statement, a directive, a version) but holds "
        "non-ASCII look-alikes; write the form in ASCII",
        start,
        end,
        quote=run,
    )


def _compare(out: _Findings, block: AnswerBlock, words: FormWords) -> None:
    """Form-like text must be the same, as often, raw and rendered."""
    raw_tokens = words.tokens(block.raw.text, raw=True)
    shown_tokens = words.tokens(block.shown.text)
    shown = Counter((kind, token) for kind, token, _, _ in shown_tokens)
    raw = Counter((kind, token) for kind, token, _, _ in raw_tokens)
    for kind, token, i, j in raw_tokens:
        if shown[(kind, token)] > 0:
            shown[(kind, token)] -= 1
            continue
        span = block.raw.span(i, j)
        if _overlaps(span, block.hidden):
            out.add(
                "hidden_form",
                "form-like text a terminal shows and a chat window hides (in a comment, "
                "a tag, a link's destination or title, a definition, a fence's info string)",
                *span,
                quote=token,
            )
        else:
            out.add(
                "escaped_form",
                "form-like text a chat window shows otherwise than a terminal (escapes, character references)",
                *span,
                quote=token,
            )
    for kind, token, i, j in shown_tokens:
        if raw[(kind, token)] > 0:
            raw[(kind, token)] -= 1
            continue
        out.add(
            "escaped_form",
            "form-like text a chat window shows that a terminal does not (written with "
            "character references or escapes)",
            *block.shown.span(i, j),
            quote=token,
        )


def _hidden_code_statements(out: _Findings, block: AnswerBlock, words: FormWords) -> None:
    """A statement only code makes (``name: value``, ``--name value``) in a fence's info string: some
    chat windows show the info string, some do not (``hidden_form``, as a ``name=value`` there is)."""
    shown = Counter((s.name, s.value) for s in words.code_statements(block.shown.text))
    for statement in words.code_statements(block.raw.text):
        if shown[(statement.name, statement.value)] > 0:
            shown[(statement.name, statement.value)] -= 1
            continue
        span = block.raw.span(statement.start, statement.end)
        if _overlaps(span, block.hidden):
            out.add(
                "hidden_form",
                "form-like text a terminal shows and a chat window may hide (a fence's info string)",
                *span,
                quote=block.raw.text[statement.start : statement.end],
            )


def _doubts(out: _Findings, block: AnswerBlock, words: FormWords) -> None:
    """Form-like text in a block, or a stretch, whose reading is in doubt."""
    raw_tokens = words.tokens(block.raw.text, raw=True)
    if not raw_tokens and not words.look_alikes.runs(block.raw.text):
        return
    if block.doubt is not None:
        out.add(
            "unclear_markup",
            f"readers may show this block differently: {block.doubt}; write the forms in plain paragraphs",
            block.start,
            block.end,
        )
        return
    for _kind, token, i, j in raw_tokens:
        span = block.raw.span(i, j)
        if _overlaps(span, block.unsure):
            out.add(
                "unclear_markup",
                "a browser may end the raw HTML here elsewhere than a Markdown reader does, and show or hide this text",
                *span,
                quote=token,
            )


def _pairing(out: _Findings, block: AnswerBlock, words: FormWords) -> None:
    """Code spans holding form-like text must pair the same for a terminal's reader (the next run of
    as many backticks on the line) as CommonMark pairs them; a run left open must not start a form."""
    if block.plain:  # the same pairing: only the runs left open
        for match in _BACKTICK_RUN.finditer(block.shown.text):
            if words.begun.match(block.shown.text, match.end()):
                out.add(
                    "broken_form", "a backtick is not closed on its line", *block.shown.span(match.start(), match.end())
                )
        return
    raw = block.raw
    naive: dict[tuple[int, int], str] = {}
    line_start = 0
    for line in raw.text.split("\n"):
        for at, length, end in _naive_pairs(line):
            if end < 0:
                if words.begun.match(line, at + length):
                    out.add(
                        "broken_form",
                        "a backtick is not closed on its line",
                        *raw.span(line_start + at, line_start + at + length),
                    )
                continue
            naive[raw.span(line_start + at, line_start + end)] = line[at + length : end - length]
        line_start += len(line) + 1
    paired = {(span.start, span.end): span.content for span in block.spans}
    for span in sorted(naive.keys() - paired.keys()):
        if words.formish(naive[span]):
            out.add(
                "unclear_markup",
                "a terminal's reader pairs these backticks, a Markdown reader does not "
                "(an escape, an autolink or raw HTML shifts the pairing)",
                *span,
            )
    for span in sorted(paired.keys() - naive.keys()):
        if words.formish(paired[span]):
            out.add(
                "unclear_markup",
                "a Markdown reader pairs these backticks otherwise than a terminal's "
                "reader (over a line end, or around an escape)",
                *span,
            )


#: A start tag that hides or reorders its content, or may (an inline style can hide it: ``display:none``;
#: ``dir`` and ``bdo`` reorder it, a ``color`` can make it invisible): an element of
#: :data:`~_conflict_gate.answer.html.HIDING_ELEMENTS`, or one with a ``hidden``, ``style``, ``dir`` or
#: ``color`` attribute (HTML 13.2.5: attributes are apart by ASCII whitespace, ``/`` or a quote ending a value).
_HIDING_TAG: Final = re.compile(
    rf"<(?:(?:{'|'.join(sorted(HIDING_ELEMENTS))})(?![A-Za-z0-9-])|[A-Za-z][A-Za-z0-9-]*"
    r"[^>]*?[\t\n\f\r \"'/](?:hidden|style|dir|color)(?=[\t\n\f\r =/>]|\Z))",
    re.IGNORECASE | re.ASCII,
)


def _hiding_markup(out: _Findings, reading: AnswerReading, block: AnswerBlock, words: FormWords) -> None:
    """Form-like text after raw HTML in its block that hides or reorders its content or may
    (``<span hidden>``, ``<span style="display:none">``, ``<details>``, ``<bdo dir="rtl">``): a chat
    window may not show it as written."""
    text = reading.text
    first = next((a for a, b in block.hidden if text.startswith("<", a) and _HIDING_TAG.match(text, a, b)), None)
    if first is None:
        return
    for _kind, token, i, j in words.tokens(block.raw.text, raw=True):
        start, end = block.raw.span(i, j)
        if start > first:
            out.add(
                "unclear_markup",
                "raw HTML before this text hides or reorders its content or may (a "
                "hidden, style, dir or color attribute, or an element that hides, strikes out or reorders "
                "what it holds): a chat window may not show it as written",
                start,
                end,
                quote=token,
            )


def _naive_pairs(line: str) -> list[tuple[int, int, int]]:
    """``(start, length, end)`` of each backtick run of ``line`` as a terminal's reader pairs them: up
    to the next run of the same length (``end`` past it), or ``-1`` when none follows. Linear."""
    runs = [(m.start(), len(m.group())) for m in _BACKTICK_RUN.finditer(line)]
    following: list[int] = [-1] * len(runs)
    last: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):
        following[index] = last.get(runs[index][1], -1)
        last[runs[index][1]] = index
    out, i = [], 0
    while i < len(runs):
        at, length = runs[i]
        close = following[i]
        if close < 0:
            out.append((at, length, -1))
            i += 1
            continue
        out.append((at, length, runs[close][0] + length))
        i = close + 1
    return out


def _links(out: _Findings, reading: AnswerReading, block: AnswerBlock) -> None:
    """A citation whose brackets make a link (a destination or a label after it, or a definition of
    its text) renders without them; one inside a link's text (``[[source: ...]](url)``) renders as a
    link to somewhere else."""
    if not block.links and not reading.labels and not block.link_texts:
        return
    texts = sorted(block.link_texts)
    text_starts = [a for a, _ in texts]
    reach = list(itertools.accumulate((b for _, b in texts), max))  # the furthest end of texts so far

    def in_link_text(start: int, end: int) -> bool:
        k = bisect.bisect_right(text_starts, start) - 1
        return k >= 0 and reach[k] >= end

    for match in _CITATION_TOKEN.finditer(block.raw.text):
        token, i, j = match.group(), match.start(), match.end()
        if not token.endswith("]"):
            continue
        start, end = block.raw.span(i, j)
        label = " ".join(token[1:-1].split()).casefold()
        if end in block.links or label in reading.labels or in_link_text(start, end):
            out.add(
                "unclear_markup",
                "this citation renders as a link, without its brackets; write it as plain text",
                start,
                end,
                quote=token,
            )


def _broken_citations(out: _Findings, text: str) -> None:
    """A citation begun and not completed (or not ASCII), and bracketed look-alikes of one."""
    pos = text.find(_CITATION_START)
    while pos != -1:
        match = _CITATION.match(text, pos)
        if match is None or not match.group().isascii():
            end = text.find("]", pos)
            out.add(
                "broken_form",
                f"a citation is begun but is not {ANSWER_FORM.citation.format(source_id='ID', line='LINE')} in ASCII",
                pos,
                end + 1 if end != -1 else len(text),
            )
        pos = text.find(_CITATION_START, pos + 1)
    for match in _BRACKETED.finditer(text):
        _bracket(out, match.group(), match.start(), match.end())


def _look_alike_brackets(out: _Findings, shown: Mapped, text: str) -> None:
    """Bracketed look-alikes of a citation in what a chat window shows (written with references)."""
    if text.isascii():
        return
    for match in _BRACKETED.finditer(text):
        if not match.group().isascii():
            _bracket(out, match.group(), *shown.span(match.start(), match.end()))


def _bracket(out: _Findings, segment: str, start: int, end: int) -> None:
    if segment.startswith(_CITATION_START):
        return  # judged as a citation
    normalized = unicodedata.normalize("NFKC", segment).casefold()
    if _CITATION_LIKE.search(normalized) or (not segment.isascii() and "source" in normalized):
        out.add(
            "broken_form",
            "text that looks like a citation is not the citation form (ASCII only)",
            start,
            end,
            quote=segment,
        )

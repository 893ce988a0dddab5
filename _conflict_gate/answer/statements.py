"""What one answer, as read, states and cites, checked against one ready decision (no I/O).

Its statements of an option and a value, its citations (the answer form of
:mod:`~_conflict_gate.manifest.form`), its code and prose regions and table cells, and the findings
each yields (reference/answer-check.md)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, Final, NamedTuple

from ..corpus.load import Corpus
from ..manifest.form import ANSWER_FORM, RESERVED_KEYS
from ..results.shapes import FINDING_FIELDS, Decision, Finding, build
from . import disguise
from .disguise import (
    cell_token,
    cell_values,
    column_values,
    disguised_statements,
    enum_member,
    resolve_disguises,
)
from .findings import finding
from .forms import BLANK, SEPARATORS, FormWords, Statement, resolve_markup
from .inline import within
from .layouts import code_forms, conditionals, html_rows, later_cells, merged_rows, rowspans, tool_pins
from .reader import CODE_MARK, AnswerBlock, AnswerReading, CodeSpan
from .sections import Section, descriptions, section_pairs
from .struck import struck_ranges

_CITATION: Final = ANSWER_FORM.citation_pattern()
_CITATION_START: Final = ANSWER_FORM.citation_start()
#: Blocks whose text outside code is prose (a directive's body there is a quote without its backticks).
_PROSE_KINDS: Final = frozenset({"paragraph", "heading", "table", "html_block"})
#: Blocks whose whole shown text is code.
_CODE_KINDS: Final = frozenset({"fenced_code", "indented_code"})
#: A code span's (or code element's) content between its code marks, in a block's shown text.
_CODE_REGION: Final = re.compile(f"{CODE_MARK}+[^{CODE_MARK}]*{CODE_MARK}+")
#: After a code span's content in shown text: its closing code marks (after the one space trimmed off),
#: then separators, markup or punctuation at most, then an ASCII letter or digit (or another code span
#: starting with one): a value glued on.
_GLUED: Final = re.compile(rf" ?{CODE_MARK}+[{re.escape(SEPARATORS)}]*{CODE_MARK}*[A-Za-z0-9]")


#: A colon form's operator at a code span's edge in shown text (`existing_path`: `x`, `existingPath:` `x`).
_COLON_EDGE: Final = re.compile(rf"{CODE_MARK}[^\S\r\n]*[\"']?(?::|=>)|(?::=?|=>)[^\S\r\n]*{CODE_MARK}")
#: In a code span's content: what a statement only code makes holds (``:``, ``=>``, ``</``, ``setattr``,
#: ``define``; a flag's ``--`` is looked for in the whole text).
_CODE_ONLY: Final = re.compile(r":|=>|</|setattr|define")


_finding: Final = finding


class _Citation(NamedTuple):
    start: int
    end: int
    line: int
    source_id: str
    claim_line: int
    struck: bool = False  # shown struck out (only looked for when it is a claim's citation)


class _Check:
    """What one answer, as read, states and cites, against one ready decision."""

    def __init__(
        self,
        corpus: Corpus,
        decision: Decision,
        reading: AnswerReading,
        words: FormWords,
        *,
        agreed: Mapping[tuple[str, str], str] | None = None,
        claims: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        self.corpus = corpus
        self.reading = reading
        self.words = words
        #: A context decision's check (``gate_context``): every agreed (operation, key) -> value; the
        #: operation checked is ``words``'s, and ``claims`` are the agreed keys' claims (citable).
        self.context = agreed is not None
        self.all_agreed: Mapping[tuple[str, str], str] = agreed or {}
        self.claims = {(c["source_id"], c["start_line"]): c for c in (decision["claims"] if claims is None else claims)}
        if agreed is not None:
            self.operation = words.operation
            self.agreed = {key: value for (op, key), value in agreed.items() if op == self.operation}
            self.key, self.value = words.key, self.agreed[words.key]
        else:
            self.operation = decision["operation"]
            self.key = decision["claim_key"]
            self.value = decision["agreed_value"]
            self.agreed = {self.key: self.value}
        self.stated_keys: set[tuple[str, str]] = set()
        self.stated_version = False
        self.version = decision["requested_version"]
        self.version_name = RESERVED_KEYS[0]
        self.findings: list[Finding] = []
        self.citation_starts: list[int] = []

    def add(self, kind: str, detail: str, start: int | None, end: int | None, **extra: Any) -> None:
        self.findings.append(_finding(kind, detail, start, end, **extra))

    def run(self) -> list[Finding]:
        """Citations, then quotes and statements in answer order, then what is missing."""
        citations = self._citations()
        self.citation_starts = [citation.start for citation in citations]
        cited = set()
        for citation in citations:
            if (citation.source_id, citation.claim_line) in self.claims:
                if not citation.struck:  # a struck citation cites nothing
                    cited.add((citation.source_id, citation.claim_line))
            else:
                self.add(
                    "unknown_citation",
                    "this citation is not the line of a claim of the decision",
                    citation.start,
                    citation.end,
                    source_id=citation.source_id,
                    line=citation.claim_line,
                )
        before = len(self.findings)
        stated_value = stated_version = False
        value_form = f"{self.key}={self.value}"
        version_form = f"{self.version_name}={self.version}"
        value_forms = {f"{key}={value}": key for key, value in self.agreed.items()}
        is_quote, previous = self.words.is_quote, None
        anchor: disguise.ListName | None = None
        section: Section | None = None  # a name on a line of its own, and the block after it (sections)
        for block in self.reading.blocks:
            quotes: list[tuple[int, int]] = []  # shown ranges of quotes' content
            struck: list[tuple[int, int]] | None = None
            for span in block.spans:
                content = span.content
                if content in value_forms or content == version_form:
                    if struck is None:
                        struck = struck_ranges(self.reading.text, block)
                    if within(span.start, struck):
                        continue  # struck out: a reader sees it withdrawn, not stated
                    if _GLUED.match(block.shown.text, span.shown_at + len(content)):
                        self.add(
                            "broken_form",
                            "the statement's code span is followed by more of a value "
                            "(a letter or a digit, after punctuation or emphasis at most): a reader reads "
                            "one longer value",
                            span.start,
                            span.end,
                            quote=content,
                        )
                        continue
                if content in value_forms:
                    stated_value = stated_value or content == value_form
                    self.stated_keys.add((self.operation, value_forms[content]))
                elif content == version_form:
                    stated_version = True
                elif is_quote(content):
                    quotes.append((span.shown_at, span.shown_at + len(content)))
                    self._quote(content, span.start, span.end, citations)
            self._statements(block, quotes)
            pairs, anchor = disguise.block_pairs(self.words, self.reading.text, previous, block, anchor)
            labelled, section = section_pairs(self.words, self.reading.text, previous, block, section)
            pairs += labelled
            previous = block
            for pair in pairs:
                self._judge(pair, pair.start, pair.end, self.reading.text[pair.start : pair.end])
        # every finding here has a span: order them as the answer does
        self.findings[before:] = sorted(self.findings[before:], key=itemgetter("start"))
        for source_id, claim_line in sorted(self.claims):
            claim = self.claims[(source_id, claim_line)]
            if self.context and (claim["operation"], claim["claim_key"]) not in self.stated_keys:
                continue  # a context answer cites the claims of the keys it states
            if (source_id, claim_line) not in cited:
                self.add(
                    "missing_citation",
                    "a claim of the decision is not cited at its line",
                    None,
                    None,
                    source_id=source_id,
                    line=claim_line,
                )
        self.stated_version = stated_version
        if self.context:  # what is missing is judged over every operation's check (_context_findings)
            return self.findings
        if not stated_value:
            self.add("missing_value", f"the answer does not state `{value_form}`", None, None)
        if not stated_version:
            self.add("missing_version", f"the answer does not state `{version_form}`", None, None)
        return self.findings

    def _citations(self) -> list[_Citation]:
        """Every citation a reader sees (prose or code), in answer order."""
        found = []
        for block in self.reading.blocks:
            shown = block.shown
            if _CITATION_START not in shown.text:
                continue
            struck: list[tuple[int, int]] | None = None
            for match in _CITATION.finditer(shown.text):
                start, end = shown.span(match.start(), match.end())
                digits = match.group(2)
                line = int(digits) if len(digits) <= 9 and digits == str(int(digits)) else -1
                if (match.group(1), line) in self.claims and struck is None:
                    struck = struck_ranges(self.reading.text, block)
                found.append(
                    _Citation(
                        start,
                        end,
                        self.reading.line_of(start),
                        match.group(1),
                        line,
                        struck is not None and within(start, struck),
                    )
                )
        return sorted(found)

    def _statements(self, block: AnswerBlock, quotes: list[tuple[int, int]]) -> None:
        """Every statement and directive a reader sees outside a quote, against the decision."""
        shown = block.shown
        text = shown.text
        if quotes:  # judged as quotes: blank them out (same length) before reading statements
            parts: list[str] = []
            copied = 0
            for a, b in quotes:
                parts += (text[copied:a], BLANK * (b - a))
                copied = b
            parts.append(text[copied:])
            text = "".join(parts)
        spans: dict[tuple[int, int], CodeSpan] | None = None
        judged: set[int] = set()  # answer offsets of the statements found at fault
        for statement in self.words.statements(text):
            if spans is None:
                spans = {(span.shown_at, span.shown_at + len(span.content)): span for span in block.spans}
            span = spans.get((statement.start, statement.end))
            if span is not None:  # the whole of a code span: the form's place, backticks included
                start, end, quote = span.start, span.end, span.content
            else:
                start, end = shown.span(statement.start, statement.end)
                quote = text[statement.start : statement.end]
            if self._judge(statement, start, end, quote):
                judged.add(start)
        resolved = resolve_markup(text) if "=" in text else None
        if resolved is not None:  # emphasis and link brackets as a reader sees them: not there
            plain, where = resolved
            for statement in self.words.statements(plain):
                a, b = where(statement.start), where(statement.end - 1) + 1
                if b - a == statement.end - statement.start:
                    continue  # no markup inside: judged above as it stands
                start, end = shown.span(a, b)
                if start not in judged and self._judge(statement, start, end, text[a:b]):
                    judged.add(start)
        # name: value, "name": value, --name value: in code only (each holds a colon or two hyphens)
        for statement in self._code_forms(block, text):
            start, end = shown.span(statement.start, statement.end)
            if start not in judged and self._judge(statement, start, end, text[statement.start : statement.end]):
                judged.add(start)
        if block.kind not in _CODE_KINDS and (":" in text or "--" in text):
            # and with emphasis and link brackets taken out, as a chat window shows them (**`existing_path`**: `x`)
            if resolved is None and "=" not in text:
                resolved = resolve_markup(text)
            if resolved is not None:
                plain, where = resolved
                for statement in self._code_forms(block, plain):
                    a, b = where(statement.start), where(statement.end - 1) + 1
                    start, end = shown.span(a, b)
                    if start not in judged and self._judge(statement, start, end, text[a:b]):
                        judged.add(start)
        disguised = resolve_disguises(text)
        if disguised is not None:  # LaTeX, Mermaid's entity codes, arrows: as a chat window shows them
            plain, where = disguised
            for statement in [*self.words.statements(plain), *self._code_forms(block, plain)]:
                a, b = where(statement.start), where(statement.end - 1) + 1
                start, end = shown.span(a, b)
                if start not in judged and self._judge(statement, start, end, plain[statement.start : statement.end]):
                    judged.add(start)
        if block.kind in _CODE_KINDS and "\\\n" in text:  # a shell line continuation: one command, as run
            plain, where = _continued(text)
            for statement in self._code_forms(block, plain):
                a, b = where(statement.start), where(statement.end - 1) + 1
                start, end = shown.span(a, b)
                if start not in judged and self._judge(statement, start, end, plain[statement.start : statement.end]):
                    judged.add(start)
        layout = []
        if block.kind == "html_block":
            layout = html_rows(self.words, text, rowspans(self.words, block.raw.text))
        if block.kind == "paragraph":
            layout = descriptions(self.words, text)
        if block.kind in _CODE_KINDS:
            layout = conditionals(self.words, text) + tool_pins(self.words, text) + code_forms(self.words, text)
        elif block.spans:  # a code form in one code span of prose (Pass `ExistingPath.OVERWRITE`.)
            regions = [(m.start(), m.end()) for m in _CODE_REGION.finditer(text)]
            starts = [a for a, _ in regions]
            for st in code_forms(self.words, text):
                k = bisect.bisect_right(starts, st.start) - 1
                if k >= 0 and st.end <= regions[k][1]:
                    layout.append(st)
        for statement in disguised_statements(self.words, text, block.kind) + layout:  # calls, pairs, idioms
            start, end = shown.span(statement.start, statement.end)
            if start not in judged and self._judge(statement, start, end, text[statement.start : statement.end]):
                judged.add(start)
        for statement in self.words.pins(text, block.kind in _CODE_KINDS or bool(block.spans) or bool(block.code)):
            start, end = shown.span(statement.start, statement.end)
            if start not in judged and self._judge(statement, start, end, text[statement.start : statement.end]):
                judged.add(start)
        if block.kind == "table" and "\t" in text:
            for statement in self._table_statements(block, text):
                start, end = shown.span(statement.start, statement.end)
                if start not in judged and self._judge(
                    statement, start, end, f"| {statement.name} | {statement.value} |"
                ):
                    judged.add(start)
        for at, stop, operation, key, value in self.words.directives(text):
            if operation == self.operation and key in self.words.names:
                continue  # a key of the operation is judged as a statement
            start, end = shown.span(at, stop)
            if self.context:
                if self.all_agreed.get((operation, key)) != value:
                    self.add(
                        "other_value",
                        f"states {operation} {key}={value}: not a claim every eligible page agrees on",
                        start,
                        end,
                        quote=text[at:stop],
                    )
                continue
            self.add(
                "other_value",
                f"states {operation} {key}={value}; the decision is {self.operation} {self.key}={self.value}",
                start,
                end,
                quote=text[at:stop],
            )
        if block.kind in _PROSE_KINDS and self.words.body.search(text):
            prose = _CODE_REGION.sub(lambda m: BLANK * len(m.group()), text)
            for match in self.words.body.finditer(prose):
                start, end = shown.span(match.start(), match.end())
                self.add(
                    "broken_form",
                    "a directive is written in prose, without the backticks of a quote",
                    start,
                    end,
                    quote=match.group(),
                )

    def _code_forms(self, block: AnswerBlock, text: str) -> list[Statement]:
        """The statements only code makes in ``text`` (a block's shown text, or it with its markup taken
        out): all of them in a code block; in prose, those whose name and value are in code (one code
        span or element, or two a chat window shows as one statement: `existing_path`: `overwrite`), and
        a flag with ``=`` (``--existing-path=x``)."""
        found: list[Statement] = []
        if (
            block.kind in _CODE_KINDS
            or block.code
            or "--" in text
            or (
                block.spans
                and (
                    _COLON_EDGE.search(text) is not None
                    or any(_CODE_ONLY.search(span.content) is not None for span in block.spans)
                )
            )
        ):
            found = list(self.words.code_statements(text))
        if found and block.kind not in _CODE_KINDS:
            opens = [m.start() for m in _CODE_REGION.finditer(text)]
            closes = [m.end() for m in _CODE_REGION.finditer(text)]

            def in_code(at: int) -> bool:
                k = bisect.bisect_right(opens, at) - 1
                return k >= 0 and at < closes[k]

            found = [
                st
                for st in found
                if (in_code(st.start) and in_code(st.end - 1))
                or (text.startswith("--", st.start) and "=" in text[st.start : st.end])
            ]
        return found

    def _table_statements(self, block: AnswerBlock, text: str) -> list[Statement]:
        """A table row's cell that is a name (or a language form or another spelling of one), and the cell
        after it in its row holding one value token: a reader sees ``| existing_path | overwrite |`` as a
        statement of that value. In the header row only when the value cell reads as a value, not a column's
        title (in code, quoted, starting with a digit, or a value the grammar has: ``| version | 2.0 |``,
        not ``| Version | Changes |``); never a cell of several words (a description) nor a type name
        (``| existing_path | str | ... |``). The cells' code edges, emphasis and quotes are not part of the
        name or the value."""
        cells: list[tuple[int, int]] = []
        at = 0
        for cell in text.split("\t"):
            cells.append((at, at + len(cell)))
            at += len(cell) + 1
        if len(cells) < 2:
            return []
        shown = block.shown
        # an empty cell's row is its separator's (the tab after it maps into its row): columns stay aligned
        # (hostile round 6: | | existing_path | then | Quill 2.0 | overwrite | read overwrite under no name)
        lines = [
            self.reading.line_of(shown.span(a, b if b > a else a + 1)[0]) if b > a or b < len(text) else -1
            for a, b in cells
        ]
        header = next((line for line in lines if line >= 0), -1)
        found = []
        for (a, b), (c, d), line, next_line in zip(cells, cells[1:], lines, lines[1:]):
            if line < 0 or line != next_line:
                continue
            name, name_at = cell_token(text, a, b)
            if not name or not self.words.spelt_as(name):
                continue
            value, value_at = cell_token(text, c, d)
            if value and any(ch.isspace() for ch in value):  # several words: each value of the grammar in them
                found += [Statement(name, v, name_at, value_at + e) for v, e in cell_values(self.words, value)]
                continue
            if not value or value in self.words.type_names:
                continue
            if line == header and not (
                CODE_MARK in text[c:d] or value[0] in "\"'" or value[0].isdigit() or value in self.words.values
            ):
                continue  # a column's title
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            found.append(Statement(name, value, name_at, value_at + len(value)))
        found += column_values(self.words, text, cells, lines) + later_cells(self.words, text, cells, lines)
        return found + merged_rows(self.words, text, cells, lines)

    def _judge(self, statement: Statement, start: int, end: int, quote: str) -> bool:
        """Judge one statement against the decision; ``True`` when it is at fault (a finding added)."""
        before = len(self.findings)
        # a line break in it shows as a space; a code span's edge inside it, nothing
        seen = quote.replace("\r\n", " ").replace("\n", " ") if "\n" in quote else quote
        if CODE_MARK in seen:
            seen, quote = seen.replace(CODE_MARK, ""), quote.replace(CODE_MARK, "`")
        name = self.words.name_of(statement.name)  # a language form's name, None for another spelling
        if self.words.spelt_as(statement.name) & self.words.spelt_as(statement.value):
            return False  # the name's own variable passed on (existing_path=existing_path): no value stated
        if name != self.version_name:  # an enum constant of the name (ExistingPath.REFUSE) states its member
            statement = statement._replace(value=enum_member(self.words, statement.name, statement.value))
        if not seen.isascii() or not seen.isprintable():
            self.add(
                "non_ascii_in_form", "the statement holds a non-ASCII or control character", start, end, quote=quote
            )
        elif name == self.version_name:
            if not self.words.agrees(statement.value, self.version):
                self.add(
                    "other_version", f"states version {statement.value}, not {self.version}", start, end, quote=quote
                )
        elif name is None and self.version_name in self.words.spelt_as(statement.name):
            self.add(
                "other_version",
                f"states {statement.name}={statement.value}, not "
                f"{self.version_name}={self.version}: {statement.name} is no way a language writes "
                f"{self.version_name}",
                start,
                end,
                quote=quote,
            )
        elif self.context and (name is None or name not in self.agreed):
            self.add(
                "other_value",
                f"states {statement.name}={statement.value}: not a key every eligible page "
                f"agrees on (agreed: {', '.join(f'{k}={v}' for k, v in self.agreed.items())})",
                start,
                end,
                quote=quote,
            )
        elif self.context and name is not None:
            if not self.words.agrees(statement.value, self.agreed[name]):
                self.add(
                    "other_value",
                    f"states {statement.name}={statement.value}; the pages agree on {name}={self.agreed[name]}",
                    start,
                    end,
                    quote=quote,
                )
        elif name is None:
            self.add(
                "other_value",
                f"states {statement.name}={statement.value}: {statement.name} is no way a "
                f"language writes {self.key}; an answer states only the decision's {self.key}={self.value}",
                start,
                end,
                quote=quote,
            )
        elif name != self.key:
            self.add(
                "other_value",
                f"states another key, {statement.name}={statement.value}: an answer states "
                f"only the decision's {self.key}={self.value}",
                start,
                end,
                quote=quote,
            )
        elif not self.words.agrees(statement.value, self.value):
            self.add(
                "other_value",
                f"states {statement.name}={statement.value}; the decision is {self.key}={self.value}",
                start,
                end,
                quote=quote,
            )
        return len(self.findings) > before

    def _quote(self, content: str, start: int, end: int, citations: list[_Citation]) -> None:
        # the two kinds of CORPUS_WIDE_FINDINGS: the only findings that look beyond the decision's sources
        if not content.isascii() or not content.isprintable():
            self.add("non_ascii_in_form", "the quote holds a non-ASCII or control character", start, end, quote=content)
            return
        line = bisect.bisect_right(self.reading.line_ends, end - 1)
        k = bisect.bisect_left(self.citation_starts, end)
        after = citations[k] if k < len(citations) and citations[k].line == line else None
        if after is None:
            self.add(
                "quote_without_citation",
                "a quoted directive has no citation after it on its line",
                start,
                end,
                quote=content,
            )
            return
        source_id, claim_line = after.source_id, after.claim_line
        claim = self.claims.get((source_id, claim_line))
        if claim is not None and claim["quote"] == content:
            return
        if content in self.corpus.quote_index:
            kind, detail = (
                "misattributed",
                (
                    "this text is in a pinned source, but it is not the claim at "
                    + ANSWER_FORM.citation.format(source_id=source_id, line=claim_line)
                ),
            )
        else:
            kind, detail = "quote_not_found", "no pinned source contains this directive"
        self.findings.append(
            build(
                Finding,
                FINDING_FIELDS,
                {
                    "kind": kind,
                    "detail": detail,
                    "start": start,
                    "end": end,
                    "quote": content,
                    "source_id": source_id,
                    "line": claim_line,
                },
            )
        )


_CONTINUATION: Final = re.compile(r"\\\r?\n[ \t]*")


def _continued(text: str) -> tuple[str, Callable[[int], int]]:
    """``text`` with each line continuation (a backslash ending a line, and the next line's indentation) read as
    one space, as a shell runs it (``quill copy --existing-path \\`` then ``  overwrite a b``; hostile round 6),
    and a map from its offsets back to ``text``'s."""
    pieces: list[str] = []
    starts: list[int] = []  # each piece's start in the result, and where it comes from in text
    origins: list[int] = []
    at = length = 0
    for match in _CONTINUATION.finditer(text):
        for piece, origin in ((text[at : match.start()], at), (" ", match.start())):
            starts.append(length)
            origins.append(origin)
            pieces.append(piece)
            length += len(piece)
        at = match.end()
    starts.append(length)
    origins.append(at)
    pieces.append(text[at:])

    def where(offset: int) -> int:
        k = bisect.bisect_right(starts, offset) - 1
        return origins[k] + offset - starts[k]

    return "".join(pieces), where

"""What the reader finds on a page while it reads it: claims, near-misses and refusals (no I/O).

Each refusal keeps its line, column and reason (the vocabularies of ``_conflict_gate.base.registry``);
code points a reader does not see (Unicode's bidirectional formatting and invisible characters) are
found here too, and so is directive-shaped text loosely read (reference/directives.md)."""

from __future__ import annotations

import html
import re
import sys
import unicodedata
from typing import TYPE_CHECKING, Final

from ..base.errors import DirectiveError
from ..manifest.grammar import Grammar
from .blocks import Leaf
from .inline_spans import View, visible_word
from .reading_shapes import MAX_NEAR_MISSES, QUOTE_LIMIT, Claim, NearMiss, Reading
from .renderers import Renderer

if TYPE_CHECKING:  # the mkdocs renderer's own module, imported with its value
    from .mkdocs import MkDocsPage

_ANGLE: Final = re.compile(r"<[A-Za-z/]|[>\"']", re.ASCII)


# --------------------------------------------------------------------------


class _Findings:
    """What was found in one source, in byte offsets into its UTF-8 (``view`` is those bytes as
    Latin-1); :meth:`reading` turns them into lines, columns and code points, in line order."""

    def __init__(
        self,
        view: str,
        encoded: bytes,
        grammar: Grammar,
        source_id: str | None,
        path: str | None,
        renderer: Renderer,
        stated: frozenset[int] = frozenset(),
    ) -> None:
        self.view = view
        self.encoded = encoded
        self.grammar = grammar
        self.renderer = renderer
        #: candidates on lines that state a claim under any at-word (see _stated_claims)
        self.stated = stated
        #: whether the page may hold link reference definitions (a ``]:`` anywhere)
        self.definitions = "]:" in view
        self.where = {"source_id": source_id, "path": path}
        #: the raw line last asked about by mention(): (start, end, "=" on it, end of its last operation)
        self._line = (-1, -1, False, -1)
        #: (line start, line end, line number, parsed)
        self.directives: list[tuple[int, int, int, tuple[str, str, str]]] = []
        self.problems: list[tuple[int, DirectiveError]] = []  # (offset, error)
        self.near_misses: list[tuple[int, str]] = []  # (offset, where)
        self._counted = (0, 1)  # (offset, line number there): line numbers count on from here
        self.carriage_returns = "\r" in view
        #: whether shortcuts that read a block without the inline rules may be taken (``fast``)
        self.fast = True
        #: what the renderer's site model found (``Renderer.site``), and the leaf being read
        self.site: MkDocsPage | None = None
        self.leaf: Leaf | None = None
        #: for _tag_open: (paragraph start, offset read up to, (a tag seen, its ">" seen, quotes after it))
        self._angle: tuple[int, int, tuple[bool, bool, int, int]] = (-1, -1, (False, True, 0, 0))

    def decode(self, start: int, end: int) -> str:
        return self.encoded[start:end].decode("utf-8", "surrogatepass")

    def mention(self, at: int) -> bool:
        """Is the namespace-shaped text at byte ``at`` a mention: no operation of the
        grammar after it and no ``=`` on its line, as any reading could show the line (markup
        removed, character references decoded, NFKC)? A mention states nothing, so it never
        refuses. Lines are asked in increasing order and each is read once."""
        start, end, equals, last_operation = self._line
        if not start <= at <= end:
            view = self.view
            low = end + 1 if 0 <= end < at else 0
            start = max(view.rfind("\n", low, at) + 1, low)
            end = view.find("\n", at)
            end = len(view) if end == -1 else end
            if self.carriage_returns:
                start = max(start, view.rfind("\r", start, at) + 1)
                cr = view.find("\r", at, end)
                end = end if cr == -1 else cr
            loose = unicodedata.normalize("NFKC", html.unescape(_TAG.sub("", self.decode(start, end))))
            equals = "=" in loose
            last_operation = -1
            for operation in self.grammar.operation_word.finditer(self.encoded, start, end):
                last_operation = operation.start()
            self._line = (start, end, equals, last_operation)
        return not equals and last_operation < at

    def line_of(self, offset: int) -> tuple[int, int, int]:
        """``(1-based line, line start, line end)`` of a byte offset (the end before the line ending).

        Lines end at ``\n``, ``\r\n`` or a lone ``\r`` (CommonMark 2.1).
        """
        view = self.view
        start = view.rfind("\n", 0, offset) + 1
        end = view.find("\n", offset)
        end = len(view) if end == -1 else end
        if self.carriage_returns:
            start = max(start, view.rfind("\r", start, offset) + 1)
            cr = view.find("\r", offset, end)
            end = end if cr == -1 else cr
        counted_at, counted_line = self._counted
        if start < counted_at:
            counted_at, counted_line = 0, 1
        line = counted_line + view.count("\n", counted_at, start)
        if self.carriage_returns:
            line += view.count("\r", counted_at, start) - view.count("\r\n", counted_at, start)
        self._counted = (start, line)
        return line, start, end

    def anchor(self, leaf: Leaf) -> None:
        """Take a leaf's first line number, so that :meth:`line_of` counts on from there."""
        line_no, start, _ = leaf.lines[0]
        if start > self._counted[0]:
            view = self.view
            line_start = view.rfind("\n", 0, start) + 1
            if self.carriage_returns:
                line_start = max(line_start, view.rfind("\r", line_start, start) + 1)
            self._counted = (line_start, line_no + 1)

    def column(self, offset: int, line_start: int) -> int:
        """1-based column of a byte offset, in code points."""
        return len(self.decode(line_start, offset)) + 1

    def refuse(self, reason: str, offset: int, detail: str) -> None:
        line, start, end = self.line_of(offset)
        self.problems.append(
            (
                offset,
                DirectiveError(
                    reason,
                    detail,
                    quote=self.decode(start, end)[:QUOTE_LIMIT],
                    line=line,
                    column=self.column(offset, start),
                    **self.where,
                ),
            )
        )

    def near_miss(self, offset: int, where: str) -> None:
        if self.site is not None and where != "mention" and self.leaf is not None:
            kind, first = self.leaf.kind, self.leaf.lines[0][1]
            why = (
                self.site.code_doubt(offset, first, kind)
                if kind in ("fenced_code", "indented_code")
                else self.site.hidden_doubt(offset, kind)
                if where == "hidden"
                else _line_doubt(self.site.doubts.get(offset))
                if where == "code"  # a code span MkDocs may read otherwise (hostile round 5)
                else None
            )
            if why is not None:
                self.refuse(
                    "ambiguous_markup", offset, f"the gate cannot be sure how a reader sees this line: {why}; {_SHOULD}"
                )
                return
        if len(self.near_misses) < MAX_NEAR_MISSES:
            self.near_misses.append((offset, where))

    def _tag_open(self, start: int) -> bool:
        """Is a ``<`` and a letter (or ``/``) earlier in the current paragraph left open before ``start``:
        no ``>`` after it, or an odd number of ``"`` or ``'`` after it (a quoted attribute value may
        run on)? Read on from where the last call stopped (linear over a paragraph)."""
        assert self.leaf is not None
        first = self.leaf.lines[0][1]
        begun, scanned, state = self._angle
        if begun != first or scanned > start:
            begun, scanned, state = first, first, (False, True, 0, 0)
        seen, closed, double, single = state
        for mark in _ANGLE.finditer(self.view, scanned, start):
            found = mark.group()
            if found == ">":
                closed = True
            elif found == '"':
                double += 1
            elif found == "'":
                single += 1
            else:
                seen, closed, double, single = True, False, 0, 0
        self._angle = (begun, start, (seen, closed, double, single))
        return seen and (not closed or double % 2 == 1 or single % 2 == 1)

    def directive(self, start: int, end: int) -> None:
        """A counted directive line ``[start, end)``: parse it now (a grammar error refuses). Where the
        renderer's site model doubts the line (``MkDocsPage.doubts``), it is in doubt instead."""
        doubt = None if self.site is None else self.site.doubts.get(start)
        if doubt is None and self.site is not None and start in self.site.code:
            doubt = (
                "MkDocs shows this line in a fence superfences reads (it closes fences only at the "
                "opener's indentation and run)",
                self.line_of(start)[0] - 1,
            )
        if doubt is None and self.site is not None and self.leaf is not None and self._tag_open(start):
            doubt = (
                "MkDocs (Python-Markdown) takes a tag begun on an earlier line of this paragraph to run "
                "over this line, and hides it",
                self.leaf.lines[0][0],
            )
        if doubt is not None:
            why, cause = doubt
            self.refuse(
                "ambiguous_markup",
                start,
                f"the gate cannot be sure how a reader sees this line: {why} (line {cause + 1}); {_SHOULD}",
            )
            return
        line, _, _ = self.line_of(start)
        try:
            parsed = self.grammar.parse(self.decode(start, end), line=line, **self.where)
        except DirectiveError as error:
            self.problems.append((start, error))
            return
        self.directives.append((start, end, line, parsed))

    def reading(self, bom_bytes: int) -> Reading:
        claims: list[Claim] = []
        declared: dict[tuple[str, str], int] = {}
        problems = list(self.problems)
        points = _CodePoints(self.encoded, ascii=self.view.isascii())  # the view is the bytes as Latin-1
        for start, end, line, (operation, key, value) in self.directives:
            quote = sys.intern(self.decode(start, end))  # pages repeat the same lines (see the occurrences)
            first = declared.get((operation, key))
            if first is not None:
                problems.append(
                    (
                        start,
                        DirectiveError(
                            "duplicate_directive",
                            f"{operation} {key} is already declared on line {first}",
                            quote=quote[:QUOTE_LIMIT],
                            line=line,
                            column=1,
                            **self.where,
                        ),
                    )
                )
                break
            declared[(operation, key)] = line
            start_point = points(start)
            claims.append(
                Claim(
                    operation,
                    key,
                    value,
                    line,
                    start_point,
                    start_point + len(quote),
                    start + bom_bytes,
                    end + bom_bytes,
                    quote,
                )
            )
        near = []
        for offset, where in self.near_misses:
            line, start, end = self.line_of(offset)
            near.append(
                NearMiss(line, self.column(offset, start), where, sys.intern(self.decode(start, end)[:QUOTE_LIMIT]))
            )
        if problems:
            return Reading((), min(problems, key=lambda p: p[0])[1], tuple(near))
        return Reading(tuple(claims), None, tuple(near))


class _CodePoints:
    """Byte offset -> code-point offset in the decoded text, for increasing offsets (linear overall)."""

    def __init__(self, encoded: bytes, *, ascii: bool = False) -> None:
        self.encoded = encoded
        self.ascii = ascii  # then a byte is a code point: nothing to count
        self.at = self.points = 0

    def __call__(self, offset: int) -> int:
        if self.ascii:
            return offset
        if offset < self.at:
            self.at = self.points = 0
        piece = self.encoded[self.at : offset]
        self.points += len(piece) if piece.isascii() else len(piece.decode("utf-8", "surrogatepass"))
        self.at = offset
        return self.points


_SHOULD: Final = (
    "a directive counts only as a line of its own in a top-level paragraph; put examples in backticks or a code block"
)


def _line_doubt(doubt: tuple[str, int] | None) -> str | None:
    """A site model's doubt about a line (``MkDocsPage.doubts``: why, 0-based line of the cause) as a reason."""
    return None if doubt is None else f"{doubt[0]} (line {doubt[1] + 1})"


def _shaped(f: _Findings, view: View, index: int) -> bool | None:
    """Does directive-shaped text start at view ``index``? ``None`` when the gate will not read that far."""
    if index < 0:
        return False
    word = visible_word(view, index)
    if word is None:
        return None
    return f.grammar.shape.match(word) is not None


def _shaped_raw(f: _Findings, at: int) -> bool:
    """Is the raw text at byte ``at`` (code, hidden HTML: no markup applies) directive-shaped?"""
    segment, _ = _rest_of_line(f, at, 4 * (len(f.grammar.namespace) + 8))
    return bool(_shaped(f, View(segment, (0,), (0,), (1,)), 0))


_TAG: Final = re.compile(r"<[^>]*>?")
_LOOSE_LIMIT: Final = 1024  # bytes after an at sign read by _loosely_shaped


def _loosely_shaped(f: _Findings, at: int) -> bool:
    """Could any reading show directive-shaped text at byte ``at``? Used where readers differ.

    Sound and coarse: the rest of the line with tags removed, character
    references resolved and NFKC applied, keeping letters and digits only,
    starts with the namespace's letters and digits (case-insensitive). A line
    longer than :data:`_LOOSE_LIMIT` bytes that stays undecided counts as shaped.
    """
    segment, cut = _rest_of_line(f, at, _LOOSE_LIMIT)
    segment = unicodedata.normalize("NFKC", html.unescape(_TAG.sub("", segment)))
    letters = "".join(ch for ch in segment[1:] if ch.isalnum()).casefold()
    wanted = f.grammar.namespace_letters
    return letters.startswith(wanted) or (cut and wanted.startswith(letters))


def _rest_of_line(f: _Findings, at: int, limit: int) -> tuple[str, bool]:
    """The source from byte ``at`` to its line's end, at most ``limit`` bytes, decoded (a character
    cut at the limit is dropped); and whether the limit cut the line."""
    end = min(len(f.encoded), at + limit)
    cut = end < len(f.encoded)
    for ending in (b"\n", b"\r"):
        found = f.encoded.find(ending, at, end)
        if found != -1:
            end, cut = found, False
    return f.encoded[at:end].decode("utf-8", "ignore"), cut

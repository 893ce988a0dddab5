"""One line of a paragraph, read as a directive, directive-shaped text, a mention or context (no I/O).

Where the line starts and what comes before its at sign (CommonMark 0.31.2 section 4.8, paragraphs;
2.4, backslash escapes; 6, inlines), the roles written before it, the hint a malformed directive
gets, and the quiet paragraphs some renderer shows otherwise (reference/directives.md)."""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from .blocks import Leaf
from .html_tree import TEXT, Opened, RawHtml
from .inline_html import html_view
from .inline_spans import _WORD_LIMIT, InlineView, Spans, View, invisible
from .inlines import inline_view
from .reader_findings import _SHOULD, _Findings, _loosely_shaped, _rest_of_line, _shaped, _shaped_raw


def _plain_directive_lines(f: _Findings, leaf: Leaf) -> bool:
    """A top-level paragraph made only of unindented :attr:`Grammar.plain_line` lines (spaces and tabs
    after the value allowed): each is a directive line as written, read without the inline rules.
    False (nothing done) otherwise."""
    pattern, view = f.grammar.plain_line, f.view
    if pattern is None:
        return False
    ends = []
    for _, start, end in leaf.lines:
        trimmed = _trim(view, start, end)
        if (start and view[start - 1] not in "\n\r") or not pattern.fullmatch(view, start, trimmed):
            return False
        ends.append(trimmed)
    for (_, start, _), end in zip(leaf.lines, ends):
        f.directive(start, end)
        if f.problems:
            break
    return True


#: Renderers whose inline reading :func:`_quiet_paragraph` knows: CommonMark 0.31.2 + GFM inlines.
_QUIET_RENDERERS: Final = frozenset({"github", "commonmark"})
#: Outside code spans, a quiet paragraph holds none of these: every other inline construct of
#: CommonMark and GFM that can hide, move or span text (emphasis, strikethrough, links, images,
#: footnotes, raw HTML, autolinks, escapes, character references) starts with one, and so do what
#: other sites add (``$``, ``{``, ``^``, ``|``).
_LOUD: Final = re.compile(r"[*_~\[\]!<>&\\{}$^|]")
_BACKTICKS: Final = re.compile(r"`+")
#: A paragraph with more backtick strings than this is read by the inline rules.
_QUIET_RUNS: Final = 1024


def _quiet_paragraph(f: _Findings, leaf: Leaf, inside: Sequence[int]) -> bool:
    """A top-level paragraph whose candidates are all directive lines as written (unindented
    :attr:`Grammar.plain_line` lines) and whose only inline construct is code spans (CommonMark 6.1),
    none of them around a directive line: each directive line is read as written, as
    :func:`_plain_directive_lines` reads it, without the inline rules, so a directive in a long
    paragraph costs the scans of its bytes and the code spans, not the Python of every line.
    False (nothing done) otherwise, and under a renderer not in :data:`_QUIET_RENDERERS`."""
    pattern, view = f.grammar.plain_line, f.view
    if pattern is None or f.renderer.name not in _QUIET_RENDERERS:
        return False
    wanted = set(inside)
    line_starts = {start for _, start, _ in leaf.lines}
    for at in inside:  # an at sign that no reading shows as directive-shaped: nothing to read there
        if at not in line_starts and not _inert_candidate(f, at):
            return False
    pieces: list[str] = []
    directive_lines: list[tuple[int, int, int]] = []  # (content offset, line start, its end)
    offset = 0
    for _, start, end in leaf.lines:
        if start in wanted:
            trimmed = _trim(view, start, end)
            if (
                view[start] != "@"
                or (start and view[start - 1] not in "\n\r")
                or not pattern.fullmatch(view, start, trimmed)
            ):
                if not _inert_candidate(f, start):
                    return False
                wanted.discard(start)
                pieces.append(view[start:end])
                offset += end - start + 1
                continue
            wanted.discard(start)
            directive_lines.append((offset, start, trimmed))
            pieces.append(" " * (end - start))  # no backtick, nothing loud: read below as written
        else:
            pieces.append(view[start:end])
        offset += end - start + 1
    text = "\n".join(pieces)
    runs: list[tuple[int, int]] = []
    for run in _BACKTICKS.finditer(text):
        runs.append(run.span())
        if len(runs) > _QUIET_RUNS:  # many code spans: the inline rules, in their bounded memory
            return False
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    quiet_from, code = 0, []
    i = 0
    while i < len(runs):  # 6.1: a backtick string opens a code span closed by the next one of its length
        start, end = runs[i]
        same = by_length[end - start]
        k = bisect.bisect_right(same, i)
        if k == len(same):  # no closer: the string is literal text
            i += 1
            continue
        closer = same[k]
        if _LOUD.search(text, quiet_from, start):
            return False
        code.append((start, runs[closer][1]))
        quiet_from = runs[closer][1]
        i = closer + 1
    if _LOUD.search(text, quiet_from):
        return False
    for at, _start, _end in directive_lines:
        if any(a <= at < b for a, b in code):
            return False
    for _, start, end in directive_lines:
        f.directive(start, end)
        if f.problems:
            break
    return True


_WORD: Final = re.compile(r"\S*")


def _inert_candidate(f: _Findings, at: int) -> bool:
    """In a quiet paragraph (a reader sees its text as written, outside code spans), is the candidate at
    byte ``at`` one the rules pass over wherever it is: an ASCII at sign, on no line stating a claim,
    followed by a word no reading shows as directive-shaped (``docs@quill.example``) and short enough
    to be read (:data:`~_conflict_gate.reading.inline_spans._WORD_LIMIT`)?"""
    if at in f.stated or f.view[at] != "@" or _shaped_raw(f, at):
        return False
    rest, _ = _rest_of_line(f, at, 4 * _WORD_LIMIT)
    word = _WORD.match(rest)
    return word is not None and len(word.group()) < _WORD_LIMIT - 2


def _trim(view: str, start: int, end: int) -> int:
    """``end`` moved back over the spaces and tabs that end the line ``[start, end)``."""
    while end > start and view[end - 1] in " \t":
        end -= 1
    return end


class _Content:
    """One block's content, decoded, and what a reader sees of it (inline, or as HTML).

    ``text`` is the block's lines (byte spans) decoded and joined with
    ``\n``; offsets into it convert to byte offsets and back line by line.
    """

    def __init__(
        self, f: _Findings, lines: Sequence[tuple[int, int, int]], html: bool = False, views: bool = True
    ) -> None:
        self.lines = lines
        self.byte_starts = [start for _, start, _ in lines]
        self._last = (-1, 0, 0)  # (line index, byte offset, content offset) last asked
        if len(lines) == 1:  # one line: no list of lines to join (a megabyte paragraph is one line)
            self.text = f.decode(lines[0][1], lines[0][2])
            self.lengths = [len(self.text)]
        else:
            decoded = [f.decode(start, end) for _, start, end in lines]
            self.lengths = [len(line) for line in decoded]
            self.text = "\n".join(decoded)
            del decoded
        self.starts: list[int] = []
        offset = 0
        for length in self.lengths:
            self.starts.append(offset)
            offset += length + 1
        self._mention_line = (-1, -1, False, -1)  # see mention()
        self.inline: InlineView | None = None
        self.brackets = Spans()
        self.gave_up = False
        self.link_doubt = -1
        self.backtick_doubt = -1
        renderer = f.renderer
        if not views:  # the text only (raw HTML to follow)
            self.code = self.hidden = self.unsure = Spans()
            self.literal = self.linked = View("", (), (), ())
        elif html:
            visible, self.code, self.hidden, self.unsure = html_view(self.text, renderer.tag_filter, renderer.sanitized)
            self.literal = self.linked = visible
        else:
            self.inline = inline_view(self.text, renderer.tag_filter, f.definitions)
            self.literal, self.linked = self.inline.literal, self.inline.linked
            self.code, self.hidden = self.inline.code, self.inline.hidden
            self.brackets, self.gave_up = self.inline.brackets, self.inline.gave_up
            self.unsure = self.inline.unsure
            self.link_doubt = self.inline.link_doubt
            self.backtick_doubt = self.inline.backtick_doubt
        self.f = f

    def at(self, offset: int) -> int:
        """The content offset of a byte offset (decoding on from the last one asked on its line,
        so many at signs on one long line cost one pass)."""
        k = bisect.bisect_right(self.byte_starts, offset) - 1
        last_k, last_offset, last_at = self._last
        if last_k == k and last_offset <= offset:
            result = last_at + len(self.f.decode(last_offset, offset))
        else:
            result = self.starts[k] + len(self.f.decode(self.byte_starts[k], offset))
        self._last = (k, offset, result)
        return result

    def line_span(self, content_offset: int) -> tuple[int, int]:
        """The content span of the line holding ``content_offset``."""
        k = bisect.bisect_right(self.starts, content_offset) - 1
        return self.starts[k], self.starts[k] + self.lengths[k]

    def line_of(self, content_offset: int) -> int:
        """The 0-based page line of a content offset."""
        return self.lines[max(bisect.bisect_right(self.starts, content_offset) - 1, 0)][0]

    def mention(self, at: int, c: int) -> bool:
        """:meth:`_Findings.mention` judged on the line as this block's literal reading shows it (code
        spans and raw HTML left out: a reader reads no claim in code), where the at sign is in it; the
        raw line otherwise. Lines are asked in increasing order and each is read once."""
        index = self.literal.view_index(c)
        if index < 0:
            return self.f.mention(at)
        text = self.literal.text
        start, end, equals, last_operation = self._mention_line
        if not start <= index <= end:
            low = end + 1 if 0 <= end < index else 0
            start = max(text.rfind("\n", low, index) + 1, low)
            end = text.find("\n", index)
            end = len(text) if end == -1 else end
            equals = "=" in unicodedata.normalize("NFKC", text[start:end])
            last_operation = -1
            for operation in self.f.grammar.operation_text.finditer(text, start, end):
                last_operation = operation.start()
            self._mention_line = (start, end, equals, last_operation)
        return not equals and last_operation < index


def _refuse_shaped(f: _Findings, at: int, reason: str, detail: str, block: _Content | None = None, c: int = -1) -> bool:
    """Refuse at a namespace-shaped candidate, unless it is a mention (then a near-miss), judged on the
    line as ``block`` shows it if given (at content offset ``c``). True when refused."""
    if at not in f.stated and (block.mention(at, c) if block is not None else f.mention(at)):
        f.near_miss(at, "mention")
        return False
    f.refuse(reason, at, detail)
    return True


def _classify(f: _Findings, inside: Sequence[int], block: _Content, place: str | None, raw: RawHtml | None) -> bool:
    """Decide each candidate: near-miss (code, hidden, mention), directive, malformed, misplaced or ambiguous.

    ``raw``, for a paragraph, heading or table, says what raw HTML before a
    candidate leaves open around it (then it is followed to the block's end
    here). Stops at the first problem and returns True then.
    """
    if block.gave_up:
        f.refuse("too_complex", inside[0], "brackets or parentheses here nest deeper than the gate reads")
        return True
    for at in inside:
        c = block.at(at)
        stated = at in f.stated
        opened = raw.at(c) if raw is not None else None
        if 0 <= block.link_doubt <= c:
            if (_loosely_shaped(f, at) or stated) and _refuse_shaped(
                f,
                at,
                "ambiguous_markup",
                "the gate cannot be sure how a reader sees this text: a link's "
                f"destination, title or label on line {block.line_of(block.link_doubt) + 1} holds a backtick "
                "or a '<' that is part of the link if the link forms (CommonMark reads the link first), and "
                "otherwise starts a code span or raw HTML that runs on past it; write it as %60 or %3C in a "
                "destination, as &#96; or &lt; in a title",
                block,
                c,
            ):
                return True
            continue
        if 0 <= block.backtick_doubt <= c:
            if (_loosely_shaped(f, at) or stated) and _refuse_shaped(
                f,
                at,
                "ambiguous_markup",
                "the gate cannot be sure how a reader sees this text: GitHub's "
                f"cmark-gfm leaves the backticks on line {block.line_of(block.backtick_doubt) + 1} unpaired "
                "after a run no backticks close (its memo of runs), where CommonMark pairs them into a code "
                "span; close or escape the unpaired run",
                block,
                c,
            ):
                return True
            continue
        if block.unsure and block.unsure.contains(c):
            if (_loosely_shaped(f, at) or stated) and _refuse_shaped(
                f,
                at,
                "ambiguous_markup",
                "the gate cannot be sure how a reader sees this text: "
                "a browser ends this raw HTML elsewhere than CommonMark does, or the site may or may not "
                "show it as text (GFM's tag filter, a sanitizer)",
                block,
                c,
            ):
                return True
            continue
        if opened is not None and opened.kind == TEXT:
            if (_loosely_shaped(f, at) or stated) and _refuse_opened(f, at, opened, block, c):
                return True
            continue
        if f.renderer.code_spans_shown and block.code.contains(c) and _after_role(block, c):
            if (_loosely_shaped(f, at) or stated) and _refuse_shaped(
                f,
                at,
                "misplaced_directive",
                "directive-shaped text in a role's content, which MyST shows as "
                f"text (a role such as {{sub}} or {{abbr}} renders its text, not code); {_SHOULD}",
                block,
                c,
            ):
                return True
            continue
        if block.code.contains(c) or block.hidden.contains(c):
            if _shaped_raw(f, at) or stated:
                f.near_miss(at, "code" if block.code.contains(c) else "hidden")
            continue
        literal_index = block.literal.view_index(c)
        shaped_literal = _shaped(f, block.literal, literal_index)
        shaped_linked = (
            _shaped(f, block.linked, block.linked.view_index(c))
            if block.linked is not block.literal
            else shaped_literal
        )
        if shaped_literal is None or shaped_linked is None:
            f.refuse(
                "too_complex",
                at,
                f"more than {_WORD_LIMIT} characters follow this at sign without a space; the gate does not read them",
            )
            return True
        if not (shaped_literal or shaped_linked):
            if stated and (
                _at_sign_shown(block.literal, literal_index) or _at_sign_shown(block.linked, block.linked.view_index(c))
            ):
                f.refuse("malformed_directive", at, _stated_hint(f, at))
                return True
            continue
        if shaped_literal != shaped_linked:
            if _refuse_shaped(
                f,
                at,
                "ambiguous_markup",
                "the gate cannot be sure how a reader sees this text: "
                "a link's brackets, destination or title may hide or show part of it",
                block,
                c,
            ):
                return True
            continue
        if opened is not None:
            if _refuse_opened(f, at, opened, block, c):
                return True
            continue
        if place is not None:
            if _refuse_shaped(f, at, "misplaced_directive", f"directive-shaped text {place}; {_SHOULD}", block, c):
                return True
            continue
        if _top_level_line(f, at, c, literal_index, block):
            return True
    return False


#: A MyST role's name right before a code span: ``{sub}`...```, ``{abbr}`...```.
_ROLE_BEFORE: Final = re.compile(r"\{[A-Za-z0-9_:+.\-]+\}`*\Z")


def _after_role(block: _Content, c: int) -> bool:
    """Is the code span holding content offset ``c`` a MyST role's content (a ``{name}`` right before
    its backticks)? Sphinx shows a plain code span as code, a role's content as its role renders it."""
    starts = block.code.starts
    k = bisect.bisect_right(starts, c) - 1
    if k < 0:
        return False
    start = starts[k]
    return _ROLE_BEFORE.search(block.text, max(0, start - 80), start) is not None


def _at_sign_shown(view: View, index: int) -> bool:
    """Does the view show an at sign (``@``, or a look-alike NFKC makes one) at ``index``?"""
    return index >= 0 and unicodedata.normalize("NFKC", view.text[index : index + 1]) == "@"


def _refuse_opened(f: _Findings, at: int, opened: Opened, block: _Content, c: int) -> bool:
    return _refuse_shaped(
        f,
        at,
        "ambiguous_markup",
        f"the gate cannot be sure how a reader sees this line: {opened.why} (line {opened.line + 1}); {_SHOULD}",
        block,
        c,
    )


def _stated_hint(f: _Findings, at: int) -> str:
    """Why a claim stated under another at-word refuses the source."""
    word, _ = _rest_of_line(f, at, 4 * 64)
    word = word.split(None, 1)[0] if word.split() else word
    return (
        f"a reader reads a claim stated under {word[:64]!r} here, but the grammar's namespace is "
        f"{f.grammar.namespace!r}: write the directive as {f.grammar.form!r}, or put the example in "
        "backticks or a code block"
    )


def _top_level_line(f: _Findings, at: int, c: int, index: int, block: _Content) -> bool:
    """A shaped at sign in a top-level paragraph: a directive line, a malformed one, or mid-line text.

    Returns True when it refused.
    """
    text = block.literal.text
    i = index - 1
    while i >= 0 and text[i] != "\n" and (text[i].isspace() or invisible(text[i])):
        i -= 1
    if i >= 0 and text[i] != "\n":
        return _refuse_shaped(
            f, at, "misplaced_directive", f"directive-shaped text after other text on its line; {_SHOULD}", block, c
        )
    line_start, line_end = block.line_span(c)
    if block.brackets.overlaps(line_start, line_end):
        return _refuse_shaped(
            f,
            at,
            "misplaced_directive",
            f"directive-shaped text inside a link or brackets that span lines; {_SHOULD}",
            block,
            c,
        )
    if block.mention(at, c):
        f.near_miss(at, "mention")
        return False
    content = block.text
    if "~" in content and "~" in content[:line_start] and "~" in content[line_end:]:
        # GFM 6.5: a strikethrough opened above may close below, and its text is struck out
        return _refuse_shaped(
            f,
            at,
            "ambiguous_markup",
            "the gate cannot be sure how a reader sees this line: "
            "a '~' above and one below in its paragraph may strike it out (GFM strikethrough); "
            f"{_SHOULD}",
            block,
            c,
        )
    _, raw_start, raw_end = f.line_of(at)
    if at == raw_start and f.view[at] == "@":
        f.directive(raw_start, _trim(f.view, raw_start, raw_end))
        return bool(f.problems)
    prefix = f.decode(raw_start, at)
    at_sign = f.encoded[at : min(at + 4, raw_end)].decode("utf-8", "ignore")[:1] or "@"
    f.refuse("malformed_directive", at, _malformed_hint(prefix, at_sign))
    return True


def _malformed_hint(prefix: str, at_sign: str) -> str:
    """Why a line a reader sees as a directive is not exactly one, and what to do."""
    if prefix[:1] in (" ", "\t"):
        why = "it is indented; directive lines start at the first column"
    elif "\\" in prefix:
        why = "the at sign is escaped; write the line without markup"
    elif "&" in prefix or at_sign == "&":
        why = "it uses a character reference; write a plain '@' and no references before it"
    elif at_sign != "@":
        why = f"its at sign is {at_sign!r} (U+{ord(at_sign):04X}); use the ASCII '@'"
    elif prefix and all(not ch.isprintable() or ch.isspace() for ch in prefix):
        why = "invisible characters come before the at sign; remove them"
    else:
        why = "markup comes before the at sign; write the directive as a plain line"
    return f"a reader sees a directive here, but {why}"

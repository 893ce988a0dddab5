"""What raw HTML earlier in an answer may leave open around a later block, coarsely (no I/O).

The answer check (:mod:`~_conflict_gate.answer.reader`) only needs to know
whether form-like text *may* sit inside raw HTML a browser keeps open: then
its rendering is in doubt and the answer is malformed (``unclear_markup``). It
reads the answer's raw text as a browser tokenizes it (HTML Living Standard
13.2.5), as if all of it were raw HTML, and follows only the elements that hide
or strike out their content. That can only add doubt, never remove it, which
is what an answer check that fails closed needs. A page is judged exactly, as
its renderer's tree is built (:mod:`~_conflict_gate.reading.html_tree`).
"""

from __future__ import annotations

import re
from typing import Final

from ..reading.inline_html import browser_markup_end
from ..reading.inline_spans import Indexes

__all__ = ["HIDING_ELEMENTS", "OpenHtml"]


#: Elements whose content a browser hides, shows struck through or reorders (``bdo``), for which raw HTML opened in
#: an earlier block may still be open around a later one (HTML 13.2.6: the parser keeps its stack
#: of open elements across everything CommonMark passes through).
HIDING_ELEMENTS: Final = frozenset(
    {"template", "textarea", "title", "xmp", "plaintext", "noscript", "dialog", "details", "del", "s", "strike", "bdo"}
)
_MARKUP: Final = re.compile(r"<(?:!--|\?|![A-Za-z\[]|(/?)([A-Za-z][A-Za-z0-9-]*))", re.ASCII)
#: A ``hidden``, ``style``, ``dir`` or ``color`` attribute, which may hide or reorder content (HTML 13.2.5: attributes are apart by ASCII whitespace, a quote ends a value
#: before one). Matched on the byte view: ASCII only, so a byte of a non-ASCII character is no space.
_HIDDEN_ATTRIBUTE: Final = re.compile(
    r"[\t\n\f\r \"'/](?:hidden|style|dir|color)(?:[\t\n\f\r =/>]|\Z)", re.IGNORECASE | re.ASCII
)


class OpenHtml:
    """What raw HTML before a block may leave open around it, read from the raw text as a browser
    tokenizes it (:func:`~_conflict_gate.reading.inline_html.browser_markup_end`) as if all of it were raw HTML
    (code spans and blocks are not told apart, so text there can only add doubt): markup not closed
    yet (a comment, a declaration, a tag whose quoted value runs on), or an element of
    :data:`HIDING_ELEMENTS` (or any with such an attribute: a style may hide it) opened more often than closed.
    Asked for increasing offsets; linear in the text read."""

    def __init__(self, view: str) -> None:
        self.view = view
        self.indexes = Indexes(view)
        self.pos = 0
        self.open: dict[str, list[int]] = {}  # element name -> offsets of its unclosed start tags
        self.lines: dict[int, int] = {}  # offset -> 0-based line, for messages
        self.held: tuple[int, int] | None = None  # markup hiding the text from its start up to its end

    def before(self, offset: int) -> tuple[int, str] | None:
        """``(0-based line, why)`` when the block starting at ``offset`` may sit inside raw HTML."""
        view = self.view
        if self.held is not None:
            at, end = self.held
            if end > offset:
                return self._doubt(
                    at, "HTML markup opened here is still open; a browser hides what follows until it closes"
                )
            self.held, self.pos = None, end
        while self.pos < offset:
            match = _MARKUP.search(view, self.pos, offset)
            if match is None:
                self.pos = offset
                break
            at = match.start()
            end = browser_markup_end(view, at, self.indexes, stop=offset + 1)  # past the block: enough to know
            if end < 0:  # text
                self.pos = match.end()
                continue
            if end > offset:
                # A comment, or a quoted value, runs on over this block; other markup ends at the
                # first ">" of the tags the renderer writes around the block, before its text.
                rendered = view[at:offset] + "> "  # a quoted value would run on past the ">"
                if view.startswith("<!--", at) or browser_markup_end(rendered, 0, Indexes(rendered)) > offset - at + 1:
                    self.held = (at, browser_markup_end(view, at, self.indexes))  # where it ends, once
                    return self._doubt(
                        at, "HTML markup opened here is still open; a browser hides what follows until it closes"
                    )
                self.pos = offset
                break
            name = (match.group(2) or "").lower()
            if match.group(1):
                if self.open.get(name):
                    self.open[name].pop()
            elif name and (name in HIDING_ELEMENTS or _HIDDEN_ATTRIBUTE.search(view, match.end(), end)):
                self.open.setdefault(name, []).append(at)
            self.pos = end
        still = [at for starts in self.open.values() for at in starts]
        if still:
            return self._doubt(
                min(still),
                "an HTML element that hides or strikes out its content opened "
                "here may still be open; a browser shows what follows inside it",
            )
        return None

    def _doubt(self, at: int, why: str) -> tuple[int, str]:
        if at not in self.lines:
            self.lines[at] = self.view.count("\n", 0, at)
        return self.lines[at], why

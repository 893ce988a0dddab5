"""What a chat window shows struck out in one block of an answer (no I/O).

A required statement or a citation a reader sees struck through
(``~~`existing_path=refuse`~~``, ``<del>[source: quill-guide:37]</del>``) is
withdrawn, not stated: the answer check (:mod:`~_conflict_gate.answer.check`) does
not count it. What is struck is read coarsely, to fail closed: GFM's
strikethrough (one or two tildes) pairs a run of tildes with the next run of
as many tildes in the block's shown text outside code spans (flanking rules
aside, so it may find more than GitHub strikes, never less on one line), and
inline ``<del>``, ``<s>`` and ``<strike>`` are struck from their start tag to
their end tag (or the block's end).
"""

from __future__ import annotations

import re
from typing import Final

from .reader import CODE_MARK, AnswerBlock

__all__ = ["struck_ranges"]

_TILDES: Final = re.compile("~+")
_CODE_REGION: Final = re.compile(f"{CODE_MARK}+[^{CODE_MARK}]*{CODE_MARK}+")
_STRIKE_TAG: Final = re.compile(r"<(/?)(del|s|strike)(?![A-Za-z0-9-])", re.IGNORECASE | re.ASCII)


def struck_ranges(text: str, block: AnswerBlock) -> list[tuple[int, int]]:
    """Answer spans that ``block`` (of the answer ``text``) shows struck out, sorted. Linear."""
    found: list[tuple[int, int]] = []
    shown = block.shown
    if "~" in shown.text:
        code = [(m.start(), m.end()) for m in _CODE_REGION.finditer(shown.text)] if CODE_MARK in shown.text else []
        runs = []
        c = 0
        for match in _TILDES.finditer(shown.text):
            while c < len(code) and code[c][1] <= match.start():
                c += 1
            if c < len(code) and code[c][0] <= match.start():
                continue
            if len(match.group()) <= 2:
                runs.append((match.start(), match.end()))
        open_at: dict[int, int] = {}
        for start, end in runs:
            length = end - start
            if length in open_at:
                found.append((shown.span(open_at.pop(length), start + 1)[0], shown.span(start, end)[1]))
            else:
                open_at[length] = start
    if block.hidden and block.kind != "link_definition":
        opened: dict[str, int] = {}
        for a, b in block.hidden:
            tag = _STRIKE_TAG.match(text, a, b)
            if tag is None:
                continue
            name = tag.group(2).lower()
            if not tag.group(1):
                opened.setdefault(name, a)
            elif name in opened:
                found.append((opened.pop(name), b))
        found += [(a, block.end) for a in opened.values()]
    return sorted(found)

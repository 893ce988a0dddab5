"""A name on a line of its own and the block after it: statements a reader sees across a blank line (no I/O).

Hostile round 6, item 5. A heading (ATX or setext) or a paragraph that is only a name (in code, bold or emphasis,
a colon after it allowed) is a label: the block after it, when it *starts* with a value, states that value for
the name, as if it stood on the name's line (:func:`section_pairs`). A definition list's term and each of its
descriptions (:func:`descriptions`). The decision is in reference/answer-check.md ("A name on a line of its
own"); each scan is linear (a block is looked at once, a statement's span is the name's block and one item at
most)."""

from __future__ import annotations

import re
from typing import Final

from ..manifest.form import RESERVED_KEYS
from .disguise import BARE_EDGES, cell_values
from .forms import SEPARATORS, FormWords, Statement
from .reader import CODE_MARK, AnswerBlock

__all__ = ["Section", "descriptions", "section_pairs"]

#: The name in force after a label: the name, where its block starts, and the column of the list being read under
#: it (-1 while the first block after the label is awaited).
Section = tuple[str, int, int]

#: A token a reader takes as a value on its own: a word, a number or a version, an identifier.
_VALUE_SHAPED: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+\-]*")
#: A list item's marker and what may stand before it on its line (a block quote's ``>``).
_ITEM_MARKER: Final = re.compile(r"[ \t>]*(?:[-*+]|[0-9]{1,9}[.)])[ \t]+")
#: What may stand before a block's first token without being read: spaces and emphasis.
_LEAD: Final = " \t*_"
_CODE_KINDS: Final = frozenset({"fenced_code", "indented_code"})


def _label(words: FormWords, block: AnswerBlock) -> str | None:
    """The name a heading or a paragraph is, when it is only that (its edges, emphasis and a colon aside)."""
    if block.kind not in ("heading", "paragraph"):
        return None
    name = block.shown.text.strip(BARE_EDGES).rstrip(":").strip(BARE_EDGES)
    if not name or any(ch.isspace() for ch in name) or not words.spelt_as(name):
        return None
    return name


def _item_column(text: str, start: int) -> int | None:
    """The column where a block's paragraph starts when it opens a list item (its marker before it on its line)."""
    line_start = text.rfind("\n", 0, start) + 1
    return start - line_start if _ITEM_MARKER.fullmatch(text, line_start, start) else None


def _token(shown: str, at: int) -> tuple[str, int, int]:
    """The token at ``at`` in a block's shown text (``at`` past spaces and emphasis): a code span's content or a
    bare value-shaped word; ``(token, start, end)``, the end past the code span's closing mark, or ``("", at, at)``."""
    while at < len(shown) and shown[at] in _LEAD:
        at += 1
    if shown.startswith(CODE_MARK, at):
        close = shown.find(CODE_MARK, at + 1)
        if close < 0:
            return "", at, at
        content = shown[at + 1 : close].strip()
        if len(content) >= 2 and content[0] == content[-1] and content[0] in "\"'":
            content = content[1:-1]
        return content, at, close + 1
    match = _VALUE_SHAPED.match(shown, at)
    if match is None:
        return "", at, at
    token = match.group().rstrip(SEPARATORS)
    return token, at, at + len(token)


def _allowed(words: FormWords, name: str) -> set[str]:
    """The values the grammar has for the keys ``name`` is spelt as."""
    rules = words.grammar.operations.get(words.operation, {})
    return {value for key in words.spelt_as(name) for value in getattr(rules.get(key), "values", ())}


def _leading(words: FormWords, name: str, shown: str) -> tuple[str, int] | None:
    """The value a block's shown text starts with, for ``name``, and its end: a value of the key's grammar, for
    ``version`` a token starting with a digit, or any value-shaped token that is the whole block (bare, not a
    capitalised word unless a value in another case: ``2. Copy.`` is a sentence); in a ``1.0:
    value`` pair (a version, a colon), the token after the colon, whatever it is. ``None`` when prose only
    mentions a value later (``Unlike `overwrite`, ...``)."""
    token, _, end = _token(shown, 0)
    if not token or not _VALUE_SHAPED.fullmatch(token) or words.spelt_as(token):
        return None
    version = RESERVED_KEYS[0] in words.spelt_as(name)
    rest = shown[end:].lstrip(_LEAD + CODE_MARK)
    if token[0].isdigit() and not version and rest.startswith(":"):  # 1.0: `refuse`: the pair's value
        value, _, value_end = _token(shown, len(shown) - len(rest) + 1)
        return (value, value_end) if value and not words.spelt_as(value) else None
    if token in _allowed(words, name) or (version and token[0].isdigit()):
        return token, end
    if not rest.strip(BARE_EDGES + SEPARATORS):  # the block is only the token
        prose = not shown.lstrip(_LEAD).startswith(CODE_MARK) and token.istitle() and token.isalpha()
        if not prose or token.lower() in _allowed(words, name):  # a one-word sentence (2. Copy.) is words
            return token, end
    return None


def section_pairs(
    words: FormWords, text: str, previous: AnswerBlock | None, block: AnswerBlock, section: Section | None
) -> tuple[list[Statement], Section | None]:
    """A label (a heading or a paragraph that is only a name, :func:`_label`) and the block after it, across blank
    lines: a paragraph starting with a value (:func:`_leading`), each item of a list whose items start with one
    (or with a ``1.0: value`` pair), a code block holding only a value token, each states that value for the
    name. ``section`` is the name in force after the previous block (``None`` at first); returns the statements
    (offsets the answer's, ``text``; the first spans the label to the value, a later item only itself) and the
    name in force. A paragraph label with a paragraph right under it (no blank line) is left to
    :func:`~.disguise.block_pairs` (a nested item). Hostile round 6, item 5."""
    found: list[Statement] = []
    if section is not None and previous is not None:
        name, start, column = section
        item = _item_column(text, block.start)
        section = None
        if column < 0 and block.kind == "paragraph":
            if previous.kind == "paragraph" and text[previous.end : block.start].count("\n") <= 1:
                pass  # a nested item (block_pairs reads it)
            else:
                value = _leading(words, name, block.shown.text)
                if value is not None:
                    found.append(Statement(name, value[0], start, block.shown.span(0, value[1])[1]))
                if item is not None:
                    section = (name, start, item)
        elif column < 0 and block.kind in _CODE_KINDS:
            value_text = block.shown.text.strip()
            if len(value_text) >= 2 and value_text[0] == value_text[-1] and value_text[0] in "\"'":
                value_text = value_text[1:-1]
            if _VALUE_SHAPED.fullmatch(value_text) and not words.spelt_as(value_text):
                found.append(Statement(name, value_text, start, block.end))
        elif column >= 0 and block.kind == "paragraph" and item == column:  # the list's next item
            value = _leading(words, name, block.shown.text)
            if value is not None:
                found.append(Statement(name, value[0], block.start, block.shown.span(0, value[1])[1]))
            section = (name, start, column)
    label = _label(words, block)
    if label is not None:
        section = (label, block.start, -1)
    return found, section


def descriptions(words: FormWords, text: str) -> list[Statement]:
    """In a paragraph's shown text, a definition list's term that is a name (a line of only it) and each of its
    description lines (``: ...``, up to the next line that is not one): each value of the grammar in them as a
    whole word, and for ``version`` a description starting with a digit, is a value of the name (fail closed, as a
    table's cell of several words). The first description's statements span from the term's line (one finding where
    the one-token label reads it too), a later one's its own line. Hostile round 6, item 5: only a first description of one token
    was read."""
    if "\n:" not in text and "\n :" not in text:
        return []
    found = []
    name: tuple[str, int] | None = None
    first = True
    at = 0
    for line in text.split("\n"):
        stripped = line.lstrip(" \t")
        begin = at + len(line) - len(stripped)
        if stripped.startswith(":") and stripped[1:2] in (" ", "\t") and name is not None:
            body = stripped[1:].strip(BARE_EDGES)
            head = body.split(None, 1)[0].strip(SEPARATORS) if body else ""
            start = name[1] if first else begin  # the first from the term: one finding with the label's
            first = False
            if head[:1].isdigit() and RESERVED_KEYS[0] in words.spelt_as(name[0]):
                found.append(Statement(name[0], head, start, begin + stripped.index(head) + len(head)))
            else:
                found += [Statement(name[0], v, start, begin + e) for v, e in cell_values(words, stripped)]
        else:
            bare = stripped.strip(BARE_EDGES).rstrip(":").strip(BARE_EDGES)
            known = bare and not any(ch.isspace() for ch in bare) and words.spelt_as(bare)
            name, first = ((bare, begin) if known else None), True
        at += len(line) + 1
    return found

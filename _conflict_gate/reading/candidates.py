"""Where directive-shaped text may start on a page, found in its UTF-8 bytes (no I/O).

The page reader (:mod:`~_conflict_gate.reading.reader`) decides only at these offsets:
the at signs that may start directive-shaped text (the grammar's candidate
patterns: ``@``, its look-alikes and references), every at sign on a line
that states a claim under any at-word (an operation of the grammar and one of
its keys followed by ``=``), and those on lines that state one once
look-alikes are read as ASCII (:func:`~_conflict_gate.reading.lookalike.skeleton`).
:func:`occurrences` records, per verified source, the text after each
candidate, for the answer check's quote lookup. Every function is linear in
the page and stops one past :data:`MAX_CANDIDATES`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from typing import Final

from ..manifest.grammar import Grammar
from .lookalike import skeleton

__all__ = ["MAX_CANDIDATES", "MAX_OCCURRENCE_CHARS", "candidates_of", "may_state_claims", "occurrences", "stated_keys"]

#: A source with more candidate at signs than this is refused (``too_complex``) unread.
MAX_CANDIDATES: Final = 10_000
#: Occurrences (``Reading.occurrences``) are cut to this many code points.
MAX_OCCURRENCE_CHARS: Final = 256
_NAME_BYTES: Final = re.compile(rb"[A-Za-z0-9_.\-]+")

_JUMPS: Final = 64


def candidates_of(encoded: bytes, grammar: Grammar, *, full: bool = False) -> tuple[list[int], frozenset[int]]:
    """Byte offsets of the at signs that may start directive-shaped text or state a claim, in order
    (at most one past the cap); and those of them that state a claim under an at-word that is not
    the namespace (:func:`_stated_claims`). A page without an at sign in any spelling costs three or
    four memchr (and a search for references from its ``&``, if any: ``&amp;`` spells none).
    ``full``: without that shortcut nor that of a page that names no operation
    (:func:`may_state_claims`; the same result, for the tests)."""
    found: list[int] = []
    if (
        not full
        and b"@" not in encoded
        and (b"&" not in encoded or grammar.at_sign_reference.search(encoded) is None)  # '&' spelling none
        and (b"\xef" not in encoded or not any(literal in encoded for literal in grammar.at_sign_literals))
    ):
        return found, frozenset()  # no at sign in any spelling: nothing starts or states a claim
    lead_ef = b"\xef" in encoded  # U+FF20 and U+FE6B are both encoded from 0xEF
    for literal, pattern in grammar.candidates:
        if (lead_ef or literal[0] != 0xEF) and literal in encoded:
            more = []
            # Few at signs: jump from one to the next (memchr) and match there; many: let the
            # pattern scan, which costs less per at sign than a jump.
            at, jumps = encoded.find(literal), 0
            while at != -1 and jumps < _JUMPS:
                if pattern.match(encoded, at):
                    more.append(at)
                at, jumps = encoded.find(literal, at + 1), jumps + 1
            if at != -1:
                for match in pattern.finditer(encoded, at):
                    more.append(match.start())
                    if len(more) > MAX_CANDIDATES:
                        break
            found = sorted(found + more) if found else more
    stated = _stated_claims(encoded, grammar, full=full)
    if not encoded.isascii():
        stated += _look_alike_claims(encoded, grammar, full=full)
    if stated:
        found = sorted(set(found).union(stated))
    return found, frozenset(stated)


#: Bytes one of which ends every match of :attr:`Grammar.stated_key` (``=``, a reference, U+FF1D, U+FE66).
_EQUALS_BYTES: Final = (b"=", b"&", b"\xef")
#: Past this many such bytes, :func:`stated_keys` scans the whole page instead of their lines.
_EQUALS_LINES: Final = 256


def stated_keys(encoded: bytes, grammar: Grammar, *, signed: bool = False) -> Iterator[re.Match[bytes]]:
    """``grammar.stated_key.finditer(encoded)``, scanning only the lines that hold a byte such a match
    ends with (:data:`_EQUALS_BYTES`): a match never spans a line (no part of it matches a line
    ending), so the matches and their order are the same, and a page without ``=`` costs three
    ``bytes.find``. ``signed``: only on the lines that also hold an at sign (``grammar.at_sign``)."""
    pattern = grammar.stated_key
    at: list[int] = []
    for ending in _EQUALS_BYTES:
        position = encoded.find(ending)
        while position != -1 and len(at) <= _EQUALS_LINES:
            at.append(position)
            position = encoded.find(ending, position + 1)
    if not at:
        return
    if len(at) > _EQUALS_LINES:
        yield from pattern.finditer(encoded)
        return
    plain = signed and _plain_at_signs(encoded)
    carriage = b"\r" in encoded  # else no search for one to the page's end from every line
    done = 0
    for position in sorted(at):
        if position < done:
            continue
        start = max(encoded.rfind(b"\n", done, position), encoded.rfind(b"\r", done, position)) + 1
        start = max(start, done)
        end = encoded.find(b"\n", position)
        end = len(encoded) if end == -1 else end
        if carriage:
            carriage_return = encoded.find(b"\r", position, end)
            end = end if carriage_return == -1 else carriage_return
        if not signed or _next_at_sign(encoded, grammar, plain, start, end) != -1:
            yield from pattern.finditer(encoded, start, end)
        done = end


def _plain_at_signs(encoded: bytes) -> bool:
    """The at sign's other spellings (``grammar.at_sign``) start with ``&`` or 0xEF: without either on
    the page, every at sign is an ``@``."""
    return b"&" not in encoded and b"\xef" not in encoded


def _next_at_sign(encoded: bytes, grammar: Grammar, plain: bool, start: int, end: int) -> int:
    """The offset of the first at sign in ``[start, end)``, or -1 (``plain``: :func:`_plain_at_signs`,
    then a memchr): where ``grammar.at_sign`` would find it (it has no literal first, so ``re`` would try
    it at every byte), the first of its spellings' first offsets, each found by a memchr no further
    than the first found so far, and the references tried at each ``&`` before it. Linear in the bytes
    up to the at sign (a little past it)."""
    if plain:
        return encoded.find(b"@", start, end)
    first, bound = -1, end
    for literal in grammar.at_sign_literals:
        at = encoded.find(literal, start, bound)
        if at != -1:
            first, bound = at, min(end, at + _LONGEST_LITERAL - 1)  # a spelling before it ends by then
    amp = encoded.find(b"&", start, end if first == -1 else first)
    while amp != -1:
        if grammar.at_sign_reference.match(encoded, amp, end):
            return amp
        amp = encoded.find(b"&", amp + 1, end if first == -1 else first)
    return first


#: The longest of ``Grammar.at_sign_literals`` (U+FF20 and U+FE6B: three bytes).
_LONGEST_LITERAL: Final = 3
#: Past this many operations, :func:`may_state_claims` does not look for each name (it says "may").
_NAMED_OPERATIONS: Final = 32


def may_state_claims(encoded: bytes, grammar: Grammar) -> bool:
    """Whether an operation's name occurs in ``encoded`` (ASCII case-insensitive, as ``stated_word``
    matches it): without one, no line states a claim under any at-word, so :func:`_stated_claims` finds
    nothing. C-level scans only (one ``bytes.lower``, a ``bytes.find`` per name); "may" past
    :data:`_NAMED_OPERATIONS` operations."""
    names = grammar.operation_bytes
    if len(names) > _NAMED_OPERATIONS:
        return True
    lowered = encoded.lower()  # ASCII letters only, as a bytes pattern's IGNORECASE folds them
    return any(name in lowered for name in names)


def _stated_claims(encoded: bytes, grammar: Grammar, *, full: bool = False) -> list[int]:
    """The at signs on lines that state a claim under any at-word: after the line's first
    at sign, an operation of the grammar and later one of its keys followed by ``=``, as the raw
    bytes spell them (ASCII case-insensitive). The claim is stated under the last at sign before
    its operation (``Ask @alice about `@quill create_copy existing_path=x``` states it under
    ``@quill``, in code, not under ``@alice``: issue 29); those at signs, in order (at most one past
    :data:`MAX_CANDIDATES`). Linear: each line is read once, from its first ``key=``; a page that
    names no operation (:func:`may_state_claims`) is not read line by line (``full``: it is, as the
    tests' reference)."""
    found: list[int] = []
    if not full and not may_state_claims(encoded, grammar):
        return found
    done = 0  # lines before this offset were read
    carriage_returns = b"\r" in encoded
    for key in stated_keys(encoded, grammar, signed=True):  # a line without an at sign states nothing
        if key.start() < done:
            continue
        line_start = max(encoded.rfind(b"\n", done, key.start()) + 1, done)
        line_end = encoded.find(b"\n", key.start())
        line_end = len(encoded) if line_end == -1 else line_end
        if carriage_returns:
            line_start = max(line_start, encoded.rfind(b"\r", line_start, key.start()) + 1)
            cr = encoded.find(b"\r", key.start(), line_end)
            line_end = line_end if cr == -1 else cr
        done = line_end
        first = grammar.at_sign.search(encoded, line_start, key.start())
        if first is None:
            continue
        operations: dict[str, int] = {}  # operation -> the at sign before its first occurrence
        last_at, searched = first.start(), first.end()
        for word in grammar.stated_word.finditer(encoded, first.end(), line_end):
            if word.lastgroup == "op":
                for at in grammar.at_sign.finditer(encoded, searched, word.start()):
                    last_at = at.start()
                searched = word.start()
                operations.setdefault(word.group().decode("latin-1").lower(), last_at)
            else:
                spelled = _NAME_BYTES.match(word.group())
                owners = grammar.key_owners.get(spelled.group().decode("latin-1").lower()) if spelled else None
                under = sorted({at for operation, at in operations.items() if owners and operation in owners})
                if under:
                    found.extend(under)
                    break
        if len(found) > MAX_CANDIDATES:
            break
    return found


_NON_ASCII_BYTE: Final = re.compile(rb"[\x80-\xff]")
_LINE_BREAK: Final = re.compile(rb"[\r\n]")


def _look_alike_claims(encoded: bytes, grammar: Grammar, *, full: bool = False) -> list[int]:
    """The at signs on lines that state a claim only once look-alikes are read as ASCII
    (:func:`~_conflict_gate.reading.lookalike.skeleton`: ``@quіll сreate_copy existing_path=overwrite`` with a
    Cyrillic ``і`` and ``с``, or a ``꞊`` for ``=``): a reader sees a second directive there. Only
    lines holding an at sign and a non-ASCII byte are read, each once, found from the at signs
    (a page has fewer of them than lines with a non-ASCII word): linear."""
    found: list[int] = []
    pos, n = 0, len(encoded)
    plain = _plain_at_signs(encoded)
    while len(found) <= MAX_CANDIDATES:
        at = _next_at_sign(encoded, grammar, plain, pos, n)
        if at == -1:
            break
        start = max(encoded.rfind(b"\n", pos, at), encoded.rfind(b"\r", pos, at)) + 1
        start = max(start, pos)
        end_match = _LINE_BREAK.search(encoded, at)
        end = n if end_match is None else end_match.start()
        pos = end + 1
        if _NON_ASCII_BYTE.search(encoded, start, end) is None:
            continue
        folded = skeleton(encoded[start:end].decode("utf-8", "replace")).encode("utf-8", "surrogatepass")
        if _stated_claims(folded, grammar, full=full):
            found.extend(sign.start() for sign in grammar.at_sign.finditer(encoded, start, end))
    return found


def occurrences(encoded: bytes, candidates: Sequence[int]) -> tuple[str, ...]:
    """``Reading.occurrences``: from each candidate that is an ASCII at sign (at most
    :data:`MAX_CANDIDATES`), the rest of its line, cut to :data:`MAX_OCCURRENCE_CHARS` code points
    (a character cut by the byte cap is dropped); distinct, in source order, each interned."""
    found: dict[str, None] = {}
    cap = 4 * MAX_OCCURRENCE_CHARS
    for at in candidates[:MAX_CANDIDATES]:
        if encoded[at] != 0x40:  # a look-alike or a reference: no ASCII quote starts there
            continue
        end = min(len(encoded), at + cap)
        for ending in (b"\n", b"\r"):
            found_at = encoded.find(ending, at, end)
            if found_at != -1:
                end = found_at
        found.setdefault(encoded[at:end].decode("utf-8", "ignore")[:MAX_OCCURRENCE_CHARS])
    # interned: pages repeat the same directive lines, so a corpus keeps each text once
    return tuple(map(sys.intern, found))

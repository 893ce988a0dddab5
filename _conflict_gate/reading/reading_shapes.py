"""What reading one source yields (:class:`Reading`: claims, near-misses, left-out regions) and the reader's
size limits (no I/O).

:mod:`~_conflict_gate.reading.reader` produces these values; reference/directives.md describes them."""

from __future__ import annotations

from typing import Final, NamedTuple

from ..base.errors import DirectiveError

__all__ = ["MAX_BLOCK_BYTES", "MAX_NEAR_MISSES", "Claim", "LeftOut", "NearMiss", "Reading"]

#: At most this many near-misses are kept per source, so no input can grow memory.
MAX_NEAR_MISSES: Final = 100
#: A block holding a candidate whose inline markup would be read (paragraph, heading, table, HTML)
#: and that is larger than this many bytes is refused unread: reading inline markup keeps a few
#: dozen bytes per construct, so this bounds memory on any source.
MAX_BLOCK_BYTES: Final = 1 << 20
#: Quotes of near-misses and refusals are cut to this many code points.
QUOTE_LIMIT: Final = 200
#: At most this many lines holding raw HTML markup (``<`` then a letter, ``/``, ``!`` or ``?``) before
#: the last candidate are followed for what they leave open; a block after more is in doubt.
MAX_HTML_LINES: Final = 10_000


class Claim(NamedTuple):
    """One counted directive line: what it declares and exactly where.

    ``line`` is 1-based; ``start``/``end`` are code points into the decoded
    text (BOM excluded, end exclusive), ``byte_start``/``byte_end`` bytes into
    the pinned raw source (BOM included). ``quote`` is the source line without
    the spaces and tabs after the value:
    ``text[start:end] == quote == raw[byte_start:byte_end].decode()``.
    """

    operation: str
    claim_key: str
    value: str
    line: int
    start: int
    end: int
    byte_start: int
    byte_end: int
    quote: str


class NearMiss(NamedTuple):
    """Directive-shaped text that counts for nothing: in code (``where="code"``), hidden (``"hidden"``)
    or a mention of the namespace that states nothing (``"mention"``).

    ``line`` and ``column`` are 1-based (column in code points); ``quote`` is
    the source line, cut to :data:`QUOTE_LIMIT` code points.
    """

    line: int
    column: int
    where: str
    quote: str


class LeftOut(NamedTuple):
    """A reading of a combined renderer (``portable``) the page was not judged by, because the page does
    not build under it (it is no way the page is shown): the ``reading`` (a renderer's name), the 1-based
    ``line`` of what breaks the build, and ``why`` (the build error's message)."""

    reading: str
    line: int
    why: str


class Reading(NamedTuple):
    """What one source declares: its ``claims`` in line order, or the ``refusal`` (then no claims);
    and its first :data:`MAX_NEAR_MISSES` ``near_misses``.

    ``left_out``: under a combined renderer (``portable``), the readings the page was not judged by,
    because it does not build under them (:class:`LeftOut`, in the order of the renderer's members);
    empty under any other renderer.

    ``occurrences``: the directive-shaped text of the source, wherever it is (claims, near-misses
    in code or hidden HTML, inline-code mentions, refused lines): from each candidate at sign
    that is an ASCII ``@``, the rest of its line, cut to :data:`MAX_OCCURRENCE_CHARS` code points;
    distinct, in source order. The answer check looks quotes up in them
    (:class:`~_conflict_gate.corpus.quotes.QuoteIndex`), so it never reads a source again.
    """

    claims: tuple[Claim, ...]
    refusal: DirectiveError | None
    near_misses: tuple[NearMiss, ...]
    occurrences: tuple[str, ...] = ()
    left_out: tuple[LeftOut, ...] = ()


_EMPTY: Final = Reading((), None, ())

"""Where the answer check looks quotes up: every directive-shaped occurrence of a corpus (no I/O).

A quote in an answer (`` `@quill create_copy existing_path=overwrite` ``) that is
not the claim at its citation is either real text of a pinned source, cited as
the wrong evidence (``misattributed``), or text no pinned source holds
(``quote_not_found``). Telling the two apart once meant reading and hashing
every source again per quote: 0.56 s per quote at 10,000 pages.

The reader records, for each source, the rest of the line after every at sign
that may start directive-shaped text (:attr:`Reading.occurrences
<_conflict_gate.reading.reading_shapes.Reading.occurrences>`: claims, near-misses in code and
hidden HTML, mentions in inline code, refused lines). :class:`QuoteIndex` keeps
the distinct occurrences of every verified source in one sorted tuple, built
once per corpus on first use (:attr:`Corpus.quote_index
<_conflict_gate.corpus.load.Corpus.quote_index>`). A quote is *in the pinned sources*
when some occurrence starts with it: one bisection, ``O(log N)`` comparisons.

A quote starts with an ASCII at sign (a quote holding anything else than
printable ASCII is ``malformed_answer`` before any lookup), so every place
it could be in a source is an at sign the reader records; only an at sign
no directive could start at (one followed by a word that is not the
namespace, ``@retry(``) is not recorded. Occurrences are cut to
:data:`~_conflict_gate.reading.reader.MAX_OCCURRENCE_CHARS` code points: a longer
quote counts as found when its first that many code points are a cut
occurrence (both verdicts it could get are unsupported ones).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Final

from ..reading.candidates import MAX_OCCURRENCE_CHARS

__all__ = ["QuoteIndex"]

_CUT: Final = MAX_OCCURRENCE_CHARS


class QuoteIndex:
    """The distinct occurrences of a corpus's verified sources, sorted, for prefix lookups."""

    __slots__ = ("occurrences",)

    def __init__(self, occurrences: Iterable[str]) -> None:
        self.occurrences: tuple[str, ...] = tuple(sorted(set(occurrences)))

    def __len__(self) -> int:
        return len(self.occurrences)

    def __contains__(self, quote: object) -> bool:
        """Is ``quote`` the start of some occurrence (the rest of a line from an at sign)?"""
        if not isinstance(quote, str):
            return False
        occurrences = self.occurrences
        key = quote[:_CUT]
        i = bisect.bisect_left(occurrences, key)
        if i == len(occurrences):
            return False
        found = occurrences[i]
        if len(quote) <= _CUT:
            return found.startswith(quote)
        return found == key  # a quote past the cut: its first code points are a cut occurrence

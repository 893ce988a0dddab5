"""The did-you-mean of an unknown source id, over a bounded neighbourhood (no I/O).

A request naming an id the manifest lacks is a ``GateError`` (``unknown_candidate``) whose
message suggests close ids. Comparing the unknown id with every id of the corpus costs time
and memory that grow with the corpus (and, with :mod:`difflib`, tens of times the unknown id's
size), on an error path anyone can reach. :class:`IdIndex` bounds both:

* built once when a corpus is made, it keeps the ids in two sorted orders: as written, and
  by their reversed text (as an array of positions, so no reversed copy is kept);
* a lookup finds the unknown id's place in each order by bisection (``O(log N)`` comparisons,
  each at most as long as the shorter id), takes :data:`WINDOW` ids on each side of each
  place (ids that share a beginning or an end with it: a typo at the end or at the start),
  and ranks those at most ``4 * WINDOW`` ids with :func:`difflib.get_close_matches`;
* an unknown id longer than :data:`MAX_SUGGEST_LENGTH` code points is close to no manifest id
  (those have at most 200) and gets no suggestion, unread.

So an unknown id costs microseconds whatever the number of ids, and the memory of a few ids of
at most :data:`MAX_SUGGEST_LENGTH` code points, not of the unknown id. In a corpus of at most
``2 * WINDOW`` ids every id is ranked, as a full search would.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterable
from typing import Final

__all__ = ["MAX_SUGGEST_LENGTH", "WINDOW", "IdIndex"]

#: Ids taken on each side of the unknown id's place, in each of the two orders.
WINDOW: Final = 4
#: The longest unknown id that may get a suggestion, in code points (a manifest id has at most 200).
MAX_SUGGEST_LENGTH: Final = 256


class IdIndex:
    """The source ids of a corpus in two sorted orders, for :meth:`close`. Immutable once built."""

    __slots__ = ("_backward", "_forward")

    def __init__(self, ids: Iterable[str]) -> None:
        forward = sorted(ids)
        self._forward: tuple[str, ...] = tuple(forward)
        # positions into _forward, ordered by the reversed id (the reversed copies live only while sorting)
        self._backward = array("q", sorted(range(len(forward)), key=lambda i: forward[i][::-1]))

    def __len__(self) -> int:
        return len(self._forward)

    def neighbours(self, unknown: str) -> list[str]:
        """The ids :meth:`close` ranks for ``unknown``: at most ``4 * WINDOW``, in a fixed order; none
        for an id longer than :data:`MAX_SUGGEST_LENGTH`."""
        if len(unknown) > MAX_SUGGEST_LENGTH or not self._forward:
            return []
        forward, backward = self._forward, self._backward
        at = bisect.bisect_left(forward, unknown)
        found = dict.fromkeys(forward[max(0, at - WINDOW) : at + WINDOW])
        reversed_unknown = unknown[::-1]
        at = bisect.bisect_left(backward, reversed_unknown, key=lambda i: forward[i][::-1])
        found.update(dict.fromkeys(forward[i] for i in backward[max(0, at - WINDOW) : at + WINDOW]))
        return list(found)

    def close(self, unknown: str, n: int = 3) -> list[str]:
        """Up to ``n`` ids close to ``unknown``, best first (:func:`difflib.get_close_matches` over
        :meth:`neighbours`, cutoff 0.6). Reads nothing of an id too long to have neighbours."""
        neighbours = self.neighbours(unknown)
        if not neighbours:  # difflib would index the unknown id even with nothing to compare
            return []
        import difflib  # only for an unknown id

        return difflib.get_close_matches(unknown, neighbours, n=n)

"""Attribute values a reader sees on a rendered page (no I/O).

Which attributes of which elements a browser shows as text (``alt``, ``title``, ``value`` and the
like), and an attribute matched the way a browser tokenizes it (WHATWG HTML 13.2.5, the attribute
name and value states)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from typing import Final

__all__ = ["attribute_matches", "shown_attribute"]


#: An attribute whose value a browser draws as text: ``alt`` (an image without ``src``, or one that does not
#: load, is drawn as its alt text), ``value`` and ``placeholder`` (a text field shows them), ``label`` (an
#: ``<option>``'s or ``<track>``'s). Matched wherever it is written (in code too: coarse, in the safe direction); a
#: quoted value runs to its closing quote, or to the end of the page when there is none (linear: no value is read
#: twice).
_SHOWN_VALUE: Final = re.compile(
    r"""(?<![\w:.-])(alt|value|placeholder|label)[ \t\r\n]*=[ \t\r\n]*"""
    r"""("[^"]*|'[^']*|[^\s"'=<>`]+)""",
    re.ASCII | re.IGNORECASE,
)
#: An attribute that makes a browser show a document the page spells out otherwise: ``srcdoc`` (an iframe's
#: HTML, its references decoded twice) and a ``data:`` URL an ``<object>``, ``<embed>`` or ``<iframe>`` shows
#: (percent- or base64-encoded text).
_EMBEDDED: Final = re.compile(
    r"""(?<![\w:.-])(?:srcdoc[ \t\r\n]*=|(?:data|src)[ \t\r\n]*=[ \t\r\n]*["']?[ \t\r\n]*data:)""",
    re.ASCII | re.IGNORECASE,
)
#: An ``<img>`` or ``<input>``'s ``src``: ``data=`` and ``src=`` outside ``<object>``, ``<embed>``, ``<iframe>``
#: show no text (an image's pixels are not the page's text).
_IMAGE_SOURCE: Final = re.compile(
    r"<(?:img|image|input|source|video|audio|script|track)\b[^<>]*\Z", re.ASCII | re.IGNORECASE
)


#: The attribute names :data:`_SHOWN_VALUE` and :data:`_EMBEDDED` match, lower case.
_SHOWN_NAMES: Final = ("alt", "value", "placeholder", "label")
_EMBEDDED_NAMES: Final = ("srcdoc", "data", "src")
#: Past this many ``=``, :func:`attribute_matches` lets the pattern scan the rest of the page.
_EQUALS_WALKED: Final = 2000


def attribute_matches(
    pattern: re.Pattern[str], names: Sequence[str], view: str, full: bool = False
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(view)``, for a pattern every match of which starts with one of ``names``
    (lower case, matched ASCII case-insensitively), then spaces, tabs or line endings, then ``=``: found
    from the page's ``=`` signs (``str.find``), each tried at the name that ends before its spaces, so
    that a page without such an attribute costs a ``memchr`` per ``=`` instead of a match tried at every
    character (such a pattern has no literal to look for first). The same matches in the same order:
    a match's name is the one its ``=`` follows, and one tried before the end of the match before is
    skipped, as ``finditer`` goes on from there. ``full``: ``pattern.finditer`` itself (the reference)."""
    if full:
        yield from pattern.finditer(view)
        return
    done, walked = 0, 0
    finals = {name[-1] for name in names}
    equals = view.find("=")
    while equals != -1:
        walked += 1
        if walked > _EQUALS_WALKED:
            yield from pattern.finditer(view, done)
            return
        end = equals
        while end > done and view[end - 1] in " \t\r\n":
            end -= 1
        if view[end - 1 : end].lower() not in finals:  # no name ends there
            equals = view.find("=", equals + 1)
            continue
        for name in names:
            start = end - len(name)
            if start >= done and view[start:end].lower() == name:
                found = pattern.match(view, start)
                if found is not None:
                    yield found
                    done = found.end()
                    break
        equals = view.find("=", max(equals + 1, done))


def _candidate_in_value(view: str, candidates: Sequence[int], matches: Iterator[re.Match[str]]) -> int:
    """The first candidate inside a value of ``matches`` (their group 2) that may state a claim (an
    ``=``, or a character reference that may be one, after it in the value: ``alt="@quill badge"`` is a
    mention), or -1. Linear: one search, a bisection per match, each value searched once."""
    if not candidates:
        return -1
    for found in matches:
        k = bisect.bisect_left(candidates, found.start(2))
        if k < len(candidates) and candidates[k] < found.end(2):
            rest = view[candidates[k] : found.end(2)]
            if "=" in rest or "&" in rest:
                return candidates[k]
    return -1


def shown_attribute(view: str, candidates: Sequence[int], full: bool = False) -> int:
    """The offset of the first candidate in an attribute value a browser shows (``alt``, ``value``,
    ``placeholder``, ``label``), or of the first ``srcdoc`` or ``data:`` URL an ``<object>``, ``<embed>``
    or ``<iframe>`` shows, on a page with candidates; or -1 (hostile finding 7). A browser draws an
    image without ``src``, or one that does not load, as its alt text (github.com's sanitizer keeps
    ``alt`` and strips the rest; a site passing raw HTML through shows them all). ``full``: every
    pattern run over the whole page (:func:`attribute_matches`; the same result, for the tests)."""
    if not candidates:
        return -1
    found = _candidate_in_value(view, candidates, attribute_matches(_SHOWN_VALUE, _SHOWN_NAMES, view, full))
    for embedded in attribute_matches(_EMBEDDED, _EMBEDDED_NAMES, view, full):
        if embedded.group().lower().startswith("src"):
            if embedded.group().lower().startswith("srcdoc"):
                return embedded.start() if found < 0 else min(found, embedded.start())
            tag = view.rfind("<", max(0, embedded.start() - 4096), embedded.start())
            if tag >= 0 and _IMAGE_SOURCE.match(view, tag, embedded.start()):
                continue  # an image's data: URL
        return embedded.start() if found < 0 else min(found, embedded.start())
    return found

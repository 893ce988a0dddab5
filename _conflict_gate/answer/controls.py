"""Characters that make a terminal or a chat window show an answer otherwise than its text (no I/O).

The answer check reads an answer as a terminal shows it (the raw text) and as
a chat window renders it. Some characters make both of those readings wrong:

* C0 and C1 controls other than the tab and line endings (U+0000–U+0008,
  U+000B, U+000C, U+000E–U+001F, U+007F–U+009F): a terminal acts on them
  instead of showing them, so a backspace erases what is before it, and an
  escape sequence (``ESC [ 2 K``, ``ESC [ 8 m``) erases a line, moves the
  cursor or makes text invisible;
* a carriage return that no line feed follows (and that is not the answer's
  last character): a chat window ends the line there, but a terminal returns
  to the line's start and writes the rest over it;
* bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
  U+061C): both readers reorder the text around them, so
  ``U+202E etirwrevo=htap_gnitsixe U+202C`` shows ``existing_path=overwrite``.

Each run of them is a ``control_character`` finding (``malformed_answer``).
"""

from __future__ import annotations

import re
from typing import Final

from ..results.shapes import FINDING_FIELDS, Finding, build

__all__ = ["BIDI_CONTROLS", "CONTROLS", "control_findings"]

#: The bidirectional controls (Unicode 15, UAX #9): embeddings, overrides, isolates, marks.
BIDI_CONTROLS: Final = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
#: The characters a terminal or a chat window does not show as text (see the module docstring) but
#: the carriage return, as the body of a regular-expression character class.
_CONTROL_CLASS: Final = rf"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{BIDI_CONTROLS}"
#: What a terminal or a chat window does not show as text, as runs (a carriage return only where no
#: line feed follows it).
CONTROLS: Final = re.compile(rf"(?:[{_CONTROL_CLASS}]|\r+(?=[^\r\n]))+")
#: A character a run of :data:`CONTROLS` starts with (a carriage return included, though one before a
#: line feed starts none): a text without one has no run. One character class, which the regular
#: expression engine scans for quickly; :data:`CONTROLS` itself is tried at every character.
_ANY_CONTROL: Final = re.compile(rf"[{_CONTROL_CLASS}\r]")


def _name(ch: str) -> str:
    if ch == "\r":
        return "a carriage return without a line feed (a terminal writes the rest of the line over it)"
    if ch in BIDI_CONTROLS:
        return f"the bidirectional control U+{ord(ch):04X} (it reorders the text a reader sees)"
    if ch == "\x1b":
        return "an escape (a terminal reads an escape sequence: it may erase, move or hide text)"
    if ch == "\x08":
        return "a backspace (a terminal erases what is before it)"
    return f"the control character U+{ord(ch):04X}"


def control_findings(text: str) -> list[Finding]:
    """One ``control_character`` finding per run of :data:`CONTROLS` in ``text`` (offsets in code
    points), in text order. Linear in ``text``."""
    if _ANY_CONTROL.search(text) is None:  # most answers: 2 us instead of 17 for the lab's 399 bytes
        return []
    found = []
    for match in CONTROLS.finditer(text):
        detail = (
            f"{_name(match.group()[0])}: a terminal or a chat window shows this answer otherwise than "
            "its text; write it without control characters"
        )
        found.append(
            build(
                Finding,
                FINDING_FIELDS,
                {"kind": "control_character", "detail": detail, "start": match.start(), "end": match.end()},
            )
        )
    return found

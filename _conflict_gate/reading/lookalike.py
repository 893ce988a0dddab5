"""Look-alikes: runs of an answer's text that a reader takes for a form but that are not ASCII (no I/O).

The answer form is ASCII (:mod:`~_conflict_gate.manifest.form`), and the answer check
reads statements and directives as ASCII text. Text that *looks* like one
but is spelt with other characters would pass as prose: ``version꞊2.0``
(U+A78A has no NFKC mapping to ``=``), ``existing_path゠overwrite`` (U+30A0,
a double hyphen), ``vеrsion=2.0`` (a Cyrillic ``е``), ``＠quill``. So a
*run* (text between whitespace, backticks and the typographic punctuation
of :data:`RUN_BREAKS`) that holds a non-ASCII character fails closed
(:func:`is_look_alike`) when

* it holds a character whose Unicode name says ``EQUALS`` (U+A78A, U+FF1D,
  U+FE66, U+207C, ...), or
* after NFKC, the look-alikes of :data:`CONFUSABLES` read as ASCII and every
  other non-ASCII character removed, it contains a *needle*: the claim key
  (or another key of its operation) or ``version``, with its words joined by ``_``, ``-`` or
  nothing, in any ASCII case (as statements are read), or the namespace, as written.

A Latin letter with a diacritic (``ó``, ``ä``) is visibly another letter, not
a look-alike: it splits the run instead of being removed, so ``versión`` and
``Versionsänderung`` pass, while ``バージョン``, holding no needle, passes
anyway. Every other non-ASCII character is removed, as the issue asks: a
kana such as ``ニ`` or a geta mark ``〓`` can stand for ``=`` between two
ASCII words. The namespace is matched case-sensitively (``Quill`` is the product's name); the
statement names in any case, as statements are read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

__all__ = ["CONFUSABLES", "RUN_BREAKS", "LookAlikes", "is_look_alike", "run_pattern", "skeleton"]

#: Characters that end a run as whitespace does: typographic quotation marks and apostrophes, the em
#: dash, the ellipsis, and CJK and fullwidth punctuation. None of them looks like a character of a
#: form (a letter, a digit, ``=``, ``@``, ``_``, ``-``, ``.``), so ``version’s`` is two runs.
RUN_BREAKS: Final = frozenset(
    "\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a"  # quotation marks
    "\u2014\u2026"  # em dash, ellipsis
    "\u3001\u3002\u300c\u300d\u300e\u300f\u3010\u3011"  # ideographic comma, full stop, brackets
    "\uff08\uff09\uff0c\uff1a\uff1b\uff01\uff1f"  # fullwidth ( ) , : ; ! ?
)

#: Letters (and a few marks) that look like an ASCII character without an NFKC mapping to it,
#: mapped to that character: Cyrillic, Greek, Armenian, Cherokee and Latin-extended look-alikes of
#: the letters and digits names and values are written with, and of ``_``, ``-``, ``.``, ``:``.
CONFUSABLES: Final[Mapping[int, str]] = {
    ord(k): v
    for k, v in {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "г": "r",
        "һ": "h",
        "і": "i",
        "ј": "j",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "п": "n",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "ӏ": "l",
        "ь": "b",
        "ү": "y",
        "ѵ": "v",
        "ɡ": "g",
        "ԍ": "g",
        "ԃ": "d",
        "А": "A",
        "В": "B",
        "Е": "E",
        "К": "K",
        "М": "M",
        "Н": "H",
        "О": "O",
        "Р": "P",
        "С": "C",
        "Т": "T",
        "У": "Y",
        "Х": "X",
        "Ѕ": "S",
        "І": "I",
        "Ј": "J",
        "Ԛ": "Q",
        "Ԝ": "W",
        "Ӏ": "l",
        "Ь": "b",
        "З": "3",
        "Ү": "Y",
        "Ԁ": "d",
        # Greek
        "α": "a",
        "β": "b",
        "γ": "y",
        "ε": "e",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ω": "w",
        "η": "n",
        "Α": "A",
        "Β": "B",
        "Ε": "E",
        "Ζ": "Z",
        "Η": "H",
        "Ι": "I",
        "Κ": "K",
        "Μ": "M",
        "Ν": "N",
        "Ο": "O",
        "Ρ": "P",
        "Τ": "T",
        "Υ": "Y",
        "Χ": "X",
        # Armenian
        "ա": "w",
        "հ": "h",
        "ո": "n",
        "ս": "u",
        "օ": "o",
        "ց": "g",
        "զ": "q",
        "ռ": "n",
        "Օ": "O",
        "Ս": "U",
        "Լ": "L",
        # Cherokee
        "Ꭺ": "A",
        "Ᏼ": "B",
        "Ꮯ": "C",
        "Ꭼ": "E",
        "Ꮋ": "H",
        "Ꭻ": "J",
        "Ꮶ": "K",
        "Ꮮ": "L",
        "Ꮇ": "M",
        "Ꮲ": "P",
        "Ꮪ": "S",
        "Ꭲ": "T",
        "Ꮃ": "W",
        "Ꭹ": "Y",
        "Ꮓ": "Z",
        # Latin letters that are another letter's look-alike, not the letter with a mark
        "ı": "i",
        "ȷ": "j",
        "ɑ": "a",
        "ɩ": "i",
        "ǀ": "l",
        "ƒ": "f",
        "ɾ": "r",
        "ʋ": "u",
        "ɛ": "e",
        "ᴀ": "A",
        "ʙ": "B",
        "ᴄ": "c",
        "ᴅ": "D",
        "ᴇ": "E",
        "ɢ": "G",
        "ʜ": "H",
        "ɪ": "I",
        "ᴊ": "J",
        "ᴋ": "K",
        "ʟ": "L",
        "ᴍ": "M",
        "ɴ": "N",
        "ᴏ": "o",
        "ᴘ": "P",
        "ʀ": "R",
        "ꜱ": "s",
        "ᴛ": "T",
        "ᴜ": "u",
        "ᴠ": "v",
        "ᴡ": "w",
        "ʏ": "y",
        "ᴢ": "z",
        # digits
        "٠": "0",
        "١": "1",
        "٢": "2",
        "٣": "3",
        "۰": "0",
        "۱": "1",
        "۲": "2",
        "ᒿ": "2",
        "Ꮞ": "4",
        # punctuation inside names and values
        "ˍ": "_",
        "‗": "_",
        "‐": "-",
        "‑": "-",
        "‒": "-",
        "–": "-",
        "−": "-",
        "⁃": "-",
        "˗": "-",
        "꞉": ":",
        "ː": ":",
        "∶": ":",
        "׃": ":",
        "·": ".",
        "‧": ".",
        "・": ".",
        "ꓸ": ".",
    }.items()
}

_NON_ASCII: Final = re.compile(r"[^\x00-\x7f]+")


def _is_accented_latin(ch: str) -> bool:
    """A Latin letter with a diacritic: its canonical decomposition is an ASCII letter and marks."""
    decomposed = unicodedata.normalize("NFD", ch)
    return (
        len(decomposed) > 1
        and decomposed[0].isascii()
        and decomposed[0].isalpha()
        and all(unicodedata.category(mark).startswith("M") for mark in decomposed[1:])
    )


def skeleton(text: str) -> str:
    """``text`` as a reader may take it: NFKC, each look-alike of :data:`CONFUSABLES` as its ASCII
    character, and each character whose Unicode name says ``EQUALS`` as ``=`` (the rest kept). The
    page reader asks it of lines holding an at sign and a non-ASCII character: a line whose skeleton
    states a claim is directive-shaped text a reader sees, however it is spelt."""
    folded = unicodedata.normalize("NFKC", text).translate(CONFUSABLES)
    if folded.isascii():
        return folded
    return "".join("=" if not ch.isascii() and "EQUALS" in unicodedata.name(ch, "") else ch for ch in folded)


def is_look_alike(
    run: str, needles: Sequence[str], equals_like: Mapping[str, bool] | None = None, folded: Sequence[str] = ()
) -> bool:
    """Does ``run`` (text holding no whitespace, backtick or :data:`RUN_BREAKS` character) read as a
    form though it is not ASCII? See the module docstring. ``equals_like`` may cache, per character,
    whether its name says ``EQUALS`` (:class:`LookAlikes` passes one). ``folded``: lower-case needles
    matched in any case (the statement names, which statements are read in any case)."""
    if run.isascii():
        return False
    others = set("".join(_NON_ASCII.findall(run)))
    accented = []
    for ch in others:
        known = equals_like.get(ch) if equals_like is not None else None
        if known is None:
            known = "EQUALS" in unicodedata.name(ch, "")
        if known:
            return True
        if ch.isalpha() and _is_accented_latin(ch):
            accented.append(ch)
    pieces = re.split("|".join(map(re.escape, accented)), run) if accented else (run,)
    for piece in pieces:
        if piece.isascii():
            continue
        seen = _NON_ASCII.sub("", unicodedata.normalize("NFKC", piece).translate(CONFUSABLES))
        for needle in needles:
            if needle in seen:
                return True
        if folded:
            lowered = seen.lower()
            if any(needle in lowered for needle in folded):
                return True
    return False


def run_pattern() -> re.Pattern[str]:
    """A run: text between whitespace, backticks and :data:`RUN_BREAKS` characters. (``\\udfff``,
    which no answer holds, is the reader's mark around code spans, so it ends a run too.)"""
    breaks = "".join(sorted(RUN_BREAKS))
    return re.compile(rf"[^\s`\udfff{breaks}]+")


class LookAlikes:
    """The look-alike check for one answer: its needles and a per-character cache of the
    ``EQUALS`` test (so a long non-English answer names each distinct character once)."""

    def __init__(self, needles: Iterable[str], folded: Iterable[str] = ()) -> None:
        self.needles = tuple(dict.fromkeys(needle for needle in needles if needle))
        self.folded = tuple(dict.fromkeys(needle.lower() for needle in folded if needle))
        self.equals_like: dict[str, bool] = {}
        self.pattern = _RUN

    def runs(self, text: str) -> list[tuple[int, int, str]]:
        """``(start, end, run)`` of every look-alike run of ``text``."""
        if _ANY_NON_ASCII.search(text) is None:
            return []
        found = []
        for match in self.pattern.finditer(text):
            run = match.group()
            if run.isascii():
                continue
            for ch in set(run):
                if not ch.isascii() and ch not in self.equals_like:
                    self.equals_like[ch] = "EQUALS" in unicodedata.name(ch, "")
            if is_look_alike(run, self.needles, self.equals_like, self.folded):
                found.append((match.start(), match.end(), run))
        return found


_RUN: Final = run_pattern()
#: A character no run is without when it may be a look-alike (the code mark is not one).
_ANY_NON_ASCII: Final = re.compile(r"[^\x00-\x7f\udfff]")

"""Recorded readings: per page, what the site's build showed (``pin --site``), bound to the page's SHA-256,
in a file the manifest names and pins; and the pages no Markdown reading reads (no I/O).

**The file** (the manifest's ``"readings"``, pinned by its ``"readings_sha256"``) is UTF-8 JSON, one
object, written one page a line in manifest order::

    {"format": "conflict-gate recorded readings 1",
     "grammar": "<SHA-256 of the grammar's canonical JSON>",
     "pages": [
    ["guide", "guide.md", "<the page's SHA-256>", [claims, refusal, near-misses, occurrences, left out]],
    ...
    ]}

A page's reading is the :class:`~_conflict_gate.reading.reading_shapes.Reading` the site's build judged it to have
(:func:`~_conflict_gate.site.build.judge_site`), as :func:`~_conflict_gate.corpus.cache.encode_reading` writes
it: its claims with their source lines and spans, or its refusal, its near-misses and the
directive-shaped text the answer check looks quotes up in. :func:`parse_recorded` checks the file
against its pin, its format and the manifest's grammar (else ``readings_unreadable``, an error of the
whole manifest); :func:`recorded_reading` checks one page's record when the page is loaded: present,
recorded for the path and the very bytes (SHA-256) of the page as verified, of the right shape (else
``reading_unusable``, a failure of that page alone). A page read from its record is never read as
Markdown. What a load pays per page: a record of nothing (most pages of a real site) one comparison;
any other its claims checked and made in one pass, with no intermediate objects (``_one_pass``); a
record with a refusal, a reading left out or any fault goes through the whole decoding and every check
in their order (``_checked``), so its error is the one it always was.

**Other text formats** (:data:`OTHER_FORMATS`: reStructuredText, MDX, AsciiDoc): no Markdown reading
reads them, so a page in one that holds directive-shaped text is refused (``needs_site_build``) by
:func:`unjudged_format` unless its site's build judges it (``--site``, or a recorded reading). MDX is
read by the ``docusaurus`` renderer, which models it: under that renderer a ``.mdx`` page is read as
before.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, NamedTuple

from ..base.errors import DirectiveError, IngestionError, printable
from ..base.jsondata import canonical_json
from ..manifest.grammar import Grammar
from ..manifest.read import Entry, Manifest
from ..reading.reading_shapes import Claim, Reading
from .cache import decode_near_misses, decode_reading, encode_reading

__all__ = [
    "OTHER_FORMATS",
    "READINGS_FORMAT",
    "Recorded",
    "claim_not_holding",
    "grammar_digest",
    "parse_recorded",
    "recorded_reading",
    "render_recorded",
    "unjudged_format",
]

#: The ``"format"`` of a recorded readings file; a file of another is refused (``readings_unreadable``).
READINGS_FORMAT: Final = "conflict-gate recorded readings 1"
#: Source suffixes (lowercase) of text formats no Markdown reading reads -> the format's name.
OTHER_FORMATS: Final[Mapping[str, str]] = {".rst": "reStructuredText", ".mdx": "MDX", ".adoc": "AsciiDoc"}
#: The renderer that reads ``.mdx`` pages (it models MDX): under it they are not an other format.
_MDX_RENDERER: Final = "docusaurus"


class Recorded(NamedTuple):
    """A recorded readings file, checked whole: ``path`` (as the manifest names it), ``pages`` (source id
    -> its record, ``[source id, path, sha256, reading]``, checked when used), the ``grammar`` it was
    recorded under (the manifest's) and ``parsed``, each directive text met so far as the grammar parses
    it (``None``: refused), so that a text repeated on many pages is parsed once; ``allowed``, each
    directive text met so far that the grammar allows, as a claim's fields take it (its operation, key,
    value and text interned, and its UTF-8 bytes), for the one-pass check of a page's claims."""

    path: str
    pages: Mapping[str, list[Any]]
    grammar: Grammar
    parsed: dict[str, tuple[str, str, str] | None]
    allowed: dict[str, tuple[str, str, str, str, bytes]]


def grammar_digest(grammar: Grammar) -> str:
    """SHA-256 (hex) of the grammar's canonical JSON: the grammar a file's readings were recorded under."""
    return hashlib.sha256(canonical_json(grammar.summary()).encode("utf-8")).hexdigest()


def _unreadable(manifest: Manifest, detail: str) -> IngestionError:
    return IngestionError(
        "readings_unreadable", f"{detail}; record the readings again: pin --site", path=manifest.readings
    )


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _no_repeat(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("a key is repeated")
    return dict(pairs)


def parse_recorded(raw: bytes, manifest: Manifest) -> Recorded:
    """The recorded readings file of ``manifest`` from its raw bytes. Raises :class:`IngestionError`
    ``readings_unreadable`` (naming the file) when the bytes are not the manifest's ``readings_sha256``,
    not JSON of the documented shape (a repeated key, a page listed twice), of another format, or
    recorded under another grammar. Linear in the file; decodes no page's reading."""
    assert manifest.readings is not None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != manifest.readings_sha256:
        raise _unreadable(
            manifest,
            f"sha256 is {digest}, readings_sha256 pins {manifest.readings_sha256 or '(none)'} "
            "(the file changed since pin --site wrote it)",
        )
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant, object_pairs_hook=_no_repeat)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise _unreadable(manifest, f"not JSON of the documented shape ({printable(str(error))[:200]})") from None
    if type(data) is not dict or set(data) != {"format", "grammar", "pages"} or type(data["pages"]) is not list:
        raise _unreadable(manifest, "not an object of format, grammar and pages")
    if data["format"] != READINGS_FORMAT:
        raise _unreadable(manifest, f"its format is {printable(repr(data['format']))[:100]}, not {READINGS_FORMAT!r}")
    if data["grammar"] != grammar_digest(manifest.grammar):
        raise _unreadable(manifest, "recorded under another grammar than the manifest's")
    pages: dict[str, list[Any]] = {}
    for record in data["pages"]:
        if type(record) is not list or len(record) != 4 or type(record[0]) is not str:
            raise _unreadable(manifest, "a page's record is not [source id, path, sha256, reading]")
        if pages.setdefault(record[0], record) is not record:
            raise _unreadable(manifest, f"{printable(record[0])[:200]} is recorded twice")
    return Recorded(manifest.readings, pages, manifest.grammar, {}, {})


def recorded_reading(recorded: Recorded, entry: Entry, digest: str, raw: bytes) -> Reading:
    """The recorded reading of ``entry``, whose bytes ``raw`` were verified to have ``digest`` (its pin).
    Raises :class:`IngestionError` ``reading_unusable`` (naming the source and its path) when no reading
    is recorded for it, or one for another path or other bytes (the page pinned again without
    ``--site``), or one of the wrong shape, or one holding a claim that is not the page's text at its
    place (its bytes at the claim's byte span, starting a line and ending it but for spaces and tabs) or
    not a directive the grammar allows with that operation, key and value: a readings file edited by
    hand, even pinned again, never makes a page say what its bytes do not."""

    def unusable(detail: str) -> IngestionError:
        return IngestionError(
            "reading_unusable",
            f"{detail}; review the page, build the site and record its reading: pin --site",
            source_id=entry.source_id,
            path=entry.path,
        )

    record = recorded.pages.get(entry.source_id)
    if record is None:
        return _raise(unusable(f"no reading of it is recorded in {recorded.path}"))
    _, path, sha256, data = record
    if path != entry.path:
        return _raise(
            unusable(f"{recorded.path} records a reading of {printable(str(path))[:200]!s}, not of this path")
        )
    if sha256 != digest:
        return _raise(
            unusable(
                f"{recorded.path} records the reading of other bytes (sha256 {printable(str(sha256))[:64]}, "
                f"the page's is {digest})"
            )
        )
    if data == _NOTHING:  # most pages of a real site: nothing directive-shaped, nothing to check
        return _EMPTY
    reading = _one_pass(recorded, data, raw)
    if reading is None:  # a refusal, a reading left out, or any doubt: every check, in their order
        reading = _checked(recorded, data, raw, unusable, entry)
    return reading


def _checked(
    recorded: Recorded, data: Any, raw: bytes, unusable: Callable[[str], IngestionError], entry: Entry
) -> Reading:
    """The reading ``data`` records for ``entry`` (whose bytes are ``raw``), decoded whole
    (:func:`~_conflict_gate.corpus.cache.decode_reading`), then each claim checked against ``raw`` and the
    grammar; raises ``reading_unusable`` (``unusable``) for the first fault, as
    :func:`recorded_reading` documents."""
    try:
        if type(data) is not list or len(data) != 5:
            raise ValueError("not a reading")
        reading = decode_reading(data, entry.source_id, entry.path)
    except (ValueError, TypeError, IndexError):
        return _raise(unusable(f"its reading in {recorded.path} is not of the documented shape"))
    wrong = claim_not_holding(reading, raw, recorded.grammar, recorded.parsed)
    if wrong is not None:
        return _raise(
            unusable(
                f"{recorded.path} records a directive on line {wrong.line} that is not the page's "
                "text there, or not one the grammar allows"
            )
        )
    return reading


def claim_not_holding(
    reading: Reading, raw: bytes, grammar: Grammar, parsed: dict[str, tuple[str, str, str] | None]
) -> Claim | None:
    """The first claim that does not hold on the page, or ``None`` when every claim of a reading not read from ``raw`` now (recorded by a build, or kept in a reading
    cache) hold on the page: its quote is the bytes at its byte span
    (:class:`~_conflict_gate.reading.reading_shapes.Claim`'s invariant), a line of its own up to the
    spaces and tabs after it, and ``grammar`` parses it to the claim's operation, key and value?
    ``parsed`` memoizes the parse per directive text (``None``: refused), so a text repeated on many
    pages is parsed once. Linear in the claims' bytes; reads no line number or code-point offset (those
    come with the bytes the checksum or the pin covers)."""
    for claim in reading.claims:
        quote = claim.quote
        if quote not in parsed:
            try:
                parsed[quote] = grammar.parse(quote)
            except DirectiveError:
                parsed[quote] = None
        start, end = claim.byte_start, claim.byte_end
        if (
            parsed[quote] != (claim.operation, claim.claim_key, claim.value)
            or raw[start:end] != quote.encode("utf-8")
            or not (start == 0 or raw[start - 1 : start] in b"\r\n" or (start == 3 and raw.startswith(_BOM)))
            or _LINE_TAIL.match(raw, end) is None
        ):
            return claim
    return None


def _one_pass(recorded: Recorded, data: Any, raw: bytes) -> Reading | None:
    """The reading ``data`` records, in one pass over its claims, when it holds no refusal and no reading
    left out and passes every check :func:`_checked` makes (each claim's shape, its text parsed by the
    grammar to its fields, the page's bytes at its span, starting and ending a line); else ``None``, and
    :func:`_checked` finds the fault (so its error is the one it always was). The same
    :class:`~_conflict_gate.reading.reading_shapes.Reading`, field for field, as :func:`_checked` gives,
    without its intermediate objects; a directive text repeated on many pages is parsed and encoded
    once (:attr:`Recorded.allowed`)."""
    if type(data) is not list or len(data) != 5:
        return None
    claims_data, refusal_data, near_data, occurrences_data, left_data = data
    if (
        refusal_data is not None
        or type(claims_data) is not list
        or type(near_data) is not list
        or type(occurrences_data) is not list
        or left_data != []
    ):
        return None
    allowed = recorded.allowed
    claims = []
    for claim in claims_data:
        if type(claim) is not list or len(claim) != 9:
            return None
        operation, key, value, line, start, end, byte_start, byte_end, quote = claim
        if type(quote) is not str:
            return None
        known = allowed.get(quote)
        if known is None:
            known = _allow(recorded, quote)
            if known is None:
                return None
        if (
            known[0] != operation
            or known[1] != key
            or known[2] != value
            or type(line) is not int
            or type(start) is not int
            or type(end) is not int
            or type(byte_start) is not int
            or type(byte_end) is not int
            or line <= 0
            or not 0 <= start <= end
            or not 0 <= byte_start <= byte_end
            or byte_end - byte_start != len(known[4])
            or not raw.startswith(known[4], byte_start)
            or not (byte_start == 0 or raw[byte_start - 1] in _LINE_ENDS or (byte_start == 3 and raw.startswith(_BOM)))
            or _LINE_TAIL.match(raw, byte_end) is None
        ):
            return None
        claims.append(_new(Claim, (known[0], known[1], known[2], line, start, end, byte_start, byte_end, known[3])))
    try:
        near = decode_near_misses(near_data)
    except ValueError:
        return None
    intern = sys.intern
    occurrences = []
    for text in occurrences_data:
        if type(text) is str:
            occurrences.append(intern(text))
        elif type(text) is int and 0 <= text < len(claims):
            occurrences.append(claims[text].quote)
        else:
            return None
    return Reading(tuple(claims), None, tuple(near), tuple(occurrences))


def _allow(recorded: Recorded, quote: str) -> tuple[str, str, str, str, bytes] | None:
    """``quote`` as :attr:`Recorded.allowed` keeps it, when the grammar allows it (else ``None``; the
    grammar's verdict is kept in :attr:`Recorded.parsed` either way)."""
    parsed = recorded.parsed
    if quote not in parsed:
        try:
            parsed[quote] = recorded.grammar.parse(quote)
        except DirectiveError:
            parsed[quote] = None
    fields = parsed[quote]
    if fields is None:
        return None
    intern = sys.intern
    known = (intern(fields[0]), intern(fields[1]), intern(fields[2]), intern(quote), quote.encode("utf-8"))
    recorded.allowed[quote] = known
    return known


_BOM: Final = b"\xef\xbb\xbf"
#: What may follow a claim's text on its line: spaces and tabs, then the line's end.
_LINE_TAIL: Final = re.compile(rb"[ \t]*(?:\r|\n|\Z)")
#: The bytes a line may start after (``\r``, ``\n``), as :func:`_one_pass` indexes them.
_LINE_ENDS: Final = frozenset(b"\r\n")
#: The record of a page that holds nothing directive-shaped, and the reading it gives.
_NOTHING: Final[list[Any]] = [[], None, [], [], []]
_EMPTY: Final = Reading((), None, (), (), ())
#: A claim or near-miss made from its fields, checked, without a Python-level constructor.
_new: Final = tuple.__new__


def _raise(error: IngestionError) -> Reading:
    raise error


def render_recorded(grammar: Grammar, pages: Iterable[tuple[Entry, str, Reading]]) -> str:
    """The text of a recorded readings file: ``pages`` (each entry, its SHA-256 and the reading its build
    gave), one a line, in the order given. ASCII only (other characters escaped)."""
    lines = [
        json.dumps([entry.source_id, entry.path, digest, encode_reading(reading)], separators=(",", ":"))
        for entry, digest, reading in pages
    ]
    head = json.dumps({"format": READINGS_FORMAT, "grammar": grammar_digest(grammar)})[:-1]
    return head + ', "pages": [\n' + ",\n".join(lines) + ("\n" if lines else "") + "]}\n"


def other_format(path: str, renderer: str) -> str | None:
    """The name of the text format of the page at ``path`` when no Markdown reading of ``renderer`` reads
    it (:data:`OTHER_FORMATS`), else ``None``."""
    suffix = posixpath.splitext(path)[1].lower()
    if suffix == ".mdx" and renderer == _MDX_RENDERER:
        return None
    return OTHER_FORMATS.get(suffix)


def unjudged_format(reading: Reading, path: str, renderer: str, source_id: str | None) -> Reading:
    """``reading`` (the Markdown reading of the page at ``path``), or, for a page in another text format
    (:func:`other_format`) that holds directive-shaped text (claims, occurrences, near-misses or a
    refusal), that page refused: ``needs_site_build``, located at the first line that holds some. A
    page in another format that holds none says nothing either way and is kept as it is."""
    if not (reading.claims or reading.occurrences or reading.near_misses or reading.refusal):
        return reading  # most pages: no need to look at the path's suffix
    name = other_format(path, renderer)
    if name is None:
        return reading
    line = (
        reading.claims[0].line
        if reading.claims
        else reading.refusal.line
        if reading.refusal is not None
        else reading.near_misses[0].line
        if reading.near_misses
        else None
    )
    quote = (
        reading.claims[0].quote
        if reading.claims
        else reading.refusal.quote
        if reading.refusal is not None
        else reading.near_misses[0].quote
        if reading.near_misses
        else reading.occurrences[0]
    )
    refusal = DirectiveError(
        "needs_site_build",
        f"a {name} page, which no Markdown reading reads, holds "
        "directive-shaped text: only the site's build can judge it (--site DIR, or the "
        "reading pin --site DIR records)",
        quote=quote[:200],
        source_id=source_id,
        path=path,
        line=line,
        column=1 if line is not None else None,
    )
    return reading._replace(claims=(), refusal=refusal, near_misses=())

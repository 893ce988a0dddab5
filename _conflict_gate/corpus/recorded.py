"""Recorded readings: per page, what the site's build showed (``pin --site``), bound to the page's SHA-256,
in a file the manifest names and pins; and the pages no Markdown reading reads (no I/O).

**The file** (the manifest's ``"readings"``, pinned by its ``"readings_sha256"``) is UTF-8 text, one page a
line in manifest order after a first line of JSON, each line ended by ``\\n``::

    {"format": "conflict-gate recorded readings 2", "grammar": "<SHA-256 of the grammar's canonical JSON>", "pages": 3}
    guide <the page's SHA-256> docs/guide.md<TAB>[[[3,5,7,"@quill create_copy existing_path=refuse"]],null,[],[0],[]]
    intro <the page's SHA-256> docs/intro.md
    ...

A page line is its source id, a space, the SHA-256 of the bytes its reading was recorded for, a space and
its path (as the manifest writes it; no tab or line break can be in one), then, for a page whose build
showed anything directive-shaped, a tab and its reading as compact JSON: the
:class:`~_conflict_gate.reading.reading_shapes.Reading` the site's build judged it to have
(:func:`~_conflict_gate.site.build.judge_site`) as :func:`~_conflict_gate.corpus.cache.encode_reading` writes
it, but each claim ``[line, start, byte_start, quote]``: its operation, key and value are what the
grammar parses its quote to, its ``end`` and ``byte_end`` where its quote ends (the claim's invariant),
so none of them is written twice or can disagree. A page recording nothing is its line's first three
fields alone.

:func:`parse_recorded` checks the file against its pin, its first line (format, grammar, the number of
pages) and each page line's source id (once each, one of the manifest's), else ``readings_unreadable``,
an error of the whole manifest; it decodes no page's reading. :func:`recorded_reading` checks one page's
line when the page is loaded: present, recorded for the path and the very bytes (SHA-256) of the page as
verified, its reading of the right shape, each claim the page's own text at its place, as the grammar
parses it (else ``reading_unusable``, a failure of that page alone). A page read from its record is
never read as Markdown. What a load pays per page: a page recording nothing, one string comparison; any
other, its reading's JSON decoded and its claims checked and made in one pass, with no intermediate
objects (``_one_pass``); a reading with a refusal, a reading left out or any fault goes through the
whole decoding and every check in their order (``_checked``), so its error is the one it always was.

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import repeat
from json.scanner import make_scanner
from operator import attrgetter, itemgetter
from typing import Any, Final, NamedTuple

from ..base.errors import DirectiveError, IngestionError, printable
from ..base.jsondata import canonical_json
from ..manifest.grammar import Grammar
from ..manifest.read import Entry, Manifest
from ..reading.reading_shapes import Claim, Reading
from .cache import decode_near_misses, decode_reading

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
READINGS_FORMAT: Final = "conflict-gate recorded readings 2"
#: Formats earlier versions wrote, refused with the advice to record the readings again.
_EARLIER_FORMATS: Final = frozenset({"conflict-gate recorded readings 1"})
#: Source suffixes (lowercase) of text formats no Markdown reading reads -> the format's name.
OTHER_FORMATS: Final[Mapping[str, str]] = {".rst": "reStructuredText", ".mdx": "MDX", ".adoc": "AsciiDoc"}
#: The renderer that reads ``.mdx`` pages (it models MDX): under it they are not an other format.
_MDX_RENDERER: Final = "docusaurus"


class Recorded(NamedTuple):
    """A recorded readings file, checked whole: ``path`` (as the manifest names it), ``pages`` (source id
    -> the rest of its line: ``"<sha256> <path>"``, then a tab and its reading's JSON when it records
    anything; checked and decoded when the page is loaded), the ``grammar`` it was recorded under (the
    manifest's) and ``parsed``, each directive text met so far as the grammar parses it (``None``:
    refused), so that a text repeated on many pages is parsed once; ``allowed``, each directive text met
    so far that the grammar allows, as a claim's fields take it (its operation, key, value and text
    interned, its UTF-8 bytes, those bytes between line ends as a page holds them, its length in bytes and
    in code points), for the one-pass check of a page's claims; ``shared``, each page's occurrences met so
    far, kept once (most pages of a site list the same few directive texts).

    When the file's page lines are the manifest's entries in order, each its source id, pin and path
    (checked for them all at once), ``in_order`` holds those entries and ``lines`` each line parted at
    its tab (as ``str.partition`` parts it): a page is then found by its position, its line's identity
    already checked, and ``pages`` is filled only if an entry of another manifest is asked for."""

    path: str
    pages: dict[str, str]
    grammar: Grammar
    parsed: dict[str, tuple[str, str, str] | None]
    allowed: dict[str, tuple[str, str, str, str, bytes, frozenset[bytes], int, int]]
    shared: dict[tuple[str, ...], tuple[str, ...]]
    in_order: Sequence[Entry] = ()
    lines: Sequence[tuple[str, str, str]] = ()


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


#: The format an earlier version's first line names (that line was no JSON by itself: ``..., "pages": [``).
_FORMAT_NAMED: Final = re.compile(r'\{"format": ("[^"\\]{0,100}")')


def parse_recorded(raw: bytes, manifest: Manifest) -> Recorded:
    """The recorded readings file of ``manifest`` from its raw bytes. Raises :class:`IngestionError`
    ``readings_unreadable`` (naming the file) when the bytes are not the manifest's ``readings_sha256``,
    not UTF-8 text ending with a line break, its first line not the JSON object of its format, grammar
    and number of pages (another format, an earlier version's among them, or another grammar), or its
    page lines not that many, each starting with a source id and a space: a source id the manifest
    lists, once. Linear in the file; decodes no page's reading (C-level passes over its lines)."""
    assert manifest.readings is not None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != manifest.readings_sha256:
        raise _unreadable(
            manifest,
            f"sha256 is {digest}, readings_sha256 pins {manifest.readings_sha256 or '(none)'} "
            "(the file changed since pin --site wrote it)",
        )
    try:
        lines = raw.decode("utf-8").split("\n")
    except UnicodeDecodeError as error:
        raise _unreadable(manifest, f"not UTF-8 (at byte {error.start})") from None
    if lines[-1]:
        raise _unreadable(manifest, f"its last line ({len(lines)}) is cut short: no line break ends it")
    head = _head(lines[0], manifest)
    body = lines[1:-1]
    if head["pages"] != len(body):
        raise _unreadable(manifest, f"it holds {len(body)} page lines, its first line says {head['pages']}")
    parted = list(map(str.partition, body, repeat("\t")))
    entries = manifest.entries
    listed = map(attrgetter("source_id"), entries), map(attrgetter("sha256"), entries), map(attrgetter("path"), entries)
    if list(map(itemgetter(0), parted)) == list(map(" ".join, zip(*listed))):  # as pin --site wrote them
        return Recorded(manifest.readings, {}, manifest.grammar, {}, {}, {}, entries, parted)
    try:
        pages: dict[str, str] = dict(map(str.split, body, repeat(" "), repeat(1)))
    except ValueError:
        number = next(at for at, line in enumerate(body, 2) if " " not in line)
        raise _unreadable(manifest, f"line {number} is not a page's line (source id, sha256, path)") from None
    if len(pages) != len(body):
        seen: set[str] = set()
        for line in body:
            source_id = line.split(" ", 1)[0]
            if source_id in seen:
                raise _unreadable(manifest, f"{printable(source_id)[:200]} is recorded twice")
            seen.add(source_id)
    ids = {entry.source_id for entry in entries}
    if not pages.keys() <= ids:
        stray = next(source_id for source_id in pages if source_id not in ids)
        raise _unreadable(
            manifest, f"it records {printable(stray)[:200]}, which the manifest does not list (removed since?)"
        )
    return Recorded(manifest.readings, pages, manifest.grammar, {}, {}, {})


def _head(line: str, manifest: Manifest) -> dict[str, Any]:
    """The checked first line of a readings file: its format, its grammar (the manifest's) and its number
    of pages."""
    try:
        head = json.loads(line, parse_constant=_no_constant, object_pairs_hook=_no_repeat)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        named = _FORMAT_NAMED.match(line)  # an earlier version's first line is no JSON by itself
        if named is None or named.group(1)[1:-1] not in _EARLIER_FORMATS:
            raise _unreadable(manifest, f"its first line is not JSON ({printable(str(error))[:200]})") from None
        head = {"format": named.group(1)[1:-1]}
    if type(head) is not dict or "format" not in head:
        raise _unreadable(manifest, "its first line is not an object of format, grammar and pages")
    if head["format"] != READINGS_FORMAT:
        earlier = (
            " (an earlier version's, which this one no longer reads)" if head["format"] in _EARLIER_FORMATS else ""
        )
        raise _unreadable(
            manifest, f"its format is {printable(repr(head['format']))[:100]}{earlier}, not {READINGS_FORMAT!r}"
        )
    if set(head) != {"format", "grammar", "pages"} or type(head["pages"]) is not int or head["pages"] < 0:
        raise _unreadable(manifest, "its first line is not an object of format, grammar and pages")
    if head["grammar"] != grammar_digest(manifest.grammar):
        raise _unreadable(manifest, "recorded under another grammar than the manifest's")
    return head


def recorded_reading(recorded: Recorded, entry: Entry, digest: str, raw: bytes) -> Reading:
    """The recorded reading of ``entry``, whose bytes ``raw`` were verified to have ``digest`` (its pin).
    Raises :class:`IngestionError` ``reading_unusable`` (naming the source and its path) when no reading
    is recorded for it, or one for another path or other bytes (the page pinned again without
    ``--site``), or one of the wrong shape, or one holding a claim that is not the page's text at its
    place (its bytes at the claim's byte span, starting a line and ending it but for spaces and tabs) or
    not a directive the grammar allows: a readings file edited by hand, even pinned again, never makes a
    page say what its bytes do not."""
    rest: str | None
    in_order, position = recorded.in_order, entry.position
    if position < len(in_order) and in_order[position] is entry and digest == entry.sha256:
        _, tab, rest = recorded.lines[position]  # its line's source id, pin and path checked whole
        if not tab:  # most pages of a real site: nothing directive-shaped, nothing to decode
            return _EMPTY
        at = 0
    else:
        rest = _line(recorded, entry.source_id)
        head = f"{digest} {entry.path}"
        if rest == head:
            return _EMPTY
        at = len(head) + 1
        if rest is None or rest[at - 1 : at] != "\t" or not rest.startswith(head):
            return _raise(_unusable(entry, _not_this_page(recorded, rest, entry, digest)))
    reading = _one_pass(recorded, rest, at, raw)
    if reading is None:  # a refusal, a reading left out, or any doubt: every check, in their order
        reading = _checked(recorded, rest, at, raw, entry)
    return reading


def _line(recorded: Recorded, source_id: str) -> str | None:
    """The rest of the line of ``source_id`` after its source id and a space (``None``: no line)."""
    pages = recorded.pages
    if not pages and recorded.lines:  # lines in the manifest's order, asked for another manifest's entry
        pages.update(dict(map(str.split, map("".join, recorded.lines), repeat(" "), repeat(1))))
    return pages.get(source_id)


def _unusable(entry: Entry, detail: str) -> IngestionError:
    return IngestionError(
        "reading_unusable",
        f"{detail}; review the page, build the site and record its reading: pin --site",
        source_id=entry.source_id,
        path=entry.path,
    )


#: The rest of a page's line after its source id: its SHA-256, its path, and its reading after a tab.
_LINE: Final = re.compile(r"([^ \t]*) ([^\t]*)(?:\t|\Z)")


def _not_this_page(recorded: Recorded, rest: str | None, entry: Entry, digest: str) -> str:
    """Why the line ``rest`` (``None``: none) is not the record of ``entry``'s page with ``digest``."""
    if rest is None:
        return f"no reading of it is recorded in {recorded.path}"
    fields = _LINE.match(rest)
    if fields is None:
        return f"its line in {recorded.path} is not of the documented shape"
    sha256, path = fields.groups()
    if path != entry.path:
        return f"{recorded.path} records a reading of {printable(path)[:200]!s}, not of this path"
    if sha256 != digest:
        return (
            f"{recorded.path} records the reading of other bytes (sha256 {printable(sha256)[:64]}, "
            f"the page's is {digest})"
        )
    return f"its line in {recorded.path} is not of the documented shape"


def _checked(recorded: Recorded, rest: str, at: int, raw: bytes, entry: Entry) -> Reading:
    """The reading the line ``rest`` records from ``at`` for ``entry`` (whose bytes are ``raw``), decoded
    whole (:func:`decode_recorded`), then each claim checked against ``raw`` and the grammar; raises
    ``reading_unusable`` for the first fault, as :func:`recorded_reading` documents."""
    try:
        data = json.loads(rest[at:], parse_constant=_no_constant)
        reading = decode_recorded(data, recorded, entry.source_id, entry.path)
    except (ValueError, TypeError, IndexError, RecursionError):
        return _raise(_unusable(entry, f"its reading in {recorded.path} is not of the documented shape"))
    wrong = claim_not_holding(reading, raw, recorded.grammar, recorded.parsed)
    if wrong is not None:
        return _raise(
            _unusable(
                entry,
                f"{recorded.path} records a directive on line {wrong.line} that is not the page's "
                "text there, or not one the grammar allows",
            )
        )
    return reading


def decode_recorded(data: Any, recorded: Recorded, source_id: str | None, path: str | None) -> Reading:
    """The :class:`Reading` a page line's JSON ``data`` records, each claim ``[line, start, byte_start,
    quote]`` given the operation, key and value the grammar parses its quote to (none, ``""``, when it
    refuses it: :func:`claim_not_holding` then finds the claim) and its end where its quote ends; the
    rest as :func:`~_conflict_gate.corpus.cache.decode_reading` decodes it. Raises ``ValueError``,
    ``TypeError`` or ``IndexError`` on data of another shape."""
    if type(data) is not list or len(data) != 5 or type(data[0]) is not list:
        raise ValueError("not a reading")
    claims = []
    for claim in data[0]:
        if type(claim) is not list or len(claim) != 4 or type(claim[3]) is not str:
            raise ValueError("not a claim")
        line, start, byte_start, quote = claim
        fields = _parsed(recorded, quote) or ("", "", "")
        end, byte_end = _plus(start, len(quote)), _plus(byte_start, len(quote.encode("utf-8")))
        claims.append([*fields, line, start, end, byte_start, byte_end, quote])
    return decode_reading([claims, *data[1:]], source_id, path)


def _plus(number: Any, length: int) -> Any:
    """``number + length`` for an integer (never a bool), else ``number`` (the shape check refuses it)."""
    return number + length if type(number) is int else number


def claim_not_holding(
    reading: Reading, raw: bytes, grammar: Grammar, parsed: dict[str, tuple[str, str, str] | None]
) -> Claim | None:
    """The first claim that does not hold on the page, or ``None`` when every claim of a reading not read from ``raw`` now (recorded by a build, or kept in a reading
    cache) hold on the page: its quote is the bytes at its byte span
    (:class:`~_conflict_gate.reading.reading_shapes.Claim`'s invariant), a line of its own up to the
    spaces and tabs after it, and ``grammar`` parses it to the claim's operation, key and value?
    ``parsed`` memoizes the parse per directive text (``None``: refused), so a text repeated on many
    pages is parsed once. A claim must also start after the claim before it ends (a reader gives them in
    line order, each a line of its own), so the page's bytes after each claim are read once: linear in
    the page and the claims, whatever a record holds. Reads no line number or code-point offset (those
    come with the bytes the checksum or the pin covers)."""
    before = 0  # where the claim before ends
    for claim in reading.claims:
        quote = claim.quote
        if quote not in parsed:
            try:
                parsed[quote] = grammar.parse(quote)
            except DirectiveError:
                parsed[quote] = None
        start, end = claim.byte_start, claim.byte_end
        if (
            start < before
            or parsed[quote] != (claim.operation, claim.claim_key, claim.value)
            or raw[start:end] != quote.encode("utf-8")
            or not (start == 0 or raw[start - 1 : start] in b"\r\n" or (start == 3 and raw.startswith(_BOM)))
            or _LINE_TAIL.match(raw, end) is None
        ):
            return claim
        before = end
    return None


def _one_pass(recorded: Recorded, rest: str, at: int, raw: bytes) -> Reading | None:
    """The reading the line ``rest`` records from ``at``, in one pass over its claims, when it holds no
    refusal and no reading left out and passes every check :func:`_checked` makes (its JSON, each claim's
    shape, its text allowed by the grammar, the page's bytes at its span, starting and ending a line);
    else ``None``, and :func:`_checked` finds the fault (so its error is the one it always was). The same
    :class:`~_conflict_gate.reading.reading_shapes.Reading`, field for field, as :func:`_checked` gives,
    without its intermediate objects; a directive text repeated on many pages is parsed and encoded
    once (:attr:`Recorded.allowed`)."""
    try:
        data, end = _scan(rest, at)
        if end != len(rest) or type(data) is not list or len(data) != 5:
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
        quotes = []
        before = 0  # where the claim before ends: claims in order, each after the one before
        for claim in claims_data:
            if type(claim) is not list:
                return None
            line, start, byte_start, quote = claim  # (ValueError: not four)
            known = allowed.get(quote)  # (TypeError: a list or an object)
            if known is None:
                known = _allow(recorded, quote)
                if known is None:
                    return None
            if (
                not (type(line) is int and type(start) is int and type(byte_start) is int and line > 0 and start >= 0)
                or byte_start < before
            ):
                return None
            byte_end = before = byte_start + known[6]
            # most claims: its text between line ends, the bytes around it looked up at once
            if (byte_start <= 0 or raw[byte_start - 1 : byte_end + 1] not in known[5]) and not _holds(
                raw, known[4], byte_start
            ):
                return None
            claims.append(
                _new(
                    Claim,
                    (known[0], known[1], known[2], line, start, start + known[7], byte_start, byte_end, known[3]),
                )
            )
            quotes.append(known[3])
        count = len(claims)
        for text in occurrences_data:
            if type(text) is not str and not (type(text) is int and 0 <= text < count):
                return None
        if count < len(_FIRST) and occurrences_data == _FIRST[count]:  # most pages: each claim's text, once
            occurrences = tuple(quotes)
        else:
            occurrences = tuple([sys.intern(text) if type(text) is str else quotes[text] for text in occurrences_data])
        near = tuple(decode_near_misses(near_data)) if near_data else ()
    except (ValueError, TypeError, StopIteration, RecursionError):  # JSONDecodeError is a ValueError
        return None
    occurrences = recorded.shared.setdefault(occurrences, occurrences)  # a corpus keeps each list once
    return _new(Reading, (tuple(claims), None, near, occurrences, ()))


def _holds(raw: bytes, text: bytes, at: int) -> bool:
    """Whether ``text`` is at byte ``at`` of ``raw`` as a line of its own but for the spaces and tabs
    after it (:func:`claim_not_holding`'s check of a claim's bytes)."""
    return (
        at >= 0
        and (at == 0 or raw[at - 1 : at] in _STARTS or (at == 3 and raw.startswith(_BOM)))
        and raw.startswith(text, at)
        and _LINE_TAIL.match(raw, at + len(text)) is not None
    )


def _parsed(recorded: Recorded, quote: str) -> tuple[str, str, str] | None:
    """The grammar's parse of ``quote`` (``None``: refused), memoized in :attr:`Recorded.parsed`."""
    parsed = recorded.parsed
    if quote not in parsed:
        try:
            parsed[quote] = recorded.grammar.parse(quote)
        except DirectiveError:
            parsed[quote] = None
    return parsed[quote]


def _allow(recorded: Recorded, quote: Any) -> tuple[str, str, str, str, bytes, frozenset[bytes], int, int] | None:
    """``quote`` as :attr:`Recorded.allowed` keeps it, when it is text the grammar allows (else ``None``;
    the grammar's verdict is kept in :attr:`Recorded.parsed` either way)."""
    if type(quote) is not str:
        return None
    fields = _parsed(recorded, quote)
    try:
        encoded = quote.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, as JSON can write one
        return None
    if fields is None:
        return None
    intern = sys.intern
    known = (
        intern(fields[0]),
        intern(fields[1]),
        intern(fields[2]),
        intern(quote),
        encoded,
        frozenset(start + encoded + end for start in (b"\n", b"\r") for end in (b"\n", b"\r", b"")),
        len(encoded),
        len(quote),
    )
    recorded.allowed[quote] = known
    return known


_BOM: Final = b"\xef\xbb\xbf"
#: What may follow a claim's text on its line: spaces and tabs, then the line's end.
_LINE_TAIL: Final = re.compile(rb"[ \t]*(?:\r|\n|\Z)")
#: The byte before a line (after the first): a line break.
_STARTS: Final = frozenset({b"\n", b"\r"})
#: The occurrences a page's line records when they are its claims' texts, in order, as lists of indexes.
_FIRST: Final = [list(range(count)) for count in range(16)]
#: A page line's reading, decoded by the standard library's JSON scanner from an offset (no copy).
_scan: Final[Callable[[str, int], tuple[Any, int]]] = make_scanner(json.JSONDecoder(parse_constant=_no_constant))  # type: ignore[arg-type]  # (typeshed: the scanner takes a decoder)
_EMPTY: Final = Reading((), None, (), (), ())
#: A claim or near-miss made from its fields, checked, without a Python-level constructor.
_new: Final = tuple.__new__


def _raise(error: IngestionError) -> Reading:
    raise error


def render_recorded(grammar: Grammar, pages: Iterable[tuple[Entry, str, Reading]]) -> str:
    """The text of a recorded readings file: ``pages`` (each entry, its SHA-256 and the reading its build
    gave), one a line, in the order given. A reading's JSON is ASCII only (other characters escaped);
    a path is written as the manifest gives it. Raises ``ValueError`` for a claim whose spans are not
    its quote's (never one a reader made)."""
    lines = []
    for entry, digest, reading in pages:
        line = f"{entry.source_id} {digest} {entry.path}"
        if reading.claims or reading.refusal or reading.near_misses or reading.occurrences or reading.left_out:
            line += "\t" + json.dumps(_encode(reading), separators=(",", ":"))
        lines.append(line)
    head = json.dumps({"format": READINGS_FORMAT, "grammar": grammar_digest(grammar), "pages": len(lines)})
    return "\n".join([head, *lines]) + "\n"


def _encode(reading: Reading) -> list[Any]:
    """``reading`` as a page line's JSON: :func:`~_conflict_gate.corpus.cache.encode_reading`'s, but each
    claim ``[line, start, byte_start, quote]`` (:func:`decode_recorded` gives the rest back)."""
    claims = []
    quotes: dict[str, int] = {}
    for index, claim in enumerate(reading.claims):
        if claim.end - claim.start != len(claim.quote) or claim.byte_end - claim.byte_start != len(
            claim.quote.encode("utf-8")
        ):
            raise ValueError(f"the claim on line {claim.line} does not span its quote")
        claims.append([claim.line, claim.start, claim.byte_start, claim.quote])
        quotes.setdefault(claim.quote, index)
    refusal = reading.refusal
    return [
        claims,
        None if refusal is None else [refusal.reason, refusal.detail, refusal.quote, refusal.line, refusal.column],
        [list(miss) for miss in reading.near_misses],
        [quotes.get(text, text) for text in reading.occurrences],
        [list(out) for out in reading.left_out],
    ]


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

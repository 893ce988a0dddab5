"""The recorded readings' one-pass check (``_one_pass``) against the full one (``_checked``): a page's
line, its reading valid or damaged at any one place (or two), gives the same reading or the same
``reading_unusable`` error, reason and message, whichever path takes it; and a page recording
nothing is given the empty reading without decoding (issue 30, item 2: the load of recorded readings)."""

from __future__ import annotations

import copy
import json
import random
import tempfile
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

from _conflict_gate.base.errors import IngestionError
from _conflict_gate.corpus import recorded as recorded_module
from _conflict_gate.corpus.load import read_page, source_digest
from _conflict_gate.corpus.recorded import Recorded, recorded_reading
from _conflict_gate.manifest.read import Entry, read_manifest
from _conflict_gate.reading.reading_shapes import Claim, NearMiss
from _conflict_gate.reading.renderers import RENDERER_VALUES
from tests.support import write_corpus

LINE = b"@quill create_copy existing_path=refuse"
OTHER = b"@quill create_copy close_required=yes"
PAGES: dict[str, bytes] = {
    # claims after a heading, one with spaces and CRLF after it; an example in a fence (a near-miss)
    "docs/a.md": b"# A\n\n" + LINE + b"\n" + OTHER + b"  \r\nText.\n\n```\n" + LINE + b"\n```\n",
    # a BOM before the first line's claim, and a claim ending the file
    "docs/b.md": b"\xef\xbb\xbf" + LINE + b"\n\nText.\n\n" + OTHER,
    # a claim quoted in inline code (an occurrence that is no claim) and one that counts
    "docs/c.md": b"Say `" + LINE + b"`.\n\n" + OTHER + b"\n",
    "docs/d.md": b"# D\n\nNothing.\n",
    # the claim's text mid-line first (in a hidden comment), then as a line of its own
    # then as the start of a longer line (in a fence), and a line of other text as long as it
    "docs/e.md": b"<!-- " + LINE + b"\n-->\n\n" + LINE + b"\n\n```\n" + LINE + b"d\n" + b"x" * len(LINE) + b"\n```\n",
}
#: What a damaged field is replaced with: other types, bools and floats where integers are, integers
#: out of range or off by one, other texts, lists.
OTHERS: tuple[Any, ...] = (None, True, False, 0, 1, -1, 2.0, "", "x", [], [0], LINE.decode(), OTHER.decode())


def outcome(call: Any) -> tuple[Any, ...]:
    """What a call gave, comparable: the reading (with its items' types) or the error."""
    try:
        reading = call()
    except IngestionError as error:
        return ("refused", error.reason, error.source_id, error.path, str(error))
    except Exception as error:  # noqa: BLE001 - compared, never hidden
        return ("raised", type(error).__name__)
    refusal = reading.refusal
    return (
        "read",
        reading._replace(refusal=None),
        None if refusal is None else (type(refusal), refusal.reason, refusal.line, refusal.column, str(refusal)),
        [type(claim) for claim in reading.claims],
        [type(miss) for miss in reading.near_misses],
        [type(text) for text in reading.occurrences],
    )


def places(data: Any, at: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every place in a nested list, as the indexes that lead to it."""
    found = [at]
    if isinstance(data, list):
        for index, item in enumerate(data):
            found += places(item, (*at, index))
    return found


def replaced(data: Any, at: tuple[int, ...], value: Any) -> Any:
    if not at:
        return value
    data = copy.deepcopy(data)
    holder = data
    for index in at[:-1]:
        holder = holder[index]
    holder[at[-1]] = value
    return data


def nudged(value: Any) -> list[Any]:
    """``value`` off by one either way, when it is an integer."""
    return [value - 1, value + 1] if type(value) is int else []


class OnePassTest(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-one-pass-")
        self.addCleanup(tmp.cleanup)
        manifest = read_manifest(write_corpus(Path(tmp.name), PAGES, extra={"renderer": "github"}))
        self.grammar = manifest.grammar
        self.entries: dict[str, Entry] = {entry.path: entry for entry in manifest.entries}
        renderer = RENDERER_VALUES["github"]
        self.data = {
            path: recorded_module._encode(read_page(raw, self.grammar, renderer, None, None))
            for path, raw in PAGES.items()
        }

    def line(self, path: str, data: Any) -> str:
        """The page's line after its source id, recording ``data`` (``None``: nothing)."""
        head = f"{source_digest(PAGES[path])} {path}"
        return head if data is None else f"{head}\t{json.dumps(data)}"

    def recorded(self, path: str, data: Any) -> Recorded:
        entry = self.entries[path]
        return Recorded("manifest.readings.json", {entry.source_id: self.line(path, data)}, self.grammar, {}, {}, {})

    def both(self, path: str, data: Any, raw: bytes | None = None) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """The outcome of ``recorded_reading`` (one pass, else every check) and of every check alone, on
        the page's bytes (or ``raw``, as if it held those)."""
        entry, raw, digest = self.entries[path], PAGES[path] if raw is None else raw, source_digest(PAGES[path])
        fast = outcome(lambda: recorded_reading(self.recorded(path, data), entry, digest, raw))

        def full() -> Any:
            recorded = self.recorded(path, data)
            line = self.line(path, data)
            return recorded_module._checked(recorded, line, line.index("\t") + 1, raw, entry)

        return fast, outcome(full)

    def test_the_pages_as_recorded_take_the_one_pass(self) -> None:
        """The fixture pages hold what the one pass handles (claims at a BOM, before spaces and CRLF, at
        the file's end; near-misses; occurrences by index and as text), and it takes them."""
        self.assertEqual([len(self.data[path][0]) for path in PAGES], [2, 2, 1, 0, 1])
        self.assertTrue(self.data["docs/a.md"][2] and self.data["docs/c.md"][3])
        for path, data in self.data.items():
            with self.subTest(path):
                if path != "docs/d.md":
                    line = self.line(path, data)
                    one = recorded_module._one_pass(self.recorded(path, data), line, line.index("\t") + 1, PAGES[path])
                    self.assertIsNotNone(one)
                fast, full = self.both(path, data)
                self.assertEqual(fast[0], "read")
                self.assertEqual(fast, full)
                claims = fast[1].claims
                self.assertTrue(all(type(claim) is Claim for claim in claims))
                self.assertTrue(all(type(miss) is NearMiss for miss in fast[1].near_misses))

    def test_a_page_recording_nothing_is_not_decoded(self) -> None:
        """The record of a page with nothing directive-shaped gives the empty reading without the
        decoding (the fault guarded against: every page paid the whole decoding and its objects)."""
        data = self.data["docs/d.md"]
        self.assertEqual(data, [[], None, [], [], []])
        entry, digest = self.entries["docs/d.md"], source_digest(PAGES["docs/d.md"])
        with (
            mock.patch.object(recorded_module, "_one_pass", side_effect=AssertionError("decoded")),
            mock.patch.object(recorded_module, "_checked", side_effect=AssertionError("decoded")),
        ):
            reading = recorded_reading(self.recorded("docs/d.md", None), entry, digest, PAGES["docs/d.md"])
        self.assertEqual(self.both("docs/d.md", data)[1], outcome(lambda: reading))

    def test_every_record_damaged_in_one_place(self) -> None:
        """Each place of each page's record replaced with another type, a bool, a float, an integer off
        by one, other text or a list: the one pass accepts it only where every check does, with the same
        reading, and otherwise the error is the one every check gives (its reason and message)."""
        count = 0
        for path, data in self.data.items():
            for at in places(data)[1:]:
                value: Any = data
                for index in at:
                    value = value[index]
                for other in (*OTHERS, *nudged(value)):
                    damaged = replaced(data, at, other)
                    fast, full = self.both(path, damaged)
                    self.assertEqual(fast, full, f"{path} at {at}: {other!r}")
                    count += 1
        self.assertGreater(count, 1000)

    def test_a_claim_moved_elsewhere(self) -> None:
        """A claim's span moved to every other place the page holds its text (mid-line in a comment, the
        start of a longer line, a line of its own in a fence) and to every other line's start (other
        text): the same outcome either way, and refused wherever the page's bytes there are not the
        claim's text as a line of its own (a line of its own elsewhere, as in a fence, passes this check:
        ``pin --check --site`` finds that, reference/site.md)."""
        refused = 0
        for path, data in self.data.items():
            raw = PAGES[path]
            starts = [0] + [at + 1 for at in range(len(raw)) if raw[at : at + 1] == b"\n"]
            for index, claim in enumerate(data[0]):
                text = claim[3].encode()
                places = {at for at in range(len(raw)) if raw.startswith(text, at)} | set(starts)
                for at in sorted(places - {claim[2]}):
                    damaged = copy.deepcopy(data)
                    damaged[0][index][2] = at
                    fast, full = self.both(path, damaged)
                    self.assertEqual(fast, full)
                    tail = raw[at + len(text) : at + len(text) + 1]
                    if raw[at : at + len(text)] != text or at not in starts or tail not in (b"\n", b""):
                        self.assertEqual(fast[:2], ("refused", "reading_unusable"), (path, at))
                        refused += 1
        self.assertGreater(refused, 20)

    def test_a_claim_after_three_bytes_that_are_no_bom(self) -> None:
        """The claim at byte 3 after a BOM counts; after three other bytes it is no line of its own."""
        data, raw = self.data["docs/b.md"], PAGES["docs/b.md"]
        self.assertEqual(data[0][0][2], 3)
        self.assertEqual(self.both("docs/b.md", data)[0][0], "read")
        for other in (b"ab ", b"a\nb", b"\xef\xbb\xbe"):
            fast, full = self.both("docs/b.md", data, other + raw[3:])
            self.assertEqual(fast, full)
            self.assertEqual(fast[:2], ("refused", "reading_unusable"))
        self.assertEqual(self.both("docs/b.md", data, b"a\n\n" + raw[3:])[0][0], "read")

    def test_claims_repeated_or_out_of_order(self) -> None:
        """Guards against a forged line repeating one claim (each repeat read the page's bytes after it
        again: a line holding it many times cost the length of its tail that many times) or giving the
        claims out of line order: a claim must start after the one before it ends, refused the same way
        by both paths; the claims in order are read."""
        data = self.data["docs/a.md"]
        first, second = data[0]
        self.assertEqual(self.both("docs/a.md", data)[0][0], "read")
        for claims in ([first, first], [second, first], [first, second, second], [first, *[second] * 50]):
            with self.subTest(claims=len(claims)):
                damaged = copy.deepcopy(data)
                damaged[0] = copy.deepcopy(claims)
                fast, full = self.both("docs/a.md", damaged)
                self.assertEqual(fast, full)
                self.assertEqual(fast[:2], ("refused", "reading_unusable"))

    def test_records_damaged_in_two_places(self) -> None:
        """Two places damaged at once (a seeded sample): the same outcome either way."""
        generator = random.Random(30)
        for _ in range(1500):
            path = generator.choice(list(self.data))
            data = self.data[path]
            for _ in range(2):
                at = generator.choice(places(data)[1:])
                value: Any = data
                for index in at:
                    value = value[index] if isinstance(value, list) and index < len(value) else None
                data = replaced(data, at, generator.choice((*OTHERS, *nudged(value))))
            fast, full = self.both(path, data)
            self.assertEqual(fast, full, f"{path}: {data!r}")


if __name__ == "__main__":
    unittest.main()

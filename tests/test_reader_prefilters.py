"""The reader's page-wide scans found by their C-level hints read exactly as the scans they replace
(issue 33, item 1): on the generated corpora (the bench's fence-heavy, prose-heavy and long-paragraph
pages, and random pages of the block tests' fragments with the hints' look-alikes), and on the real
pages vendored under ``tests/pages/`` (as written, with a directive at the top, and with the hints'
constructs added), each shortcut gives the same matches, offsets and decisions as the full scan:

- a page without an at sign in any spelling (an ``&`` that starts no reference spells none), or that names no operation of the grammar, states no
  claim (:func:`~_conflict_gate.reading.candidates.may_state_claims`): the same candidates with ``full=True``;
  and the next at sign found by a memchr per spelling is where ``Grammar.at_sign`` finds it;
- an attribute a browser shows, found from the page's ``=`` signs
  (:func:`~_conflict_gate.reading.html_attributes.attribute_matches`): the same matches as the pattern over the page;
- MyST's include and option lines, MkDocs's fence, backtick and definition lines, found from their hints
  (:func:`~_conflict_gate.reading.blocks.scan.hinted_line_matches`): the same matches as ``finditer``;
- MyST's include lines found from one scan for ``include`` (:func:`~_conflict_gate.reading.blocks.myst.include_line`):
  the same offset as a scan per needle; a snippets mark found by ``re``
  (:func:`~_conflict_gate.reading.mkdocs_lines.snippet_marked`): the same answer as ``in``;
- every renderer's reading with the shortcuts (``fast=True``) and without them (``fast=False``): the
  same claims, refusal (reason, line, column, message) and near-misses.

``CONFLICT_GATE_FUZZ_CASES`` (default 30; ``.ci/run``: 1,000) sets the random pages, and with them the
bench's pages of each kind: one per eight random pages, at least 4 and at most 12 (12 from 96 cases).
"""

from __future__ import annotations

import os
import random
import re
import unittest
from collections.abc import Iterator

from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading import mkdocs_marks
from _conflict_gate.reading.blocks import myst
from _conflict_gate.reading.blocks.scan import hinted_line_matches
from _conflict_gate.reading.candidates import (
    _next_at_sign,
    _stated_claims,
    candidates_of,
    may_state_claims,
    stated_keys,
)
from _conflict_gate.reading.fences import SUPERFENCE_ONLY
from _conflict_gate.reading.html_attributes import (
    _EMBEDDED,
    _EMBEDDED_NAMES,
    _SHOWN_NAMES,
    _SHOWN_VALUE,
    attribute_matches,
    shown_attribute,
)
from _conflict_gate.reading.mkdocs_lines import snippet_marked
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.renderers import RENDERER_VALUES
from tests.support import QUILL_GRAMMAR, REPO
from tests.test_bench import BENCH
from tests.test_blocks import random_page
from tests.test_reader import outcome

CASES = int(os.environ.get("CONFLICT_GATE_FUZZ_CASES", "30"))
BENCH_PAGES = min(max(CASES // 8, 4), 12)  # of each kind
GRAMMAR = grammar_from_json(QUILL_GRAMMAR)
DIRECTIVE = "@quill create_copy existing_path=refuse"

#: The constructs the hints look for, their near-misses and spellings in other cases.
HINTED = (
    '<img alt="@quill create_copy existing_path=overwrite">',
    "<input value = '@quill create_copy x=1'>",
    "<option label=@quill>",
    'placeholder\n= "a',
    "xalt=1",
    "data-alt=2",
    "<iframe srcdoc='x=@quill'>",
    '<object data="data:text/html,@quill">',
    '<img src= "data:image/png;base64,AA">',
    "ALT  =\t'=",
    ":file: a.csv",
    "   :URL: https://x",
    "> :file:`name`",
    "```{csv-table}\n---\nfile: x.csv\n---",
    ":::{raw} html\n---\nurl: x\n---",
    "``` {x}\n---",
    "---",
    "```{eval-rst}\n|name|\n```",
    "~~~ {eval-rst}\n.. include:: x\n~~~",
    "{eval-rst}",
    "{{ x }}",
    "}} {{",
    "```{include} a.md\n```",
    ":::{literalinclude} b.py",
    "   .. literalinclude:: c.py",
    "..include:: d",
    "x include} include:: {include}",
    '--8<-- "e.md"',
    "8<",
    "create_copy",
    "@team CREATE_COPY existing_path=x",
    "@alice create_copy",
    "a = b == c",
    "=" * 5,
    "&#64;quill create_copy existing_path=x",
    "\uff20quill",
    "x \ufe6b y",
    "&#x40;",
    "&commat;q",
    "&#0064",
    "&amp;",
    "&",
    "\ufe0f",
    ":   a definition",
    "   :\tb",
    "    : c",
    "x: y",
    "~~~~",
    "  ```  ",
    "\t```python",
    "``` x ```",
    "````",
)


def real_pages() -> list[str]:
    pages = sorted((REPO / "tests" / "pages").rglob("*.md"))
    return [path.read_text(encoding="utf-8") for path in pages if path.name != "README.md"]


def generated_pages(rng: random.Random) -> Iterator[str]:
    """The bench's corpora (:data:`BENCH_PAGES` pages of each kind), the real pages four ways (as written, with a
    directive, with the hints' constructs, the same with CRLF line endings), random pages (a third CRLF)."""
    sentences = BENCH.sentence_pool(1, 200)
    for kind in ("fence", "prose", "long"):
        for index in range(BENCH_PAGES):
            yield BENCH.make_document(kind, index, 8192, 1, sentences)[1].decode("utf-8")
    for text in real_pages():
        yield text
        yield DIRECTIVE + "\n\n" + text
        lines = text.split("\n")
        for _ in range(6):
            lines.insert(rng.randrange(len(lines) + 1), rng.choice((*HINTED, DIRECTIVE)))
        yield "\n".join(lines)
        yield "\r\n".join(lines)
    for case in range(CASES):
        lines = random_page(rng).split("\n")
        for _ in range(rng.randint(1, 6)):
            lines.insert(rng.randrange(len(lines) + 1), rng.choice((*HINTED, DIRECTIVE, "")))
        yield ("\r\n" if case % 3 == 0 else "\n").join(lines)


def spans(matches: Iterator[re.Match[str]]) -> list[tuple[int, int, tuple[str | None, ...]]]:
    return [(found.start(), found.end(), found.groups()) for found in matches]


#: Each pattern scanned from its hint: ``(pattern, hint, line)`` as :func:`hinted_line_matches` takes them.
HINTS: tuple[tuple[re.Pattern[str], re.Pattern[str] | tuple[str, ...], int], ...] = (
    (myst._FILE_OPTION, myst._FILE_HINT, 0),
    (myst._YAML_OPTIONS, myst._YAML_HINT, 1),
    (myst._EVAL_RST, myst._EVAL_RST_HINT, 0),
    (SUPERFENCE_ONLY, mkdocs_marks._FENCE_RUNS, 0),
    (mkdocs_marks._BACKTICK_LINE, mkdocs_marks._FENCE_RUNS[:1], 0),
    (mkdocs_marks._DEFINITION_LINE, mkdocs_marks._DEFINITION_HINT, -1),
)


class PrefilterTest(unittest.TestCase):
    maxDiff = None
    pages: list[str]

    @classmethod
    def setUpClass(cls) -> None:
        cls.pages = list(generated_pages(random.Random(20261205)))

    def views(self) -> Iterator[tuple[int, str, bytes]]:
        for index, text in enumerate(self.pages):
            encoded = text.encode("utf-8", "surrogatepass")
            yield index, encoded.decode("latin-1"), encoded

    def test_a_page_naming_no_operation_states_no_claim(self) -> None:
        """Guards against the operation-name shortcut dropping a claim stated under another at-word
        (``@alice create_copy existing_path=x``), in any case of the operation's letters."""
        stated = skipped = 0
        for index, _, encoded in self.views():
            with self.subTest(page=index):
                self.assertEqual(candidates_of(encoded, GRAMMAR), candidates_of(encoded, GRAMMAR, full=True))
                if not may_state_claims(encoded, GRAMMAR):
                    skipped += 1
                    self.assertEqual(_stated_claims(encoded, GRAMMAR, full=True), [])
                stated += bool(_stated_claims(encoded, GRAMMAR))
        self.assertGreater(stated, 0)
        self.assertGreater(skipped, 0)

    def test_a_page_whose_ampersands_spell_no_at_sign_has_no_candidate(self) -> None:
        """Guards against the shortcut for a page whose every ``&`` starts no at sign reference
        (``&amp;``, ``a && b``) dropping a candidate or a stated claim a reference spells
        (``&#64;quill``, ``&commat;``, ``&#x40;``): the same candidates as the full scan, on pages with and
        without at signs besides."""
        shortcut = 0
        pages = [view for _, view, _ in self.views()]
        for index, text in enumerate(
            pages
            + [
                f"a && b &amp; c {spelling}quill create_copy existing_path=x"
                for spelling in ("&#64;", "&commat;", "&#x40;", "&#0064", "")
            ]
            # pages with ampersands and no at sign, whatever the random sample holds
            + [
                "R&amp;D notes\n\nquill create_copy existing_path=x\n",
                "a &#63; b &#x3F; c &lt;quill&gt;\n",
                "&&&&\n&\r\n",
            ]
        ):
            encoded = text.encode("latin-1")
            with self.subTest(page=index):
                self.assertEqual(candidates_of(encoded, GRAMMAR), candidates_of(encoded, GRAMMAR, full=True))
                shortcut += b"&" in encoded and GRAMMAR.at_sign.search(encoded) is None
        self.assertGreater(shortcut, 5)

    def test_stated_keys_read_line_by_line_are_the_patterns_matches(self) -> None:
        """Guards against the line walk of ``stated_keys`` (a carriage return looked for only on a page
        that has one) ending a line elsewhere than at its line feed or carriage return: the same
        matches as the pattern over the page, and with ``signed`` those on lines holding an at sign, on
        pages with line feeds, CRLF and lone carriage returns."""
        found = 0
        lines = (b"existing_path=x", b"@quill create_copy existing_path=y", b"a", b"", b"&#64;q existing_path = 1")
        rng = random.Random(7)
        mixed = [
            b"".join(rng.choice(lines) + rng.choice((b"\n", b"\r", b"\r\n")) for _ in range(rng.randint(1, 8)))
            for _ in range(200)
        ]
        for index, encoded in [*((index, encoded) for index, _, encoded in self.views()), *enumerate(mixed, 10_000)]:
            for raw in (encoded, encoded.replace(b"\n", b"\r")):
                with self.subTest(page=index, lone_cr=raw is not encoded):
                    expected = list(GRAMMAR.stated_key.finditer(raw))
                    self.assertEqual([m.span() for m in stated_keys(raw, GRAMMAR)], [m.span() for m in expected])
                    signed = [
                        m.span()
                        for m in expected
                        if GRAMMAR.at_sign.search(raw, _line_start(raw, m.start()), _line_end(raw, m.start()))
                    ]
                    self.assertEqual([m.span() for m in stated_keys(raw, GRAMMAR, signed=True)], signed)
                    found += len(signed)
        self.assertGreater(found, 10)

    def test_the_next_at_sign_is_where_the_pattern_finds_it(self) -> None:
        """Guards against the at sign walk (a memchr per spelling, the references tried at each '&')
        missing a spelling that comes first, or one cut off by the end of the range."""
        rng = random.Random(5)
        found = 0
        for index, _, encoded in self.views():
            for _ in range(20):
                start = rng.randrange(len(encoded) + 1)
                end = rng.randrange(start, len(encoded) + 1)
                with self.subTest(page=index, start=start, end=end):
                    sign = GRAMMAR.at_sign.search(encoded, start, end)
                    expected = -1 if sign is None else sign.start()
                    self.assertEqual(_next_at_sign(encoded, GRAMMAR, False, start, end), expected)
                    found += expected >= 0
        self.assertGreater(found, 100)

    def test_attributes_found_from_equals_signs_match_the_pattern(self) -> None:
        """Guards against the attribute shortcut missing an attribute (spaces or a line ending before
        its '=', upper case, a value that swallows the next one) or finding one the pattern does not."""
        found = 0
        for index, view, _ in self.views():
            for pattern, names in ((_SHOWN_VALUE, _SHOWN_NAMES), (_EMBEDDED, _EMBEDDED_NAMES)):
                with self.subTest(page=index, pattern=pattern.pattern[:30]):
                    fast = spans(attribute_matches(pattern, names, view))
                    self.assertEqual(fast, spans(pattern.finditer(view)))
                    found += len(fast)
            candidates = [match.start() for match in re.finditer("@", view)]
            self.assertEqual(shown_attribute(view, candidates), shown_attribute(view, candidates, full=True))
        self.assertGreater(found, 20)

    def test_hinted_line_matches_match_the_patterns(self) -> None:
        """Guards against a MyST include, option or eval-rst line missed (or found) by the hint that
        names the lines worth trying, the options' YAML block found from its '---' line, or by the
        first hint searched alone (a page without one ends there), over the page and parts of it."""
        found = 0
        rng = random.Random(33)
        for index, view, _ in self.views():
            start = rng.randrange(len(view) + 1)
            ranges = (
                (0, len(view)),
                (len(view) // 3, len(view) // 2 + 7),
                (start, rng.randrange(start, len(view) + 1)),
            )
            for pattern, hint, line in HINTS:
                for start, end in ranges:
                    with self.subTest(page=index, pattern=pattern.pattern[:30], start=start):
                        fast = spans(hinted_line_matches(pattern, hint, view, start, end, line=line))
                        self.assertEqual(fast, spans(pattern.finditer(view, start, end)))
                        found += len(fast)
        self.assertGreater(found, 10)

    def test_include_lines_found_from_one_scan_are_those_of_a_scan_per_needle(self) -> None:
        """Guards against the one ``include`` scan of MyST's include rule missing an ``include}`` or
        ``include::`` line that a scan per needle finds first (or finding another), and against the
        snippets mark's ``re`` search answering otherwise than ``b"8<" in``."""
        found = 0
        for index, view, encoded in self.views():
            with self.subTest(page=index):
                expected = _include_line_per_needle(view)
                self.assertEqual(myst.include_line(view), expected)
                self.assertEqual(snippet_marked(encoded), b"8<" in encoded)
                found += expected >= 0
        self.assertGreater(found, 5)

    def test_every_reading_is_the_same_with_and_without_the_shortcuts(self) -> None:
        """Guards against any shortcut of the reader changing a decision, a refusal or its place and
        message, or a near-miss, under any renderer (the default included)."""
        claims = refusals = 0
        for index, text in enumerate(self.pages):
            for name, renderer in RENDERER_VALUES.items():
                with self.subTest(page=index, renderer=name):
                    fast = read_directives(text, GRAMMAR, renderer=renderer)
                    full = read_directives(text, GRAMMAR, renderer=renderer, fast=False)
                    self.assertEqual(outcome(fast), outcome(full))
                    self.assertEqual((fast.occurrences, fast.left_out), (full.occurrences, full.left_out))
                    claims += len(fast.claims)
                    refusals += fast.refusal is not None
        self.assertGreater(claims, 0)
        self.assertGreater(refusals, 0)


def _line_start(raw: bytes, at: int) -> int:
    return max(raw.rfind(b"\n", 0, at), raw.rfind(b"\r", 0, at)) + 1


def _line_end(raw: bytes, at: int) -> int:
    return min(end for end in (raw.find(b"\n", at), raw.find(b"\r", at), len(raw)) if end != -1)


def _include_line_per_needle(view: str) -> int:
    """:func:`~_conflict_gate.reading.blocks.myst.include_line` as it was written before one scan found
    both needles: a ``str.find`` walk per needle, the earliest line that pulls in kept (the reference)."""
    best = -1
    for needle in myst._NEEDLES:
        i = view.find(needle)
        while i != -1 and (best < 0 or i < best):
            line_start = view.rfind("\n", 0, i) + 1
            if myst._pulls_in(view, line_start, i, needle):
                best = line_start if best < 0 else min(best, line_start)
                break
            i = view.find(needle, i + len(needle))
    option = next(myst._FILE_OPTION.finditer(view, 0, best if best >= 0 else len(view)), None)
    if option is not None:
        best = view.rfind("\n", 0, option.start()) + 1
    searched = 0
    for block in myst._YAML_OPTIONS.finditer(view, 0, best if best >= 0 else len(view)):
        if block.start() < searched:
            continue
        end = myst._YAML_END.search(view, block.end())
        searched = end.start() if end is not None else len(view)
        key = myst._YAML_FILE_KEY.search(view, block.end(), searched)
        if key is not None:
            return view.rfind("\n", 0, key.start()) + 1
    return best


if __name__ == "__main__":
    unittest.main()

"""Line rules: line endings, BOM, non-ASCII offsets, fences, indentation, mentions.

Checked both at the scanner (load_documents.scan_text / fence_ranges) and end to
end (write + pin + load + gate). Every claim or directive line produced here goes
through assert_span_invariants.
"""

from __future__ import annotations

import unittest
from typing import Any

from conflict_gate import DirectiveError, gate, source_claims
from load_documents import fence_ranges, load_documents, scan_text
from tests.support import FIXTURE_MANIFEST, CorpusTestCase, assert_span_invariants, fixture_bytes

BOM = b"\xef\xbb\xbf"
REFUSE = "@quill create_copy existing_path=refuse"
OVERWRITE = "@quill create_copy existing_path=overwrite"
#: Characters str.splitlines() treats as line boundaries but the line rules do not.
NOT_LINE_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def lines(*items: str) -> str:
    return "\n".join(items) + "\n"


class LineTestCase(CorpusTestCase):
    """Helpers: scan raw bytes, or load them as the only source ``s`` (version 1.0) and gate."""

    def scan(self, raw: bytes):
        bom = len(BOM) if raw.startswith(BOM) else 0
        found, mentions = scan_text(raw[bom:].decode("utf-8"), bom_bytes=bom)
        for item in found:
            assert_span_invariants(raw, item)
        return found, mentions

    def gate_one(self, raw: bytes, claim_key: str = "existing_path") -> dict[str, Any]:
        corpus, _ = self.corpus({"docs/s.md": raw})
        result = gate(corpus, ["s"], "1.0", claim_key)
        for claim in result["claims"]:
            assert_span_invariants(raw, claim)
        return result

    def claims(self, raw: bytes) -> dict[str, dict[str, Any]]:
        """All claims of ``raw`` by claim key (raises DirectiveError if refused)."""
        corpus, _ = self.corpus({"docs/s.md": raw})
        found = source_claims(corpus, "s")
        for claim in found.values():
            assert_span_invariants(raw, claim)
        return {key: claim for (_, key), claim in found.items()}

    def assertRefused(self, raw: bytes, reason: str, line: int, column: int) -> None:
        result = self.gate_one(raw)
        self.assertEqual((result["status"], result["reason"], result["line"], result["column"]),
                         ("refused", reason, line, column), result.get("message"))

    def assertReady(self, raw: bytes, line: int, value: str = "refuse") -> dict[str, Any]:
        result = self.gate_one(raw)
        self.assertEqual((result["status"], result.get("agreed_value")), ("ready", value),
                         result.get("message"))
        self.assertEqual([c["start_line"] for c in result["claims"]], [line])
        return result


class LineEndingTest(LineTestCase):

    def test_crlf_claims_exclude_cr(self):
        raw = b"# T\r\n\r\n" + REFUSE.encode() + b"\r\nafter\r\n@quill create_copy close_required=yes\r\n"
        claims = self.claims(raw)
        first = claims["existing_path"]
        self.assertEqual(first["quote"], REFUSE)
        self.assertEqual(first["start_line"], 3)
        self.assertEqual(first["byte_start"], raw.index(b"@quill"))
        self.assertEqual(first["byte_end"], raw.index(b"@quill") + len(REFUSE))
        self.assertEqual(raw[first["byte_end"]:first["byte_end"] + 2], b"\r\n")
        second = claims["close_required"]
        self.assertEqual((second["start_line"], second["value"]), (5, "yes"))
        self.assertEqual(second["byte_start"], raw.rindex(b"@quill"))
        self.assertReady(raw, 3)

    def test_final_line_without_newline(self):
        for raw, line in ((b"# T\n\n" + REFUSE.encode(), 3), (b"# T\r\n" + REFUSE.encode(), 2),
                          (REFUSE.encode(), 1)):
            with self.subTest(raw=raw):
                claim = self.claims(raw)["existing_path"]
                self.assertEqual((claim["start_line"], claim["byte_end"]), (line, len(raw)))
                self.assertEqual(claim["end"], len(raw.decode()))
                self.assertReady(raw, line)

    def test_cr_at_end_of_file_is_part_of_the_line(self):
        """A \\r not followed by \\n is text: the directive line has a trailing \\r and is refused."""
        self.assertRefused(b"# T\n" + REFUSE.encode() + b"\r", "malformed_directive", 2, len(REFUSE) + 1)

    def test_lone_cr_mid_line_makes_directive_malformed(self):
        raw = b"# T\n\n@quill create_copy\rexisting_path=refuse\n"
        self.assertRefused(raw, "malformed_directive", 3, len("@quill create_copy") + 1)
        self.assertRefused(b"# T\n" + REFUSE.encode() + b"\r\r\n", "malformed_directive", 2,
                           len(REFUSE) + 1)

    def test_lone_cr_starts_a_line_for_the_reader(self):
        """'intro\\r@quill ...': a lone CR is a CommonMark line ending, so the directive is refused."""
        raw = b"intro\r" + REFUSE.encode() + b"\n"
        found, mentions = self.scan(raw)
        self.assertEqual([(d.line, d.text) for d in found], [(1, "intro\r" + REFUSE)])
        self.assertRefused(raw, "malformed_directive", 1, 1)
        self.assertRefused(b"x@y\r\r" + REFUSE.encode() + b"\n", "malformed_directive", 1, 1)
        # ... and a line that starts with a lone \r is a blank-prefixed directive line: refused
        self.assertRefused(b"# T\n\r" + REFUSE.encode() + b"\n", "malformed_directive", 2, 1)

class NotLineBreakTest(LineTestCase):
    """Regression: only \\n ends a line. str.splitlines() would also split on these characters."""

    def test_separators_in_prose_do_not_shift_line_numbers(self):
        """Guards against counting lines with str.splitlines(): the directive is on line 4."""
        for ch in NOT_LINE_BREAKS:
            with self.subTest(char=hex(ord(ch))):
                text = lines("# Title", f"prose{ch}more prose{ch}still", "", REFUSE)
                raw = text.encode("utf-8")
                start = text.index(REFUSE)
                # the test discriminates: splitlines would put the directive on line 6
                self.assertEqual(len(text[:start].splitlines()) + 1, 6)
                (found,), _ = self.scan(raw)
                self.assertEqual((found.line, found.start), (4, start))
                result = self.assertReady(raw, 4)
                self.assertEqual(result["claims"][0]["byte_start"], raw.index(REFUSE.encode()))

    def test_all_separators_together(self):
        text = "# T\n" + "".join(f"x{ch}" for ch in NOT_LINE_BREAKS) + "\n" + REFUSE + "\n"
        self.assertEqual(text[:text.index(REFUSE)].count("\n") + 1, 3)
        self.assertNotEqual(len(text[:text.index(REFUSE)].splitlines()) + 1, 3)
        self.assertReady(text.encode("utf-8"), 3)

    def test_separator_inside_directive_line_is_malformed(self):
        for ch in NOT_LINE_BREAKS:
            with self.subTest(char=hex(ord(ch))):
                self.assertRefused(("# T\n" + REFUSE + ch + "\n").encode(), "malformed_directive",
                                   2, len(REFUSE) + 1)
                self.assertRefused(("# T\n@quill create_copy" + ch + "existing_path=refuse\n").encode(),
                                   "malformed_directive", 2, len("@quill create_copy") + 1)

    def test_separator_before_at_sign_is_blank(self):
        """A line '<sep>@quill ...' has '@' as its first non-blank character: refused, not skipped."""
        for ch in NOT_LINE_BREAKS:
            with self.subTest(char=hex(ord(ch))):
                self.assertRefused(("# T\n\n" + ch + REFUSE + "\n").encode(), "malformed_directive", 3, 1)

    def test_fence_marker_after_separator_is_mid_line(self):
        """'x<sep>```' is one line whose first character is 'x': no fence opens there."""
        for ch in NOT_LINE_BREAKS:
            with self.subTest(char=hex(ord(ch))):
                text = lines(f"x{ch}```", REFUSE, "more")
                self.assertEqual(fence_ranges(text), [])
                self.assertReady(text.encode("utf-8"), 2)


class OffsetTest(LineTestCase):

    def test_bom_excluded_from_offsets_included_in_bytes(self):
        raw = BOM + REFUSE.encode() + b"\n"
        claim = self.claims(raw)["existing_path"]
        self.assertEqual((claim["start"], claim["end"]), (0, len(REFUSE)))
        self.assertEqual((claim["byte_start"], claim["byte_end"]), (3, 3 + len(REFUSE)))
        self.assertEqual(claim["start_line"], 1)
        self.assertReady(raw, 1)

    def test_bom_with_non_ascii_and_crlf(self):
        head = "# Tïtle — ü\r\n\r\n"
        raw = BOM + head.encode() + REFUSE.encode() + b"\r\n"
        claim = self.claims(raw)["existing_path"]
        self.assertEqual(claim["start"], len(head))
        self.assertEqual(claim["byte_start"], 3 + len(head.encode()))
        self.assertEqual(claim["start_line"], 3)

    def test_only_a_leading_bom_is_stripped(self):
        """U+FEFF elsewhere is an invisible format character: a blank before '@', so refused."""
        self.assertRefused(BOM + b"# T\n" + BOM + REFUSE.encode() + b"\n", "malformed_directive", 2, 1)

    def test_invisible_characters_before_at_sign_refuse(self):
        """Guards against a directive disguised behind a character that renders as nothing
        (a Hangul filler, a combining grapheme joiner, a braille blank, a NUL): a reader sees a
        directive, so the gate must refuse the source rather than count it as silent."""
        for prefix in ("\u3164", "\u034f", "\u2800", "\x00", "\u200b\u3164"):
            with self.subTest(prefix=ascii(prefix)):
                self.assertRefused(("# T\n" + prefix + REFUSE + "\n").encode(),
                                   "malformed_directive", 2, 1)

    def test_non_ascii_before_directive(self):
        head = "# Überblick — naïve → ok 😀\n\n"
        middle = "\n€ after — 😀\n"
        text = head + REFUSE + middle + "@quill create_copy close_required=no\n"
        raw = text.encode("utf-8")
        claims = self.claims(raw)
        first, second = claims["existing_path"], claims["close_required"]
        self.assertEqual(first["start"], len(head))
        self.assertEqual(first["byte_start"], len(head.encode()))
        self.assertNotEqual(first["start"], first["byte_start"])
        self.assertEqual(second["start"], text.rindex("@"))
        self.assertEqual(second["byte_start"], raw.rindex(b"@"))
        self.assertEqual((first["start_line"], second["start_line"]), (3, 5))
        result = self.gate_one(raw, "close_required")
        self.assertEqual((result["status"], result["agreed_value"]), ("ready", "no"))

    def test_non_ascii_in_ascii_free_directive_source_at_eof(self):
        raw = "é\n".encode() + REFUSE.encode()
        claim = self.claims(raw)["existing_path"]
        self.assertEqual((claim["start"], claim["byte_start"], claim["byte_end"]),
                         (2, 3, len(raw)))


class FenceTest(LineTestCase):
    """CommonMark fences: what opens, what closes, what counts inside."""

    # name -> (lines, [(line, value)] of the existing_path directive that counts)
    CASES = {
        "backtick fence with info string": (
            ["```python", OVERWRITE, "```", "", REFUSE], [(5, "refuse")]),
        "tilde fence with info string": (
            ["~~~ text {.example}", OVERWRITE, "~~~", REFUSE], [(4, "refuse")]),
        "longer closing fence closes": (
            ["```", OVERWRITE, "`````", REFUSE], [(4, "refuse")]),
        "closing fence with trailing blanks closes": (
            ["```", OVERWRITE, "``` \t ", REFUSE], [(4, "refuse")]),
        "indented (3 spaces) fence closes with any indent up to 3": (
            ["   ```", OVERWRITE, " ```", REFUSE], [(4, "refuse")]),
        "tilde does not close backtick": (
            ["```", OVERWRITE, "~~~", OVERWRITE, "```", REFUSE], [(6, "refuse")]),
        "backtick does not close tilde": (
            ["~~~", OVERWRITE, "```", OVERWRITE, "~~~", REFUSE], [(6, "refuse")]),
        "shorter closing fence does not close": (
            ["````", OVERWRITE, "```", OVERWRITE, "````", REFUSE], [(6, "refuse")]),
        "closing fence followed by text does not close": (
            ["```", "x", "``` not a close", OVERWRITE, "```", REFUSE], [(6, "refuse")]),
        "four-space indented fence is not a fence": (
            ["    ```", REFUSE, "    ```"], [(2, "refuse")]),
        "tab indented fence is not a fence": (
            ["\t```", REFUSE], [(2, "refuse")]),
        "two backticks are not a fence": (
            ["``", REFUSE], [(2, "refuse")]),
        "backtick info string with a backtick is not a fence": (
            ["``` info `x`", REFUSE], [(2, "refuse")]),
        "tilde info string may hold a backtick": (
            ["~~~ a`b", OVERWRITE, "~~~", REFUSE], [(4, "refuse")]),
        "an unclosed fence hides prose lines": (
            [REFUSE, "```", "text @quill create_copy existing_path=overwrite"], [(1, "refuse")]),
        "fence marker mid-line is not a fence": (
            ["text ```", REFUSE], [(2, "refuse")]),
        "only directive in fence": (
            ["```", REFUSE, "```"], []),
    }

    def test_fence_cases_scan_and_gate(self):
        for name, (items, expected) in self.CASES.items():
            with self.subTest(name):
                text = lines(*items)
                raw = text.encode("utf-8")
                found, _ = self.scan(raw)
                self.assertEqual([(d.line, d.text) for d in found],
                                 [(line, REFUSE if value == "refuse" else OVERWRITE)
                                  for line, value in expected])
                if expected:
                    self.assertReady(raw, expected[0][0], expected[0][1])
                else:
                    result = self.gate_one(raw)
                    self.assertEqual((result["status"], result["reason"]),
                                     ("not_in_docs", "requested_claim_missing"))

    def test_unclosed_fence_does_not_hide_directive_lines(self):
        """Fail-open guard: a fence the gate misreads (e.g. one CommonMark closes at the end of a
        list item) is usually left unclosed for the gate, and would hide a directive a reader
        sees. An '@' line inside an unclosed fence therefore refuses the source."""
        raw = lines(REFUSE, "```", OVERWRITE).encode()
        self.assertEqual(fence_ranges(raw.decode())[-1][1], len(raw))
        found, _ = self.scan(raw)
        self.assertEqual([(d.line, d.fenced) for d in found], [(1, False), (3, True)])
        self.assertRefused(raw, "malformed_directive", 3, 1)

    def test_fences_in_doubt_refuse_fenced_at_lines(self):
        """Fail-open guards: where a list item or an HTML block can move a reader's fences, an '@'
        line inside a gate fence may be visible prose, so it refuses the source."""
        cases = {
            "list item fence whose closer the gate takes for an opener": lines(
                "- ```sh", "  pip install quill", "  ```", "", REFUSE, "", "```", OVERWRITE, "```"),
            "list item ended by an unindented line": lines(REFUSE, "", "- example:", "  ```", OVERWRITE),
            "fence line inside an HTML comment": lines(REFUSE, "", "<!--", "```", "-->", "", OVERWRITE),
            "fence line inside an HTML block": lines(REFUSE, "", "<div>", "```", "</div>", "", OVERWRITE),
            "decorator in an indented fence of a list": lines(
                REFUSE, "", "1. Step:", "", "   ```python", "   @quill.task", "   ```"),
        }
        for name, text in cases.items():
            with self.subTest(name):
                result = self.gate_one(text.encode())
                self.assertEqual((result["status"], result["reason"]), ("refused", "malformed_directive"))

    def test_top_level_fences_stay_context_beside_lists_and_quotes(self):
        """The doubt rules do not fire for ordinary documents: unindented fences next to a list,
        and a fence inside a block quote."""
        text = lines("- item", "- item", "", "```python", "@quill.task", OVERWRITE, "```", "",
                     "> ```", "> @quill.task", "> ```", "", REFUSE)
        self.assertReady(text.encode(), 13)

    def test_lone_cr_ends_a_fence_line(self):
        """Fail-open guard: '~~~<CR>x<CR>~~~' is a whole fenced block to a CommonMark reader, and a
        closing fence ending in '<CR><CR><LF>' closes; neither may leave a gate fence open."""
        for fence in (b"~~~\rexample\r~~~\n", b"```\nx\n```\r\r\n"):
            with self.subTest(fence=fence):
                raw = REFUSE.encode() + b"\n\n" + fence + b"\n" + OVERWRITE.encode() + b"\n"
                result = self.gate_one(raw)
                self.assertNotEqual(result["status"], "ready")

    def test_look_alike_at_signs_and_bidi_overrides_refuse(self):
        """Fail-open guards: a fullwidth or small at sign, or a right-to-left override that renders
        reversed text as a directive, must refuse rather than be skipped as prose."""
        for line in ("\uff20quill create_copy existing_path=overwrite",
                     "\ufe6bquill create_copy existing_path=overwrite",
                     "\u202e" + OVERWRITE[::-1]):
            with self.subTest(line=ascii(line)):
                self.assertRefused(lines(REFUSE, line).encode(), "malformed_directive", 2, 1)

    def test_markup_before_a_directive_refuses(self):
        """Fail-open guards: markup that renders as nothing (a quote or list marker, a heading, a table
        pipe, emphasis, an HTML comment or tag, a backslash escape) or an at sign written as an entity
        still shows a reader a directive, so the line must refuse rather than be skipped as prose."""
        cases = {
            "block quote": "> " + OVERWRITE,
            "list item": "- " + OVERWRITE,
            "numbered list item": "1. " + OVERWRITE,
            "heading": "# " + OVERWRITE,
            "table cell": "| " + OVERWRITE + " |",
            "emphasis": "*" + OVERWRITE + "*",
            "html comment": "<!-- -->" + OVERWRITE,
            "empty anchor": '<a name="x"></a>' + OVERWRITE,
            "backslash escape": "\\" + OVERWRITE,
            "decimal entity": "&#64;" + OVERWRITE[1:],
            "hex entity": "&#x40;" + OVERWRITE[1:],
            "named entity": "&commat;" + OVERWRITE[1:],
        }
        for name, line in cases.items():
            with self.subTest(name):
                self.assertRefused(lines(REFUSE, "", line).encode(), "malformed_directive", 3, 1)

    def test_directive_in_an_html_code_element_refuses(self):
        """Fail-open guard: a directive inside <pre> (or <pre><code>) is a code example to a reader;
        counting it would make a claim the page does not make."""
        for opening, closing in (("<pre>", "</pre>"), ("<pre><code>", "</code></pre>")):
            with self.subTest(opening=opening):
                raw = lines("Example:", "", opening, OVERWRITE, closing).encode()
                result = self.gate_one(raw)
                self.assertEqual((result["status"], result["reason"]), ("refused", "malformed_directive"))

    def test_fence_line_in_front_matter_puts_fences_in_doubt(self):
        """Fail-open guard: GitHub shows YAML front matter as a table, so a fence line inside it opens
        no code block for a reader, while the gate would open one and hide the next directive."""
        raw = lines("---", "example: |", "  ```", "---", "", OVERWRITE, "", "```", "", REFUSE).encode()
        self.assertNotEqual(self.gate_one(raw)["status"], "ready")

    def test_ordinary_markup_stays_context(self):
        """The markup rules fire only on directive-shaped text: mentions of people in lists, tables
        and quotes, front matter, inline HTML code and a closed <pre> do not refuse a source."""
        cases = {
            "front matter": lines("---", "title: Quill", "tags: [a, b]", "---", "", REFUSE),
            "list mentions": lines(REFUSE, "", "- @alice reviewed this", "1. @dave wrote the docs"),
            "table mentions": lines(REFUSE, "", "| user | role |", "|---|---|", "| @alice | maintainer |"),
            "quote mention": lines(REFUSE, "", "> @bob wrote:", "> hello"),
            "inline html code": lines(REFUSE, "", "Use <code>copy()</code> and <kbd>Ctrl</kbd>."),
            "closed pre before": lines("<pre>", "out", "</pre>", "", REFUSE),
        }
        for name, text in cases.items():
            with self.subTest(name):
                result = self.gate_one(text.encode())
                self.assertEqual((result["status"], result.get("agreed_value")), ("ready", "refuse"))

    def test_crlf_fences(self):
        raw = b"```\r\n" + OVERWRITE.encode() + b"\r\n```\r\n" + REFUSE.encode() + b"\r\n"
        self.assertEqual(fence_ranges(raw.decode()), [(0, raw.index(b"```\r\n" + REFUSE.encode()) + 3)])
        self.assertReady(raw, 4)

    def test_fence_ranges_exact(self):
        text = lines("a", "```py", "x", "```", "b", "~~~~", "y", "~~~~~", "c", "```", "tail")
        first = (text.index("```py"), text.index("```\nb") + 3)
        second = (text.index("~~~~\n"), text.index("~~~~~") + 5)
        third = (text.rindex("```"), len(text))
        self.assertEqual(fence_ranges(text), [first, second, third])
        self.assertEqual(fence_ranges("no fences\n"), [])
        self.assertEqual(fence_ranges("```"), [(0, 3)])

    def test_unclosed_fence_range(self):
        text = lines(REFUSE, "```", OVERWRITE)
        self.assertEqual(fence_ranges(text), [(text.index("```"), len(text))])

    def test_decorators_in_fenced_python_are_not_directive_lines(self):
        text = lines("# T", "```python", "@quill.task(name='x')", "@retry(times=3)",
                     "def f(): pass", "```", REFUSE)
        found, mentions = self.scan(text.encode())
        self.assertEqual([d.line for d in found], [7])
        self.assertTrue(all(m.in_fence for m in mentions), mentions)
        self.assertReady(text.encode(), 7)

    def test_unfenced_decorator_is_refused(self):
        """Outside a fence the decorator line starts with '@': refused, so the example must be fenced."""
        self.assertRefused(lines("# T", "@quill.task", "def f(): pass", REFUSE).encode(),
                           "malformed_directive", 2, len("@quill") + 1)
        self.assertRefused(lines("# T", REFUSE, "@retry(times=3)").encode(),
                           "malformed_directive", 3, 2)

    def test_directive_examples_in_fences_are_not_claims_or_errors(self):
        text = lines("~~~", "@quill create_copy existing_path=merge",
                     "@quill create_copy existing_path = refuse", OVERWRITE, "@quill nonsense", "~~~",
                     "```text", REFUSE, REFUSE, "```", REFUSE)
        found, mentions = self.scan(text.encode())
        self.assertEqual([d.line for d in found], [11])
        self.assertTrue(all(m.in_fence for m in mentions))
        self.assertEqual(len(mentions), 6)
        self.assertReady(text.encode(), 11)


class IndentedDirectiveTest(LineTestCase):
    """A line whose first non-blank character is '@' must be an exact directive."""

    def test_indented_directive_lines_refused(self):
        for prefix in (" ", "   ", "    ", "\t", " \t", "\xa0", "\u200b", "\u2060", "\u3000"):
            with self.subTest(prefix=repr(prefix)):
                raw = lines("# T", "", prefix + REFUSE).encode()
                (found,), _ = self.scan(raw)
                self.assertEqual(found.text, prefix + REFUSE)
                self.assertRefused(raw, "malformed_directive", 3, 1)
                with self.assertRaises(DirectiveError):
                    self.claims(raw)

    def test_blank_only_prefix_inside_fence_is_ignored(self):
        raw = lines("```", "    " + OVERWRITE, "\t" + OVERWRITE, "```", REFUSE).encode()
        self.assertReady(raw, 5)


class MentionTest(LineTestCase):
    """Inline code and prose that mention a directive are context, not claims."""

    def test_inline_code_mentions_in_prose(self):
        text = lines("# T", f"Write `{OVERWRITE}` on its own line.", f"`{OVERWRITE}` is the syntax.",
                     "Ask @quill maintainers, or mail docs@quill.example.", REFUSE)
        found, mentions = self.scan(text.encode())
        self.assertEqual([d.line for d in found], [5])
        self.assertEqual([(m.word, m.line, m.in_fence) for m in mentions],
                         [("quill", 2, False), ("quill", 3, False), ("quill", 4, False)])
        self.assertEqual(mentions[0].column, len("Write `") + 1)
        self.assertReady(text.encode(), 5)

    def test_only_mentions_means_missing(self):
        text = lines("# T", f"The page says `{REFUSE}`.")
        result = self.gate_one(text.encode())
        self.assertEqual((result["status"], result["reason"]), ("not_in_docs", "requested_claim_missing"))


class FixtureSpanTest(unittest.TestCase):
    """The span invariant holds for every claim and directive line of every fixture source."""

    def test_every_fixture_claim(self):
        corpus = load_documents(FIXTURE_MANIFEST)
        parsed = 0
        for sid, source in corpus.sources.items():
            raw = fixture_bytes(sid)
            with self.subTest(source=sid):
                for line in source.directive_lines:
                    assert_span_invariants(raw, line)
                try:
                    claims = source_claims(corpus, sid)
                except DirectiveError:
                    continue
                parsed += 1
                self.assertTrue(claims, f"{sid} parses but declares nothing")
                for claim in claims.values():
                    assert_span_invariants(raw, claim)
                    self.assertEqual(raw.split(b"\n")[claim["start_line"] - 1].decode(), claim["quote"])
        self.assertEqual(parsed, 5)  # all but quill-unknown-value and quill-malformed


if __name__ == "__main__":
    unittest.main()

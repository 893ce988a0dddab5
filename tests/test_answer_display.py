"""Regression tests: answers a reader sees otherwise than the answer check read them.

Each answer is the lab's supported answer (``docs/answers/supported.txt``, the
``compatible-agreement`` decision: ``existing_path=refuse`` at ``version=1.0``, claims at
``quill-guide:37`` and ``quill-reference:22``) plus text that shows a chat window (rendered
Markdown) or a terminal (the raw text) another value, another version, or no evidence. None may be
``supported``; each names the finding that fails it closed (reference/answer-check.md).
"""

from __future__ import annotations

import unittest
from typing import Any

from _conflict_gate.answer.check import check_answer
from _conflict_gate.answer.controls import BIDI_CONTROLS, CONTROLS, control_findings
from _conflict_gate.answer.forms import near_name
from _conflict_gate.base.registry import FINDINGS
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.decide.decision import gate
from tests.support import FIXTURE_MANIFEST, REPO

SUPPORTED = (REPO / "docs" / "answers" / "supported.txt").read_text(encoding="utf-8")
GUIDE = "[source: quill-guide:37]"
REFERENCE = "[source: quill-reference:22]"
VALUE = "`existing_path=refuse`"
VERSION = "`version=1.0`"


class DisplayFixture(unittest.TestCase):
    corpus: Any
    ready: Any

    @classmethod
    def setUpClass(cls) -> None:
        cls.corpus = load_documents(FIXTURE_MANIFEST)
        cls.ready = gate(cls.corpus, ["quill-guide", "quill-reference"], "1.0", "create_copy", "existing_path")

    def check(self, answer: str) -> dict[str, Any]:
        result: dict[str, Any] = dict(check_answer(self.corpus, self.ready, answer))
        for found in result["findings"]:
            self.assertIn(found["kind"], FINDINGS)
        return result

    def assert_fails(self, answer: str, verdict: str, kinds: set[str]) -> None:
        """``answer`` is not supported: it has ``verdict`` and at least one finding of ``kinds``."""
        result = self.check(answer)
        found = {f["kind"] for f in result["findings"]}
        self.assertEqual(result["verdict"], verdict, result["findings"])
        self.assertTrue(found & kinds, result["findings"])

    def assert_supported(self, answer: str) -> None:
        result = self.check(answer)
        self.assertEqual((result["verdict"], result["findings"]), ("supported", []))


class MarkupInStatementsTest(DisplayFixture):
    """Statements are judged on the text with inline markup resolved, and on the raw text."""

    def test_another_value_in_emphasis_or_a_link(self) -> None:
        """Guards against ``existing_path=**overwrite**``, ``existing_path=[overwrite](x)``,
        ``version=[2.0]`` and ``version=~~1.0~~2.0`` passing: the value stopped at the first ``*``,
        ``[`` or ``~``, so nothing was read, or only ``1.0``."""
        for extra, kind in (
            ("existing_path=**overwrite**", "other_value"),
            ("existing_path=[overwrite](x)", "other_value"),
            ("existing_path=_overwrite_", "other_value"),
            ("version=[2.0]", "other_version"),
            ("version=~~1.0~~2.0", "other_version"),
            ("version=**2.0**", "other_version"),
            ("existing_path= ~~refuse~~ overwrite", "other_value"),
        ):
            with self.subTest(extra=extra):
                result = self.check(f"{SUPPORTED}\nAlso: {extra}\n")
                self.assertNotEqual(result["verdict"], "supported")
                self.assertIn(kind, {f["kind"] for f in result["findings"]}, result["findings"])

    def test_the_agreed_value_in_emphasis_still_agrees(self) -> None:
        """Guards against the markup rule contradicting an answer that states the agreed value in bold."""
        for extra in (
            "existing_path=**refuse**",
            "version=*1.0*",
            "(existing_path=refuse).",
            "**existing_path=refuse**,",
            "existing_path=refuse, as documented",
            "\u201cexisting_path=refuse\u201d \u2014 yes",
        ):
            with self.subTest(extra=extra):
                self.assert_supported(f"{SUPPORTED}\nAlso: {extra}\n")

    def test_emphasis_inside_the_key(self) -> None:
        """Guards against ``existing_pa*th*=overwrite`` and ``exist*ing*_path=overwrite`` (a chat window
        shows ``existing_path=overwrite``) passing: the name was read with its emphasis markers."""
        for extra in (
            "existing_pa*th*=overwrite",
            "exist*ing*_path=overwrite",
            "exist**ing**_path=overwrite",
            "ver~~si~~on=2.0",
            "exist[ing](x)_path=overwrite",
        ):
            with self.subTest(extra=extra):
                self.assert_fails(
                    f"{SUPPORTED}\nNote: {extra}\n", "contradicts_decision", {"other_value", "other_version"}
                )


class ValueBoundaryTest(DisplayFixture):
    """A statement's value runs to a clear boundary; what is glued after a separator is part of it."""

    def test_a_value_cut_at_a_separator(self) -> None:
        """Guards against ``existing_path=refuse|overwrite`` (and ``,``, ``*``, ``’``, ``;``, ``>``,
        ``<``, ``]``, a code span or a lone backtick right after) passing as the agreed value: the value
        stopped at the separator and the rest was never read."""
        for extra in (
            "existing_path=refuse|overwrite",
            "existing_path=refuse,overwrite",
            "existing_path=refuse*overwrite*",
            "version=1.0;2.0",
            "version=1.0>2.0",
            "version=1.0<2.0",
            "version=1.0]2.0",
            "existing_path=refuse)overwrite",
            "`version=1.0|2.0`",
            "existing_path=refuse|`overwrite`",
        ):
            with self.subTest(extra=extra):
                self.assert_fails(
                    f"{SUPPORTED}\nAlso: {extra}\n", "contradicts_decision", {"other_value", "other_version"}
                )
        # a lone backtick or a "<" that starts no tag is text a chat window shows; a terminal's reading of
        # the raw text stops there, so the two readings may part too (escaped_form)
        for extra in ("existing_path=refuse`overwrite", "existing_path=<overwrite", "existing_path=refuse|<overwrite}"):
            with self.subTest(extra=extra):
                result = self.check(f"{SUPPORTED}\nAlso: {extra}\n")
                self.assertIn(result["verdict"], ("malformed_answer", "contradicts_decision"))
                self.assertIn("other_value", {f["kind"] for f in result["findings"]}, result["findings"])
        self.assert_fails(
            f"{SUPPORTED}\nAlso: existing_path=refuse\u2019overwrite\n", "malformed_answer", {"non_ascii_in_form"}
        )

    def test_a_value_glued_after_a_quoted_value_or_across_a_line_break(self) -> None:
        """Guards against ``existing_path='refuse'|'overwrite'`` (the rest after the closing quote never
        read) and ``existing_path=`` at a line's end with ``overwrite`` on the next (a chat window shows
        the soft line break as a space) passing."""
        for extra in (
            "existing_path='refuse'|'overwrite'",
            "existing_path=\noverwrite",
            "existing_path\n= overwrite",
            "version =\r\n2.0",
        ):
            with self.subTest(extra=extra):
                self.assert_fails(
                    f"{SUPPORTED}\nAlso: {extra}\n", "contradicts_decision", {"other_value", "other_version"}
                )
        for extra in ("existing_path='refuse'.", "f(existing_path='refuse', x=1)"):
            with self.subTest(extra=extra):
                self.assert_supported(f"{SUPPORTED}\nAlso: {extra}\n")

    def test_a_value_glued_after_the_forms_backticks(self) -> None:
        """Guards against `` `existing_path=refuse`overwrite `` (a reader sees one longer value) counting
        as the required statement: the code span's content was compared alone."""
        for old, new in (
            (VALUE, VALUE + "overwrite"),
            (VALUE, VALUE + "|overwrite"),
            (VERSION, VERSION + ".1"),
            (VERSION, VERSION + "**2**"),
            (VALUE, VALUE + "|`overwrite`"),
        ):
            with self.subTest(new=new):
                self.assert_fails(SUPPORTED.replace(old, new, 1), "malformed_answer", {"broken_form"})
        self.assert_supported(SUPPORTED.replace(VALUE, VALUE + "\u3002\u30ac\u30a4\u30c9", 1))  # CJK after it


class ControlCharacterTest(DisplayFixture):
    """Controls a terminal acts on and bidirectional controls make an answer malformed."""

    def test_bidirectional_controls(self) -> None:
        """Guards against ``U+202E etirwrevo=htap_gnitsixe U+202C`` (shown as ``existing_path=overwrite``)
        passing: the check read the characters in memory order."""
        self.assert_fails(
            f"{SUPPORTED}\nNote: \u202eetirwrevo=htap_gnitsixe\u202c\n", "malformed_answer", {"control_character"}
        )
        self.assert_fails(f"{SUPPORTED}\nNote: \u202e0.2=noisrev\u202c\n", "malformed_answer", {"control_character"})
        for ch in BIDI_CONTROLS:
            with self.subTest(ch=f"U+{ord(ch):04X}"):
                self.assert_fails(
                    SUPPORTED.replace("refuses", f"re{ch}fuses", 1), "malformed_answer", {"control_character"}
                )

    def test_terminal_controls(self) -> None:
        """Guards against a backspace, an escape sequence or a carriage return rewriting what a terminal
        shows (``/tmp/breaker`` ans_bs_value, ans_cr_value, ans_cr_version, ans_esc_key, ans_erase_cite)
        while the raw text read as supported."""
        lines = SUPPORTED.split("\n")
        cases = {
            "backspaces over the value": SUPPORTED.replace(VALUE, VALUE + "\b" * 7 + "overwrite`", 1),
            "CR and cursor forward over the value": SUPPORTED.replace(
                f"{VALUE}. If", f"{VALUE}. If\r\x1b[15Coverwrite`. If", 1
            ),
            "CR over the version": SUPPORTED.replace("destination:\n", "destination:\r\x1b[23C2\n", 1),
            "an escape sequence in the key": f"{SUPPORTED}\nAlso: existing_\x1b[mpath=overwrite\n",
            "a line erased": SUPPORTED.rstrip("\n") + "\x1b[2K\rThe reference says: existing_path: overwrite\n",
            "hidden text": f"{SUPPORTED}\n\x1b[8m[source: quill-new-version:20]\x1b[0m\n",
            "a lone CR in prose": "\n".join([*lines[:1], "x\ry", *lines[1:]]),
            "NUL": SUPPORTED + "\x00",
            "DEL": SUPPORTED.replace("the", "th\x7fe", 1),
            "C1 NEL": SUPPORTED + "a\x85b",
            "form feed": SUPPORTED.replace(". ", ".\x0c ", 1),
        }
        for name, answer in cases.items():
            with self.subTest(name):
                self.assert_fails(answer, "malformed_answer", {"control_character"})

    def test_a_lone_carriage_return_is_a_control(self) -> None:
        """Guards against a lone CR, which a chat window reads as a line end but a terminal returns over
        (the rest of the line overwrites it), passing: a CR line ending is refused, CRLF is not."""
        self.assert_fails(SUPPORTED.replace("\n", "\r"), "malformed_answer", {"control_character"})
        self.assert_supported(SUPPORTED.replace("\n", "\r\n"))
        self.assert_supported(SUPPORTED.rstrip("\n") + "\r")  # the last character: nothing after it to overwrite
        self.assert_supported(SUPPORTED.replace("\n", "\r\r\n"))  # returns, then the line feed

    def test_the_quick_search_never_hides_a_run(self) -> None:
        """Guards against the one-class search that skips answers without controls skipping one with a
        run: on random text rich in controls, line endings and look-alikes, the findings are the runs of
        the full pattern, one each."""
        import random

        rng = random.Random(20261202)
        alphabet = (
            ["a", " ", "\n", "\t", "\r", "\r\n", "=", "`", "\u00e9", "\u2028", "\ufeff", "\u200b"]
            + [chr(c) for c in (*range(9), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA1))]
            + list(BIDI_CONTROLS)
        )
        for _ in range(3000):
            text = "".join(rng.choice(alphabet) if rng.random() < 0.3 else "x" for _ in range(rng.randint(0, 12)))
            found = [(f["start"], f["end"]) for f in control_findings(text)]
            self.assertEqual(found, [m.span() for m in CONTROLS.finditer(text)], repr(text))


class HiddenByHtmlTest(DisplayFixture):
    """Raw HTML that hides its content, or may (a style), makes the forms after it unclear."""

    def test_forms_hidden_by_inline_styles_or_attributes(self) -> None:
        """Guards against ``<span style="display:none">`version=1.0`</span>`` and
        ``<span hidden>[source: quill-reference:22]</span>`` passing: the inline reading hid only the
        tags and showed their content."""
        cases = {
            "a hidden citation": SUPPORTED.replace(REFERENCE, f"<span hidden>{REFERENCE}</span>"),
            "a styled-away citation": SUPPORTED.replace(REFERENCE, f'<span style="display:none">{REFERENCE}</span>'),
            "a styled-away version": SUPPORTED.replace(
                f"({VERSION})", f'(<span style="display:none">{VERSION}</span>version 2.0)'
            ),
            "a styled-away value": SUPPORTED.replace(VALUE, f'<span style="display:none">{VALUE}</span>', 1),
            "a hidden block": SUPPORTED.replace("The reference", "<div hidden>\nThe reference").rstrip("\n")
            + "\n</div>\n",
            "a styled block": SUPPORTED.replace("The reference", '<div style="display:none">\n\nThe reference').rstrip(
                "\n"
            )
            + "\n\n</div>\n",
            "a reversed citation": SUPPORTED.replace(
                REFERENCE, f'<bdo dir="rtl">]22:ecnerefer-lliuq :ecruos[</bdo> {REFERENCE}'
            ),
            "a reordered value": SUPPORTED.replace(VALUE, f'<span dir="rtl">{VALUE}</span>', 1),
            "an invisible colour": SUPPORTED.replace(REFERENCE, f'<font color="#ffffff">{REFERENCE}</font>'),
            "a collapsed details": SUPPORTED.replace(
                "The reference", "<details><summary>More</summary>\n\nThe reference"
            ).rstrip("\n")
            + "\n\n</details>\n",
        }
        for name, answer in cases.items():
            with self.subTest(name):
                result = self.check(answer)
                self.assertEqual(result["verdict"], "malformed_answer", result["findings"])
                self.assertTrue({"unclear_markup", "broken_form"} & {f["kind"] for f in result["findings"]})

    def test_the_combined_disguise(self) -> None:
        """Guards against ``/tmp/breaker/ans_killer.txt`` (hidden forms, a struck version, a bold value)
        passing as supported."""
        answer = (
            'In Quill 1.0 (<span style="display:none">`version=1.0`</span>version=~~1.0~~2.0), create_copy '
            'replaces an existing destination:\n<span style="display:none">`existing_path=refuse`</span>'
            "existing_path=**overwrite**.\n\n"
            f"The user guide declares it: `@quill create_copy existing_path=refuse` {GUIDE}\n"
            f"The reference agrees: `@quill create_copy existing_path=refuse` {REFERENCE}\n"
        )
        result = self.check(answer)
        self.assertEqual(result["verdict"], "malformed_answer")
        self.assertTrue({"unclear_markup", "other_value", "other_version"} <= {f["kind"] for f in result["findings"]})


class CitationAsLinkTextTest(DisplayFixture):
    def test_a_citation_that_is_a_links_text(self) -> None:
        """Guards against ``[[source: quill-guide:37]](https://evil.example/...)`` passing: a chat window
        shows the citation as a link to another page, but only brackets directly before a destination
        were taken for a link."""
        for link in (
            f"[{GUIDE}](https://evil.example/quill-new-version)",
            f"[see {GUIDE} here](https://x.example)",
            f"[{GUIDE}][ref]\n\n[ref]: https://x.example",
        ):
            with self.subTest(link=link):
                self.assert_fails(SUPPORTED.replace(GUIDE, link, 1), "malformed_answer", {"unclear_markup"})


class LinkTailTest(DisplayFixture):
    def test_a_backtick_in_a_destination(self) -> None:
        """Regression (hostile finding 1, the answer's side): ``[docs](`)`` takes its backtick into the link
        in a chat window, so the form on the line below is text, not the code span the check paired it in;
        the check names the doubt (it failed closed before on the form alone)."""
        answer = SUPPORTED.rstrip("\n") + "\n\nSee [docs](`)\nexisting_path=overwrite\n`.\n"
        self.assert_fails(answer, "malformed_answer", {"unclear_markup"})
        self.assert_supported(SUPPORTED.rstrip("\n") + "\n\nSee [docs](`).\n")


class LookAlikeNameTest(DisplayFixture):
    def test_ascii_look_alike_names(self) -> None:
        """Guards against ``existlng_path=overwrite`` and ``verslon=2.0`` passing as free text: a reader
        takes them for the key and the version. (``existing-path`` is the key's kebab-case since issue 31:
        a statement of it.)"""
        for extra in (
            "existlng_path=overwrite",
            "verslon=2.0",
            "existing-pzth=overwrite",
            "verison=2.0",
            "Existing-Pxth=overwrite",
            "close-requirad=yes",
            "existing_psth = refuse",
            "existlng_pa*th*=overwrite",
            "ver*sl*on=2.0",
        ):  # emphasis inside a look-alike name
            with self.subTest(extra=extra):
                self.assert_fails(f"{SUPPORTED}\nAlso: {extra}\n", "malformed_answer", {"look_alike"})

    def test_other_names_are_not_look_alikes(self) -> None:
        for word in (
            "existing_paths",
            "python_version",
            "my_existing_path",
            "versions",
            "session",
            "revision",
            "existing_path",
            "VERSION",
            "mode",
        ):
            with self.subTest(word=word):
                self.assertFalse(near_name(word, ("existing_path", "close_required", "version")))
        for extra in (
            "--existing-path=refuse",
            "python_version=3.11",
            "existing_paths=overwrite",
            "session=abc",
            "--version=2",
        ):
            with self.subTest(extra=extra):
                self.assert_supported(f"{SUPPORTED}\nAlso: {extra}\n")


class StruckStatementTest(DisplayFixture):
    def test_a_struck_required_statement(self) -> None:
        """Guards against ``~~`existing_path=refuse`~~`` counting as stating the value: a reader sees it
        withdrawn."""
        self.assert_fails(
            SUPPORTED.replace(VALUE, f"~~{VALUE}~~ (see `existing_path`)", 1), "missing_statement", {"missing_value"}
        )
        self.assert_fails(SUPPORTED.replace(VERSION, f"~{VERSION}~", 1), "missing_statement", {"missing_version"})
        result = self.check(SUPPORTED.replace(VALUE, f"<del>{VALUE}</del>", 1))
        self.assertEqual(result["verdict"], "malformed_answer")
        self.assertIn("missing_value", {f["kind"] for f in result["findings"]})

    def test_a_struck_citation_cites_nothing(self) -> None:
        """Guards against ``~~[source: quill-reference:22]~~`` citing the claim."""
        self.assert_fails(SUPPORTED.replace(REFERENCE, f"~~{REFERENCE}~~"), "missing_citation", {"missing_citation"})
        self.assert_supported(SUPPORTED + "\n~~an old note~~ still refused.\n")


if __name__ == "__main__":
    unittest.main()

"""Tests for the statements a chat window shows through a disguise (answer.disguise, and the colon
forms of answer.forms): hostile round 3's findings against the answer check."""

from __future__ import annotations

import re
import unittest

from _conflict_gate.answer.disguise import resolve_disguises
from _conflict_gate.answer.html import OpenHtml
from _conflict_gate.reading.inlines import Indexes, browser_markup_end
from tests.test_answer_reading import BASE, Fixture

BAD = "contradicts_decision"
OK = "supported"


class HostileRound3Test(Fixture):
    """Answers that stated another value or version and came out ``supported``; and their faithful twins,
    which must stay ``supported`` with no finding."""

    def assert_verdicts(self, cases: dict[str, str]) -> None:
        for extra, verdict in cases.items():
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual(result["verdict"], verdict, result["findings"])
                if verdict == OK:
                    self.assertEqual(result["findings"], [])

    def test_latex_math_is_read_as_typeset(self) -> None:
        """Guards against hostile round 1, finding 8 (open until round 3): LaTeX math, which github.com and
        chat windows typeset, hid a statement behind ``\\mathrm{...}``, ``\\text{...}``, ``\\_`` and ``&=``:
        ``$\\mathrm{existing\\_path}=\\mathrm{overwrite}$`` was supported."""
        self.assert_verdicts(
            {
                "$\\mathrm{existing\\_path}=\\mathrm{overwrite}$": BAD,
                "$\\text{existing}\\_\\text{path}=\\text{overwrite}$": BAD,
                "```math\n\\text{version} = 2.0\n```": BAD,
                "$$\n\\begin{aligned}\n\\texttt{existing\\_path} &= \\texttt{overwrite}\n\\end{aligned}\n$$": BAD,
                "```math\n\\text{version} \\to 2.0\n```": BAD,
                "$\\mathrm{existing\\_path}=\\mathrm{refuse}$": OK,
                "```math\n\\text{version} = 1.0\n```": OK,
            }
        )

    def test_mermaid_entity_codes_are_decoded(self) -> None:
        """Guards against hostile round 1, finding 9 (open until round 3): GitHub's Mermaid decodes entity
        codes in a diagram's labels, so ``A["version#61;2.0"]`` shows version=2.0; it was supported."""
        self.assert_verdicts(
            {
                '```mermaid\ngraph LR\nA["version#61;2.0"] --> B["existing_path#61;overwrite"]\n```': BAD,
                '```mermaid\nA["version#equals;2.0"]\n```': BAD,
                '```mermaid\ngraph LR\nA["version#61;1.0"] --> B["existing_path#61;refuse"]\n```': OK,
            }
        )

    def test_an_arrow_between_a_name_and_a_value_is_a_statement(self) -> None:
        """Guards against the round-2 session's open disguise `` `k` → `v` ``: an arrow (Unicode, ``->``
        between spaces or code edges, R's ``<-``) between a name and a value reads as a setting, and was
        free text; ``existingPath => ...`` unquoted stays an arrow function."""
        self.assert_verdicts(
            {
                "`existing_path` → `overwrite`": BAD,
                "`existing_path` -> `overwrite`": BAD,
                "`existing_path`⇒`overwrite`": BAD,
                "version → 2.0": BAD,
                '```r\nquill_copy(existing_path <- "overwrite")\n```': BAD,
                "`existing_path` → `refuse`": OK,
                "```js\nconst f = existingPath => existingPath.trim();\n```": OK,
                "```c\nint n = p->version;\n```": OK,
            }
        )

    def test_setter_builder_and_pair_calls_are_statements(self) -> None:
        """Guards against the round-2 session's open disguise ``.setExistingPath("v")``, and the calls that
        pass a quoted name and its value side by side (``Map.of("existingPath", "overwrite")``,
        ``props.put``, ``config.set("quill", "existing_path", "overwrite")``): all were supported."""
        self.assert_verdicts(
            {
                'builder.setExistingPath("overwrite");': BAD,
                '```java\nopts.setExistingPath("overwrite");\n```': BAD,
                '```python\nopts.set_existing_path("overwrite")\n```': BAD,
                '```rust\nOpts::builder().existing_path("overwrite").build()\n```': BAD,
                '```kotlin\nOpts().withExistingPath("overwrite")\n```': BAD,
                '```python\nparams = [("existing_path", "overwrite")]\n```': BAD,
                '```java\nMap<String, String> o = Map.of("existingPath", "overwrite");\n```': BAD,
                '```java\nprops.put("existingPath", "overwrite");\n```': BAD,
                '```python\nconfig.set("quill", "existing_path", "overwrite")\n```': BAD,
                '```python\nos.environ.setdefault("QUILL_EXISTING_PATH", "overwrite")\n```': BAD,
                '```java\nopts.setExistingPath("refuse");\n```': OK,
                '```java\nMap<String, String> o = Map.of("existingPath", "refuse");\n```': OK,
                '```python\nmode = getattr(opts, "existing_path", None)\n```': OK,
            }
        )

    def test_other_assignments_code_makes_are_statements(self) -> None:
        """Guards against statements only code makes that were read as free text: SQL's named argument
        (``existing_path => 'overwrite'``), a logical assignment (``o.existingPath ??= "overwrite"``), a
        computed key (``{ ["existingPath"]: "overwrite" }``), and a Go module line stating another version
        (``require github.com/quill/quill v2.0.0``, the round-2 session's open disguise)."""
        self.assert_verdicts(
            {
                "```sql\nSELECT quill_copy('a', 'b', existing_path => 'overwrite');\n```": BAD,
                '```js\no.existingPath ??= "overwrite";\n```': BAD,
                '```js\no.existingPath ||= "overwrite";\n```': BAD,
                '```js\nconst o = { ["existingPath"]: "overwrite" };\n```': BAD,
                "```go\nrequire github.com/quill/quill v2.0.0\n```": BAD,
                "```sh\ngo get github.com/quill/quill@v2.0.0\n```": BAD,
                "```sql\nSELECT quill_copy('a', 'b', existing_path => 'refuse');\n```": OK,
                '```js\no.existingPath ??= "refuse";\n```': OK,
                "```go\nrequire github.com/quill/quill v1.0\n```": OK,
            }
        )

    def test_a_colon_forms_value_on_the_next_line_is_read(self) -> None:
        """Guards against YAML's plain and block scalars and pretty-printed JSON putting a colon form's value
        on the next line (``existing_path:`` then ``  overwrite``; ``existing_path: >-``): supported, and a
        block scalar's indicator read as the value (``existing_path: >-`` then ``  refuse``, a false alarm)."""
        self.assert_verdicts(
            {
                "```yaml\nexisting_path:\n  overwrite\n```": BAD,
                "```yaml\nexisting_path: |\n  overwrite\n```": BAD,
                "```yaml\nexisting_path: >-\n  overwrite\n```": BAD,
                '```json\n{"existing_path":\n  "overwrite"}\n```': BAD,
                "```yaml\nexisting_path: >-\n  refuse\n```": OK,
                "```yaml\nexisting_path:\n  refuse\n```": OK,
                "```yaml\nexisting_path:\n  mode: overwrite\n```": OK,
                "```yaml\nexisting_path:\n  - a\n```": OK,
            }
        )


class ResolveDisguisesTest(unittest.TestCase):
    def test_offsets_map_back(self) -> None:
        """Guards against a disguise reading whose offsets point elsewhere than the text it read (a finding
        then quotes the wrong place): every kept character maps to itself."""
        text = "$\\mathrm{existing\\_path}=\\mathrm{overwrite}$ and a → b"
        resolved = resolve_disguises(text)
        assert resolved is not None
        plain, where = resolved
        self.assertEqual(plain, "existing_path=overwrite and a  =  b")
        for i, ch in enumerate(plain):
            if ch not in " =":
                self.assertEqual(text[where(i)], ch)
        self.assertIsNone(resolve_disguises("no disguise here: a->b"))


class OpenTagScanTest(unittest.TestCase):
    def test_a_tag_left_open_is_scanned_only_past_the_block(self) -> None:
        """Guards against quadratic time in the answer check (hostile round 4): before each block, raw HTML
        opened before it was scanned as a browser tokenizes it, to its end; a tag left open (``x <e a`` in
        each of many paragraphs) ran to the end of the answer every time, so 16 KiB of them took 9 s (64 KiB,
        minutes). The scan now stops past the block (``stop``) and finds a run-on value's end once. What it
        tells is unchanged: a tag that ends before ``stop`` ends where it ends, one that runs past it runs on."""
        text = "<e a b='x' c" + " d" * 50
        self.assertEqual(browser_markup_end(text, 0, Indexes(text), stop=12), len(text))
        closed = "<e a='>' b>tail"
        self.assertEqual(browser_markup_end(closed, 0, Indexes(closed), stop=20), 11)
        self.assertEqual(browser_markup_end(closed, 0, Indexes(closed)), 11)
        answer = BASE + "\n" + "x <e a\n\n" * 40 + 'x <e title="run on\n\n`version=2.0`\n\nend">\n'
        html = OpenHtml(answer)
        offsets = [m.start() + 2 for m in re.finditer("\n\n", answer)]
        self.assertTrue(all(html.before(at) is None for at in offsets[:-2]))
        self.assertIsNotNone(html.before(offsets[-2]))  # inside the run-on title: held


if __name__ == "__main__":
    unittest.main()

"""Tests for the statements a chat window shows through a disguise (answer.disguise, and the colon
forms of answer.forms): hostile rounds 3, 4 and 6's findings against the answer check."""

from __future__ import annotations

import re
import unittest

from _conflict_gate.answer.disguise import resolve_disguises
from _conflict_gate.answer.html import OpenHtml
from _conflict_gate.reading.inline_html import browser_markup_end
from _conflict_gate.reading.inline_spans import Indexes
from tests.test_answer_reading import BASE, Fixture

BAD = "contradicts_decision"
OK = "supported"


class VerdictFixture(Fixture):
    """Each extra text, appended to the base answer, gets its verdict (and a supported one no finding)."""

    def assert_verdicts(self, cases: dict[str, str]) -> None:
        for extra, verdict in cases.items():
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual(result["verdict"], verdict, result["findings"])
                if verdict == OK:
                    self.assertEqual(result["findings"], [])


class HostileRound3Test(VerdictFixture):
    """Answers that stated another value or version and came out ``supported``; and their faithful twins,
    which must stay ``supported`` with no finding."""

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
                "```yaml\nexisting_path:\n  - refuse\n```": OK,
            }
        )


class HostileRound4Test(VerdictFixture):
    """Hostile round 4: hostile round 3's open items (9, 10) and the enum constants of hostile round 2 (9)."""

    def test_code_idioms_without_equals_or_a_colon_form_are_statements(self) -> None:
        """Guards against hostile round 3, finding 9: code that sets a name without ``=`` or a colon form was
        free text, so each of these stated ``overwrite`` and was supported: a Dockerfile's ``ENV NAME value``,
        a ``.properties`` line ``existing_path overwrite``, a Clojure keyword, XML name/value attributes and
        ``<entry key=...>`` elements, an element over lines, a Kubernetes env entry (YAML or JSON), a Mermaid
        edge from the name's node to a value's. Their faithful twins, and declarations (``ExistingPath
        existingPath;``, Go's ``Version semver.Version``), stay supported."""
        fence = "```\n{}\n```".format
        self.assert_verdicts(
            {
                fence("ENV QUILL_EXISTING_PATH overwrite"): BAD,
                fence("existing_path overwrite"): BAD,
                fence("quill.existing_path overwrite"): BAD,
                fence('{:existing-path "overwrite"}'): BAD,
                fence("(copy src dst :existing-path :overwrite)"): BAD,
                fence('<option name="existing_path" value="overwrite"/>'): BAD,
                fence('<setting value="overwrite" name="existingPath"/>'): BAD,
                fence('<entry key="existingPath">overwrite</entry>'): BAD,
                fence("<existing-path>\n  overwrite\n</existing-path>"): BAD,
                fence("<property>\n  <name>existing_path</name>\n  <value>overwrite</value>\n</property>"): BAD,
                fence("env:\n  - name: QUILL_EXISTING_PATH\n    value: overwrite"): BAD,
                fence('{"env": [{"name": "QUILL_EXISTING_PATH", "value": "overwrite"}]}'): BAD,
                '```mermaid\ngraph LR\nA[existing_path] -- "=" --> B[overwrite]\n```': BAD,
                "```mermaid\ngraph LR\nA[version] -->|is| B(2.0)\n```": BAD,
                fence("ENV QUILL_EXISTING_PATH refuse\nENV PYTHONUNBUFFERED 1"): OK,
                fence("quill.existing_path refuse"): OK,
                fence('{:existing-path "refuse"}'): OK,
                fence('<option name="existing_path" value="refuse"/>'): OK,
                fence('<copy existingPath="refuse"/>'): OK,
                fence(
                    "env:\n  - name: QUILL_EXISTING_PATH\n    value: refuse\n  - name: LOG_LEVEL\n    value: debug"
                ): OK,
                fence("class CopyOptions {\n    ExistingPath existingPath;\n}"): OK,
                fence("type CopyOptions struct {\n\tExistingPath ExistingPathMode\n\tVersion semver.Version\n}"): OK,
                "```mermaid\nflowchart TD\n  A[create_copy] --> B{exists?}\n  B -->|yes| C[raise PathExists]\n```": OK,
            }
        )

    def test_a_label_a_colon_and_one_value_in_prose_is_a_statement(self) -> None:
        """Guards against hostile round 3, finding 10: ``**existing_path**: overwrite`` (a bold label, a colon,
        one value up to the line's end), the same in a list item or a definition list, was free text in prose:
        a chat window shows a setting. Prose around a colon stays free text."""
        self.assert_verdicts(
            {
                "**existing_path**: overwrite": BAD,
                "- `existing_path`: overwrite": BAD,
                "- **Version**: 2.0": BAD,
                "existing_path\n: overwrite": BAD,
                "**existing_path**: refuse": OK,
                "- **Version**: 1.0\n- **existing_path**: `refuse`": OK,
                "Note on existing_path: overwrite is what 2.0 does.": OK,
                "**Note:** the copy raises PathExists.": OK,
            }
        )

    def test_a_value_cell_of_several_words_states_each_value_of_the_grammar(self) -> None:
        """Guards against hostile round 3, finding 10: a table row whose value cell compares versions
        (``| existing_path | `refuse` (1.0), `overwrite` (2.0) |``) was read as a description, no statement."""
        table = "| Option | Value |\n|---|---|\n| existing_path | {} |".format
        self.assert_verdicts(
            {
                table("`refuse` (1.0), `overwrite` (2.0)"): BAD,
                table("refuse, or overwrite with --force"): BAD,
                table("`refuse` (raises PathExists)"): OK,
            }
        )

    def test_block_elements_of_an_html_block_show_on_lines_of_their_own(self) -> None:
        """Guards against hostile round 3, finding 10: an HTML block's shown text joined its block elements
        (``<dt>existing_path</dt><dd>overwrite</dd>`` read as ``existing_pathoverwrite``), so a definition
        list, a table's or a list's two cells stating ``overwrite`` were supported. Block elements now show
        on lines of their own, and a line of only a name then a line of one value is a statement there."""
        self.assert_verdicts(
            {
                "<dl><dt>existing_path</dt><dd>overwrite</dd></dl>": BAD,
                "<table><tr><td>version</td><td>2.0</td></tr></table>": BAD,
                "<ul><li>existing_path</li><li>overwrite</li></ul>": BAD,
                "<dl><dt>existing_path</dt><dd>refuse</dd></dl>": OK,
                "<p>The copy <b>refuses</b>.</p>": OK,
            }
        )

    def test_labels_csv_and_table_columns_state_their_value(self) -> None:
        """Guards against three more shapes a reader sees as a setting that were supported: a label whose value
        has words after it (``**existing_path**: overwrite (since 2.0)``, ``- **Version**: 2.0 (current)``), a
        CSV line (``existing_path,overwrite``), and a table whose header cell is the name with the values in
        its column below (``| Version | Notes |`` then ``| 2.0 | ... |``). A GraphQL enum value in upper case
        (``existingPath: REFUSE``) was a false alarm."""
        self.assert_verdicts(
            {
                "**existing_path**: overwrite (since 2.0)": BAD,
                "- **Version**: 2.0 (current)": BAD,
                "```csv\nkey,value\nexisting_path,overwrite\n```": BAD,
                "| existing_path |\n|---|\n| overwrite |": BAD,
                "| Version | Notes |\n|---|---|\n| 1.0 | refuses |\n| 2.0 | overwrites |": BAD,
                "```graphql\nmutation { createCopy(existingPath: OVERWRITE) { ok } }\n```": BAD,
                "- **existing_path**: refuse (raises PathExists)": OK,
                "**Version**: Quill 1.0": OK,
                "**Note**: overwrite is not offered.": OK,
                "```csv\nexisting_path,refuse\n```": OK,
                "| Version | Notes |\n|---|---|\n| 1.0 | refuses |": OK,
                "```graphql\nmutation { createCopy(existingPath: REFUSE) { ok } }\n```": OK,
            }
        )

    def test_a_name_then_a_value_in_a_nested_list_is_a_statement(self) -> None:
        """Guards against hostile round 3, finding 10: a list item that is only a name with a nested item that
        is only a value (``- `existing_path``` then ``  - `overwrite```), two blocks, was supported."""
        self.assert_verdicts(
            {
                "- `existing_path`\n  - `overwrite`": BAD,
                "- **version**\n  - 2.0": BAD,
                "- `existing_path`\n  - `refuse`": OK,
                "- `existing_path`\n\n  The copy refuses: it raises PathExists.": OK,
            }
        )

    def test_label_and_element_variants_are_statements(self) -> None:
        """Guards against variants of the labels and idioms above that were still supported: the colon inside
        the bold (``**existing_path:** overwrite``), a dash between spaces in prose (``- *existing_path* —
        overwrite``), YAML's complex key (``? existing_path`` then ``: overwrite``), an XML CDATA section, a
        Clojure keyword with its value on the next line, a fullwidth colon in CJK prose (``**existing_path**：overwrite``).
        A dash in code (``version - 1``) stays arithmetic."""
        self.assert_verdicts(
            {
                "**existing_path:** overwrite": BAD,
                "- *existing_path* \u2014 overwrite": BAD,
                "```yaml\n? existing_path\n: overwrite\n```": BAD,
                "```xml\n<existingPath><![CDATA[overwrite]]></existingPath>\n```": BAD,
                '```clojure\n{:existing-path\n "overwrite"}\n```': BAD,
                "**existing_path:** refuse": OK,
                "- *existing_path* \u2014 refuse": OK,
                "```python\nversion - 1\n```": OK,
                "**existing_path**\uff1aoverwrite": BAD,
                "**existing_path**\uff1arefuse": OK,
            }
        )

    def test_mermaid_edges_read_their_nodes_labels_wherever_given(self) -> None:
        """Guards against a Mermaid edge whose nodes' labels are given on other lines (``A --> B``, then
        ``A[existing_path]``, ``B[overwrite]``), and a chain (``A[version] --> B --> C``, ``B[2.0]``): supported,
        since only an edge with both labels inline was read."""
        self.assert_verdicts(
            {
                "```mermaid\ngraph LR\nA --> B\nA[existing_path]\nB[overwrite]\n```": BAD,
                "```mermaid\ngraph TD\nA[version] --> B --> C\nB[2.0]\n```": BAD,
                '```mermaid\nflowchart LR\n  K["existing_path"] -->|set to| V(("overwrite"))\n```': BAD,
                "```mermaid\ngraph LR\nA --> B\nA[existing_path]\nB[refuse]\n```": OK,
            }
        )

    def test_literals_in_other_spellings_state_their_literal(self) -> None:
        """Guards against false refusals of honest code (hostile round 4): a Python string prefix
        (``existing_path = r"refuse"``, read as ``r"refuse``), TOML's triple quotes, a shell parameter's
        default (``${QUILL_EXISTING_PATH:-refuse}``) and C's prefixed constant (``QUILL_EXISTING_PATH_REFUSE``)
        were other_value, and JavaScript's template literal (`` `refuse` `` in a fence) was escaped_form. Each now
        states the literal it holds, so their other-value twins still contradict."""
        fence = "```\n{}\n```".format
        self.assert_verdicts(
            {
                fence('existing_path = r"refuse"'): OK,
                fence("existing_path = '''refuse'''"): OK,
                fence('export QUILL_EXISTING_PATH="${QUILL_EXISTING_PATH:-refuse}"'): OK,
                fence("struct copy_opts o = { .existing_path = QUILL_EXISTING_PATH_REFUSE };"): OK,
                fence('existing_path = r"overwrite"'): BAD,
                fence('export QUILL_EXISTING_PATH="${QUILL_EXISTING_PATH:-overwrite}"'): BAD,
                fence("struct copy_opts o = { .existing_path = QUILL_EXISTING_PATH_OVERWRITE };"): BAD,
                fence('ExistingPath = Literal["refuse", "overwrite"]'): BAD,
                fence("const existingPath = `refuse`;"): OK,
                fence("const existingPath = `overwrite`;"): BAD,
            }
        )

    def test_a_usage_texts_placeholder_states_no_value(self) -> None:
        """Guards against hostile round 2, finding 9 (open until round 4): usage text's placeholder,
        ``[--existing-path MODE]``, was read as the value ``MODE`` (other_value) in an honest answer. A value in
        upper case right before the usage bracket's ``]`` is a placeholder unless it is a value of the grammar."""
        self.assert_verdicts(
            {
                "```text\nUsage: quill copy [--existing-path MODE] SRC DST\n```": OK,
                "```text\nUsage: quill copy [--existing-path OVERWRITE] SRC DST\n```": BAD,
                "```text\nUsage: quill copy [--existing-path overwrite] SRC DST\n```": BAD,
            }
        )

    def test_enum_constants_state_their_member(self) -> None:
        """Guards against hostile round 2, finding 9 (false refusals) and its unsafe twin: an enum constant of
        the name's type was compared as written, so ``existing_path=ExistingPath.REFUSE`` was other_value, while
        ``.existingPath(ExistingPath.OVERWRITE)``, an argument that is a name, was free text (supported). A
        constant of the name's type states its member (any case), in every language's spelling; the name's own
        variable passed on (``existing_path=existing_path``, also read as another value before) states none."""
        fence = "```\n{}\n```".format
        self.assert_verdicts(
            {
                fence("b.existingPath(ExistingPath.OVERWRITE);"): BAD,
                fence("val o = CopyOptions(existingPath = ExistingPath.OVERWRITE)"): BAD,
                fence("let o = CopyOptions { existing_path: ExistingPath::Overwrite };"): BAD,
                fence("let o = CopyOptions(existingPath: .overwrite)"): BAD,
                fence('Quill.create_copy("a", "b", existing_path: :overwrite)'): BAD,
                fence("o := quill.CopyOptions{ExistingPath: quill.ExistingPathOverwrite}"): BAD,
                fence("b.existingPath(ExistingPath.REFUSE);"): OK,
                fence("copy(src, dst, existing_path=ExistingPath.REFUSE)"): OK,
                fence("def copy(existing_path: ExistingPath = ExistingPath.REFUSE) -> None: ..."): OK,
                fence("val o = CopyOptions(existingPath = ExistingPath.REFUSE)"): OK,
                fence("let o = CopyOptions { existing_path: ExistingPath::Refuse };"): OK,
                fence("let o = CopyOptions(existingPath: .refuse)"): OK,
                fence('Quill.create_copy("a", "b", existing_path: :refuse)'): OK,
                fence("o := quill.CopyOptions{ExistingPath: quill.ExistingPathRefuse}"): OK,
                fence("var o = new CopyOptions { ExistingPath = ExistingPath.Refuse };"): OK,
                fence("b.existingPath(mode);"): OK,
                fence("quill.create_copy(src, dst, existing_path=existing_path)"): OK,
            }
        )


class HostileRound6Test(VerdictFixture):
    """Hostile round 6: answers a reader takes as another value or version, through a table's or a list's
    later cells, a conditional expression, and a tool's own pin of the product."""

    def test_a_tables_later_cells_state_values_of_the_rows_name(self) -> None:
        """Guards against hostile round 6, finding 1: only the cell right after a row's name was read, so a
        version comparison (``| Option | 1.0 | 2.0 |`` then ``| existing_path | refuse | overwrite |``, in
        Markdown or in an HTML table) was supported. An options table with a type column (``enum``) and a
        notes column stays supported."""
        self.assert_verdicts(
            {
                "| Option | 1.0 | 2.0 |\n|---|---|---|\n| `existing_path` | `refuse` | `overwrite` |": BAD,
                "| | 1.0 | 2.0 |\n|---|---|---|\n| existing_path | refuse | overwrite |": BAD,
                "| Key | Old | New |\n|---|---|---|\n| version | 1.0 | 2.0 |": BAD,
                "| Option | Type | Default | Notes |\n|---|---|---|---|\n| `existing_path` | enum | `refuse` | "
                "`overwrite` in 2.0 |": BAD,
                "<table>\n<tr><th>Option</th><th>1.0</th><th>2.0</th></tr>\n"
                "<tr><td>existing_path</td><td>refuse</td><td>overwrite</td></tr>\n</table>": BAD,
                "<table><tr><td>version</td><td>1.0</td><td>2.0</td></tr></table>": BAD,
                "| Option | Type | Default | Notes |\n|---|---|---|---|\n| `existing_path` | enum | `refuse` | "
                "raises PathExists |": OK,
                "| Name | Value | Meaning |\n|---|---|---|\n| existing_path | refuse | never replaces a file |\n"
                "| version | 1.0 | the pinned release |": OK,
                "<table>\n<tr><th>Option</th><th>Default</th><th>Since</th></tr>\n"
                "<tr><td>existing_path</td><td>refuse</td><td>1.0</td></tr>\n</table>": OK,
                "<dl>\n<dt>existing_path</dt>\n<dd>refuse: the copy raises PathExists</dd>\n</dl>": OK,
            }
        )

    def test_a_tables_empty_and_merged_cells_and_worded_headers(self) -> None:
        """Guards against hostile round 6, finding 1b: an empty cell was dropped from its row, so the columns
        below a header with an empty corner (``| | existing_path |`` then ``| Quill 2.0 | overwrite |``) were
        read under the wrong header; a row whose first cell is empty (a merged cell, ``| | overwrite |``
        under ``| existing_path | refuse |``) and a column under a header of several words naming one
        (``| Release | `existing_path` default |``) stated nothing. Each was supported."""
        self.assert_verdicts(
            {
                "| | existing_path |\n|---|---|\n| Quill 1.0 | refuse |\n| Quill 2.0 | overwrite |": BAD,
                "| Option | Value |\n|---|---|\n| existing_path | refuse |\n| | overwrite (2.0) |": BAD,
                "| existing_path | refuse |\n| --- | --- |\n| | overwrite |": BAD,
                "| Release | `existing_path` default |\n|---|---|\n| 1.0 | refuse |\n| 2.0 | overwrite |": BAD,
                "| Version | existing_path |\n|---|---|\n| 1.0 | `overwrite` (new default) |": BAD,
                "| | existing_path |\n|---|---|\n| Quill 1.0 | refuse |": OK,
                "| Release | `existing_path` default |\n|---|---|\n| 1.0 | refuse |": OK,
                "| Option | Value |\n|---|---|\n| existing_path | refuse |\n| | raises PathExists |": OK,
                "| Parameter | Description |\n|---|---|\n| existing_path | the copy never overwrites |": OK,
            }
        )

    def test_every_nested_item_under_a_name_states_a_value(self) -> None:
        """Guards against hostile round 6, finding 2: of a name's nested items only the first was read, and
        none under a name with a colon, so ``- `existing_path``` then ``  - `refuse` (1.0)`` and
        ``  - `overwrite` (2.0)`` was supported, and so was ``* existing_path:`` then ``    * overwrite``, and a name
        with words and a colon over such items (``- `existing_path` (destination exists):``). A list
        of names and an item's own nested description stay supported."""
        self.assert_verdicts(
            {
                "- `existing_path`\n  - `refuse` (1.0)\n  - `overwrite` (2.0)": BAD,
                "- existing_path\n  - refuse in 1.0\n  - overwrite in 2.0": BAD,
                "- **existing_path**\n  - no longer `refuse`\n  - now `overwrite`": BAD,
                "* existing_path:\n    * overwrite": BAD,
                "- `existing_path`:\n  - 1.0: `refuse`\n  - 2.0: `overwrite`": BAD,
                "- `version`\n  - `1.0`\n  - `2.0`": BAD,
                "- `existing_path` (destination exists):\n  - 1.0: `refuse`\n  - 2.0: `overwrite`": BAD,
                "- `existing_path` controls what happens:\n  - the copy raises `quill.PathExists`": OK,
                "- `existing_path`\n  - `refuse` (Quill 1.0)\n  - raises `quill.PathExists`": OK,
                "- `existing_path`:\n  - `refuse`\n- `version`:\n  - `1.0`": OK,
                "- `existing_path`\n- `close_required`\n- `version`": OK,
                "- existing_path\n  - refuse\n- dst\n  - where an overwrite would go is never touched": OK,
            }
        )

    def test_a_conditional_expression_states_each_value_in_it(self) -> None:
        """Guards against hostile round 6, finding 3: a name set to a conditional expression was read as its
        first literal, so ``existing_path = "refuse" if old else "overwrite"`` (and a ternary's ``strict ?
        "refuse" : "overwrite"``) was supported."""
        fence = "```\n{}\n```".format
        self.assert_verdicts(
            {
                fence('existing_path = "refuse" if old else "overwrite"'): BAD,
                fence('copy(a, b, existing_path="refuse" if strict else "overwrite")'): BAD,
                fence('const existingPath = strict ? "refuse" : "overwrite";'): BAD,
                fence("copy(a, b, { existingPath: strict ? 'refuse' : 'overwrite' });"): BAD,
                fence('existing_path = "refuse" if strict else None'): OK,
                fence('const opts = { existingPath: "refuse", retries: strict ? 3 : 1 };'): OK,
                fence('mode = "a" if append else "w"\nquill.create_copy(src, dst, existing_path="refuse")'): OK,
            }
        )

    def test_a_shell_line_continuation_is_read_as_one_command(self) -> None:
        """Guards against hostile round 6, finding 6: a flag and its value split by a line continuation
        (``quill copy \\`` then ``  --existing-path \\`` then ``  overwrite a b``) was free text, so it was
        supported although the shell runs ``--existing-path overwrite``."""
        fence = "```sh\n{}\n```".format
        self.assert_verdicts(
            {
                fence("quill copy \\\n  --existing-path \\\n  overwrite a b"): BAD,
                fence("quill copy \\\n  --existing-path \\\n  refuse a b"): OK,
                fence("quill copy \\\n  --existing-path refuse \\\n  --verbose a b"): OK,
            }
        )

    def test_a_tools_own_pin_of_the_product_states_its_version(self) -> None:
        """Guards against hostile round 6, finding 4: pins of the product in a tool's own syntax were free
        text, so each of these stated Quill 2.0 and was supported: ``gem install quill -v 2.0``, a Gemfile's
        ``gem "quill", "2.0"``, a Gradle coordinate ``org.quill:quill:2.0``, ``quill --version``'s output
        ``quill 2.0``. Their faithful twins, and ``quill -v`` or ``quill --help`` with no version, stay
        supported."""
        fence = "```\n{}\n```".format
        self.assert_verdicts(
            {
                fence("gem install quill -v 2.0"): BAD,
                fence('gem install quill --version "2.0"'): BAD,
                fence('gem "quill", "2.0"'): BAD,
                fence('gem "quill", "~> 2.0"'): BAD,
                fence("implementation 'org.quill:quill:2.0'"): BAD,
                fence('implementation("org.quill:quill:2.0.1")'): BAD,
                fence("$ quill --version\nquill 2.0"): BAD,
                fence("quill --version\n# quill v2.0"): BAD,
                fence("gem install quill -v 1.0"): OK,
                fence('gem "quill", "1.0"'): OK,
                fence("implementation 'org.quill:quill:1.0'"): OK,
                fence("$ quill --version\nquill 1.0"): OK,
                fence("quill copy a.md b.md\nquill --help\nquill -v"): OK,
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

"""Tests for hostile round 6's open items 5 and 6 against the answer check: a name on a line of its own (a
heading, a bold or code paragraph) and the block after it, a definition list's descriptions, an HTML row
span (answer.sections, answer.layouts), and code forms read there (a YAML list under the key, ``set``, a map's
bare value, an enum built from the value, a lower-case prefix of the product)."""

from __future__ import annotations

from tests.test_answer_disguise import BAD, OK, VerdictFixture


class CodeFormsTest(VerdictFixture):
    """Hostile round 6, item 6: code forms a reader takes as a statement of the key or of ``version``."""

    def test_a_lower_case_prefix_of_the_product(self) -> None:
        """Guards against hostile round 6, item 6: ``QUILL_VERSION = "2.0"`` was read, lower-case ``quill_version:
        "2.0"`` (YAML) and ``quill_version=2.0`` (a shell variable) were supported. Another product's
        ``python_version`` stays free text, and the requested version passes."""
        self.assert_verdicts(
            {
                '```yaml\nquill_version: "2.0"\n```': BAD,
                "```sh\nquill_version=2.0\n```": BAD,
                "```yaml\nquill_existing_path: overwrite\n```": BAD,
                '```yaml\nquill_version: "1.0"\npython_version: "3.11"\n```': OK,
            }
        )

    def test_a_yaml_block_list_under_the_key(self) -> None:
        """Guards against hostile round 6, item 6: a YAML block list under the key (``existing_path:`` then ``  -
        overwrite``, or its items at the key's indentation) was supported: each item of one literal is a value of
        the key. A list of other keys (``options:`` then ``- existing_path``) and the agreed value stay supported."""
        self.assert_verdicts(
            {
                "```yaml\nexisting_path:\n  - overwrite\n```": BAD,
                "```yaml\ncreate_copy:\n  existing_path:\n  - refuse\n  - overwrite  # 2.0\n```": BAD,
                "```yaml\nexisting_path:\n  - refuse\n```": OK,
                "```yaml\noptions:\n  - existing_path\n  - close_required\nversion: '1.0'\n```": OK,
            }
        )

    def test_set_commands_and_a_maps_bare_value(self) -> None:
        """Guards against hostile round 6, item 6: Tcl's ``set existing_path overwrite``, fish's ``set -x
        QUILL_EXISTING_PATH overwrite`` and Erlang's ``#{existing_path => overwrite}`` (a bare atom) were supported.
        A map's value that is a variable (capitalised in Erlang) or a call, and a JavaScript arrow function in a
        call's arguments, state nothing."""
        self.assert_verdicts(
            {
                "```tcl\nset existing_path overwrite\n```": BAD,
                "```fish\nset -x QUILL_EXISTING_PATH overwrite\n```": BAD,
                "```cmake\nset(QUILL_EXISTING_PATH overwrite)\n```": BAD,
                "```erlang\nOpts = #{existing_path => overwrite}.\n```": BAD,
                "```elixir\nopts = %{existing_path => refuse, version => 2.0}\n```": BAD,
                "```fish\nset -gx QUILL_EXISTING_PATH refuse\n```": OK,
                "```erlang\nOpts = #{existing_path => Mode, version => vsn()}.\n```": OK,
                "```js\nitems.map(existing_path => overwrite)\n```": OK,
            }
        )

    def test_an_enum_constant_or_a_value_built_from_a_literal(self) -> None:
        """Guards against hostile round 6, item 6: ``ExistingPath("overwrite")`` (an enum built from its value),
        ``ExistingPath.OVERWRITE`` passed to a call, ``ExistingPath["OVERWRITE"]`` and
        ``ExistingPath.valueOf("OVERWRITE")`` were supported (``ExistingPath::Overwrite`` was read already). The
        agreed member, the enum's declaration and its attributes (``ExistingPath.values``) stay supported, and so
        does a version comparison built with ``Version("1.0")`` (free text)."""
        self.assert_verdicts(
            {
                '```python\nExistingPath("overwrite")\n```': BAD,
                "```python\ncopy(a, b, ExistingPath.OVERWRITE)\n```": BAD,
                "```python\nExistingPath['OVERWRITE']\n```": BAD,
                '```java\nExistingPath.valueOf("OVERWRITE")\n```': BAD,
                "```rust\nExistingPath::Overwrite\n```": BAD,
                "```python\ncopy(a, b, ExistingPath.REFUSE)\nprint(ExistingPath.values, ExistingPath.REFUSE.value)\n```": OK,
                '```python\nclass ExistingPath(Enum):\n    REFUSE = "refuse"\n```': OK,
                '```python\nassert Version(quill.__version__) >= Version("1.0")\n```': OK,
            }
        )

    def test_an_enum_constant_in_a_code_span_of_prose(self) -> None:
        """Guards against an enum constant or a value built from a literal in one code span of prose (``Pass
        `ExistingPath.OVERWRITE`.``) being supported while the same in a code block is read. Outside code it
        stays words, and the agreed member passes."""
        self.assert_verdicts(
            {
                "Pass `ExistingPath.OVERWRITE` to `copy`.": BAD,
                '| Option | Value |\n|---|---|\n| mode | `ExistingPath("overwrite")` |': BAD,
                "Pass `ExistingPath.REFUSE`; the `ExistingPath` enum has ExistingPath.OVERWRITE too.": OK,
            }
        )


class LabelTest(VerdictFixture):
    """Hostile round 6, item 5: a name on a line of its own and what follows it (reference/answer-check.md, "A
    name on a line of its own")."""

    def test_a_label_and_the_block_that_starts_with_a_value(self) -> None:
        """Guards against hostile round 6, item 5: a heading or a bold or code paragraph that is only the name,
        then after a blank line a block starting with a value (``### `existing_path``` then `` `overwrite` ``; a
        list of ``1.0: value`` pairs or of items starting with a value; a code block of only a value; a setext
        heading) was supported. Prose that mentions a value later in a sentence, a list whose items do not start
        with one and the agreed value stay supported."""
        self.assert_verdicts(
            {
                "### `existing_path`\n\n`overwrite`": BAD,
                "**existing_path**\n\n- 1.0: `refuse`\n- 2.0: `overwrite`": BAD,
                "**existing_path:**\n\n* `refuse`: the default\n* `overwrite` (2.0)": BAD,
                "existing_path\n---\n\n```\noverwrite\n```": BAD,
                "### existing_path\noverwrite (since 2.0)": BAD,
                "## version\n\n2.0": BAD,
                "*existing_path*\n\n`clobber`": BAD,
                "### `existing_path`\n\nUnlike `overwrite`, the default `refuse` raises PathExists.": OK,
                "### existing_path\n\n`refuse`: the copy raises PathExists.": OK,
                "### existing_path\n\n- raises PathExists when the destination exists\n- see `overwrite` in 2.0": OK,
                "**existing_path**\n\nThe default; `overwrite` is new in 2.0.": OK,
                "### `existing_path`\n\n`create_copy` refuses by default.": OK,
                "**existing_path**\n\n1. Check the destination.\n2. Copy.": OK,
                "### existing_path\n\nOverwrite": BAD,
            }
        )

    def test_every_description_and_a_spanning_cell(self) -> None:
        """Guards against hostile round 6, item 5: a definition list's term with several descriptions (``:
        `refuse` in 1.0`` then ``: `overwrite` in 2.0``) read one description of one token only, and an HTML
        ``rowspan`` name cell did not reach the rows it spans; both were supported. One description and a
        spanned row of prose stay supported."""
        self.assert_verdicts(
            {
                "`existing_path`\n: `refuse` in 1.0\n: `overwrite` in 2.0": BAD,
                "version\n: 1.0\n: 2.0": BAD,
                '<table>\n<tr><td rowspan="2">existing_path</td><td>refuse</td></tr>\n'
                "<tr><td>overwrite</td></tr>\n</table>": BAD,
                "`existing_path`\n: `refuse` in 1.0\n: raises PathExists": OK,
                '<table>\n<tr><td rowspan="2">existing_path</td><td>refuse</td></tr>\n'
                "<tr><td>raises PathExists</td></tr>\n</table>": OK,
            }
        )

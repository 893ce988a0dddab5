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

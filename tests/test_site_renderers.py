"""Smoke tests of the MkDocs and MyST adapters (:mod:`tests.site_renderers`) read by the DOM reader.

Each class skips, visibly, without its packages (issue 16's differentials will
run them in throwaway environments; the pins are in the adapter module's
docstring). They check that the renderer is configured as the site renders:
a container body is not a top-level paragraph, a comment is hidden.
"""

from __future__ import annotations

import importlib.util
import unittest
from typing import TYPE_CHECKING

if TYPE_CHECKING or importlib.util.find_spec("justhtml") is not None:
    from tests import dom_reader, reader_oracle, site_renderers

D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"


def _missing(*names: str) -> list[str]:
    return [name for name in names if importlib.util.find_spec(name) is None]


class MkDocsAdapterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        missing = _missing("justhtml", "markdown", "pymdownx")
        if missing:
            raise unittest.SkipTest(
                f"missing {', '.join(missing)}: python -m pip install markdown==3.11.3 "
                "pymdown-extensions==13.1.2 justhtml==3.16.0"
            )

    def test_containers_hold_their_body(self) -> None:
        """Issue 16's minimal page and its variants: O shows inside a container, D stays a directive line."""
        for body in (
            f"!!! note\n\n    {O}\n",
            f"???+ info\n    {O}\n",
            f'=== "pip"\n\n    {O}\n',
            f"/// note\n{O}\n///\n",
        ):
            with self.subTest(body=body):
                view = dom_reader.read(site_renderers.render_mkdocs, f"{D}\n\n{body}")
                self.assertEqual(view.directive_lines, ((1, D),))
                self.assertEqual([text for _, text in view.other_shaped], [O])
                self.assertTrue(all(place != "p" for place, _ in view.other_shaped), view.other_shaped)

    def test_a_plain_page(self) -> None:
        view = dom_reader.read(site_renderers.render_mkdocs, f"# Guide\n\n{D}\n\n```text\n{O}\n```\n")
        self.assertEqual(view.directive_lines, ((3, D),))
        self.assertEqual(len(view.near_misses), 1)


class MystAdapterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        missing = _missing("justhtml", "myst_parser", "docutils")
        if missing:
            raise unittest.SkipTest(
                f"missing {', '.join(missing)}: python -m pip install myst-parser==5.2.0 justhtml==3.16.0"
            )

    def test_directive_bodies_and_comments(self) -> None:
        def read(text: str) -> reader_oracle.ReaderView:
            return dom_reader.read(site_renderers.render_myst, text, site_renderers.MYST_SECTIONS)

        view = read(f"# Guide\n\n{D}\n\n```{{note}}\n{O}\n```\n")
        self.assertEqual(view.directive_lines, ((3, D),))
        self.assertEqual([place for place, _ in view.other_shaped], ["section>aside>p"])
        view = read(f"% {O}\n\n{D}\n")
        self.assertEqual((view.directive_lines, view.other_shaped, len(view.near_misses)), (((3, D),), (), 1))


if __name__ == "__main__":
    unittest.main()

"""Differential test (issue 29): real docs pages of four site kinds, directives injected, under every renderer value.

The corpora (each page copied unchanged, its license notice beside it):

* ``mkdocs``: FastAPI, Typer and Material for MkDocs pages (``tests/pages/``, the MkDocs
  differential's own);
* ``docusaurus``: Redux's documentation, a Docusaurus 3 site that reads ``.md`` as MDX
  (``tests/realdocs/docusaurus-redux/``);
* ``vitepress``: VitePress's own documentation (``tests/realdocs/vitepress/``);
* ``myst``: MyST-Parser's own documentation, a Sphinx site (``tests/realdocs/myst-parser/``).

Every page gets (:func:`injections`) ``D`` (the ``refuse`` directive) at the top, below any front
matter (eligible: the gate should answer ``ready refuse``), ``D`` at the end (eligible too), ``D`` at
the top and ``O`` (``overwrite``) at the end, and ``D`` at the top with ``O`` inside the first
container of each kind the page holds (:data:`KINDS`: list items, block quotes, table rows, fenced
code, and the site's own: MkDocs admonitions, details and tabs, Docusaurus ``:::`` admonitions and
JSX elements, VitePress ``:::`` containers and components, MyST directives).

Each page is then read through the gate's public API under every renderer value (``github``,
``commonmark``, ``mkdocs``, ``myst``, ``docusaurus``, and the default, no key: ``portable``) and
judged (:mod:`tests.differential`) against the real renderers that value stands for
(:data:`READERS_OF`; on the VitePress corpus the VitePress-like reader of :mod:`tests.vitepress_oracle`
joins ``commonmark`` and the default). Per renderer and corpus the test counts

* **unsafe**: documents unsafe, missed or not refused for some reader (the gate counts a
  directive the rendered page does not show as its own line in a top-level paragraph, misses or hides
  one it does, or accepts a page that pulls content in or does not build);
* **false refusals**: eligible pages (every reader shows ``D`` alone as a top-level paragraph line,
  other directive-shaped text only as mentions) the gate did not answer with exactly that claim.

The table is printed to stderr; the test fails on any unsafe document. False refusals are measured
against issue 29's targets, :data:`DECLARED_SHARE` under the corpus's declared renderer
(:data:`DECLARED`) and :data:`DEFAULT_SHARE` under the default: the targets are not met yet, so a share
above them is marked ``over target`` in the table and fails the test only with
``CONFLICT_GATE_REALDOCS_TARGETS=1`` (a false refusal withholds an answer, it never lets a wrong one
through). Other pairs (a VitePress page declared ``mkdocs``) are reported only. ``.ci/run`` step 21 runs it. Run it (the packages and the MDX harness)::

    CONFLICT_GATE_MDX_DIR=/path/to/mdx python -m unittest tests.test_reader_differential_realdocs -v
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import unittest
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final, NamedTuple

from tests import differential, site_pages

PACKAGES = differential.EVERY_RENDERER_PACKAGES
MISSING_PACKAGES = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
if TYPE_CHECKING or not MISSING_PACKAGES:
    from markdown_it import MarkdownIt

    from tests import (
        github_oracle,
        mdx_oracle,
        reader_oracle,
        test_reader_differential_mkdocs,
        test_reader_differential_myst,
        vitepress_oracle,
    )

D: Final = site_pages.D
O: Final = site_pages.O
HERE: Final = Path(__file__).resolve().parent
#: corpus -> the folders of its pages.
CORPORA: Final = {
    "mkdocs": (HERE / "pages",),
    "docusaurus": (HERE / "realdocs" / "docusaurus-redux",),
    "vitepress": (HERE / "realdocs" / "vitepress",),
    "myst": (HERE / "realdocs" / "myst-parser",),
}
#: renderer value -> the readers it is judged against ("portable": the manifest names none).
READERS_OF: Final = {
    "github": ("cmark-gfm", "github"),
    "commonmark": ("commonmark", "cmark-gfm"),
    "mkdocs": ("mkdocs",),
    "myst": ("myst",),
    "docusaurus": ("docusaurus",),
    "portable": ("commonmark", "cmark-gfm", "github", "mkdocs", "myst", "docusaurus"),
}
#: The renderer a corpus's site declares (the reference recommends ``commonmark`` for VitePress).
DECLARED: Final = {"mkdocs": "mkdocs", "docusaurus": "docusaurus", "vitepress": "commonmark", "myst": "myst"}
DECLARED_SHARE: Final = 0.01
DEFAULT_SHARE: Final = 0.02
#: ``CONFLICT_GATE_REALDOCS_TARGETS=1``: a false-refusal share above its target fails the test too.
TARGETS_ENFORCED: Final = os.environ.get("CONFLICT_GATE_REALDOCS_TARGETS") == "1"
#: ``CONFLICT_GATE_REALDOCS_ALL=1`` prints every false refusal, not the first twelve (to group them by cause).
ALL_EXAMPLES: Final = os.environ.get("CONFLICT_GATE_REALDOCS_ALL") == "1"

_FENCE: Final = re.compile(r"( *)(`{3,}|~{3,})")
_FRONT_MATTER: Final = re.compile(r"---\n.*?\n---\n", re.DOTALL)


class Kind(NamedTuple):
    """A container kind: its opening line's pattern and the lines that put ``O`` inside it.

    ``inside(match)`` gives the lines inserted right below the opening line (``match`` is the
    pattern's match on it); ``fenced``: the opener is a fence itself (looked for on fence lines).
    """

    name: str
    pattern: re.Pattern[str]
    inside: Callable[[re.Match[str]], list[str]]
    fenced: bool = False


def _body(width: int, blank: bool = True) -> Callable[[re.Match[str]], list[str]]:
    return lambda match: (
        ["", " " * (len(match["indent"]) + width) + O, ""] if blank else [" " * (len(match["indent"]) + width) + O]
    )


_LIST = Kind(
    "list item",
    re.compile(r"(?P<indent> *)(?P<marker>[-*+]|\d{1,9}[.)]) +\S"),
    lambda match: [" " * (len(match["indent"]) + len(match["marker"]) + 1) + O],
)
_QUOTE = Kind("block quote", re.compile(r"(?P<indent> *)> ?\S"), lambda match: [match["indent"] + "> " + O])
_TABLE = Kind("table row", re.compile(r"(?P<indent> *)\|? *:?-{3,}:? *\|"), lambda match: [f"| {O} |"])
_CODE = Kind(
    "fenced code", re.compile(r"(?P<indent> *)(?:`{3,}|~{3,})(?!\{)[\w+-]*[ \t]*$"), _body(0, False), fenced=True
)
COMMON: Final = (_LIST, _QUOTE, _TABLE, _CODE)
#: corpus -> the container kinds ``O`` is put in (the first of each kind on a page).
KINDS: Final[dict[str, tuple[Kind, ...]]] = {
    "mkdocs": (
        *COMMON,
        Kind("admonition", re.compile(r"(?P<indent> *)!!! \S"), _body(4)),
        Kind("details", re.compile(r"(?P<indent> *)\?\?\?\+? \S"), _body(4)),
        Kind("content tab", re.compile(r"(?P<indent> *)=== \S"), _body(4)),
    ),
    "docusaurus": (
        *COMMON,
        Kind("admonition", re.compile(r"(?P<indent> *):::+[a-z]"), _body(0)),
        Kind("JSX element", re.compile(r"(?P<indent> *)<(?:[A-Z][\w.]*|details|div)\b[^>]*(?<!/)>\s*$"), _body(0)),
    ),
    "vitepress": (
        *COMMON,
        Kind("container", re.compile(r"(?P<indent> *):::+ *[a-z]"), _body(0, False)),
        Kind("component", re.compile(r"(?P<indent> *)<(?:[A-Z][\w.-]*|details|div)\b[^>]*(?<!/)>\s*$"), _body(0)),
    ),
    "myst": (
        *COMMON,
        Kind(
            "directive",
            re.compile(r"(?P<indent> *)(?:`{3,}|:{3,})\{[\w-]+\}.*"),
            lambda match: [match["indent"] + O],
            fenced=True,
        ),
    ),
}


def pages(corpus: str) -> list[tuple[str, str]]:
    """``(name, text)`` of the corpus's pages (``.md`` and ``.mdx``; READMEs and license notices aside)."""
    found = []
    for folder in CORPORA[corpus]:
        for path in sorted(folder.glob("**/*.md*")):
            if path.name != "README.md" and path.suffix in (".md", ".mdx"):
                found.append((f"{path.parent.name}/{path.name}", path.read_text(encoding="utf-8")))
    return found


def _openers(lines: list[str], kinds: tuple[Kind, ...]) -> Iterator[tuple[int, Kind, re.Match[str]]]:
    """Each kind's first opener outside fenced code (a fence's own line may open a fenced kind)."""
    seen: set[str] = set()
    fence = ""
    for index, line in enumerate(lines):
        fenced = _FENCE.match(line)
        if fence:
            if (
                fenced
                and fenced[2][0] == fence[0]
                and len(fenced[2]) >= len(fence)
                and not line[fenced.end() :].strip()
            ):
                fence = ""
            continue
        for kind in kinds:
            match = kind.pattern.match(line)
            if match and kind.name not in seen and (kind.fenced or not fenced):
                # a MyST directive's options (":key: value") stay right below its opening line
                while (
                    kind.name == "directive" and index + 1 < len(lines) and re.match(r" *:\w[\w-]*:", lines[index + 1])
                ):
                    index += 1
                seen.add(kind.name)
                yield index, kind, match
                break
        if fenced:
            fence = fenced[2]


def injections(corpus: str, text: str) -> list[tuple[str, str]]:
    """``(variant, text)``: D at the top, D at the end, D at the top and O at the end, O in each kind."""
    front = _FRONT_MATTER.match(text)
    head, body = (text[: front.end()], text[front.end() :]) if front else ("", text)
    base = f"{head}{D}\n\n{body}"
    ending = "" if base.endswith("\n") else "\n"
    variants = [
        ("D at the top", base),
        ("D at the end", f"{text}{ending}\n{D}\n"),
        ("D at the top, O at the end", f"{base}{ending}\n{O}\n"),
    ]
    lines = base.split("\n")
    for index, kind, match in _openers(lines, KINDS[corpus]):
        variants.append(
            (
                f"O inside the first {kind.name} (line {index + 1})",
                "\n".join([*lines[: index + 1], *kind.inside(match), *lines[index + 1 :]]),
            )
        )
    return variants


def documents(corpus: str) -> list[tuple[str, str]]:
    """Every injection of every page of ``corpus``, labelled ``page: variant``."""
    return [(f"{name}: {variant}", text) for name, page in pages(corpus) for variant, text in injections(corpus, page)]


class Figures(NamedTuple):
    documents: int
    unsafe: int
    eligible: int
    false_refusals: int
    examples: tuple[str, ...]


def _cached(reader: differential.Reader) -> differential.Reader:
    views: dict[str, reader_oracle.ReaderView] = {}

    def read(text: str) -> reader_oracle.ReaderView:
        if text not in views:
            views[text] = reader.read(text)
        return views[text]

    return differential.Reader(reader.name, read)


class InstrumentTest(unittest.TestCase):
    """The DOM reader on a raw component: an unknown element no style sheet gives a box passes through."""

    def test_unknown_unstyled_element_is_transparent(self) -> None:
        """Regression (instrument): cmark-gfm passes ``<ModalDemo />`` through and a browser opens an unknown
        element around the rest of the page; the reader counted D below it as inside a container, though
        nothing gives that element a box (VitePress's guide-using-vue.md, D at the end)."""
        if MISSING_PACKAGES:
            self.skipTest(f"missing {', '.join(MISSING_PACKAGES)}")
        from tests import dom_reader

        shown = dom_reader.read(github_oracle.render_cmark, f"<ModalDemo />\n\n{D}\n")
        self.assertEqual(shown.directive_lines, ((3, D),))
        kept = dom_reader.read(github_oracle.render_cmark, f'<ModalDemo class="x" />\n\n{D}\n')
        self.assertEqual(kept.directive_lines, ())


class RealDocsDifferentialTest(unittest.TestCase):
    """Real pages of MkDocs, Docusaurus, VitePress and MyST sites under every renderer value."""

    readers: dict[str, differential.Reader]

    @classmethod
    def setUpClass(cls) -> None:
        if MISSING_PACKAGES:
            raise unittest.SkipTest(f"missing {', '.join(MISSING_PACKAGES)}: see the module docstring")
        why = mdx_oracle.missing()
        if why is not None:
            raise unittest.SkipTest(f"{why} (CONFLICT_GATE_MDX_DIR)")
        commonmark = reader_oracle.Oracle("commonmark", MarkdownIt("commonmark"), False)
        found = [
            differential.Reader("commonmark", lambda text: reader_oracle.read(commonmark, text)),
            *github_oracle.readers(),
            *test_reader_differential_mkdocs.readers(),
            *test_reader_differential_myst.readers(),
            *mdx_oracle.readers(names=mdx_oracle.SITE_READERS),
            *vitepress_oracle.readers(),
        ]
        cls.readers = {reader.name: _cached(reader) for reader in found}

    def measure(self, corpus: str, renderer: str, docs: list[tuple[str, str]]) -> Figures:
        names = READERS_OF[renderer] + (
            ("vitepress",) if corpus == "vitepress" and renderer in ("commonmark", "portable") else ()
        )
        outcomes = differential.gate_outcomes(
            [text for _, text in docs], None if renderer == "portable" else {"renderer": renderer}
        )
        judged = differential.judge(
            docs,
            [self.readers[name] for name in names],
            outcomes,
            differential.mentions_allowed,
            unbuilt_left_out=renderer == "portable",
        )
        unsafe = [item for item in judged if item.unsafe or item.missed or item.unrefused]
        eligible = [item for item in judged if item.expected is not None]
        refused = [item for item in eligible if item.false_refusal]
        examples = tuple(
            differential.describe(item)
            if item in unsafe
            else f"--- {item.label}: false refusal: {item.outcome.refusal}"
            for item in sorted(unsafe, key=lambda item: len(item.text))[:3] + refused[: None if ALL_EXAMPLES else 12]
        )
        return Figures(len(judged), len(unsafe), len(eligible), len(refused), examples)

    def test_every_corpus_under_every_renderer(self) -> None:
        failures: list[str] = []
        rows = [
            f"{'renderer':<11} {'corpus':<11} {'documents':>9} {'unsafe':>6} {'eligible':>8} "
            f"{'false refusals':>15}  target"
        ]
        details: list[str] = []
        for corpus in CORPORA:
            docs = documents(corpus)
            self.assertGreater(len(docs), 30, corpus)
            for renderer in READERS_OF:
                figures = self.measure(corpus, renderer, docs)
                limit = (
                    DEFAULT_SHARE
                    if renderer == "portable"
                    else DECLARED_SHARE
                    if DECLARED[corpus] == renderer
                    else None
                )
                share = figures.false_refusals / figures.eligible if figures.eligible else 0.0
                label = "default" if renderer == "portable" else renderer
                rows.append(
                    f"{label:<11} {corpus:<11} {figures.documents:>9} {figures.unsafe:>6} "
                    f"{figures.eligible:>8} {figures.false_refusals:>6} ({share:6.1%})  "
                    + ("unsafe 0" if limit is None else f"unsafe 0, false refusals <= {limit:.0%}")
                )
                if figures.unsafe:
                    failures.append(f"{label} on {corpus}: {figures.unsafe} unsafe")
                over = limit is not None and share > limit
                if over:
                    rows[-1] += "  (over target)"
                if over and TARGETS_ENFORCED:
                    failures.append(f"{label} on {corpus}: false refusals {share:.1%} > {limit:.0%}")
                if figures.examples and (figures.unsafe or limit is not None):
                    details += [f"== {label} on {corpus}:", *figures.examples]
        print(
            "\n".join(["== real docs: unsafe and false refusals per renderer and corpus", *rows, *details]),
            file=sys.stderr,
        )
        self.assertEqual(failures, [], "see the table on stderr")


if __name__ == "__main__":
    unittest.main()

"""Docusaurus pages as the site shows them: MDX 3 run by Node, its HTML read as a browser builds it.

Used by ``tests/test_reader_differential_docusaurus.py`` and the portable
differential. The rendering is ``tests/mdx/render.mjs`` (its header says what
it does: ``@mdx-js/mdx`` 3.1.1, ``remark-gfm`` 4.0.1, ``remark-directive``
3.0.1 as Docusaurus 3 pins it, ``remark-frontmatter``, ``gray-matter``,
``@slorber/remark-comment``, Docusaurus's admonition, details and
unused-directive transforms reimplemented, JSX components stubbed to render
their children, React 19's ``renderToStaticMarkup``), pinned by
``tests/mdx/package-lock.json``; run ``npm ci`` in that folder (or in a copy of
it named by ``CONFLICT_GATE_MDX_DIR``, as ``.ci/run`` does) first. Needs Node
(the machine's, v20) and JustHTML (:mod:`tests.dom_reader`); the project itself
never imports it.

Two readers, both read by :func:`tests.dom_reader.read`:

``docusaurus``
    a docs page under Docusaurus's defaults (``markdown.format: "mdx"``,
    ``mdx1Compat`` on: ``<!-- -->`` comments are hidden, ``:::note Title``
    becomes a titled admonition, ``## Title {#id}`` keeps its text);
``mdx``
    the same without the ``mdx1Compat`` layer: plain MDX 3, where ``<!-- -->``
    does not compile.

A page that does not compile or render (``<!-- -->`` for ``mdx``, a bare
``{``, an unclosed JSX tag, an expression naming an unknown variable, invalid
front matter) is a **build error**: the reader shows nothing and says why
(:attr:`tests.reader_oracle.ReaderView.build_error`). An ``import`` (or
``export ... from``) of a ``.md`` or ``.mdx`` file pulls another page's
content in: it is listed in :attr:`~tests.reader_oracle.ReaderView.includes`
(the stub renders nothing for it). Imports of components (``@theme/Tabs``)
are not includes: their bindings render as stubs.

One Node process serves every page of a run (start-up takes about a second):
pages go over stdin and come back over stdout as JSON lines; answers are
cached per text and reader, since the DOM reader renders a page twice (its
sentinel probe).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from tests import dom_reader
from tests.differential import Reader
from tests.reader_oracle import ReaderView

__all__ = ["HARNESS", "MDX_DIR", "READER_NAMES", "BuildError", "MdxRenderer", "missing", "readers"]

HARNESS: Final = Path(__file__).resolve().parent / "mdx"
#: Where ``render.mjs`` runs: a folder with ``node_modules`` installed by ``npm ci``.
MDX_DIR: Final = Path(os.environ.get("CONFLICT_GATE_MDX_DIR") or HARNESS)
READER_NAMES: Final = ("docusaurus", "mdx")
#: An import of these pulls in a page's content (Docusaurus's "partials").
_CONTENT_IMPORT: Final = re.compile(r"\.(?:md|mdx|markdown)(?:[?#].*)?$", re.IGNORECASE)


class BuildError(Exception):
    """The site cannot build the page: MDX's message."""


def missing() -> str | None:
    """Why the harness cannot run here (no ``node``, or no ``node_modules`` in :data:`MDX_DIR`), else None."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not (MDX_DIR / "node_modules" / "@mdx-js" / "mdx").is_dir():
        return f"no node_modules in {MDX_DIR}: run npm ci there (tests/mdx/package-lock.json pins the packages)"
    return None


class MdxRenderer:
    """One ``node render.mjs`` process, started on first use and ended at exit."""

    def __init__(self, folder: Path = MDX_DIR) -> None:
        self.folder = folder
        self._process: subprocess.Popen[str] | None = None
        self._cache: dict[tuple[str, str], dict[str, object]] = {}

    def _start(self) -> subprocess.Popen[str]:
        if self._process is None or self._process.poll() is not None:
            script = self.folder / "render.mjs"
            if not script.is_file():  # an npm ci'd copy without the script: use the checkout's
                script = HARNESS / "render.mjs"
            self._process = subprocess.Popen(
                ["node", str(script)],
                cwd=self.folder,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
            atexit.register(self.close)
        return self._process

    def close(self) -> None:
        if self._process is not None and self._process.poll() is None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            self._process.wait(timeout=30)
        self._process = None

    def answer(self, text: str, reader: str) -> dict[str, object]:
        """The harness's answer for one page: ``html`` or ``error``, and ``includes``."""
        key = (text, reader)
        if key not in self._cache:
            if len(self._cache) > 20000:
                self._cache.clear()
            process = self._start()
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(json.dumps({"text": text, "reader": reader}) + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
            if not line:
                raise RuntimeError(f"the MDX harness ended (exit {process.wait()})")
            self._cache[key] = json.loads(line)
        return self._cache[key]

    def render(self, text: str, reader: str) -> str:
        """The page's HTML; :class:`BuildError` when the site cannot build it."""
        answer = self.answer(text, reader)
        if "error" in answer:
            raise BuildError(str(answer["error"]))
        return str(answer["html"])

    def read(self, text: str, reader: str) -> ReaderView:
        """What ``reader`` shows a reader of ``text`` (a build error shows nothing)."""
        text = text.removeprefix("\ufeff")
        answer = self.answer(text, reader)
        includes = tuple(
            f"import of {source}"
            for source in map(str, answer.get("includes") or ())  # type: ignore[call-overload]
            if _CONTENT_IMPORT.search(source)
        )
        if "error" in answer:
            return ReaderView((), (), (), build_error=str(answer["error"]), includes=includes)
        try:
            view = dom_reader.read(lambda page: self.render(page, reader), text)
        except BuildError as error:  # the probe's copy failed where the page did not: say so, show nothing
            return ReaderView((), (), (), build_error=f"probe: {error}", includes=includes)
        return ReaderView(view.directive_lines, view.other_shaped, view.near_misses, includes=includes)


def readers(renderer: MdxRenderer | None = None, names: Sequence[str] = READER_NAMES) -> tuple[Reader, ...]:
    """The readers ``names`` (by default both, in :data:`READER_NAMES` order), sharing one Node process."""
    shared = renderer or MdxRenderer()
    return tuple(
        Reader(name, lambda text, name=name: shared.read(text, name))  # type: ignore[misc]
        for name in names
    )


#: The reader the gate's ``docusaurus`` renderer stands for (issue 29): Docusaurus 3's defaults, whose
#: ``mdx1Compat`` builds HTML comments and heading ids. The ``mdx`` reader (a site that turns it off)
#: stays in the self-test; such a site's build fails on those pages, which its author sees.
SITE_READERS: Final = ("docusaurus",)

"""Checks ``--site``'s HTML reading against a browser: headless Chromium's ``innerText`` of the same built
pages (issue 30, ``.ci/run`` step 19).

``python -m tests.site_browser_check`` builds the Hugo site of ``tests/test_site_build_hugo.py`` and,
when their harnesses are named (``CONFLICT_GATE_VITEPRESS_DIR``, ``CONFLICT_GATE_DOCUSAURUS_DIR``), the
VitePress and Docusaurus sites, then, for every built page of a judged source, compares what
:func:`~_conflict_gate.site.html.read_built_page` says with the ``innerText`` of the page's main region
in Chromium (the page's own scripts removed, its style sheets loaded): every line the gate counts is a
line of ``innerText``, or a part of one between spaces (a browser shows a soft line break as a space;
the gate takes it as a line, as its Markdown reading does: these are counted and listed); every
directive-shaped line of ``innerText`` outside code (``pre``, ``code``) is one the gate found (counted
or refused); and directive-shaped text the gate found hidden or collapsed is not in ``innerText``. It prints each disagreement and the counts, and exits 1 if any.
Needs Chromium's headless shell (Debian: ``apt-get install chromium-headless-shell``) or ``chromium``.
"""

from __future__ import annotations

import functools
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from _conflict_gate.corpus.load import load_documents
from _conflict_gate.site.build import built_path, locate_site
from _conflict_gate.site.html import read_built_page, shaped

BROWSERS = ("chromium-headless-shell", "chromium")
#: The main region of each generator's page, as CSS selectors tried in site.html's order.
SELECTORS = (
    "article.md-content__inner",
    "[itemprop=articleBody]",
    ".theme-doc-markdown",
    ".vp-doc",
    "[role=main]",
    "main",
)
_SCRIPT = re.compile(r"<script\b.*?</script\s*>", re.IGNORECASE | re.DOTALL)
_PROBE = """<script>
addEventListener('load', () => {
  const sel = %s.find(s => document.querySelector(s));
  const region = sel ? document.querySelector(sel) : null;
  const out = document.createElement('pre'); out.id = 'gate-out';
  const code = region ? Array.from(region.querySelectorAll('pre, code')).map(e => e.innerText).join('\\n') : '';
  out.textContent = region ? region.innerText + '\\u0001' + code : '\\u0000no region';
  document.documentElement.appendChild(out);
});
</script>"""
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\ufeff]")


def inner_text(browser: str, page: Path, built: Path) -> str:
    """The ``innerText`` of ``page``'s main region in Chromium, its scripts removed and its root-relative
    style sheets read from ``built``."""
    text = _SCRIPT.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r'(href|src)="/(?!/)', lambda m: f'{m.group(1)}="{built.as_uri()}/', text)
    probe = _PROBE % repr(list(SELECTORS)).replace("'", '"')
    text = text.replace("</body>", probe + "</body>") if "</body>" in text else text + probe
    with tempfile.TemporaryDirectory(prefix="conflict-gate-browser-") as folder:
        copy = Path(folder, "page.html")
        copy.write_text(text, encoding="utf-8")
        dumped = subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--allow-file-access-from-files",
                "--virtual-time-budget=5000",
                "--dump-dom",
                copy.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    match = re.search(r'<pre id="gate-out">(.*?)</pre>', dumped, re.DOTALL)
    return html.unescape(match.group(1)) if match else "\x00no result"


Build = Callable[[], "tuple[tempfile.TemporaryDirectory[str], Path]"]


def compare(browser: str, name: str, build: Build) -> tuple[int, list[str]]:
    """``(pages compared, disagreements)`` for one site."""
    tmp, manifest = build()
    try:
        corpus = load_documents(manifest, cache=False)
        site = locate_site(str(manifest.parent), str(manifest.parent))
        problems: list[str] = []
        joined: list[str] = []
        count = 0
        for source in corpus.sources.values():
            rel, _ = built_path(site, os.path.join(corpus.manifest.root, source.path))
            if rel is None or not Path(site.built, rel).is_file():
                continue
            page = Path(site.built, rel)
            reading = read_built_page(page.read_text(encoding="utf-8"), corpus.grammar)
            text, _, code_text = inner_text(browser, page, Path(site.built)).partition("\x01")
            shown = [_ZERO_WIDTH.sub("", line).strip() for line in text.split("\n")]
            code = {line.strip() for line in code_text.split("\n")}
            count += 1
            found = list(reading.lines) + [item.text for item in reading.elsewhere + reading.context]
            for line in reading.lines:
                if line not in shown and not any(f" {line} " in f" {text} " for text in shown):
                    problems.append(f"{name} {rel}: the gate counts {line!r}; Chromium does not show it")
                elif line not in shown:
                    joined.append(f"{name} {rel}")
            for line in shown:
                known = any(line in text or text in line for text in found if text)
                if shaped(line, corpus.grammar) and line not in code and not known:
                    problems.append(f"{name} {rel}: Chromium shows {line!r}; the gate found nothing there")
            for item in reading.elsewhere:
                if item.place in ("hidden", "collapsed") and item.text in shown:
                    problems.append(f"{name} {rel}: the gate reads {item.text!r} as {item.place}; Chromium shows it")
        if joined:
            print(
                f"{name}: {len(joined)} counted lines that Chromium shows on one line with their paragraph's other "
                "lines (a soft line break is a line for the gate, a space for a browser): "
                + ", ".join(sorted(set(joined)))
            )
        return count, problems
    finally:
        tmp.cleanup()


def available() -> list[tuple[str, Build]]:
    """Every site this interpreter and environment can build: Hugo (``hugo`` on PATH), VitePress and
    Docusaurus (their harnesses named), MkDocs with each theme (MkDocs importable; ``material`` when
    mkdocs-material is) and Sphinx (Sphinx and MyST importable)."""
    sites: list[tuple[str, Build]] = []
    if shutil.which("hugo"):
        from tests import test_site_build_hugo

        sites.append(("hugo", test_site_build_hugo.build))
    if os.environ.get("CONFLICT_GATE_VITEPRESS_DIR"):
        from tests import test_site_build_vitepress

        sites.append(("vitepress", test_site_build_vitepress.build))
    if os.environ.get("CONFLICT_GATE_DOCUSAURUS_DIR"):
        from tests import test_site_build_docusaurus

        sites.append(("docusaurus", test_site_build_docusaurus.build))
    from tests import test_site_build_mkdocs, test_site_build_sphinx

    if not test_site_build_mkdocs.MISSING:
        for theme in ("mkdocs", "readthedocs", *(("material",) if test_site_build_mkdocs.MATERIAL else ())):
            sites.append((f"mkdocs-{theme}", functools.partial(test_site_build_mkdocs.build, theme)))
    if not test_site_build_sphinx.MISSING:
        sites.append(("sphinx", test_site_build_sphinx.build))
    return sites


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.site_browser_check [NAME ...]``: compare the sites named (a name, or its
    prefix: ``mkdocs`` is every MkDocs theme), by default every site :func:`available` lists; exit 1
    on a disagreement, a site with no page compared, or a site named that cannot be built here."""
    browser = next((found for found in map(shutil.which, BROWSERS) if found), None)
    if browser is None:
        print("no Chromium on PATH (apt-get install chromium-headless-shell)")
        return 1
    names = sys.argv[1:] if argv is None else argv
    sites = available()
    if names:
        unknown = [name for name in names if not any(site == name or site.startswith(name + "-") for site, _ in sites)]
        if unknown:
            print(f"cannot build here: {', '.join(unknown)} (available: {', '.join(site for site, _ in sites)})")
            return 1
        sites = [(site, build) for site, build in sites if any(site == n or site.startswith(n + "-") for n in names)]
    failed = False
    for name, build in sites:
        count, problems = compare(browser, name, build)
        for problem in problems:
            print(problem)
        print(f"{name}: {count} built pages, {len(problems)} disagreements with {Path(browser).name}'s innerText")
        failed = failed or bool(problems) or count == 0
    return 1 if failed or not sites else 0


if __name__ == "__main__":
    raise SystemExit(main())

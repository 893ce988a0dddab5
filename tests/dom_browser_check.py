"""Checks the DOM reader's parser against a real browser: JustHTML's trees against Chromium's.

``python -m tests.dom_browser_check [COUNT]`` renders ``COUNT`` generated
documents (:data:`tests.reader_oracle.HTML_RULES`, seed 7, default 1,500),
every spec example with a directive injected (when the spec is found, as the
differential tests find it) and issue 15's hand-written pages with cmark-gfm,
and the first ``COUNT`` also through the ``github`` reader's sanitizer; then
parses every HTML string twice, with :func:`tests.dom_reader.fragment` and in
headless Chromium (``div.innerHTML = html`` in a page with scripting on: the
same fragment parsing algorithm, context ``div``), and compares the trees:
element names, sorted attributes, text (adjacent text nodes joined),
comments, processing instructions, and a ``<template>``'s content. It prints
the mismatches and a count, and exits 1 if any.

Needs ``cmarkgfm`` and ``justhtml`` (as the GitHub differential) and
Chromium's headless shell on the ``PATH`` (Debian: ``apt-get install
chromium-headless-shell``); not run by the test suite or CI. With
``--html5lib`` it also compares html5lib 1.1 (``pip install html5lib==1.1``).
Last run: 6,024 pages, JustHTML 3.16.0 and Chromium 156 agree on all of them;
html5lib 1.1 differs on 14 (9 processing instructions, which the standard
now keeps as nodes, and 5 a ``<pre>`` inside a table cell, spec example 149).
"""

from __future__ import annotations

import html
import json
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from justhtml.dom import Template, Text

from tests import dom_reader, github_oracle, reader_oracle
from tests.support import REPO
from tests.test_reader_differential_github import ISSUE_15_PAGES

BROWSER = "chromium-headless-shell"
_WALK_JS = """
function walk(n) {
  if (n.nodeType === 3) return '#' + n.data;
  if (n.nodeType === 8) return ['!', n.data];
  if (n.nodeType === 7) return ['#processing-instruction', [], []];
  const kids = Array.from(n.localName === 'template' && n.content ? n.content.childNodes : n.childNodes);
  const attrs = n.attributes ? Array.from(n.attributes).map(a => [a.name, a.value]).sort() : [];
  return [n.localName || n.nodeName, attrs, kids.map(walk)];
}
const out = PAGES.map(s => { const d = document.createElement('div'); d.innerHTML = s;
                             return Array.from(d.childNodes).map(walk); });
document.getElementById('out').textContent = JSON.stringify(out);
"""
Tree = Any


def pages(count: int) -> list[str]:
    """The HTML strings to compare (see the module docstring)."""
    texts = [document.text for document in reader_oracle.generate_documents(7, count, reader_oracle.HTML_RULES)]
    examples = reader_oracle.spec_examples(REPO)
    if examples:
        texts += [text for _, text in reader_oracle.spec_documents(examples, random.Random(1))]
    texts += [page.text for page in ISSUE_15_PAGES]
    return [github_oracle.render_cmark(text) for text in texts] + [
        github_oracle.render_github(text) for text in texts[:count]
    ]


def _joined(tree: Tree) -> Tree:
    """``tree`` with adjacent text nodes joined (a parser may split text a browser keeps as one node)."""
    if not (isinstance(tree, list) and len(tree) == 3 and isinstance(tree[2], list)):
        return tree
    children: list[Tree] = []
    for child in map(_joined, tree[2]):
        if isinstance(child, str) and children and isinstance(children[-1], str):
            children[-1] += child[1:]
        else:
            children.append(child)
    return [tree[0], tree[1], children]


def justhtml_tree(node: object) -> Tree:
    if isinstance(node, Text):
        return "#" + (node.data or "")
    name = str(getattr(node, "name", ""))
    if name == "#comment":
        return ["!", getattr(node, "data", "")]
    if name == "#processing-instruction":
        return [name, [], []]
    content = node.template_content if isinstance(node, Template) else None
    children = (content.children if content is not None else getattr(node, "children", None)) or []
    attrs = sorted([key, value or ""] for key, value in (getattr(node, "attrs", None) or {}).items())
    return [name, attrs, [justhtml_tree(child) for child in children]]


def html5lib_tree(node: Any) -> Tree:
    if node.nodeType == 3:
        return "#" + node.data
    if node.nodeType == 8:
        return ["!", node.data]
    attrs = sorted([key, value] for key, value in (node.attributes.items() if node.attributes else []))
    return [node.localName or node.nodeName, attrs, [html5lib_tree(child) for child in node.childNodes]]


def chromium_trees(htmls: Sequence[str]) -> list[Tree]:
    """Each HTML string parsed by Chromium as ``innerHTML`` of a ``<div>``, as a tree."""
    payload = json.dumps(list(htmls)).replace("</", "<\\/")
    page = (
        "<!DOCTYPE html><html><head></head><body><pre id=out></pre><script>"
        f"const PAGES = {payload};{_WALK_JS}</script></body></html>"
    )
    with tempfile.TemporaryDirectory(prefix="conflict-gate-browser-") as folder:
        path = Path(folder, "check.html")
        path.write_text(page, encoding="utf-8")
        dumped = subprocess.run(
            [BROWSER, "--no-sandbox", "--disable-gpu", "--dump-dom", path.as_uri()],
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        ).stdout
    match = re.search(r'<pre id="out">(.*?)</pre>', dumped, re.DOTALL)
    if match is None:
        raise SystemExit(f"{BROWSER} printed no result")
    return list(json.loads(html.unescape(match[1])))


def main(argv: Sequence[str]) -> int:
    with_html5lib = "--html5lib" in argv
    numbers = [arg for arg in argv if arg != "--html5lib"]
    htmls = pages(int(numbers[0]) if numbers else 1500)
    browser = [_joined(["root", [], tree]) for tree in chromium_trees(htmls)]
    parsers: dict[str, Callable[[str], list[Tree]]] = {
        "justhtml": lambda text: [
            justhtml_tree(node) for node in getattr(dom_reader.fragment(text), "children", None) or []
        ]
    }
    if with_html5lib:
        import html5lib

        parse_fragment: Any = html5lib.parseFragment
        parsers["html5lib"] = lambda text: [
            html5lib_tree(node)
            for node in parse_fragment(
                text, container="div", treebuilder="dom", namespaceHTMLElements=False, scripting=True
            ).childNodes
        ]
    failed = False
    for name, parse in parsers.items():
        differ = [text for text, expected in zip(htmls, browser) if _joined(["root", [], parse(text)]) != expected]
        for text in sorted(differ, key=len)[:5]:
            print(f"{name} differs from {BROWSER} on: {text[:300]!r}")
        print(f"{name}: {len(differ)} of {len(htmls)} pages differ from {BROWSER}")
        failed = failed or (name == "justhtml" and bool(differ))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Pages of three docs sites, for issue 16's differentials: MkDocs, MyST and Docusaurus constructs as data.

Standard library only (the renderers are elsewhere: :mod:`tests.site_renderers`,
:mod:`tests.mdx_oracle`). Two kinds of page:

**Generated documents** (:data:`SITE_RULES`, one :class:`tests.reader_oracle.Rules`
per flavour, drawn by :func:`tests.reader_oracle.generate_documents`): realistic
pages of that site (its containers holding prose and code beside the
CommonMark context blocks of :data:`tests.reader_oracle.HTML_RULES`) with one
directive, and adversarial pages whose directives sit in every placement of
``HTML_RULES`` plus the flavour's own (:data:`MKDOCS_PLACEMENTS`,
:data:`MYST_PLACEMENTS`, :data:`MDX_PLACEMENTS`): inside each container kind,
nested, after text or code in the body, in every fence-closing variant, in
comments, raw HTML and includes.

**Container pages** (:func:`container_pages`): ``D`` (a ``refuse``
directive) at the top and ``O`` (``overwrite``, the same key) inside every
container of :data:`CONTAINERS` (alone, after text, after code), a container
holding only prose with ``D`` above it (eligible: the gate should answer
``ready refuse``), ``D`` after such a container, and ``O`` after it. The
issue's minimal case is ``D⏎⏎!!! note⏎⏎    O⏎``.

The Docusaurus rules replace the CommonMark context blocks that do not compile
as MDX (HTML comments, unclosed ``<img>``) with MDX's own (JSX components,
``{/* */}`` comments, ``import``/``export`` lines): a realistic Docusaurus page
builds. Adversarial placements may not (that is the point of some).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Final, NamedTuple

from tests import reader_oracle
from tests.reader_oracle import HTML_PLACEMENTS, PLACEMENTS, SENTENCES, Rules

__all__ = [
    "CONTAINERS",
    "FLAVOURS",
    "MDX_PLACEMENTS",
    "MKDOCS_PLACEMENTS",
    "MYST_PLACEMENTS",
    "SITE_RULES",
    "ContainerPage",
    "container_openers",
    "container_pages",
    "inject",
    "real_pages",
]

D: Final = "@quill create_copy existing_path=refuse"
O: Final = "@quill create_copy existing_path=overwrite"
FLAVOURS: Final = ("mkdocs", "myst", "docusaurus")

_Block = reader_oracle._Block  # the generator's own block type
_one_of = reader_oracle._html_one_of  # templates with {d}, {s}, {t}


def _indent(text: str, width: int = 4) -> str:
    return "\n".join(" " * width + line if line else line for line in text.split("\n"))


# --------------------------------------------------------------------------
# Containers: name -> template of a container around ``{body}`` (the body at column 0; indented here).


def _mkdocs_indented(opener: str) -> Callable[[str], str]:
    return lambda body: f"{opener}\n\n{_indent(body)}"


def _around(opener: str, closer: str, blank: bool = True) -> Callable[[str], str]:
    gap = "\n\n" if blank else "\n"
    return lambda body: f"{opener}{gap}{body}{gap}{closer}"


MKDOCS_CONTAINERS: Final[Mapping[str, Callable[[str], str]]] = MappingProxyType(
    {
        "admonition": _mkdocs_indented("!!! note"),
        "admonition_titled": _mkdocs_indented('!!! warning "Overwriting"'),
        "admonition_no_blank": lambda body: f"!!! tip\n{_indent(body)}",
        "details_closed": _mkdocs_indented("??? info"),
        "details_open": _mkdocs_indented('???+ info "More"'),
        "tab": lambda body: f'=== "pip"\n\n{_indent(body)}\n\n=== "uv"\n\n    Run `uv add quill`.',
        "tab_in_admonition": lambda body: f'!!! note\n\n    === "pip"\n\n{_indent(body, 8)}',
        "admonition_in_admonition": lambda body: f"!!! note\n\n    !!! danger\n\n{_indent(body, 8)}",
        "admonition_in_list_item": lambda body: f"- Copy a file\n\n    !!! note\n\n{_indent(body, 8)}",
        "blocks_admonition": _around("/// note", "///"),
        "blocks_details": _around("/// details | Behaviour", "///"),
        "blocks_tab": lambda body: f"/// tab | pip\n\n{body}\n\n///\n\n/// tab | uv\n\nRun `uv add quill`.\n\n///",
        "md_in_html_div": _around("<div markdown>", "</div>"),
        "md_in_html_details": _around('<details markdown="1">\n<summary>Behaviour</summary>', "</details>"),
        "def_list": lambda body: f"Existing paths\n:   {_indent(body)[4:]}",
        "footnote": lambda body: f"Copies are atomic[^copy].\n\n[^copy]: {_indent(body)[4:]}",
    }
)
MYST_CONTAINERS: Final[Mapping[str, Callable[[str], str]]] = MappingProxyType(
    {
        "note": _around("```{note}", "```", blank=False),
        "warning": _around("```{warning}", "```", blank=False),
        "admonition": _around("```{admonition} Overwriting", "```", blank=False),
        "colon_note": _around(":::{note}", ":::", blank=False),
        "nested_tip": lambda body: f"````{{tip}}\n```{{note}}\n{body}\n```\n````",
        "tip_with_options": _around("```{tip}\n:class: dropdown\n", "```", blank=False),
        "eval_rst_note": lambda body: f"```{{eval-rst}}\n.. note::\n\n{_indent(body, 3)}\n```",
        "raw_html": lambda body: f'```{{raw}} html\n<div class="note">\n{body}\n</div>\n```',
        "topic": _around("```{topic} Behaviour", "```", blank=False),
        "sidebar": _around("```{sidebar} Behaviour", "```", blank=False),
        "list_item_note": lambda body: f"- Copy a file\n\n  ```{{note}}\n{_indent(body, 2)}\n  ```",
        "blockquote_note": lambda body: "\n".join(
            "> " + line if line else ">" for line in f"```{{note}}\n{body}\n```".split("\n")
        ),
    }
)
MDX_CONTAINERS: Final[Mapping[str, Callable[[str], str]]] = MappingProxyType(
    {
        "admonition": _around(":::note", ":::"),
        "admonition_titled": _around(":::warning[Overwriting]", ":::"),
        "admonition_legacy_title": _around(":::tip Overwriting", ":::"),
        "admonition_nested": lambda body: f"::::danger\n\n:::info\n\n{body}\n\n:::\n\n::::",
        "tabs": lambda body: (
            f'<Tabs>\n<TabItem value="pip" label="pip">\n\n{body}\n\n</TabItem>\n'
            '<TabItem value="uv" label="uv">\n\nRun `uv add quill`.\n\n</TabItem>\n</Tabs>'
        ),
        "details": _around("<details>\n<summary>Behaviour</summary>", "</details>"),
        "component": _around('<Callout kind="info">', "</Callout>"),
        "div": _around('<div className="note">', "</div>"),
        "tabs_in_admonition": lambda body: (
            f':::note\n\n<Tabs>\n<TabItem value="pip">\n\n{body}\n\n</TabItem>\n</Tabs>\n\n:::'
        ),
        "admonition_in_list_item": lambda body: f"- Copy a file\n\n  :::note\n\n{_indent(body, 2)}\n\n  :::",
        "other_directive": _around(":::details", ":::"),
    }
)
CONTAINERS: Final[Mapping[str, Mapping[str, Callable[[str], str]]]] = MappingProxyType(
    {"mkdocs": MKDOCS_CONTAINERS, "myst": MYST_CONTAINERS, "docusaurus": MDX_CONTAINERS}
)

_TEXT: Final = "Copies keep the original file untouched."
_CODE: Final = {
    "mkdocs": "```python\nquill.create_copy(src, dst)\n```",
    "myst": "```python\nquill.create_copy(src, dst)\n```",
    "docusaurus": "```python\nquill.create_copy(src, dst)\n```",
}


class ContainerPage(NamedTuple):
    """A container page: its label (``flavour/container: variant``) and text."""

    label: str
    text: str


def container_pages(flavour: str) -> list[ContainerPage]:
    """``D`` at the top and ``O`` inside and outside every container of ``flavour`` (module docstring)."""
    pages = []
    code = _CODE[flavour]
    if flavour == "myst":  # a fence in a MyST directive's body must use a longer or other fence
        code = "~~~python\nquill.create_copy(src, dst)\n~~~"
    for name, container in CONTAINERS[flavour].items():
        after_text, after_code, as_line = f"{_TEXT}\n\n{O}", f"{code}\n\n{O}", f"{_TEXT}\n{O}"
        variants = {
            "O inside": f"{D}\n\n{container(O)}\n",
            "O after text inside": f"{D}\n\n{container(after_text)}\n",
            "O after code inside": f"{D}\n\n{container(after_code)}\n",
            "O as a line of text inside": f"{D}\n\n{container(as_line)}\n",
            "prose inside (eligible)": f"{D}\n\n{container(_TEXT)}\n",
            "D after the container (eligible)": f"# Copying\n\n{container(_TEXT)}\n\n{D}\n",
            "O after the container": f"{D}\n\n{container(_TEXT)}\n\n{O}\n",
        }
        pages += [ContainerPage(f"{flavour}/{name}: {variant} [{name}]", text) for variant, text in variants.items()]
    return pages


# --------------------------------------------------------------------------
# Placements: where an adversarial document puts a directive, per flavour.

#: Fence-closing variants that CommonMark, Python-Markdown (superfences) and MDX may end differently.
FENCE_VARIANTS: Final = (
    "```text\n{d}\n`````",  # a closing fence longer than the opener
    "````text\n{d}\n```\n{s}\n````",  # a shorter fence inside
    "```text\n{d}",  # unclosed (to the end of the page or container)
    "  ```text\n  {d}\n  ```",  # indented fence
    "   ```text\n{d}\n   ```",  # indented opener, content at column 0
    "{s}\n```text\n{d}\n```",  # a fence right below a paragraph (no blank line)
    "~~~text\n{d}\n~~~~",
    "```text\n{d}\n```  trailing words",  # a closing line with text: not a closing fence
    "``` { .text }\n{d}\n```",  # attribute-list info string
    "```text\n\n    {d}\n\n```",
)


def _container_placements(
    containers: Mapping[str, Callable[[str], str]],
) -> dict[str, Callable[[random.Random, reader_oracle.Directives], str]]:
    """One placement per container: the directive alone, after text, or after code in the body."""

    def placement(container: Callable[[str], str]) -> Callable[[random.Random, reader_oracle.Directives], str]:
        def place(rng: random.Random, directive: reader_oracle.Directives) -> str:
            body = rng.choice(("{d}", "{s}\n\n{d}", "{s}\n{d}", "{d}\n\n{s}", "~~~sh\npip install quill\n~~~\n\n{d}"))
            body = body.replace("{s}", rng.choice(SENTENCES)).replace("{d}", directive())
            return container(body)

        return place

    return {f"container_{name}": placement(container) for name, container in containers.items()}


MKDOCS_PLACEMENTS: Final[Mapping[str, Callable[[random.Random, reader_oracle.Directives], str]]] = MappingProxyType(
    {
        **_container_placements(MKDOCS_CONTAINERS),
        "fence_variant": _one_of(*FENCE_VARIANTS),
        "snippet": _one_of(
            '--8<-- "overwrite.md"\n\n{d}',
            '{d}\n\n--8<-- "install.md"',
            "--8<--\noverwrite.md\n--8<--\n\n{d}",
            '```text\n--8<-- "overwrite.md"\n```\n\n{d}',
            ';--8<-- "overwrite.md"\n\n{d}',
        ),
        "snippet_section": _one_of("--8<-- [start:copy]\n{d}\n--8<-- [end:copy]", "{s} --8<-- [start:x]\n\n{d}"),
        "attr_list": _one_of(
            "{d}\n{: .note }", "{d} { .note }", "## Behaviour { #behaviour }\n\n{d}", "{s}\n{: #intro }\n\n{d}"
        ),
        "abbreviation": _one_of(
            "{d}\n\n*[quill]: The Quill copying tool",
            "*[create_copy]: Copy a file\n\n{d}",
            "{d}\n\n*[Quill]: The Quill copying tool",
        ),
        "indented_text": _one_of("{s}\n\n    {d}", "{s}\n    {d}", "- {s}\n\n    {d}", "1. {s}\n\n    {d}"),
        "md_in_html_raw": _one_of(
            "<div>\n{d}\n</div>",
            "<div markdown>\n{d}\n</div>",
            '<p markdown="1">\n{d}\n</p>',
            '<div markdown="0">\n\n{d}\n\n</div>',
        ),
        "math": _one_of("$$\n{d}\n$$", "\\[\n{d}\n\\]", "$${d}$$"),
        "caret_tilde_mark": _one_of("^^{d}^^", "=={d}==", "~~{d}~~", "++ctrl++ {d}"),
        "critic_markup": _one_of("{~~{d}~>x~~}", "{--\n{d}\n--}"),
    }
)
MYST_PLACEMENTS: Final[Mapping[str, Callable[[random.Random, reader_oracle.Directives], str]]] = MappingProxyType(
    {
        **_container_placements(MYST_CONTAINERS),
        "fence_variant": _one_of(*FENCE_VARIANTS),
        "eval_rst": _one_of(
            "```{eval-rst}\n{d}\n```",
            "```{eval-rst}\n.. note::\n\n   {d}\n```",
            "```{eval-rst}\n.. code-block:: text\n\n   {d}\n```",
            "```{eval-rst}\n.. {d}\n```",
            "```{eval-rst}\n{s}\n\n{d}\n```",
        ),
        "raw": _one_of(
            "```{raw} html\n<p>{d}</p>\n```", "```{raw} html\n<!-- {d} -->\n```", "```{raw} latex\n{d}\n```"
        ),
        "include": _one_of(
            "```{include} overwrite.md\n```\n\n{d}",
            "{d}\n\n```{include} install.md\n```",
            "```{eval-rst}\n.. include:: overwrite.md\n```\n\n{d}",
            "```{literalinclude} overwrite.md\n```\n\n{d}",
        ),
        "comment": _one_of("% {d}", "%{d}", "{s}\n% {d}", "% a comment\n{d}", "  % {d}"),
        "target": _one_of("(copy-behaviour)=\n{d}", "(copy-behaviour)=\n\n{d}", "{d}\n(copy-behaviour)="),
        "block_break": _one_of("{d}\n+++\n{s}", "+++\n{d}", '+++ {"meta": "x"}\n{d}', "{s}\n\n+++\n\n{d}"),
        "field_list": _one_of(":Behaviour: {d}", ":Behaviour:\n  {d}"),
        "math": _one_of("$$\n{d}\n$$", "$${d}$$", "```{math}\n{d}\n```"),
        "role": _one_of("{sub}`{d}`", "{d} {sup}`x`", "{code}`{d}`"),
        "substitution": _one_of("{{ copy }}\n\n{d}", "{d}\n{{ copy }}"),
        "unknown_directive": _one_of("```{dropdown} Behaviour\n{d}\n```", "```{tab-set}\n{d}\n```"),
        "code_directive": _one_of("```{code-block} text\n{d}\n```", "```{code} text\n{d}\n```"),
        "indented_text": _one_of("{s}\n\n    {d}", "- {s}\n\n    {d}"),
    }
)
MDX_PLACEMENTS: Final[Mapping[str, Callable[[random.Random, reader_oracle.Directives], str]]] = MappingProxyType(
    {
        **_container_placements(MDX_CONTAINERS),
        "fence_variant": _one_of(*FENCE_VARIANTS),
        "jsx_comment": _one_of("{/* {d} */}", "{/*\n{d}\n*/}", "{s} {/* {d} */}", "{d} {/* note */}"),
        "html_comment_mdx": _one_of("<!-- {d} -->", "<!--\n{d}\n-->", "{d}\n\n<!-- TODO -->"),
        "import_export": _one_of(
            "import Tabs from '@theme/Tabs';\n\n{d}",
            "export const copy = 'x';\n\n{d}",
            "import Partial from './_partial.mdx';\n\n{d}\n\n<Partial />",
            "import {Note} from '@site/src/components/Note';\nexport {Note};\n\n{d}",
            "{d}\nimport Tabs from '@theme/Tabs';",
        ),
        "indented_text": _one_of("    {d}", "{s}\n\n    {d}", "- {s}\n\n      {d}", "\t{d}"),
        "expression": _one_of("{'{d}'}", "{d} {1 + 1}", "{`\n{d}\n`}", "{d}\n{props.x}"),
        "bare_brace": _one_of("{d}\n\nUse { here.", "{s} {\n\n{d}", "{d}\n\nA < b here.", "{d}\n\na <b here"),
        "jsx_inline": _one_of(
            "<Highlight>{d}</Highlight>",
            "{s} <Badge>{d}</Badge>",
            '<span className="x">{d}</span>',
            "<Note>\n{d}\n</Note>",
        ),
        "jsx_html": _one_of(
            "<div>\n{d}\n</div>", "<div>\n\n{d}\n\n</div>", "<p>\n{d}\n</p>", "<div hidden>\n\n{d}\n\n</div>"
        ),
        "text_directive": _one_of("{d}:note", ":::\n{d}\n:::", "::note[{d}]", '{s} :abbr[x]{title="{d}"}'),
    }
)


# --------------------------------------------------------------------------
# Context blocks: what each site's realistic pages hold besides CommonMark.


def _block(options: tuple[tuple[str, str], ...]) -> Callable[[random.Random], reader_oracle._Block]:
    def make(rng: random.Random) -> reader_oracle._Block:
        construct, text = rng.choice(options)
        # {n}: a number of its own, so two imports or exports of one page never bind the same name
        text = text.replace("{s}", rng.choice(SENTENCES))
        if "{n}" in text:
            text = text.replace("{n}", str(rng.randrange(10**6)))
        return _Block(text, frozenset({construct}))

    return make


_MKDOCS_BLOCKS: Final = (
    ("mkdocs_admonition", "!!! note\n\n    {s}"),
    (
        "mkdocs_admonition",
        '!!! warning "Overwriting"\n    {s}\n\n    ```python\n    quill.create_copy(src, dst)\n    ```',
    ),
    ("mkdocs_details", '??? info "Behaviour"\n\n    {s}'),
    ("mkdocs_details", "???+ tip\n\n    {s}"),
    (
        "mkdocs_tabs",
        '=== "pip"\n\n    ```sh\n    pip install quill\n    ```\n\n=== "uv"\n\n    ```sh\n    uv add quill\n    ```',
    ),
    ("mkdocs_blocks", "/// note | Behaviour\n{s}\n///"),
    ("mkdocs_blocks", "/// details | More\n    type: tip\n\n{s}\n///"),
    ("md_in_html", '<div class="grid" markdown>\n\n{s}\n\n</div>'),
    ("def_list", "`existing_path`\n:   What to do with an existing file.\n\n`close_required`\n:   Whether to close."),
    ("footnote", "Copies are atomic[^1].\n\n[^1]: {s}"),
    ("attr_list", "## Options { #options }"),
    ("attr_list", "[Download](https://quill.example/get){ .md-button }"),
    ("abbr", "*[API]: Application Programming Interface"),
)
_MYST_BLOCKS: Final = (
    ("myst_note", "```{note}\n{s}\n```"),
    ("myst_admonition", "```{admonition} Behaviour\n:class: tip\n\n{s}\n```"),
    ("myst_warning", ":::{warning}\n{s}\n:::"),
    ("myst_code", "```{code-block} python\n:caption: copy.py\n\nquill.create_copy(src, dst)\n```"),
    ("myst_comment", "% TODO: document 2.0"),
    ("myst_target", "(options)=\n## Options"),
    ("myst_eval_rst", "```{eval-rst}\n.. note::\n\n   {s}\n```"),
    ("myst_role", "See {ref}`options` and {doc}`install`."),
    ("myst_math", "$$\nE = mc^2\n$$"),
    ("myst_field_list", ":Version: 1.0\n:Status: stable"),
    ("myst_deflist", "existing_path\n: What to do with an existing file."),
)
_MDX_BLOCKS: Final = (
    ("mdx_admonition", ":::note\n\n{s}\n\n:::"),
    ("mdx_admonition", ":::tip[Behaviour]\n\n{s}\n\n:::"),
    ("mdx_admonition", ":::warning Overwriting\n\n{s}\n\n:::"),
    (
        "mdx_tabs",
        '<Tabs>\n<TabItem value="pip">\n\n```sh\npip install quill\n```\n\n</TabItem>\n'
        '<TabItem value="uv">\n\n```sh\nuv add quill\n```\n\n</TabItem>\n</Tabs>',
    ),
    ("mdx_details", "<details>\n<summary>Behaviour</summary>\n\n{s}\n\n</details>"),
    ("mdx_comment", "{/* TODO: document 2.0 */}"),
    ("mdx_import", "import Tabs{n} from '@theme/Tabs';\nimport TabItem{n} from '@theme/TabItem';"),
    ("mdx_export", "export const version{n} = '1.0';\n\nThis page documents version {version{n}}."),
    ("mdx_expression", "Copies are streamed in chunks of {2 * 32} KiB."),
    ("mdx_component", '<Callout kind="info">\n\n{s}\n\n</Callout>'),
    (
        "mdx_html",
        '<div className="badges">\n  <img src="https://img.shields.io/badge/quill-1.0-blue.svg" alt="Quill 1.0" />\n</div>',
    ),
)


def _mdx_safe(block: Callable[[random.Random], reader_oracle._Block]) -> bool:
    """The CommonMark context blocks that compile as MDX (HTML comments and unclosed tags do not)."""
    return block is not reader_oracle._html


def _rules(
    placements: Mapping[str, Callable[[random.Random, reader_oracle.Directives], str]],
    blocks: tuple[tuple[str, str], ...],
    mdx: bool = False,
) -> Rules:
    common = tuple(block for block in reader_oracle.HTML_RULES.context_blocks if not mdx or _mdx_safe(block))
    own = _block(blocks)
    constructs = tuple(sorted({construct for construct, _ in blocks}))
    common_constructs = tuple(
        name for name in reader_oracle.HTML_RULES.constructs if not mdx or not name.startswith("html_")
    )
    return Rules(
        MappingProxyType({**PLACEMENTS, **HTML_PLACEMENTS, **placements}),
        common + (own,) * 6,
        (*common_constructs, *constructs),
    )


#: Each flavour's generator rules: its context blocks beside the CommonMark ones, and every placement.
SITE_RULES: Final[Mapping[str, Rules]] = MappingProxyType(
    {
        "mkdocs": _rules(MKDOCS_PLACEMENTS, _MKDOCS_BLOCKS),
        "myst": _rules(MYST_PLACEMENTS, _MYST_BLOCKS),
        "docusaurus": _rules(MDX_PLACEMENTS, _MDX_BLOCKS, mdx=True),
    }
)


# --------------------------------------------------------------------------
# Real pages (tests/pages/, with their license notices) and the injections into them.

PAGES: Final = Path(__file__).resolve().parent / "pages"
#: A MkDocs container's opening line: ``(indent, kind)``; the body of ``!!!``, ``???`` and ``===`` is
#: indented four more columns, that of ``///`` blocks and ``markdown`` HTML is not.
_OPENER: Final = re.compile(
    r"(?P<indent> *)(?:(?P<indented>!!!|\?\?\?\+?|===)[ \t]+\S"
    r"|(?P<flat>///[ \t]*[A-Za-z]|<(?:div|details|section|span|p)\b[^>]*\bmarkdown\b))"
)
_FENCE: Final = re.compile(r" *(`{3,}|~{3,})")
_FRONT_MATTER: Final = re.compile(r"---\n.*?\n---\n", re.DOTALL)


def real_pages() -> list[tuple[str, str]]:
    """``(site/page, text)`` of every page under :data:`PAGES` (its README aside)."""
    return [
        (f"{path.parent.name}/{path.name}", path.read_text(encoding="utf-8")) for path in sorted(PAGES.glob("*/*.md"))
    ]


def container_openers(text: str) -> list[tuple[int, str, bool]]:
    """``(line index, indent, indented body)`` of every container opener outside fenced code."""
    openers, fence = [], ""
    for index, line in enumerate(text.split("\n")):
        fenced = _FENCE.match(line)
        if fence:
            if (
                fenced
                and fenced[1][0] == fence[0]
                and len(fenced[1]) >= len(fence)
                and not line[fenced.end() :].strip()
            ):
                fence = ""
            continue
        if fenced:
            fence = fenced[1]
            continue
        match = _OPENER.match(line)
        if match:
            openers.append((index, match["indent"], match["indented"] is not None))
    return openers


def inject(text: str) -> list[tuple[str, str]]:
    """``(variant, text)``: ``D`` at the top (below front matter), then ``O`` inside and before every container."""
    front = _FRONT_MATTER.match(text)
    head, body = (text[: front.end()], text[front.end() :]) if front else ("", text)
    base = f"{head}{D}\n\n{body}"
    lines = base.split("\n")
    variants = [("D at the top", base)]
    for index, indent, indented in container_openers(base):
        opener = lines[index].strip()[:40]
        inside = indent + ("    " if indented else "")
        variants.append(
            (
                f"O inside the container at line {index + 1} ({opener})",
                "\n".join([*lines[: index + 1], "", inside + O, "", *lines[index + 1 :]]),
            )
        )
        variants.append(
            (
                f"O before the container at line {index + 1} ({opener})",
                "\n".join([*lines[:index], indent + O, "", *lines[index:]]),
            )
        )
    return variants

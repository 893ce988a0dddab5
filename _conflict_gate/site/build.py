"""The site's own build as the judge: a verified corpus, each page that holds directive-shaped text
compared with its built page (``--site``).

Flow: manifest -> verified corpus (:func:`~_conflict_gate.corpus.load.load_documents`) -> **site-judged
corpus** (:func:`judge_site`) -> decision. :func:`locate_site` finds the build and how MkDocs
names its pages (:class:`SiteBuild`); :func:`judge_site` returns a new immutable
:class:`~_conflict_gate.corpus.load.Corpus` whose judged sources are replaced.

**Which pages are judged**: every verified source. One that holds directive-shaped text (it has
occurrences, claims, near-misses or a :class:`~_conflict_gate.base.errors.DirectiveError` refusal) must
have a built page; one that holds none is judged when its built page is there and shows some (an
include, a macro: refused), and kept as it is otherwise (a built page missing is no error for it, nor a
page without a known region that has no candidate at sign anywhere).

**Locating a built page** (MkDocs 1.6, ``mkdocs/structure/files.py``): the source's path relative to
the configuration's ``docs_dir`` (default ``docs``, relative to the folder of ``mkdocs.yml``), a
Markdown extension (``.md``, ``.markdown``, ``.mdown``, ``.mkdn``, ``.mkd``); ``README`` is named
``index``; with ``use_directory_urls`` (the default) ``a/b.md`` is ``a/b/index.html`` and
``index.md`` ``index.html``, without it ``a/b.md`` is ``a/b.html``. A ``README.md`` beside an
``index.md`` is not built (MkDocs excludes it). A manifest entry's ``"built"`` (a path relative to the
built site) names the page instead. A page not found is a failed source (``built_page_missing``), or
the error in a strict judgement. A page the Markdown reading refused for a reason the build does not
settle is kept as it is, its built page not opened.

**The judgement** of one page (its built page read by :func:`~_conflict_gate.site.html.read_built_page`):

* no main content region, or directive-shaped text shown anywhere but as a line of its own in a
  top-level paragraph (or in code or a comment, which count for nothing): refused
  (``site_disagrees``, or ``misplaced_directive`` for a place of
  :data:`~_conflict_gate.site.html.ELSEWHERE_PLACES`), naming the source line that holds the text when
  one does;
* each shown line is parsed by the grammar (its reasons refuse, as in the Markdown reading);
* a page the Markdown reading accepted: its counted lines and the shown lines must be the same texts,
  as many times each; a counted line the build does not show, or a shown line no counted line holds
  (an include, a macro, a line the Markdown reading placed elsewhere), refuses it (``site_disagrees``).
  Its claims stay as they were: source spans, lines and pins;
* a reStructuredText page of a Sphinx site (``.rst``), which no Markdown reading reads, is judged by
  its build alone, as a refused page below is (its claims from the build, at the source lines that hold
  them; the Markdown reading's claims, refusal and near-misses dropped);
* a page the Markdown reading refused with a reason the build settles (:data:`SETTLED_BY_BUILD`:
  doubt about how the site renders a line, or where) takes the build's reading instead: each shown
  line becomes a claim at the unindented source line that holds exactly that text (the spaces and
  tabs after it aside), which must be as many source lines as the build shows it; more or fewer
  refuses (``site_disagrees``: which line counts is not known); two claims of one key refuse
  (``duplicate_directive``). Any other refusal (a grammar reason, a limit, ``duplicate_directive``,
  ``build_error``) is kept.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from pathlib import Path
from types import MappingProxyType
from typing import Final, NamedTuple

from ..base.errors import DirectiveError, IngestionError
from ..corpus.load import Corpus, Source, decode_source, failed_source, verified_digest
from ..corpus.source_files import SourceFiles
from ..manifest.grammar import Grammar
from ..reading.candidates import candidates_of
from ..reading.reading_shapes import Claim
from .detect import folders_up
from .html import ELSEWHERE_PLACES, read_built_page, shaped
from .locate import Layout, find_configs, page_name, read_layout, version_page

__all__ = [
    "MARKDOWN_EXTENSIONS",
    "SETTLED_BY_BUILD",
    "SPHINX_SUFFIXES",
    "SiteBuild",
    "built_path",
    "judge_site",
    "locate_site",
]

#: The extensions MkDocs reads as Markdown pages (``mkdocs.utils.markdown_extensions``).
MARKDOWN_EXTENSIONS: Final = (".md", ".markdown", ".mdown", ".mkdn", ".mkd")
#: Refusal reasons of the Markdown reading that the build settles: the reader's doubt about how the
#: site renders a line or where it sits. A page refused for one of them takes the build's reading.
SETTLED_BY_BUILD: Final = frozenset({"ambiguous_markup", "misplaced_directive", "malformed_directive"})
#: The source suffixes of a Sphinx site the gate reads (Sphinx's reStructuredText and MyST's Markdown).
SPHINX_SUFFIXES: Final = (".rst", ".md")
_CONFIG_NAMES: Final = ("mkdocs.yml", "mkdocs.yaml")
#: VitePress's ``<ClientOnly>``: its content is rendered in the browser alone, after the page loads, so the built
#: page holds none of it (an empty comment; a real VitePress 1.6.4 build, then Chromium, showed it so).
_CLIENT_ONLY: Final = re.compile(r"<(?:ClientOnly|client-only)(?![A-Za-z0-9-])", re.ASCII)
_KEY: Final = re.compile(
    r"(?P<key>site_dir|docs_dir|use_directory_urls|INHERIT)[ \t]*:[ \t]*(?P<value>.*?)[ \t]*(?:#.*)?\Z"
)
_TRUE: Final = frozenset({"true", "yes", "on"})
_FALSE: Final = frozenset({"false", "no", "off"})
_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|\Z)")
#: The longest VitePress line :func:`_unjoined` splits back into source lines, in code points, and the
#: most candidate first lines it tries for one.
_MAX_JOINED: Final = 4000
_MAX_STARTS: Final = 64
#: What names a generator's built pages, for the message of a page not found.
_NAMED_BY: Final = MappingProxyType(
    {
        "mkdocs": "docs_dir and use_directory_urls",
        "sphinx": "the builder (html or dirhtml)",
        "docusaurus": "docs.path, docs.routeBasePath, the docs versions, trailingSlash and the page's slug or id",
        "vitepress": "srcDir and outDir",
        "hugo": "contentDir, publishDir, uglyURLs and the page's url or slug",
    }
)


class SiteBuild(NamedTuple):
    """A built site: ``built`` (the folder the build wrote), ``docs_dir`` (the folder its pages come
    from), ``use_directory_urls`` (MkDocs), ``config`` (the configuration read), ``generator``
    (``mkdocs``, ``sphinx``, ``docusaurus``, ``vitepress`` or ``hugo``) and ``layout`` (the last three's
    naming settings); paths absolute."""

    built: str
    docs_dir: str
    use_directory_urls: bool
    config: str
    generator: str = "mkdocs"
    #: Docusaurus, VitePress and Hugo: how the generator names pages (:class:`~_conflict_gate.site.locate.Layout`).
    layout: Layout | None = None


def _site_error(detail: str, path: str) -> IngestionError:
    return IngestionError("site_unreadable", detail, path=path)


def _configs(folder: Path) -> list[tuple[str, Path]]:
    """The site configurations in ``folder``: ``(generator, file)``, MkDocs' first."""
    found = [("mkdocs", folder / name) for name in _CONFIG_NAMES if (folder / name).is_file()][:1]
    if (folder / "conf.py").is_file():
        found.append(("sphinx", folder / "conf.py"))
    return found + find_configs(folder)


def locate_site(site: str, manifest_root: str) -> SiteBuild:
    """The build ``--site`` names: ``site`` is either the folder holding the site's configuration
    (``mkdocs.yml`` or ``mkdocs.yaml``: MkDocs, its built pages in ``site_dir``, default ``site``;
    ``conf.py``: Sphinx, its built pages in ``_build/html``) or the built folder itself (the
    configuration then found in the manifest's folder or the nearest parent that has one, up to the
    repository's top level). For MkDocs it reads the top-level keys ``site_dir``, ``docs_dir`` and
    ``use_directory_urls``, one line each (no YAML library); Sphinx's pages come from the folder of
    ``conf.py``. Raises :class:`IngestionError` ``site_unreadable`` for a folder that is missing, no
    configuration found or two in one folder, a value it does not read (``!ENV``, ``INHERIT``,
    anything but a plain or quoted scalar) or a built folder that is missing."""
    if not os.path.isdir(site):
        raise _site_error(
            "not a folder (--site names the built site, or the folder holding mkdocs.yml or conf.py)", site
        )
    here = _configs(Path(site))
    found = here
    if not found:
        for folder in folders_up(Path(manifest_root), (Path(manifest_root),)):
            found = _configs(folder)
            if found:
                break
    if not found:
        for folder in Path(os.path.abspath(site)).parents:  # a built folder inside the site's folder
            found = _configs(folder)
            if found or (folder / ".git").exists():
                break
    if not found:
        raise _site_error(
            "no mkdocs.yml, conf.py, docusaurus.config.*, .vitepress/config.* or hugo.* in it, nor "
            "in the manifest's folder or a parent: --site reads MkDocs, Sphinx, Docusaurus, VitePress "
            "and Hugo builds",
            site,
        )
    if len(found) > 1:
        raise _site_error(
            f"two sites' configurations in one folder ({found[0][1]}, {found[1][1]}): name the one "
            "whose build to read by its folder",
            site,
        )
    ((generator, path),) = found
    config = str(path)
    if generator not in ("mkdocs", "sphinx"):
        try:
            layout = read_layout(generator, path)
        except (OSError, UnicodeDecodeError) as error:
            raise _site_error(f"cannot read it: {error}", config) from None
        built = layout.built if here else os.path.abspath(site)
        if not os.path.isdir(built):
            raise _site_error(f"the built site is missing: build the {generator} site first", built)
        return SiteBuild(
            built, layout.pages, layout.directory_urls, os.path.abspath(config), generator, layout._replace(built=built)
        )
    if generator == "sphinx":
        home = os.path.dirname(os.path.abspath(config))
        built = os.path.join(home, "_build", "html") if here else os.path.abspath(site)
        if not os.path.isdir(built):
            raise _site_error(
                "the built site is missing: run sphinx-build first (sphinx-build -M html . _build)", built
            )
        return SiteBuild(built, home, False, os.path.abspath(config), "sphinx")
    return _mkdocs_site(site, config, bool(here))


def _mkdocs_site(site: str, config: str, here: bool) -> SiteBuild:
    """The MkDocs build of ``config`` (``mkdocs.yml``): in its ``site_dir`` when ``here`` (``site`` holds
    the configuration), else ``site`` itself."""
    try:
        with open(config, "rb") as handle:
            text = handle.read(1 << 20).decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise _site_error(f"cannot read it: {error}", config) from None
    values = {"site_dir": "site", "docs_dir": "docs", "use_directory_urls": "true"}
    for number, line in enumerate(text.splitlines(), 1):
        match = _KEY.fullmatch(line)
        if match is None:
            continue
        key, value = match.group("key"), match.group("value")
        if key == "INHERIT":
            raise _site_error(
                f"line {number}: INHERIT is not followed; name the built folder and write docs_dir, "
                "site_dir and use_directory_urls in this file",
                config,
            )
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif not value or value[0] in "!&*[{|>\"'":
            raise _site_error(
                f"line {number}: {key}: {value!r} is not a plain or quoted value; the gate reads "
                "no YAML tags, anchors or blocks",
                config,
            )
        values[key] = value
    urls = values["use_directory_urls"].lower()
    if urls not in _TRUE | _FALSE:
        raise _site_error(f"use_directory_urls: {values['use_directory_urls']!r} is not true or false", config)
    home = os.path.dirname(os.path.abspath(config))
    built = os.path.join(home, values["site_dir"]) if here else os.path.abspath(site)
    if not os.path.isdir(built):
        raise _site_error("the built site is missing: run mkdocs build first", built)
    return SiteBuild(built, os.path.join(home, values["docs_dir"]), urls in _TRUE, os.path.abspath(config))


def built_path(site: SiteBuild, source: str) -> tuple[str | None, str]:
    """The built page of the source file at ``source`` (absolute), relative to ``site.built`` in POSIX
    form, and ``""``; or ``None`` and why MkDocs builds no page of it."""
    if site.layout is not None and site.layout.unread:
        return page_name(site.layout, source, "")
    docs = os.path.realpath(site.docs_dir)
    real = os.path.realpath(source)
    versioned = version_page(site.layout, real) if site.layout is not None else None
    if versioned is not None:
        return versioned
    if not real.startswith(docs.rstrip(os.sep) + os.sep):
        return None, (
            f"it is outside the site's docs_dir {site.docs_dir}"
            if site.layout is None
            else f"it is outside the folder the site's pages come from ({site.docs_dir})"
        )
    relative = Path(os.path.relpath(real, docs)).as_posix()
    if site.layout is not None:
        return page_name(site.layout, real, relative)
    parent, filename = posixpath.split(relative)
    stem, extension = posixpath.splitext(filename)
    if site.generator == "sphinx":
        if extension.lower() not in SPHINX_SUFFIXES:
            return None, f"the gate reads Sphinx pages from {', '.join(SPHINX_SUFFIXES)} files only"
        docname = posixpath.join(parent, stem)
        if stem == "index" or os.path.isfile(os.path.join(site.built, docname + ".html")):
            return docname + ".html", ""  # the html builder (and every builder's index)
        return posixpath.join(docname, "index.html"), ""  # the dirhtml builder
    if extension.lower() not in MARKDOWN_EXTENSIONS:
        return None, f"MkDocs builds pages from {', '.join(MARKDOWN_EXTENSIONS)} files only"
    if any(part.startswith(".") for part in relative.split("/")):
        return None, "MkDocs excludes files and folders whose names start with '.'"
    if stem == "README":
        if any(os.path.isfile(os.path.join(os.path.dirname(real), "index" + ext)) for ext in MARKDOWN_EXTENSIONS):
            return None, "MkDocs excludes a README beside an index page"
        stem = "index"
    if not site.use_directory_urls or stem == "index":
        return posixpath.join(parent, stem + ".html"), ""
    return posixpath.join(parent, stem, "index.html"), ""


def judge_site(corpus: Corpus, site: SiteBuild, *, strict: bool = False) -> Corpus:
    """``corpus`` (a :class:`~_conflict_gate.corpus.load.Corpus`) with its verified sources judged by their
    built pages in ``site`` (:func:`locate_site`); the same object when nothing changed, else a new
    immutable corpus with the judged sources replaced. A source holding directive-shaped text counts
    only what its built page shows as lines of their own in top-level paragraphs, at the source lines
    that hold exactly that text (claims keep their spans and pins); anything else shown refuses it
    (``misplaced_directive``, ``site_disagrees``, a grammar reason). A source holding none is refused
    only when its built page shows some (an include, a macro). A source holding directive-shaped text
    whose built page is missing or unreadable becomes a failed source (``built_page_missing``) or, with
    ``strict``, raises that :class:`IngestionError`; a source whose file changed since the load,
    ``hash_mismatch`` the same way. Raises nothing else for a page. Reads each built page once
    (:mod:`~_conflict_gate.site.html`, linear in the page); reference/site.md has the rules."""
    changed: dict[str, Source] = {}
    manifest = corpus.manifest
    located = {
        source.source_id: (
            (source.entry.built, "")
            if source.entry.built is not None
            else built_path(site, os.path.join(manifest.root, source.path))
        )
        for source in corpus.sources.values()
        if not source.failed
    }
    built_from: dict[str, list[str]] = {}  # a built page -> the sources built to it
    for sid, (built, _) in located.items():
        if built is not None:
            built_from.setdefault(built, []).append(sid)
    with SourceFiles(manifest.root) as files:
        for source in corpus.sources.values():
            if source.failed:
                continue
            holds = bool(
                source.occurrences or source.claims or source.near_misses or isinstance(source.refusal, DirectiveError)
            )
            built, why = located[source.source_id]
            shared = [sid for sid in built_from.get(built or "", ()) if sid != source.source_id]
            try:
                if holds and shared:
                    judged = _shared(source, built or "", shared)
                else:
                    judged = _judge(source, site, files, corpus.grammar, holds, built, why)
            except IngestionError as error:
                if strict:
                    raise
                judged = failed_source(source.entry, error)
            if judged is not source:
                changed[source.source_id] = judged
    if not changed:
        return corpus
    return Corpus(manifest, MappingProxyType({sid: changed.get(sid, s) for sid, s in corpus.sources.items()}))


def _shared(source: Source, built: str, others: list[str]) -> Source:
    """``source``, holding directive-shaped text, refused because other sources are built to its built
    page too (a slug or route given twice, the same page of two versions built to one path): the site
    shows one of them, and which one the gate cannot tell, so none counts (``site_disagrees``). A page
    already refused for a reason the build does not settle keeps its refusal."""
    if isinstance(source.refusal, DirectiveError) and source.refusal.reason not in SETTLED_BY_BUILD:
        return source
    names = ", ".join(repr(sid) for sid in others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
    error = DirectiveError(
        "site_disagrees",
        f"its built page {built} is built from {names} too: the site shows one of these pages, and the gate "
        "cannot tell which; give each page a route of its own (its slug, url or path)",
        quote="",
        source_id=source.source_id,
        path=source.path,
    )
    return source._replace(claims=(), refusal=error)


def _judge(
    source: Source,
    site: SiteBuild,
    files: SourceFiles,
    grammar: Grammar,
    holds: bool,
    built: str | None,
    why: str,
) -> Source:
    """``source`` judged by its built page ``built`` (relative to the site; ``None``: not built, ``why``);
    ``holds``: does it hold directive-shaped text (else a built page missing is no error, and it is
    judged only when its built page shows some)."""
    sid, path = source.source_id, source.path
    refusal = source.refusal
    alone = site.generator == "sphinx" and path.lower().endswith(".rst")  # no Markdown reading applies
    if not alone and isinstance(refusal, DirectiveError) and refusal.reason not in SETTLED_BY_BUILD:
        return source  # refused for a reason the build does not settle: its built page is not opened
    if built is None:
        if not holds:
            return source
        raise IngestionError("built_page_missing", f"no built page: {why}", source_id=sid, path=path)
    with SourceFiles(site.built) as pages:
        try:
            page = pages.read_path(built).decode("utf-8")
        except IngestionError as error:
            if not holds:
                return source
            detail = (
                f"not found (build the site first; the page's name follows {_NAMED_BY[site.generator]} of "
                f'{site.config}, or name it with "built")'
                if error.reason == "source_missing"
                else error.detail
            )
            raise IngestionError(
                "built_page_missing", f"its built page {built} in {site.built}: {detail}", source_id=sid, path=path
            ) from None
        except UnicodeDecodeError:
            if not holds:
                return source
            raise IngestionError(
                "built_page_missing", f"its built page {built} is not UTF-8", source_id=sid, path=path
            ) from None
    reading = read_built_page(page, grammar)
    if not holds and (
        not reading.lines and not reading.elsewhere
        if reading.region is not None
        else not candidates_of(page.encode("utf-8", "surrogatepass"), grammar)[0]
    ):
        return source  # nothing shown (anywhere on the page, when its region is not known), nothing held
    raw = files.read(source.entry)
    verified_digest(raw, source.entry)
    text = decode_source(raw, source_id=sid, path=path)
    lines = _source_lines(text, len(raw) - len(raw.removeprefix(b"\xef\xbb\xbf")))
    if site.generator == "vitepress":
        reading = reading._replace(lines=_unjoined(reading.lines, lines, grammar))

    def refuse(reason: str, detail: str, shown: str, at: int | None = None) -> Source:
        """``source`` refused, located at line ``at``, else at the first source line holding ``shown``."""
        held = (
            lines[at - 1]
            if at is not None and at <= len(lines)
            else next((line for line in lines if shown and shown in line.text), None)
        )
        error = DirectiveError(
            reason,
            f"{detail} (built page {built})",
            quote=(held.text if held else shown)[:200],
            source_id=sid,
            path=path,
            line=held.number if held else None,
            column=held.text.find(shown) + 1 if held else None,
        )
        return source._replace(claims=(), refusal=error)

    if reading.region is None:
        return refuse(
            "site_disagrees", f"the built page has no main content region the gate knows ({reading.region_problem})", ""
        )
    client_only = _CLIENT_ONLY.search(text) if site.generator == "vitepress" else None
    if client_only is not None:
        return refuse(
            "ambiguous_markup",
            "VitePress renders <ClientOnly> content in the browser alone, after the page loads: the built "
            "page does not hold it, so the gate cannot see what it shows",
            "",
            next(line.number for line in reversed(lines) if line.start <= client_only.start()),
        )
    if reading.elsewhere:
        first = reading.elsewhere[0]
        where = ELSEWHERE_PLACES[first.place]
        return refuse(
            "misplaced_directive", f"the built page shows directive-shaped text {where}: {first.text!r}", first.text
        )
    parsed: list[tuple[str, tuple[str, str, str]]] = []
    for shown in reading.lines:
        held = next((line for line in lines if shown in line.text), None)
        try:
            parsed.append((shown, grammar.parse(shown, source_id=sid, path=path, line=held.number if held else None)))
        except DirectiveError as error:
            return source._replace(
                claims=(),
                refusal=DirectiveError(
                    error.reason,
                    f"{error.detail} (built page {built})",
                    quote=error.quote,
                    source_id=sid,
                    path=path,
                    line=error.line,
                    column=error.column if error.line is not None else None,
                ),
            )
    shown_count = Counter(reading.lines)
    if alone:
        source = source._replace(near_misses=())  # the Markdown reading's, of a page that is not Markdown
    elif refusal is None:
        counted = Counter(claim.quote for claim in source.claims)
        for claim in source.claims:
            times = shown_count[claim.quote]
            if times != counted[claim.quote]:
                return refuse(
                    "site_disagrees",
                    "a directive here, but the built page does not show it as a line "
                    "of its own in a top-level paragraph"
                    if times == 0
                    else f"the built page shows this directive {times} times as a line of its own in a "
                    f"top-level paragraph, and the page counts it {counted[claim.quote]} times",
                    claim.quote,
                    claim.line,
                )
        for shown in reading.lines:
            if shown not in counted:
                return refuse(
                    "site_disagrees",
                    f"the built page shows {shown!r} as a directive, but no counted "
                    "line of the page holds it (an include, a macro, or a line the Markdown reading "
                    "places elsewhere)",
                    shown,
                )
        return source
    claims: list[Claim] = []
    declared: dict[tuple[str, str], int] = {}
    for shown, times in shown_count.items():
        holding = [line for line in lines if line.text.rstrip(" \t") == shown]
        if len(holding) != times:
            return refuse(
                "site_disagrees",
                f"the built page shows {shown!r} {times} time(s) as a directive, "
                f"and {len(holding)} unindented source line(s) hold exactly that text: which counts "
                "is not known",
                shown,
            )
        operation, key, value = dict(parsed)[shown]
        for line in holding:
            earlier = declared.setdefault((operation, key), line.number)
            if earlier != line.number:
                return source._replace(
                    claims=(),
                    refusal=DirectiveError(
                        "duplicate_directive",
                        f"{operation} {key} is already declared on line {earlier}",
                        quote=shown[:200],
                        source_id=sid,
                        path=path,
                        line=line.number,
                        column=1,
                    ),
                )
            claims.append(
                Claim(
                    operation,
                    key,
                    value,
                    line.number,
                    line.start,
                    line.start + len(shown),
                    line.byte_start,
                    line.byte_start + len(shown.encode("utf-8")),
                    shown,
                )
            )
    claims.sort(key=lambda claim: claim.line)
    return source._replace(claims=tuple(claims), refusal=None)


def _unjoined(shown: tuple[str, ...], lines: list[_Line], grammar: Grammar) -> tuple[str, ...]:
    """VitePress' shown lines with the source's soft line breaks put back: Vue's template compiler writes
    a paragraph's line breaks as spaces, so a shown line that is exactly one run of two or more
    consecutive source lines (each without the spaces around it) joined by single spaces is those lines,
    the ones holding directive-shaped text kept. A line found as no run or as several, longer than
    :data:`_MAX_JOINED` or with more than :data:`_MAX_STARTS` candidate first lines is left as shown (a
    single line, which the grammar then refuses). Linear in the page: each shown line's work is bounded
    by its own length times these limits."""
    starts: dict[str, list[int]] = {}
    for index, line in enumerate(lines):
        piece = line.text.strip(" \t")
        if piece:
            starts.setdefault(piece, []).append(index)
    result: list[str] = []
    for text in shown:
        runs: list[list[str]] = []
        candidates = [
            index
            for end in range(len(text))
            if text[end] == " " and len(text) <= _MAX_JOINED
            for index in starts.get(text[:end], ())
        ]
        for start in candidates[:_MAX_STARTS] if len(candidates) <= _MAX_STARTS else ():
            first = lines[start].text.strip(" \t")
            run, length = [first], len(first)
            for later in lines[start + 1 :]:
                piece = later.text.strip(" \t")
                if length >= len(text) or not piece or not text.startswith(" " + piece, length):
                    break
                run.append(piece)
                length += 1 + len(piece)
            if length == len(text) and len(run) > 1:
                runs.append(run)
                if len(runs) > 1:
                    break
        if len(runs) == 1:
            result += [piece for piece in runs[0] if shaped(piece, grammar)]
        else:
            result.append(text)
    return tuple(result)


class _Line(NamedTuple):
    number: int
    start: int  # code points into the decoded text (BOM excluded)
    byte_start: int  # bytes into the raw source (BOM included)
    text: str  # without its line ending


def _source_lines(text: str, bom: int) -> list[_Line]:
    """The page's CommonMark lines (``\\n``, ``\\r\\n`` or a lone ``\\r`` ends one), with their starts."""
    lines: list[_Line] = []
    start, byte = 0, bom
    for number, match in enumerate(_LINE.finditer(text), 1):
        whole = match.group()
        body = whole.rstrip("\r\n")
        lines.append(_Line(number, start, byte, body))
        start += len(whole)
        byte += len(whole.encode("utf-8", "surrogatepass"))
        if match.end() == len(text):
            break
    return lines

"""Where Docusaurus, VitePress and Hugo write a source page's built page, from their configuration read
statically (no I/O but the configuration's own text and, for Docusaurus, ``versions.json`` and the
``versioned_docs`` folder's names; for ``--site``, :mod:`~_conflict_gate.site.build`).

:func:`find_configs` names the configurations a folder holds; :func:`read_layout` reads one into a
:class:`Layout` (the built folder, the pages' folder, the naming settings); :func:`page_name` names a
source's built page, relative to the built folder (:func:`version_page` first finds a Docusaurus
source's docs version). The sources of each rule:

* **Docusaurus 3** (``@docusaurus/plugin-content-docs``: ``docs.ts``, ``slug.ts``,
  ``numberPrefix.ts``; ``@docusaurus/core``'s ``ssgUtils.ts``): ``docusaurus.config.{js,ts,mjs,cjs}``;
  pages from the classic preset's ``docs.path`` (default ``docs``), routed under
  ``docs.routeBasePath`` (default ``docs``), built in ``build/``. A page's slug is its front matter's
  ``slug`` (absolute, or relative to its folder), else its folder (number prefixes such as ``01-``
  stripped from each part) for a category index (``index``, ``README``, or a file named as its
  folder, any case), else its folder and its id (front matter ``id``, else its file name without its
  number prefix). The built file is ``route/index.html``, or ``route.html`` with ``trailingSlash:
  false``. Files and folders starting with ``_`` are partials, built into no page.
  **Versions** (``versions/files.ts``, ``version.ts``, ``validation.ts``): ``versions.json`` beside
  the configuration (``<id>_versions.json`` for a docs ``id``) lists version names, newest first (a
  JSON array of strings, each without a slash, a backslash, ``<>:"|?*`` or a control character, at most 32
  UTF-16 units, not ``.`` or ``..``); version ``X``'s pages are in ``versioned_docs/version-X/``, the
  current version's (``current``, first unless versions.json places it) in ``docs.path``. Options:
  ``includeCurrentVersion`` (default true), ``disableVersioning`` (versions.json's names dropped),
  ``onlyIncludeVersions`` (the versions built), ``lastVersion`` (default the first built name that is
  not ``current``, else ``current``). A version's route is routeBasePath and its path part:
  ``versions.<name>.path`` when set, else ``""`` for the last version, ``next`` for the current one,
  its name for the others. Slugs and ids resolve within a version's folder as above. A version not
  built, or a ``versioned_docs/version-X`` that versions.json does not list, names no page ("not
  built: ..."). A value that is not a literal, or one ``docusaurus build`` refuses (an unknown
  version, an empty ``onlyIncludeVersions``...), leaves the configuration unread; so do two built
  versions at one route.
  **Translations** (``@docusaurus/core``'s ``server/i18n.ts``; the docs plugin's ``versions/files.ts``,
  ``docs.ts``): see :func:`_docusaurus_locales` and :func:`_translation_page`.
* **VitePress 1** (``vitepress/src/node/build``): ``.vitepress/config.{js,ts,mjs,mts,cjs,cts}``
  beside the pages' root; pages from ``srcDir`` (default the root), built in ``outDir`` (default
  ``.vitepress/dist``); ``a/b.md`` is ``a/b.html`` whatever ``cleanUrls`` says (it changes links,
  not files). ``rewrites`` and dynamic routes (``[name].md``) are not followed.
* **Hugo** (``hugo.{toml,yaml,json}``, or ``config.*`` beside a ``content`` folder): pages from
  ``contentDir`` (default ``content``), built in ``publishDir`` (default ``public``), paths lower-cased
  (unless ``disablePathToLower``); ``_index.md`` is its section's page and ``index.md`` its bundle's;
  front matter ``url`` names the page, ``slug`` its last part; ``a/b.md`` is ``a/b/index.html``, or
  ``a/b.html`` with ``uglyURLs``. ``permalinks``, ``languages``, module mounts and a ``config/``
  folder are not followed.

**What is not read** (an expression, a variable, a spread, a second docs plugin, ``rewrites``,
``permalinks``...) is not guessed: :attr:`Layout.unread` says what, and every page of the site then
needs its manifest entry's ``"built"`` (:func:`page_name` says so in its reason). A page's front
matter that cannot be read, or a name the generator would encode, does the same for that page.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from pathlib import Path
from typing import Final, NamedTuple

from .static import (
    UNREAD,
    StaticError,
    front_matter,
    js_object,
    js_string,
    js_strings,
    js_tokens,
    key_index,
    read_flag,
    scalars,
)

__all__ = [
    "DOCUSAURUS_CONFIGS",
    "HUGO_CONFIGS",
    "VITEPRESS_CONFIGS",
    "DocsLocale",
    "DocsVersion",
    "Layout",
    "find_configs",
    "page_name",
    "read_layout",
    "version_page",
]

DOCUSAURUS_CONFIGS: Final = tuple(f"docusaurus.config.{ext}" for ext in ("js", "ts", "mjs", "cjs", "mts", "cts"))
VITEPRESS_CONFIGS: Final = tuple(f".vitepress/config.{ext}" for ext in ("js", "ts", "mjs", "mts", "cjs", "cts"))
HUGO_CONFIGS: Final = ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json")
_HUGO_OLD: Final = ("config.toml", "config.yaml", "config.yml", "config.json")
_DOCUSAURUS_SUFFIXES: Final = (".md", ".mdx")
_VITEPRESS_SUFFIXES: Final = (".md",)
_HUGO_SUFFIXES: Final = (".md", ".markdown", ".mdown")
_PRESETS: Final = frozenset({"classic", "@docusaurus/preset-classic"})
_IGNORED_PREFIX: Final = re.compile(r"\d+[-_.]\d+")
_NUMBER_PREFIX: Final = re.compile(r"\d+\s*[-_.]+\s*(?P<rest>[^-_.\s].*)", re.DOTALL)
#: Characters a built page's name may hold as the gate names it (others a generator may encode).
_PLAIN: Final = re.compile(r"[\w./~-]*")
_MAX_HEAD: Final = 1 << 16


_CURRENT: Final = "current"
#: A version name Docusaurus refuses (``versions/validation.ts``): a slash or backslash, a character a
#: file name may not hold, ``.`` or ``..``.
_BAD_VERSION: Final = re.compile(r'[/\\<>:"|?*\x00-\x1f]|\A\.\.?\Z')


class DocsVersion(NamedTuple):
    """One version of a Docusaurus site's docs: ``name`` (``current`` for ``docs.path``), ``pages`` (its
    folder, absolute), ``route_base`` (the route its pages are under: routeBasePath and the version's
    path part), ``not_built`` (why the build makes no page of it, ``""`` when it does)."""

    name: str
    pages: str
    route_base: str
    not_built: str = ""


class DocsLocale(NamedTuple):
    """One locale of a Docusaurus site (``i18n``): ``name``; ``folder`` (its localization folder,
    absolute: ``i18n.path``/``localeConfigs.<name>.path``); ``prefix`` (where its pages are built in
    the built folder: ``""`` for the default locale, else its name); ``translate`` (whether its
    translations are read: ``localeConfigs.<name>.translate``, else whether ``folder`` exists);
    ``not_built`` (why the gate names no page of it, ``""`` when it does)."""

    name: str
    folder: str
    prefix: str
    translate: bool
    not_built: str = ""


class Layout(NamedTuple):
    """A site's naming settings: ``generator``; ``config`` (the file read); ``built`` (its default built
    folder); ``pages`` (the folder its pages come from); ``directory_urls`` (``a/b`` is
    ``a/b/index.html``, else ``a/b.html``); ``route_base`` (Docusaurus' docs routeBasePath);
    ``strip_prefixes`` (Docusaurus' number prefixes); ``lower`` (Hugo's lower-cased paths); ``unread``:
    why the configuration's naming is not known (then every page needs ``"built"``); ``versions``
    (Docusaurus' docs versions, :class:`DocsVersion`). Paths absolute."""

    generator: str
    config: str
    built: str
    pages: str
    directory_urls: bool = True
    route_base: str = ""
    strip_prefixes: bool = True
    lower: bool = False
    unread: str = ""
    #: Docusaurus: every version's folder and route (the current one's are ``pages`` and ``route_base``).
    versions: tuple[DocsVersion, ...] = ()
    #: Docusaurus: its locales (the default one first), the docs plugin's localized folder name, and why
    #: the ``i18n`` option is not read (then no translation is located).
    locales: tuple[DocsLocale, ...] = ()
    plugin_folder: str = "docusaurus-plugin-content-docs"
    locales_unread: str = ""


def find_configs(folder: Path) -> list[tuple[str, Path]]:
    """The Docusaurus, VitePress and Hugo configurations ``folder`` holds: ``(generator, file)``, one per
    generator (the first name found)."""
    found: list[tuple[str, Path]] = []
    for generator, names in (
        ("docusaurus", DOCUSAURUS_CONFIGS),
        ("vitepress", VITEPRESS_CONFIGS),
        ("hugo", HUGO_CONFIGS),
    ):
        path = next((folder / name for name in names if (folder / name).is_file()), None)
        if path is None and generator == "hugo" and (folder / "content").is_dir():
            path = next((folder / name for name in _HUGO_OLD if (folder / name).is_file()), None)
        if path is not None:
            found.append((generator, path))
    return found


def _text(path: Path) -> str:
    with open(path, "rb") as handle:
        return handle.read(1 << 20).decode("utf-8")


def read_layout(generator: str, config: Path) -> Layout:
    """``config`` (a file of :func:`find_configs`) read statically into a :class:`Layout`. Raises
    ``OSError`` or ``UnicodeDecodeError`` when the file cannot be read; what it cannot follow is
    :attr:`Layout.unread`, not an error."""
    text = _text(config)
    home = config.parent.parent if generator == "vitepress" else config.parent
    if generator == "docusaurus":
        return _docusaurus(str(config), str(home), text)
    if generator == "vitepress":
        return _vitepress(str(config), str(home), text)
    return _hugo(str(config), str(home), text)


def _docusaurus(config: str, home: str, text: str) -> Layout:
    layout = Layout("docusaurus", config, os.path.join(home, "build"), os.path.join(home, "docs"), route_base="docs")

    def unread(why: str) -> Layout:
        return layout._replace(unread=f"{config}: {why}")

    try:
        tokens = js_tokens(text)
    except StaticError as error:
        return unread(str(error))
    strings = [token[1:-1] for token in tokens if token[:1] in "'\"`"]
    if "@docusaurus/plugin-content-docs" in strings:
        return unread("a docs plugin is configured by name (a second docs instance, or options the gate does not read)")
    presets = [at for at, token in enumerate(tokens) if token[:1] in "'\"" and token[1:-1] in _PRESETS]
    if len(presets) != 1:
        return unread("the classic preset is not named once as a string (the gate reads its docs options)")
    at = presets[0] + 1
    if tokens[at : at + 1] == [")"]:  # require.resolve('@docusaurus/preset-classic')
        at += 1
    docs: dict[str, str] = {}
    index: int | None = None  # of the docs options' "{"
    if tokens[at : at + 2] == [",", "{"]:
        options = js_object(tokens, at + 1)
        if options is None:
            return unread("the classic preset's options are not an object literal the gate reads")
        value = options[0].get("docs")
        if value == "false":
            return unread("the classic preset's docs are off")
        if value == UNREAD:
            index = key_index(tokens, at + 1, "docs")
            read = js_object(tokens, index) if index is not None else None
            if read is None:
                return unread("the classic preset's docs options are not an object literal the gate reads")
            docs = read[0]
        elif value is not None:
            return unread(f"the classic preset's docs option is {value!r}")
        for key in ("path", "routeBasePath", "numberPrefixParser", "id"):
            if docs.get(key) == UNREAD or (key != "numberPrefixParser" and docs.get(key) in ("true", "false", "null")):
                return unread(f"docs.{key} is not a plain string the gate reads")
        if docs.get("numberPrefixParser") not in (None, "false"):
            return unread("docs.numberPrefixParser is set")
        layout = layout._replace(
            pages=os.path.normpath(os.path.join(home, docs.get("path", "docs"))),
            route_base=docs.get("routeBasePath", "docs"),
            strip_prefixes=docs.get("numberPrefixParser") != "false",
        )
    elif tokens[at : at + 1] != ["]"]:
        return unread("the classic preset's options are not an object literal the gate reads")
    versions = _docusaurus_versions(home, layout, tokens, docs, index)
    if isinstance(versions, str):
        return unread(versions)
    current = next(version for version in versions if version.name == _CURRENT)
    layout = layout._replace(route_base=current.route_base, versions=versions)
    plugin = docs.get("id", "default")
    locales = _docusaurus_locales(home, tokens)
    layout = layout._replace(
        plugin_folder="docusaurus-plugin-content-docs" + ("" if plugin == "default" else f"-{plugin}"),
        locales=() if isinstance(locales, str) else locales,
        locales_unread=locales if isinstance(locales, str) else "",
    )
    slashes = [at for at, token in enumerate(tokens) if token == "trailingSlash" and tokens[at + 1 : at + 2] == [":"]]
    if len(slashes) > 1:
        return unread("trailingSlash is set more than once")
    if slashes:
        value = tokens[slashes[0] + 2] if slashes[0] + 2 < len(tokens) else ""
        if value not in ("true", "false", "undefined") or tokens[slashes[0] + 3 : slashes[0] + 4] not in ([","], ["}"]):
            return unread("trailingSlash is not true, false or undefined")
        layout = layout._replace(directory_urls=value != "false")
    return layout


def _docusaurus_locales(home: str, tokens: list[str]) -> tuple[DocsLocale, ...] | str:
    """The locales of the site at ``home`` as ``@docusaurus/core`` 3 reads its ``i18n`` option
    (``server/i18n.ts``, ``server/configValidation.ts``, ``server/site.ts``): ``defaultLocale`` and
    ``locales`` (default ``en``), the localization folders under ``path`` (default ``i18n``), each
    locale's ``path`` (default its name) and ``translate`` (default: its folder exists), every locale
    built, the default one at the built folder's top and the others in a folder of their name; or why
    the option is not read (a value that is not a literal)."""
    found = [at for at, token in enumerate(tokens) if token == "i18n" and tokens[at + 1 : at + 3] == [":", "{"]]
    if len(found) > 1:
        return "i18n is set more than once"
    default, names, root, configs = "en", ["en"], "i18n", {}
    if found:
        at = found[0] + 2
        read = js_object(tokens, at)
        if read is None or "defaultLocale" not in read[0] or "locales" not in read[0]:
            return "i18n is not an object literal with defaultLocale and locales the gate reads"
        default_read = js_string(tokens, key_index(tokens, at, "defaultLocale"))
        names_read = js_strings(tokens, key_index(tokens, at, "locales"))
        root_read = js_string(tokens, key_index(tokens, at, "path")) if "path" in read[0] else "i18n"
        if default_read is None or not names_read or root_read is None:
            return "i18n.defaultLocale, i18n.locales or i18n.path is not a plain string (or array of them)"
        default, names, root = default_read, names_read, root_read
        if "localeConfigs" in read[0]:
            index = key_index(tokens, at, "localeConfigs")
            outer = js_object(tokens, index) if index is not None else None
            if outer is None or not set(outer[0]) <= set(names):
                return "i18n.localeConfigs is not an object literal of the locales the gate reads"
            for name in outer[0]:
                inner_at = key_index(tokens, index or 0, name)
                inner = js_object(tokens, inner_at) if inner_at is not None else None
                if inner is None:
                    return f"i18n.localeConfigs.{name} is not an object literal the gate reads"
                configs[name] = (inner[0], inner_at)
    locales: list[DocsLocale] = []
    for name in sorted(dict.fromkeys(names), key=lambda locale: locale != default):
        values, inner_at = configs.get(name, ({}, None))
        path = js_string(tokens, key_index(tokens, inner_at, "path")) if "path" in values and inner_at else name
        translate = read_flag(values, "translate", True)
        if path is None or translate is None:
            return f"i18n.localeConfigs.{name}.path or .translate is not a plain value"
        folder = os.path.normpath(os.path.join(home, root, path))
        not_built = (
            f"not built where the gate looks: i18n.localeConfigs.{name} sets its url or baseUrl"
            if "url" in values or "baseUrl" in values
            else ""
        )
        translate = os.path.isdir(folder) if "translate" not in values else translate
        locales.append(DocsLocale(name, folder, "" if name == default else name, translate, not_built))
    return tuple(locales)


def _read_versions(path: str) -> list[str] | str:
    """The version names of the ``versions.json`` at ``path``, newest first, or why they are not read."""
    try:
        with open(path, "rb") as handle:
            decoded = json.loads(handle.read(1 << 20).decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return f"{path} is not read ({error})"
    if not isinstance(decoded, list) or not all(isinstance(name, str) for name in decoded):
        return f"{path} is not a JSON array of strings (version names): docusaurus build refuses it"
    for name in decoded:
        if not name.strip() or len(name.encode("utf-16-le")) > 64 or _BAD_VERSION.search(name):
            return f"{path} names a version Docusaurus refuses ({name!r})"
    if len(set(decoded)) != len(decoded):
        return f"{path} names a version twice"
    return decoded


def _docusaurus_versions(
    home: str, layout: Layout, tokens: list[str], docs: dict[str, str], at: int | None
) -> tuple[DocsVersion, ...] | str:
    """Every docs version of the site at ``home`` (``docs`` its preset's docs options, ``at`` the index of
    their ``{``), as ``@docusaurus/plugin-content-docs`` 3 reads them (``versions/files.ts``,
    ``versions/version.ts``, ``versions/validation.ts``); or why they are not read (an option that is
    not a literal, or a configuration ``docusaurus build`` refuses)."""
    plugin = docs.get("id", "default")
    prefix = "" if plugin == "default" else f"{plugin}_"
    include_current = read_flag(docs, "includeCurrentVersion", True)
    disabled = read_flag(docs, "disableVersioning", False)
    if include_current is None or disabled is None:
        return "docs.includeCurrentVersion or docs.disableVersioning is not true or false"
    listed: list[str] | None = None
    file = os.path.join(home, f"{prefix}versions.json")
    if os.path.exists(file):
        read = _read_versions(file)
        if isinstance(read, str):
            return read
        listed = read
    elif disabled:
        return f"docs.disableVersioning is true without a {prefix}versions.json: docusaurus build refuses it"
    names = [] if disabled or listed is None else list(listed)
    if include_current and _CURRENT not in names:
        names.insert(0, _CURRENT)
    if not names:
        return "no docs version is built (includeCurrentVersion: false, and no versions): docusaurus build refuses it"
    last: str | None = None
    if "lastVersion" in docs:
        last = js_string(tokens, key_index(tokens, at, "lastVersion")) if at is not None else None
        if last is None:
            return "docs.lastVersion is not a plain string the gate reads"
        if last not in names:
            return f"docs.lastVersion {last!r} is not a version ({', '.join(names)}): docusaurus build refuses it"
    built = names
    if "onlyIncludeVersions" in docs:
        only = js_strings(tokens, key_index(tokens, at, "onlyIncludeVersions")) if at is not None else None
        if only is None:
            return "docs.onlyIncludeVersions is not an array of plain strings the gate reads"
        if not only or not set(only) <= set(names) or (last is not None and last not in only):
            return (
                "docs.onlyIncludeVersions is empty, names an unknown version or leaves lastVersion out: "
                "docusaurus build refuses it"
            )
        built = [name for name in names if name in only]
    paths = _version_paths(tokens, at) if "versions" in docs else {}
    if isinstance(paths, str):
        return paths
    if not set(paths) <= set(names):
        unknown = ", ".join(sorted(set(paths) - set(names)))
        return f"docs.versions names an unknown version ({unknown}): docusaurus build refuses it"
    if last is None:
        last = next((name for name in built if name != _CURRENT), _CURRENT)
    versions: list[DocsVersion] = []
    for name in dict.fromkeys([_CURRENT, *(listed or [])]):
        if name in built:
            why = ""
        elif name not in names:
            why = "disableVersioning is true" if name != _CURRENT else "includeCurrentVersion is false"
        else:
            why = "onlyIncludeVersions leaves it out"
        default = "" if name == last else "next" if name == _CURRENT else name
        path = paths.get(name)
        part = default if path is None else path
        pages = layout.pages if name == _CURRENT else os.path.join(home, f"{prefix}versioned_docs", f"version-{name}")
        shown = "the current version (docs.path)" if name == _CURRENT else f"version {name!r}"
        versions.append(
            DocsVersion(name, pages, f"{layout.route_base}/{part}", f"not built: {shown}: {why}" if why else "")
        )
    routes = [posixpath.normpath("/" + version.route_base) for version in versions if not version.not_built]
    if len(set(routes)) != len(routes):
        return "two docs versions are routed at one path: which one's page the build keeps is not known"
    folder = os.path.join(home, f"{prefix}versioned_docs")
    try:
        found = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    except OSError:
        found = []
    for entry in found:
        name = entry.removeprefix("version-")
        if entry.startswith("version-") and name not in (listed or []):
            why = f"not built: version {name!r} is not listed in {prefix}versions.json"
            versions.append(DocsVersion(name, os.path.join(folder, entry), "", why))
    return tuple(versions)


def _version_paths(tokens: list[str], at: int | None) -> dict[str, str | None] | str:
    """The ``path`` of each version ``docs.versions`` names (``{name: {path: '...'}}``; ``None`` for a
    version without one), or why the option is not read."""
    start = key_index(tokens, at, "versions") if at is not None else None
    read = js_object(tokens, start) if start is not None else None
    if start is None or read is None:
        return "docs.versions is not an object literal the gate reads"
    depth = 0
    for index in range(start, read[1]):
        token = tokens[index]
        depth += 1 if token in "{[(" else -1 if token in "}])" else 0
        if depth == 1 and tokens[index - 1] in ("{", ",") and token[:1].isdigit():
            return "docs.versions names a version by a number (JavaScript may rename it): write it as a string"
    paths: dict[str, str | None] = {}
    for name, value in read[0].items():
        inner = key_index(tokens, start, name)
        options = js_object(tokens, inner) if value == UNREAD and inner is not None else None
        if options is None or inner is None:
            return f"docs.versions[{name!r}] is not an object literal the gate reads"
        paths[name] = None
        if "path" in options[0]:
            paths[name] = js_string(tokens, key_index(tokens, inner, "path"))
            if paths[name] is None:
                return f"docs.versions[{name!r}].path is not a plain string the gate reads"
    return paths


def _vitepress(config: str, home: str, text: str) -> Layout:
    layout = Layout("vitepress", config, os.path.join(home, ".vitepress", "dist"), home)
    try:
        tokens = js_tokens(text)
    except StaticError as error:
        return layout._replace(unread=f"{config}: {error}")
    values: dict[str, str] = {}
    for at, token in enumerate(tokens):
        if (
            token in ("srcDir", "outDir", "rewrites")
            and tokens[at + 1 : at + 2] == [":"]
            and at > 0
            and tokens[at - 1] in ("{", ",")
        ):
            if token in values:
                return layout._replace(unread=f"{config}: {token} is set more than once")
            value = tokens[at + 2] if at + 2 < len(tokens) else ""
            plain = value[:1] in "'\"" and "\\" not in value and tokens[at + 3 : at + 4] in ([","], ["}"])
            values[token] = value[1:-1] if plain else UNREAD
    if "rewrites" in values:
        return layout._replace(unread=f'{config}: rewrites move pages (name each page\'s built page with "built")')
    for key in ("srcDir", "outDir"):
        if values.get(key) == UNREAD:
            return layout._replace(unread=f"{config}: {key} is not a plain string the gate reads")
    return layout._replace(
        pages=os.path.normpath(os.path.join(home, values.get("srcDir", "."))),
        built=os.path.normpath(os.path.join(home, values.get("outDir", ".vitepress/dist"))),
    )


def _hugo(config: str, home: str, text: str) -> Layout:
    layout = Layout("hugo", config, os.path.join(home, "public"), os.path.join(home, "content"), lower=True)

    def unread(why: str) -> Layout:
        return layout._replace(unread=f"{config}: {why}")

    if os.path.isdir(os.path.join(home, "config")):
        return unread("a config folder beside it is not read")
    if config.endswith(".json"):
        try:
            decoded = json.loads(text)
        except ValueError as error:
            return unread(f"not JSON ({error})")
        if not isinstance(decoded, dict):
            return unread("not a JSON object")
        values = {
            str(key).lower(): (
                value if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else UNREAD
            )
            for key, value in decoded.items()
        }
        blocks = [key for key, value in values.items() if value == UNREAD]
    else:
        values, blocks = scalars(text, "toml" if config.endswith(".toml") else "yaml")
    for block in ("permalinks", "languages", "module", "uglyurls"):
        if block in blocks:
            return unread(f"{block} is not followed")
    for key in ("contentdir", "publishdir"):
        if values.get(key) == UNREAD:
            return unread(f"{key} is not a plain value the gate reads")
    ugly = read_flag(values, "uglyurls", False)
    keep_case = read_flag(values, "disablepathtolower", False)
    if ugly is None or keep_case is None:
        return unread("uglyURLs or disablePathToLower is not true or false")
    return layout._replace(
        pages=os.path.normpath(os.path.join(home, values.get("contentdir", "content"))),
        built=os.path.normpath(os.path.join(home, values.get("publishdir", "public"))),
        directory_urls=not ugly,
        lower=not keep_case,
    )


def _head(source: str, json_object: bool) -> dict[str, str] | None:
    """The front matter of the page at ``source`` (its first 64 KiB), ``None`` when it cannot be read."""
    try:
        with open(source, "rb") as handle:
            return front_matter(handle.read(_MAX_HEAD).decode("utf-8", "replace"), json_object=json_object)
    except OSError:
        return None


def _strip_prefix(name: str) -> str:
    if _IGNORED_PREFIX.match(name):
        return name
    match = _NUMBER_PREFIX.fullmatch(name)
    return match.group("rest") if match else name


_OVERRIDE: Final = 'name its built page with "built" in its manifest entry'


def page_name(layout: Layout, source: str, relative: str) -> tuple[str | None, str]:
    """The built page of the source at ``source`` (absolute), whose path relative to ``layout.pages`` is
    ``relative`` (POSIX), relative to the built folder; or ``None`` and why the gate names none."""
    if layout.unread:
        return None, f"the gate cannot read the site's configuration statically ({layout.unread}); {_OVERRIDE}"
    parent, filename = posixpath.split(relative)
    stem, extension = posixpath.splitext(filename)
    if layout.generator == "vitepress":
        if extension.lower() not in _VITEPRESS_SUFFIXES:
            return None, "VitePress builds pages from .md files only"
        if "[" in relative or any(part in ("node_modules", ".vitepress") for part in relative.split("/")):
            return None, f"a dynamic route or a file VitePress does not build as a page; {_OVERRIDE}"
        return _checked(posixpath.join(parent, stem + ".html"))
    matter = _head(source, layout.generator == "hugo")
    if matter is None:
        return None, f"its front matter is not read; {_OVERRIDE}"
    if layout.generator == "docusaurus":
        return _docusaurus_name(layout, relative, parent, stem, extension, matter)
    return _hugo_name(layout, relative, parent, stem, extension, matter)


def version_page(layout: Layout, source: str) -> tuple[str | None, str] | None:
    """For a Docusaurus site's source at ``source`` (absolute, symbolic links resolved): its built page
    as :func:`page_name` names it within the docs version whose folder holds it (the innermost), or
    ``None`` and why that version is not built; ``None`` when no version's folder holds it."""
    translated = _translation_page(layout, source)
    if translated is not None:
        return translated
    best: tuple[str, DocsVersion] | None = None
    for version in layout.versions:
        folder = os.path.realpath(version.pages).rstrip(os.sep) + os.sep
        if source.startswith(folder) and (best is None or len(folder) > len(best[0])):
            best = folder, version
    if best is None:
        return None
    folder, version = best
    if version.not_built:
        return None, version.not_built
    relative = Path(os.path.relpath(source, folder)).as_posix()
    named = page_name(layout._replace(pages=version.pages, route_base=version.route_base), source, relative)
    if not layout.locales:  # the i18n option not read: the default locale's page, as before
        return named
    for locale in layout.locales:  # the default locale first: the first that shows this file, not a translation
        copy = os.path.join(locale.folder, layout.plugin_folder, _localized(version), relative)
        if not (locale.translate and os.path.isfile(copy)):
            if locale.not_built:
                return None, locale.not_built
            return named if named[0] is None or not locale.prefix else _checked(f"{locale.prefix}/{named[0]}")
    return None, (
        f"not built from this file: every locale shows a translation in its place (the default "
        f"{layout.locales[0].name!r} locale's: {os.path.join(layout.locales[0].folder, layout.plugin_folder)})"
    )


def _localized(version: DocsVersion) -> str:
    """The folder of ``version``'s translations in a locale's docs plugin folder."""
    return _CURRENT if version.name == _CURRENT else f"version-{version.name}"


def _translation_page(layout: Layout, source: str) -> tuple[str | None, str] | None:
    """For a translated page (``<i18n>/<locale>/docusaurus-plugin-content-docs/<current|version-X>/...``,
    ``@docusaurus/plugin-content-docs``' ``versions/files.ts`` and ``docs.ts``: the docs folder names the
    pages, each read from its translation when there is one): its built page under its locale's
    prefix, named by its own front matter; or ``None`` and why it builds none; ``None`` when it is no
    translation the site's locales hold."""
    for locale in layout.locales:
        plugin = os.path.realpath(os.path.join(locale.folder, layout.plugin_folder)).rstrip(os.sep) + os.sep
        if not source.startswith(plugin):
            continue
        for version in layout.versions:
            folder = plugin + _localized(version) + os.sep
            if not source.startswith(folder):
                continue
            relative = Path(os.path.relpath(source, folder)).as_posix()
            if locale.not_built or version.not_built:
                return None, locale.not_built or version.not_built
            if not locale.translate:
                return None, f"not built: the {locale.name!r} locale's translations are not read (translate: false)"
            if not os.path.isfile(os.path.join(version.pages, relative)):
                return None, (
                    f"not built: Docusaurus builds a translation only of a page the version's own folder holds "
                    f"({os.path.join(version.pages, relative)} is missing)"
                )
            name, why = page_name(layout._replace(pages=folder, route_base=version.route_base), source, relative)
            if name is None or not locale.prefix:
                return name, why
            return _checked(f"{locale.prefix}/{name}")
        return None, f"not built: no docs version of the site is translated in {plugin}"
    if layout.locales_unread and source.startswith(
        os.path.realpath(os.path.join(os.path.dirname(layout.config), "i18n")) + os.sep
    ):
        return None, f"the site's i18n option is not read ({layout.locales_unread}); {_OVERRIDE}"
    return None


def _checked(name: str) -> tuple[str | None, str]:
    if not _PLAIN.fullmatch(name) or ".." in name.split("/"):
        return None, f"its built page's name may be encoded by the generator ({name!r}); {_OVERRIDE}"
    return name, ""


def _docusaurus_name(
    layout: Layout, relative: str, parent: str, stem: str, extension: str, matter: dict[str, str]
) -> tuple[str | None, str]:
    if extension.lower() not in _DOCUSAURUS_SUFFIXES:
        return None, "Docusaurus builds docs from .md and .mdx files only"
    if any(part.startswith("_") or part == "__tests__" for part in relative.split("/")):
        return None, "Docusaurus builds no page of a file or folder whose name starts with _ (a partial)"
    slug, doc_id = matter.get("slug"), matter.get("id")
    if UNREAD in (slug, doc_id):
        return None, f"its front matter's slug or id is not a plain value; {_OVERRIDE}"
    if slug is not None and (slug.startswith("/") is False and ("/" in slug.strip("/") or slug.startswith("."))):
        return None, f"its front matter's slug is relative with folders ({slug!r}); {_OVERRIDE}"
    strip = _strip_prefix if layout.strip_prefixes else (lambda name: name)
    folder = "/" if not parent else "/" + "/".join(strip(part) for part in parent.split("/")) + "/"
    if slug is not None and slug.startswith("/"):
        route = slug
    elif slug is None and stem.lower() in ("index", "readme", (parent.rsplit("/", 1)[-1].lower() if parent else "")):
        route = folder
    else:
        route = folder + (slug if slug is not None else (doc_id if doc_id is not None else strip(stem)))
    path = "/".join(part for part in f"{layout.route_base}/{route}".split("/") if part)
    if not path:
        return "index.html", ""
    return _checked(f"{path}/index.html" if layout.directory_urls else f"{path}.html")


def _hugo_name(
    layout: Layout, relative: str, parent: str, stem: str, extension: str, matter: dict[str, str]
) -> tuple[str | None, str]:
    if extension.lower() not in _HUGO_SUFFIXES:
        return None, f"the gate reads Hugo pages from {', '.join(_HUGO_SUFFIXES)} files only"
    url, slug = matter.get("url"), matter.get("slug")
    if UNREAD in (url, slug):
        return None, f"its front matter's url or slug is not a plain value; {_OVERRIDE}"
    if url is not None:
        path = url.strip("/")
        if path.endswith((".html", ".htm")):
            return _checked(path)
        return _checked(f"{path}/index.html" if path else "index.html")
    section = stem == "_index"
    if section and slug is not None:
        return None, f"a section page with a slug; {_OVERRIDE}"
    if not section and stem != "index" and os.path.isfile(os.path.join(layout.pages, parent, "index.md")):
        return None, "a file in a leaf bundle (beside its index.md) is a resource of the bundle, not a page"
    parts = parent.split("/") if parent else []
    if not section:
        if stem == "index":
            if not parts:
                return None, "a content/index.md is no page Hugo builds (the home page is _index.md)"
            parts[-1] = slug if slug is not None else parts[-1]
        else:
            parts.append(slug if slug is not None else stem)
    path = "/".join(part.replace(" ", "-") for part in parts)
    if layout.lower:
        path = path.lower()
    if not path:
        return "index.html", ""
    return _checked(f"{path}/index.html" if layout.directory_urls else f"{path}.html")

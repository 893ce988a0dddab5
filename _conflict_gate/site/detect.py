"""Which site builds a docs folder, for ``init``: its configuration file, found in the folder or a parent.

:func:`detect` looks in the docs folder and each folder above it, up to the
repository's top level (the first folder holding ``.git``; without one, up to
the highest of the manifest's folder and the working folder that holds the
docs folder), for

* ``mkdocs.yml`` or ``mkdocs.yaml``: ``mkdocs``;
* a Sphinx ``conf.py`` that loads ``myst_parser`` (the name appears in its text): ``myst``;
* ``docusaurus.config.js``, ``.ts``, ``.mjs``, ``.cjs``: ``docusaurus``.

One site found (any number of its files; the nearest is named) gives its
renderer, if the gate has one by that name; none, several sites, or a site
without a renderer gives ``portable``, said in one line. For ``mkdocs``,
:func:`mkdocs_extensions` reads the ``markdown_extensions:`` list of
``mkdocs.yml`` line by line (no YAML library: the project is standard-library
only) and ``init`` lists those outside the modelled set
(:data:`~_conflict_gate.reading.mkdocs.MKDOCS_EXTENSIONS`). It understands a block
list (``- name`` or ``- name:`` with options indented below, quoted or not)
and a one-line flow list (``[a, b]``); it does not follow ``INHERIT:``,
anchors and aliases, ``!ENV`` tags or flow lists over several lines, and says
so when it meets them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Final, NamedTuple

__all__ = ["Detected", "detect", "folders_up", "mkdocs_extensions"]

#: Largest configuration file read, in bytes (a larger one is taken as found, its text not read).
MAX_CONFIG_BYTES: Final = 1 << 20
_DOCUSAURUS: Final = tuple(f"docusaurus.config.{ext}" for ext in ("js", "ts", "mjs", "cjs"))
_EXTENSIONS_KEY: Final = re.compile(r"markdown_extensions[ \t]*:[ \t]*(?P<rest>[^#]*?)[ \t]*(?:#.*)?\Z")
_ITEM: Final = re.compile(
    r"(?P<indent>[ \t]*)-[ \t]+(?P<name>\"[^\"]*\"|'[^']*'|[^:#\s][^:#]*?)[ \t]*(?::.*)?(?:#.*)?\Z"
)


class Detected(NamedTuple):
    """What :func:`detect` found: the renderer name, one line saying why, and any lines of warning."""

    renderer: str
    why: str
    warnings: tuple[str, ...] = ()


def folders_up(docs: Path, stops: Sequence[Path]) -> list[Path]:
    """The docs folder and its parents up to the repository's top level; without one, up to the highest
    of ``stops`` that holds the docs folder (or the docs folder alone)."""
    here = Path(os.path.realpath(docs))
    chain = [here, *here.parents]
    for index, folder in enumerate(chain):
        if (folder / ".git").exists():
            return chain[: index + 1]
    ends = [chain.index(stop) for stop in (Path(os.path.realpath(stop)) for stop in stops) if stop in chain]
    return chain[: max(ends, default=0) + 1]


def _shown(folder: Path, cwd: Path | None) -> str:
    """``folder`` as a user reads it: relative to the working folder when inside it, else as it is."""
    if cwd is not None:
        base = Path(os.path.realpath(cwd))
        if folder == base:
            return "the working folder"
        if base in folder.parents:
            return str(folder.relative_to(base))
    return str(folder)


def _read(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_CONFIG_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


def detect(docs: Path, manifest_folder: Path, known: Sequence[str], cwd: Path | None = None) -> Detected:
    """The renderer of the site that builds ``docs`` (see the module docstring); without a repository the
    search ends at the highest of ``manifest_folder`` and ``cwd`` (the working folder) that holds
    ``docs``; ``known``: the renderer names the gate has. Folders are named relative to ``cwd``."""
    found: dict[str, Path] = {}
    folders = folders_up(docs, (manifest_folder, *([cwd] if cwd is not None else [])))
    for folder in folders:
        for name in ("mkdocs.yml", "mkdocs.yaml"):
            if (folder / name).is_file():
                found.setdefault("mkdocs", folder / name)
        conf = folder / "conf.py"
        if conf.is_file():
            text = _read(conf)
            if text is not None and "myst_parser" in text:
                found.setdefault("myst", conf)
        for name in _DOCUSAURUS:
            if (folder / name).is_file():
                found.setdefault("docusaurus", folder / name)
    if not found:
        where = f"in {_shown(folders[0], cwd)}" + (f" up to {_shown(folders[-1], cwd)}" if len(folders) > 1 else "")
        return Detected(
            "portable",
            "left out (portable): no mkdocs.yml, Sphinx conf.py loading myst_parser or "
            f"docusaurus.config.* {where}; name the site's with --renderer",
        )
    if len(found) > 1:
        listed = ", ".join(f"{name} ({path})" for name, path in found.items())
        return Detected(
            "portable",
            f"left out (portable): several sites' configurations found ({listed}); say which with --renderer",
        )
    ((name, path),) = found.items()
    if name not in known:
        return Detected("portable", f"left out (portable): found {path} ({name}), a site the gate has no renderer for")
    warnings: tuple[str, ...] = ()
    if name == "mkdocs":
        text = _read(path)
        if text is not None:
            warnings = _mkdocs_warnings(path, text)
    return Detected(name, f"{name!r}, as {path} says", warnings)


def _mkdocs_warnings(path: Path, text: str) -> tuple[str, ...]:
    from ..reading.mkdocs import MKDOCS_EXTENSIONS

    names, unread = mkdocs_extensions(text)
    other = [name for name in names if name not in MKDOCS_EXTENSIONS]
    lines = []
    if other:
        lines.append(
            f"{path} enables Markdown extensions the gate does not model: {', '.join(other)}; pages that "
            "use them may read differently on the site"
        )
    if unread:
        lines.append(f"{path}: not followed when reading markdown_extensions: {', '.join(unread)}")
    return tuple(lines)


def mkdocs_extensions(text: str) -> tuple[list[str], list[str]]:
    """The extension names of ``mkdocs.yml``'s top-level ``markdown_extensions:`` list, in order, and what
    the line-based reading did not follow (``INHERIT``, anchors, aliases, tags, multi-line flow lists)."""
    names: list[str] = []
    unread: list[str] = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("INHERIT:"):
            unread.append(f"INHERIT (line {number + 1}): the inherited file's extensions")
        match = _EXTENSIONS_KEY.fullmatch(line)
        if match is None:
            continue
        rest = match.group("rest")
        if rest:
            if rest.startswith("[") and rest.endswith("]"):
                names += [
                    _unquote(item.strip().partition(":")[0].strip()) for item in rest[1:-1].split(",") if item.strip()
                ]
            else:
                unread.append(f"markdown_extensions: {rest} (line {number + 1})")
            continue
        item_indent: str | None = None
        for later, item in enumerate(lines[number + 1 :], number + 2):
            stripped = item.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if not item[0].isspace() and not item.startswith("-"):
                break  # the next top-level key
            found = _ITEM.fullmatch(item)
            if found is not None and (item_indent is None or found.group("indent") == item_indent):
                item_indent = found.group("indent")
                name = _unquote(found.group("name").strip())
                if name.startswith(("&", "*", "!")):
                    unread.append(f"{name} (line {later})")
                else:
                    names.append(name)
            elif item_indent is not None and len(item) - len(item.lstrip()) > len(item_indent):
                continue  # an extension's options
            else:
                unread.append(f"{stripped[:60]} (line {later})")
    return names, unread


def _unquote(name: str) -> str:
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "\"'":
        return name[1:-1]
    return name

"""The docs tree beside a manifest: which files its ``"sources"`` take, and which it lists.

``init``, ``init --update``, ``pin --check`` and :func:`~_conflict_gate.decide.decision.audit`
all see a tree the same way:

* :func:`scan` walks the folders under the patterns' literal prefixes (once
  each, by descriptor where the platform allows, never through a symlinked
  folder, never into a ``.git`` folder, at most :data:`~_conflict_gate.base.registry.MAX_FOLDER_DEPTH`
  folders deep) and sorts what it meets into :class:`Found` pages (regular
  ``.md``/``.markdown`` files, or symlinks to one inside the folder, that the
  patterns take) and entries left out, each with why: another Markdown
  extension (``.mdx``...), a dangling symlink, a symlink leading out, a
  symlinked folder, a FIFO, socket or device, a folder named like a page, a
  page the patterns do not match.
* :func:`plan` says, page by page, what ``init --update`` does with it: it is
  listed already (by path, by a symlink's target, or as the same file), it is
  added under a source id (the path without its extension, or an ASCII id
  proposed by :func:`propose_id`), it is left out (a version the scheme does
  not take, a path a manifest cannot hold, over the size cap, one file seen
  twice) or its id collides with another.
* :func:`unlisted` is what ``pin --check`` and ``audit`` report: every page
  that is not listed (``unlisted_source``).

Walking is linear in the entries met and reads no file; pages are read only
through :class:`~_conflict_gate.corpus.source_files.SourceFiles`. A folder that cannot be
listed is an :class:`~_conflict_gate.base.errors.IngestionError` (``source_unreadable``):
pages may hide there, so nothing is decided without it.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

from ..base.errors import IngestionError
from ..base.files import DIR_FLAGS, HAS_DIR_FD, open_root
from ..base.registry import MAX_FOLDER_DEPTH, MAX_SOURCE_BYTES
from .read import SOURCE_ID, Entry, Manifest, VersionScheme, check_relative_path
from .sources import PAGE_SUFFIXES, Sources

__all__ = [
    "OTHER_PAGE_SUFFIXES",
    "Found",
    "Outcome",
    "Scan",
    "Unlisted",
    "folder_order",
    "missing",
    "plan",
    "propose_id",
    "scan",
    "unlisted",
]

#: Markdown-family extensions that are not read as pages (MDX holds JSX; the rest are rare
#: spellings a renderer may treat differently): a file that the patterns take with one is left out.
#: Pages in other text formats: never read as Markdown, so a walk names each it leaves out (issue 30 item 3:
#: a build judges them, reference/site.md), and the audit reports each the manifest's sources take.
OTHER_PAGE_SUFFIXES: Final = (
    ".mdx",
    ".mdown",
    ".mkd",
    ".mkdn",
    ".mdwn",
    ".mdtext",
    ".mdtxt",
    ".markdn",
    ".rst",
    ".adoc",
    ".asciidoc",
)
#: Folders never walked: a repository's own data holds no page.
SKIPPED_FOLDERS: Final = frozenset({".git"})
_SCANDIR_FD: Final = HAS_DIR_FD and os.scandir in os.supports_fd
_ID_RUN: Final = re.compile(r"[^A-Za-z0-9._-]+")


class Found(NamedTuple):
    """A page the patterns take: a regular file, or a symlink (``target`` set) to one inside the folder."""

    path: str  # relative to the manifest's folder, '/'-separated
    version: str  # from the include pattern that matched
    identity: tuple[int, int]  # (st_dev, st_ino) of the file (a symlink's target)
    size: int
    target: str | None = None  # a symlink's target, relative to the manifest's folder


class Scan(NamedTuple):
    """What :func:`scan` found: pages and left-out entries, each in path order (see :func:`folder_order`)."""

    pages: list[Found]
    left_out: list[tuple[str, str]]  # (path, why)


def folder_order(path: str) -> list[str]:
    """The sort key of paths, "path order": segment by segment, each by code point (so the pages
    of folder ``a`` come before ``a-b.md``, as a file tree lists them)."""
    return path.split("/")


def _page_like(name: str) -> bool:
    return name.lower().endswith(PAGE_SUFFIXES)


def _other_markdown(name: str) -> str | None:
    lowered = name.lower()
    return next((suffix for suffix in OTHER_PAGE_SUFFIXES if lowered.endswith(suffix)), None)


def _inside(root: str, path: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def scan(root: str, sources: Sources, *, by_descriptor: bool = _SCANDIR_FD) -> Scan:
    """Walk the tree under ``root`` (the manifest's real folder) for ``sources``; see the module docstring.

    Raises :class:`IngestionError` ``source_unreadable`` for a folder that
    cannot be listed or lies deeper than ``MAX_FOLDER_DEPTH``, and for a
    pattern whose literal folders pass through a symlink (never followed, so
    the pages there could not be seen). ``by_descriptor=False`` walks the way
    platforms without ``openat`` do (by path, never into a symlink).
    """
    pages: list[Found] = []
    left_out: list[tuple[str, str]] = []

    def take(path: str, why: str | None, found: Found | None = None) -> None:
        """Sort one entry: ``why`` left out (if the patterns take it), else a page ``found``."""
        status, version = sources.match(path)
        if status == "excluded":
            return
        if status == "no_match":
            if why is None:
                left_out.append((path, f"does not match {_patterns(sources)}"))
            return
        if why is not None:
            left_out.append((path, why))
        elif found is not None:
            pages.append(found._replace(version=version))

    for prefix in sources.prefixes():
        for path, kind, info in _walk(root, prefix, by_descriptor and _SCANDIR_FD):
            name = path.rpartition("/")[2]
            if kind == "folder":
                if _page_like(name) and sources.match(path)[0] == "page":
                    left_out.append((path, "a folder, not a page (its pages are looked for inside)"))
            elif kind == "folder_link":
                left_out.append((path, "a symlink to a folder: not followed (list the folder it names)"))
            elif not _page_like(name):
                other = _other_markdown(name)
                if other is not None and sources.match(path)[0] == "page":
                    left_out.append(
                        (
                            path,
                            f"a {other} file is not read as a page: pages are .md or "
                            ".markdown files, read as CommonMark and GFM",
                        )
                    )
            elif kind == "file":
                assert info is not None
                take(path, None, Found(path, "", (info.st_dev, info.st_ino), info.st_size))
            elif kind == "link":
                target, info = _link_target(root, path)
                if info is None:
                    take(path, target)  # target holds why
                else:
                    take(path, None, Found(path, "", (info.st_dev, info.st_ino), info.st_size, target))
            else:
                take(path, f"not a regular file ({kind})")
    pages.sort(key=lambda p: folder_order(p.path))
    left_out.sort(key=lambda item: folder_order(item[0]))
    return Scan(pages, left_out)


def _patterns(sources: Sources) -> str:
    return " or ".join(repr(p.text) for p in sources.include)


def _link_target(root: str, path: str) -> tuple[str, os.stat_result | None]:
    """``(target relative to root, its stat)`` for a symlink to a regular file inside ``root``, else
    ``(why it is left out, None)``. Reads no file; only names and metadata."""
    full = os.path.join(root, *path.split("/"))
    try:
        info = os.stat(full)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a symlink in a loop (it leads back to itself)", None
        if error.errno not in (errno.ENOENT, errno.ENOTDIR):
            return f"a symlink whose target cannot be read ({error.strerror or error})", None
        return "a dangling symlink (its target does not exist)", None
    real = os.path.realpath(full)
    if not _inside(root, real):
        return "a symlink leading outside the manifest's folder", None
    if not stat.S_ISREG(info.st_mode):
        return "a symlink to something that is not a regular file", None
    return os.path.relpath(real, root).replace(os.sep, "/"), info


_Kind = Literal["file", "link", "folder", "folder_link", "FIFO", "socket", "device"]


def _kind(entry: os.DirEntry[str]) -> tuple[_Kind, os.stat_result | None]:
    info = entry.stat(follow_symlinks=False)
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        try:
            return ("folder_link" if entry.is_dir(follow_symlinks=True) else "link"), None
        except OSError:
            return "link", None
    if stat.S_ISDIR(mode):
        return "folder", info
    if stat.S_ISREG(mode):
        return "file", info
    return ("FIFO" if stat.S_ISFIFO(mode) else "socket" if stat.S_ISSOCK(mode) else "device"), info


def _walk(
    root: str, prefix: tuple[str, ...], by_descriptor: bool
) -> Iterator[tuple[str, _Kind, os.stat_result | None]]:
    """Every entry below ``root/prefix``: ``(relative path, kind, lstat)``, folders before their contents.

    Folders are opened one below the other by descriptor with ``O_NOFOLLOW``
    (where the platform allows), so a folder swapped for a symlink is never
    entered; symlinked folders are reported, not followed.
    """

    def unreadable(path: str, exc: OSError) -> IngestionError:
        return IngestionError("source_unreadable", f"cannot list the folder: {exc.strerror}", path=path or ".")

    if not by_descriptor:
        yield from _walk_by_name(root, prefix, unreadable)
        return
    opened: list[int] = []
    try:
        try:
            fd = open_root(os.path.realpath(root))  # no component followed through a symlink
        except OSError as exc:
            raise unreadable("", exc) from None
        opened.append(fd)
        walked: list[str] = []
        for name in prefix:  # the literal folders before the first wildcard
            path = "/".join((*walked, name))
            try:
                child = os.open(name, DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if _is_link(name, fd):  # ELOOP, or ENOTDIR with O_DIRECTORY (Linux)
                    raise _through_link(path) from None
                if exc.errno in (errno.ENOENT, errno.ENOTDIR):
                    return
                raise unreadable(path, exc) from None
            opened.append(child)
            fd = child
            walked.append(name)
        # Depth first, one frame per open folder: at most one descriptor per level is open.
        stack: list[tuple[int, str, int, Iterator[os.DirEntry[str]]]] = []

        def enter(folder_fd: int, folder: str, depth: int) -> None:
            try:
                with os.scandir(folder_fd) as listing:
                    entries = list(listing)
            except OSError as exc:
                raise unreadable(folder, exc) from None
            stack.append((folder_fd, folder, depth, iter(entries)))

        enter(fd, "/".join(walked), len(walked))
        while stack:
            folder_fd, folder, depth, entries = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                if opened and opened[-1] == folder_fd:
                    os.close(opened.pop())
                continue
            path = f"{folder}/{entry.name}" if folder else entry.name
            try:
                kind, info = _kind(entry)
            except FileNotFoundError:
                continue  # gone meanwhile
            except OSError as exc:
                raise unreadable(path, exc) from None
            if kind == "folder" and entry.name in SKIPPED_FOLDERS:
                continue
            yield path, kind, info
            if kind != "folder":
                continue
            if depth + 1 > MAX_FOLDER_DEPTH:
                raise IngestionError(
                    "source_unreadable",
                    f"the folder is nested deeper than "
                    f"{MAX_FOLDER_DEPTH} folders below the manifest's folder; not walked",
                    path=path,
                )
            try:
                child = os.open(entry.name, DIR_FLAGS, dir_fd=folder_fd)
            except OSError as exc:
                if exc.errno == errno.ENOENT:
                    continue
                if _is_link(entry.name, folder_fd):  # swapped for a symlink meanwhile: not entered
                    yield path, "folder_link", None
                    continue
                raise unreadable(path, exc) from None
            opened.append(child)
            enter(child, path, depth + 1)
    finally:
        for fd in opened:
            os.close(fd)


def _through_link(path: str) -> IngestionError:
    """A pattern's literal folders pass through a symlink: the walk never follows one, so it
    could not tell which pages are unlisted (fail closed)."""
    return IngestionError(
        "source_unreadable",
        "a symlink to a folder on the way of a sources pattern: "
        "folders are walked without following symlinks; write the real path in the "
        "pattern",
        path=path,
    )


def _is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _walk_by_name(
    root: str, prefix: tuple[str, ...], unreadable: object
) -> Iterator[tuple[str, _Kind, os.stat_result | None]]:
    """:func:`_walk` where folders cannot be opened by descriptor: by path, never into a symlink."""
    assert callable(unreadable)
    start = "/".join(prefix)
    full = os.path.join(root, *prefix)
    if any(os.path.islink(os.path.join(root, *prefix[: i + 1])) for i in range(len(prefix))):
        raise _through_link(start)
    if not os.path.isdir(full):
        return
    stack = [(full, start, len(prefix))]
    while stack:
        folder_path, folder, depth = stack.pop()
        try:
            with os.scandir(folder_path) as listing:
                entries = list(listing)
        except OSError as exc:
            raise unreadable(folder, exc) from None
        for entry in entries:
            path = f"{folder}/{entry.name}" if folder else entry.name
            try:
                kind, info = _kind(entry)
            except FileNotFoundError:
                continue
            if kind == "folder" and entry.name in SKIPPED_FOLDERS:
                continue
            yield path, kind, info
            if kind == "folder":
                if depth + 1 > MAX_FOLDER_DEPTH:
                    raise IngestionError(
                        "source_unreadable",
                        f"the folder is nested deeper than "
                        f"{MAX_FOLDER_DEPTH} folders below the manifest's folder; not walked",
                        path=path,
                    )
                stack.append((entry.path, path, depth + 1))


# --------------------------------------------------------------------------
# source ids


def propose_id(path: str, base: Sequence[str] = ()) -> tuple[str | None, bool]:
    """The source id of a page at ``path``: ``(id, True)`` when it is the path below the folders
    ``base`` (:meth:`~_conflict_gate.manifest.sources.Sources.id_base`) without its extension; ``(an ASCII
    id, False)`` when that is not a source id; ``(None, False)`` when no id can be made.

    The ASCII id: letters without their accents (NFKD), every run of other
    characters in a segment made one ``-``, a segment left empty (a name in
    another script) made ``page-`` and 8 hex digits of its SHA-256, the start
    trimmed to a letter or digit. It is a function of the path alone, so
    ``init`` and ``init --update`` always propose the same id.
    """
    parts = path.split("/")
    if base and tuple(parts[: len(base)]) == tuple(base) and len(parts) > len(base):
        parts = parts[len(base) :]
    stem = "/".join(parts).rsplit(".", 1)[0]
    if SOURCE_ID.fullmatch(stem):
        return stem, True
    segments = []
    for segment in stem.split("/"):
        plain = unicodedata.normalize("NFKD", segment).encode("ascii", "ignore").decode("ascii")
        plain = _ID_RUN.sub("-", plain).strip("-")
        if not plain or plain in (".", ".."):
            plain = "page-" + hashlib.sha256(segment.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        segments.append(plain)
    proposed = "/".join(segments).lstrip("._-/")
    if not SOURCE_ID.fullmatch(proposed):
        return None, False
    return proposed, False


# --------------------------------------------------------------------------
# what init and init --update do with each page


@dataclass(frozen=True)
class Outcome:
    """What ``init --update`` does with one page: ``listed`` already, ``add`` it as ``source_id``
    (``renamed`` when that is not the path without its extension), ``left_out`` or ``collision``
    (``why`` says why, ``other`` names the file it collides with or duplicates)."""

    page: Found
    action: Literal["listed", "add", "left_out", "collision"]
    source_id: str | None = None
    renamed: bool = False
    why: str = ""
    other: str | None = None


def _identities(root: str, entries: Sequence[Entry], known: dict[str, tuple[int, int]]) -> dict[tuple[int, int], str]:
    """``(st_dev, st_ino) -> path`` of the listed entries' files (metadata only; a missing one is skipped)."""
    found: dict[tuple[int, int], str] = {}
    for entry in entries:
        identity = known.get(entry.path)
        if identity is None:
            try:
                info = os.stat(os.path.join(root, *entry.path.split("/")))
            except OSError:
                continue
            identity = (info.st_dev, info.st_ino)
        found.setdefault(identity, entry.path)
    return found


def plan(
    pages: Sequence[Found], scheme: VersionScheme, root: str, entries: Sequence[Entry] = (), base: Sequence[str] = ()
) -> list[Outcome]:
    """An :class:`Outcome` per page, in path order, against the manifest's ``entries`` (none for ``init``).

    Regular files are taken before symlinks, so a symlink to a listed page is
    the one left out; of two hard links, the first in path order is taken.
    A page over :data:`~_conflict_gate.base.registry.MAX_SOURCE_BYTES` is left out
    (as ``pin`` would refuse it), and so is a version the scheme does not take
    or a path a manifest cannot hold. Ids (:func:`propose_id`, below the
    folders ``base``) are compared with the entries' and
    with each other: a second page wanting a taken id is a ``collision``.
    """
    paths = {entry.path for entry in entries}
    ids = {entry.source_id: entry.path for entry in entries}
    walked = {page.path: page.identity for page in pages}
    taken: dict[tuple[int, int], str] = {}
    if entries:
        unresolved = [p for p in pages if p.path not in paths and p.target not in paths]
        if unresolved:
            taken = _identities(root, entries, walked)
    outcomes: dict[str, Outcome] = {}
    for page in sorted(pages, key=lambda p: (p.target is not None, folder_order(p.path))):
        if page.path in paths:
            outcomes[page.path] = Outcome(page, "listed")
            continue
        first = page.target if page.target is not None and page.target in paths else taken.get(page.identity)
        if first is not None:
            what = "a symlink to" if page.target is not None else "the same file as"
            outcomes[page.path] = Outcome(
                page, "left_out", why=f"{what} {first}, which is listed (one file must not count twice)", other=first
            )
            continue
        why = _unlistable(page, scheme)
        if why:
            outcomes[page.path] = Outcome(page, "left_out", why=why)
            continue
        source_id, exact = propose_id(page.path, base)
        if source_id is None:
            outcomes[page.path] = Outcome(
                page,
                "left_out",
                why="no source id can be made from its path "
                "(an id has at most 200 ASCII letters, digits, '.', '_', '-', '/')",
            )
            continue
        if source_id in ids:
            outcomes[page.path] = Outcome(
                page,
                "collision",
                source_id,
                not exact,
                other=ids[source_id],
                why=f"its source id {source_id!r} is also {ids[source_id]}'s",
            )
            continue
        ids[source_id] = page.path
        taken[page.identity] = page.path
        outcomes[page.path] = Outcome(page, "add", source_id, not exact)
    return [outcomes[page.path] for page in pages]


def _unlistable(page: Found, scheme: VersionScheme) -> str:
    """Why ``page`` cannot be a manifest entry under ``scheme``, or ``""``."""
    try:
        page.path.encode("utf-8")
    except UnicodeEncodeError:
        return "the file name is not UTF-8, which a manifest (JSON) cannot hold"
    problem = check_relative_path(page.path)
    if problem:
        return f"{problem}, which a manifest path cannot hold"
    if not scheme.fits(page.version):
        return (
            f"version {page.version!r} (from the pattern) does not fit the version scheme "
            f"{scheme.name!r} ({scheme.description})"
        )
    if page.size > MAX_SOURCE_BYTES:
        return f"{page.size} bytes is over the {MAX_SOURCE_BYTES}-byte limit (MAX_SOURCE_BYTES)"
    return ""


# --------------------------------------------------------------------------
# what pin --check and audit report


class Unlisted(NamedTuple):
    """A page the manifest's ``sources`` take but its ``documents`` do not list."""

    path: str
    version: str
    source_id: str | None  # the id init --update would give it, if it can add it
    message: str


def unlisted(manifest: Manifest) -> list[Unlisted]:
    """Every page ``manifest``'s ``sources`` take that its entries do not list, in path order
    (``[]`` for a manifest without ``sources``). Walks the tree now; reads no file."""
    if manifest.sources is None:
        return []
    found = scan(manifest.root, manifest.sources)
    report = []
    for outcome in plan(
        found.pages, manifest.version_scheme, manifest.root, manifest.entries, manifest.sources.id_base()
    ):
        if outcome.action == "listed" or (outcome.action == "left_out" and outcome.other is not None):
            continue  # listed, or the same file as a listed page (or as one reported here)
        if outcome.action == "add":
            message = (
                f"matches the manifest's sources but is not listed (init --update adds it as {outcome.source_id!r})"
            )
        else:
            message = (
                f"matches the manifest's sources but is not listed, and init --update cannot add "
                f"it: {outcome.why}; fix it or exclude it"
            )
        report.append(
            Unlisted(
                outcome.page.path, outcome.page.version, outcome.source_id if outcome.action == "add" else None, message
            )
        )
    for path, why in found.left_out:  # what the walk itself left out: another format, a folder link...
        status, version = manifest.sources.match(path)
        if status == "page":
            message = f"matches the manifest's sources but is not listed, and init --update cannot add it: {why}; fix it or exclude it"
            report.append(Unlisted(path, version, None, message))
    report.sort(key=lambda page: folder_order(page.path))
    return report


def missing(root: str, path: str) -> bool:
    """Is the entry ``path`` gone (no file there, or a dangling symlink)? Metadata only.

    Any other failure to look (a folder that cannot be searched) raises
    :class:`IngestionError` ``source_unreadable``: a page is never taken for
    gone because it could not be seen.
    """
    try:
        os.stat(os.path.join(root, *path.split("/")))
    except (FileNotFoundError, NotADirectoryError):
        return True
    except OSError as exc:
        raise IngestionError("source_unreadable", f"cannot look at the file: {exc.strerror}", path=path) from None
    return False

"""Reading a manifest's sources confined to the folder that holds the manifest.

:class:`SourceFiles` holds folders open by descriptor, resolves a symlink by name and keeps it
inside the root, and notices one file reached twice (reference/manifest.md)."""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
from typing import Final

from ..base.errors import IngestionError
from ..base.files import (
    DIR_FLAGS,
    HAS_DIR_FD,
    HAS_NOFOLLOW,
    OPEN_FLAGS,
    ErrorFactory,
    is_symlink_at,
    open_error,
    open_root,
    read_fd,
)
from ..base.registry import MAX_SOURCE_BYTES
from ..manifest.read import Entry

__all__ = ["SourceFiles"]


class SourceFiles:
    """Reads manifest sources confined to the folder that holds the manifest.

    Folders are held open by descriptor (where the platform has ``openat``):
    from the root's descriptor, each folder on a path is opened relative to the
    one before with ``O_NOFOLLOW | O_DIRECTORY``, and the file relative to its
    folder with ``O_NOFOLLOW``, so the system never resolves a path through a
    symlink. A symlink met on the way (a folder or the file itself) is resolved
    by name, must lie inside the root, and its target is opened the same way,
    component by component. A folder swapped for a symlink while a load runs
    is therefore never followed out of the root (a folder already open keeps
    being read: the last few are kept open, for speed). Without ``openat``
    (Windows) each path is resolved and confined before it is opened and
    re-checked after. Two entries reaching one file (symlink or hard link) are
    refused by ``(st_dev, st_ino)`` from the read's own ``fstat``. Nothing
    outside the root is ever opened or read.

    ``by_descriptor=False`` reads the way platforms without ``openat`` do.
    Close it when done (:meth:`close`, or use it as a context manager); its
    folders are closed when it is collected otherwise.
    """

    #: How many folders stay open between reads.
    KEEP_OPEN: Final = 8
    #: How many symlinks one path may pass through.
    MAX_LINKS: Final = 40

    def __init__(self, root: str, limit: int = MAX_SOURCE_BYTES, *, by_descriptor: bool = HAS_DIR_FD) -> None:
        self.root = root
        self._real_root = os.path.realpath(root)  # resolved now: a later swap on its path is refused
        self.limit = limit
        self.by_descriptor = by_descriptor and HAS_DIR_FD
        self._root_fd: int | None = None
        self._open_folders: dict[tuple[str, ...], tuple[int, tuple[str, ...]]] = {}
        self._seen: dict[tuple[int, int], str] = {}

    def __enter__(self) -> SourceFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def close(self) -> None:
        """Close the folders held open (reading again opens them again)."""
        folders, self._open_folders = getattr(self, "_open_folders", {}), {}
        for fd, _ in folders.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        root, self._root_fd = getattr(self, "_root_fd", None), None
        if root is not None:
            with contextlib.suppress(OSError):
                os.close(root)

    def read(self, entry: Entry) -> bytes:
        """Read one entry's raw bytes once. Raises :class:`IngestionError`:
        ``path_outside_root``, ``source_missing``, ``source_not_regular_file``,
        ``source_too_large``, ``source_unreadable``, ``duplicate_path``."""
        return self.read_path(entry.path, source_id=entry.source_id, position=entry.position)

    def read_path(self, path: str, *, source_id: str | None = None, position: int | None = None) -> bytes:
        """Read the file at ``path`` (relative to the root, checked by
        :func:`~_conflict_gate.manifest.read.check_relative_path`) as :meth:`read` does;
        errors name ``source_id`` and ``path``, and a duplicate the pointer of entry ``position``."""

        def error(reason: str, detail: str) -> IngestionError:
            if reason == "source_missing":
                detail += " (paths are relative to the folder that holds the manifest)"
            pointer = f"/documents/{position}/path" if reason == "duplicate_path" and position is not None else None
            return IngestionError(reason, detail, source_id=source_id, path=path, pointer=pointer)

        fd = self._open_file(path, error) if self.by_descriptor else self._open_by_name(path, error)
        try:
            raw, info = read_fd(fd, self.limit, error)
        finally:
            os.close(fd)
        key = (info.st_dev, info.st_ino)
        first = self._seen.setdefault(key, source_id or path)
        if first != (source_id or path):
            raise error("duplicate_path", f"names the same file as {first!r}")
        return raw

    # -- with openat: folders by descriptor, never through a symlink

    def _open_file(self, path: str, error: ErrorFactory) -> int:
        parts = tuple(path.split("/"))
        for _ in range(self.MAX_LINKS):
            folder_fd, real = self._folder(parts[:-1], error)
            try:
                return os.open(parts[-1], OPEN_FLAGS, dir_fd=folder_fd)
            except OSError as exc:
                if not is_symlink_at(parts[-1], folder_fd):
                    raise open_error(exc, os.path.join(self.root, *real, parts[-1]), error) from None
            parts = self._resolve((*real, parts[-1]), error)  # the file is a symlink: its target, inside
            if not parts:
                raise error("source_not_regular_file", "not a regular file")
        raise error("source_unreadable", "cannot open: too many levels of symbolic links")

    def _folder(self, parts: tuple[str, ...], error: ErrorFactory) -> tuple[int, tuple[str, ...]]:
        """The open folder at ``parts`` below the root and its symlink-free parts."""
        if self._root_fd is None:
            try:
                self._root_fd = open_root(self._real_root)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise error(
                        "path_outside_root",
                        f"the manifest's folder {self._real_root!r} is no longer "
                        "that folder: a folder on its path is now a symlink",
                    ) from None
                raise error("source_unreadable", f"cannot open the manifest's folder: {exc.strerror}") from None
        if not parts:
            return self._root_fd, ()
        if parts in self._open_folders:
            self._open_folders[parts] = self._open_folders.pop(parts)  # most recently used last
            return self._open_folders[parts]
        wanted, links = parts, 0
        current = self._root_fd
        real: tuple[str, ...] = ()
        while len(real) < len(wanted):
            name = wanted[len(real)]
            try:
                child = os.open(name, DIR_FLAGS, dir_fd=current)
            except OSError as exc:
                link = is_symlink_at(name, current)
                if current != self._root_fd:
                    os.close(current)
                if not link:
                    if isinstance(exc, (FileNotFoundError, NotADirectoryError)):
                        raise error("source_missing", "file does not exist") from None
                    raise error(
                        "source_unreadable", f"cannot open folder {'/'.join((*real, name))!r}: {exc.strerror}"
                    ) from None
                links += 1
                if links > self.MAX_LINKS:
                    raise error("source_unreadable", "cannot open: too many levels of symbolic links") from None
                wanted = (*self._resolve((*real, name), error), *wanted[len(real) + 1 :])
                current, real = self._root_fd, ()
                continue
            if current != self._root_fd:
                os.close(current)
            current, real = child, (*real, name)
        self._open_folders[parts] = (current, real)
        if len(self._open_folders) > self.KEEP_OPEN:
            oldest = next(iter(self._open_folders))
            os.close(self._open_folders.pop(oldest)[0])
        return current, real

    def _resolve(self, parts: tuple[str, ...], error: ErrorFactory) -> tuple[str, ...]:
        """Where the symlink at ``parts`` leads, as parts below the root; ``path_outside_root`` if out."""
        real = os.path.realpath(os.path.join(self.root, *parts))
        if not _inside(self.root, real):
            raise error("path_outside_root", "path leads outside the manifest's folder")
        relative = os.path.relpath(real, self.root)
        return () if relative == os.curdir else tuple(relative.split(os.sep))

    # -- without openat: resolve by name, confine, re-check

    def _open_by_name(self, path: str, error: ErrorFactory) -> int:
        folder, name = posixpath.split(path)
        real_folder = os.path.realpath(os.path.join(self.root, folder))
        if not _inside(self.root, real_folder):
            raise error("path_outside_root", "path leads outside the manifest's folder")
        target = os.path.join(real_folder, name)
        if not HAS_NOFOLLOW and os.path.islink(target):
            target = self._confine(target, error)
        try:
            fd = os.open(target, OPEN_FLAGS)
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise open_error(exc, target, error) from None
            target = self._confine(target, error)  # the last component is a symlink: resolve, confine
            try:
                fd = os.open(target, OPEN_FLAGS)
            except OSError as again:
                raise open_error(again, target, error) from None
        if not _inside(self.root, os.path.realpath(target)):  # a folder swapped meanwhile: never read
            os.close(fd)
            raise error("path_outside_root", "path leads outside the manifest's folder")
        return fd

    def _confine(self, path: str, error: ErrorFactory) -> str:
        real = os.path.realpath(path)
        if not _inside(self.root, real):
            raise error("path_outside_root", "path leads outside the manifest's folder")
        return real


def _inside(root: str, path: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)

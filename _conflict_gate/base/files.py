"""Reading a file the way every step of the flow must: once, capped, regular files only (no I/O at import).

:func:`read_capped` reads the manifest; :class:`~_conflict_gate.corpus.source_files.SourceFiles`
reads its sources through :func:`read_fd`. Both open with :data:`OPEN_FLAGS`
and map the same failures to the same reasons (:func:`open_error`), so
``load_documents``, ``pin`` and the answer check agree on what a file is.

What they refuse to do: follow a symlink as the last component unseen
(``O_NOFOLLOW``: callers resolve and confine it first), hang on a FIFO
(``O_NONBLOCK``), read anything but a regular file, or read more than the
cap plus one byte.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import Final

__all__ = [
    "DIR_FLAGS",
    "HAS_DIR_FD",
    "HAS_NOFOLLOW",
    "OPEN_FLAGS",
    "ErrorFactory",
    "is_symlink_at",
    "open_error",
    "open_root",
    "read_capped",
    "read_fd",
    "read_head",
]

#: ``error(reason, detail)`` builds the exception to raise; the reasons are ``source_missing``,
#: ``source_not_regular_file``, ``source_too_large``, ``source_unreadable`` and, from
#: :class:`~_conflict_gate.corpus.source_files.SourceFiles`, ``path_outside_root`` and ``duplicate_path``.
ErrorFactory = Callable[[str, str], Exception]

#: Read-only, close-on-exec, never through a final symlink, never blocking on a FIFO.
OPEN_FLAGS: Final = (
    os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
)
#: Whether the platform has ``O_NOFOLLOW`` (without it, symlinks are checked before opening).
HAS_NOFOLLOW: Final = hasattr(os, "O_NOFOLLOW")
#: A folder, read-only, close-on-exec, never through a symlink as the last component.
DIR_FLAGS: Final = (
    os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_DIRECTORY", 0)
)
#: Whether folders can be held open and opened one below the other (``openat``: Linux, macOS,
#: the BSDs), so that no path is ever resolved through a symlink by the system. Elsewhere
#: (Windows) paths are resolved by name and confined, and re-checked after opening.
HAS_DIR_FD: Final = (
    HAS_NOFOLLOW
    and hasattr(os, "O_DIRECTORY")
    and os.open in os.supports_dir_fd
    and os.stat in os.supports_dir_fd
    and os.stat in os.supports_follow_symlinks
)


#: A folder passed through on the way to another, never through a symlink: ``O_PATH`` where the
#: platform has it (Linux), which needs only search permission on the folder, else :data:`DIR_FLAGS`.
_PASS_FLAGS: Final = (
    os.O_PATH | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_DIRECTORY", 0)
    if hasattr(os, "O_PATH")
    else DIR_FLAGS
)


def open_root(real_path: str) -> int:
    """Open the folder ``real_path`` (absolute and symlink-free, as ``os.path.realpath`` gave it) with
    :data:`DIR_FLAGS`, reached one component at a time from the file system's root, each opened
    relative to the one before with ``O_NOFOLLOW``: a component swapped for a symlink since the path
    was resolved raises ``OSError`` (``ELOOP`` or ``ENOTDIR``) instead of being followed.

    Needs :data:`HAS_DIR_FD`. Where a folder on the way may only be searched, not read, and the
    platform has no ``O_PATH`` (macOS), the rest of the path is opened by name, ``O_NOFOLLOW`` on
    its last component only, as without ``openat``. Raises ``OSError`` as ``os.open`` does.
    """
    parts = [part for part in real_path.split(os.sep) if part]
    if not parts:
        return os.open(os.sep, DIR_FLAGS)
    fd = os.open(os.sep, _PASS_FLAGS)  # the root of the file system is no symlink
    try:
        for at, name in enumerate(parts):
            try:
                child = os.open(name, DIR_FLAGS if at == len(parts) - 1 else _PASS_FLAGS, dir_fd=fd)
            except PermissionError:
                if _PASS_FLAGS != DIR_FLAGS or at == len(parts) - 1:
                    raise
                return os.open(real_path, DIR_FLAGS)  # a search-only folder, no O_PATH: by name
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def is_symlink_at(name: str, dir_fd: int) -> bool:
    """Is ``name`` in the folder open as ``dir_fd`` a symlink (``False`` when it cannot be seen)?"""
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def open_error(exc: OSError, path: str, error: ErrorFactory) -> Exception:
    """The typed error for a failed ``os.open(path)``: missing, not a regular file, or unreadable.

    A path that exists but is not a regular file (a folder, a socket, a
    device) is ``source_not_regular_file`` whatever ``open`` said about it.
    """
    if isinstance(exc, (FileNotFoundError, NotADirectoryError)):
        return error("source_missing", "file does not exist")
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        return error("source_not_regular_file", "not a regular file")
    return error("source_unreadable", f"cannot open: {exc.strerror}")


def read_capped(real_path: str, limit: int, error: ErrorFactory) -> bytes:
    """Read a regular file once, refusing non-regular files and files over ``limit`` bytes.

    Opens with :data:`OPEN_FLAGS`; callers resolve symlinks themselves.
    Raises what ``error`` builds, for the reasons of :func:`open_error` and
    :func:`read_fd`.
    """
    try:
        fd = os.open(real_path, OPEN_FLAGS)
    except OSError as exc:
        raise open_error(exc, real_path, error) from None
    try:
        return read_fd(fd, limit, error)[0]
    finally:
        os.close(fd)


def read_fd(fd: int, limit: int, error: ErrorFactory) -> tuple[bytes, os.stat_result]:
    """Read an open regular file whole, once: ``(bytes, its fstat)``.

    Refuses a non-regular file (``source_not_regular_file``), a file over
    ``limit`` bytes (``source_too_large``, also when it grows past the limit
    while read) and a failed read (``source_unreadable``).
    """
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error("source_not_regular_file", "not a regular file")
        if info.st_size > limit:
            raise error("source_too_large", f"{info.st_size} bytes is over the {limit}-byte limit")
        # One read of the expected size plus one byte: one byte more means the
        # file grew while read, so read on to the limit and judge the size.
        data = os.read(fd, min(limit, info.st_size) + 1)
        if len(data) > info.st_size:
            chunks = [data]
            remaining = limit + 1 - len(data)
            while remaining > 0:
                chunk = os.read(fd, min(remaining, 1 << 16))
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
            data = b"".join(chunks)
    except OSError as exc:
        raise error("source_unreadable", f"cannot read: {exc.strerror}") from None
    if len(data) > limit:
        raise error("source_too_large", f"file grew over the {limit}-byte limit while read")
    return data, info


def read_head(real_path: str, limit: int, error: ErrorFactory) -> bytes:
    """The first ``limit`` bytes of a regular file (all of it when shorter), read once.

    Unlike :func:`read_capped` a longer file is no error: the caller judges
    the length (the answer check reports an answer over its cap as a
    finding). Opens as :func:`read_capped` does, so a FIFO or a device never
    blocks; callers resolve symlinks themselves. Raises what ``error``
    builds: ``source_missing``, ``source_not_regular_file``,
    ``source_unreadable``.
    """
    try:
        fd = os.open(real_path, OPEN_FLAGS)
    except OSError as exc:
        raise open_error(exc, real_path, error) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise error("source_not_regular_file", "not a regular file")
        chunks, remaining = [], limit
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise error("source_unreadable", f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)

"""Which of MDX's build errors are certain: the page fails to build wherever the construct stands (no I/O).

The default renderer leaves the MDX reading out of a page MDX certainly does not build (issue 29, item 2:
:func:`~_conflict_gate.reading.reader.read_directives`), so a build error may count as certain only where
the page scan of :mod:`~_conflict_gate.reading.blocks.mdx` certainly reads the construct as MDX text.
The places it does not model are left in doubt for every build error (:func:`in_unmodelled_text`): YAML
front matter, which Docusaurus strips before MDX compiles, and a link's destination or title and a
definition, which MDX takes whole before any ``{`` or ``<`` in them is read (``title: Page {#anchor}``,
``[x](/y "{.c}")`` build). A construct there keeps the page refused (fail closed).

:func:`namespace_fails`: an autolink ``<https://...>`` (MDX 3 has none) or a MyST link
``<project:#target>`` is a JSX tag whose namespace name ``https:`` is followed by no local name (``/``), or
whose local name is followed by a character no JSX tag allows there (``.``, ``#``, ``@``): micromark's
mdx-jsx extension stops the compile ("Unexpected character ... before local name", "... in local name").
Proven against @mdx-js/mdx 3.1.1 with Docusaurus's preprocessing (``tests/mdx``) for every printable ASCII
character in both places; ``<a:b>``, ``<a: b>`` and ``<a:b-c/>`` build.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["attribute_fails", "in_unmodelled_text", "namespace_fails"]

#: After ``<name:`` (spaces or tabs allowed), a printable ASCII character that cannot start a local name.
_NO_LOCAL_NAME: Final = re.compile(r"[ \t]*[!-#%-/0-9:-@\[-\^`{-~]", re.ASCII)
#: After ``<name:``, a local name followed by a printable ASCII character no tag allows after it (not a
#: name character, ``/``, ``>``, ``{``, a space or a line ending).
_BAD_AFTER_LOCAL_NAME: Final = re.compile(r"[A-Za-z_][\w\-]*[!-#%-,.:-=?@\[-\^`|}~]", re.ASCII)
#: The build error of a JSX name :func:`namespace_fails` holds for (``name``: the part before the ``:``).
_NO_AUTOLINK: Final = (
    "<{name}:...> is a JSX tag whose name MDX cannot read (MDX 3 has no autolinks such as "
    "<https://...>): MDX does not build this page (write [text](url), or \\<)"
)
#: A member or namespace name the gate does not model (``name``, and ``mark``: ``.`` or ``:``).
_MEMBER_NAME: Final = (
    "the JSX name <{name}{mark}...>: the gate does not model member or namespace names, which may not build"
)
#: A JSX tag whose attributes do not parse (``name``); not certain where a ``.`` follows a space (``<a .b>``,
#: a member of what the page may define), nor a ``:`` unless :func:`namespace_fails` (``<a :b>`` builds).
_NO_PARSE: Final = "the JSX tag <{name}> does not parse: MDX does not build this page"
_BLANK_LINE: Final = re.compile(r"\n[ \t]*\r?(?=\n)")
_FRONT_MATTER_CLOSE: Final = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)


def namespace_fails(view: str, colon: int) -> bool:
    """Does the JSX name whose ``:`` is at ``colon`` (``<https://...>``) certainly stop MDX's compile?

    True when no local name follows the colon, or one does and a character no tag allows there comes
    next (module docstring). False for a namespace name that builds (``<a:b>``), a non-ASCII or ``$``
    character (React may still refuse it at render; the gate does not claim it), or a line ending."""
    return bool(_NO_LOCAL_NAME.match(view, colon + 1) or _BAD_AFTER_LOCAL_NAME.match(view, colon + 1))


def attribute_fails(view: str, at: int) -> bool:
    """Does a tag's attribute that does not parse at ``at`` (no attribute name starts there) certainly stop
    MDX's compile? Not where a ``.`` stands (``<a .b>``: the member ``a.b``, which builds if the page
    defines ``a``), nor a ``:`` unless :func:`namespace_fails` (``<a :b>`` is the name ``a:b``; Vue's
    ``<p :innerHTML="x">`` fails)."""
    mark = view[at : at + 1]
    return mark != "." and (mark != ":" or namespace_fails(view, at))


def in_unmodelled_text(view: str, at: int) -> bool:
    """May the construct at ``at`` stand where MDX does not read it as MDX, so its build error is not certain?

    True in YAML front matter (a page that begins ``---``, up to the next ``---`` or ``...`` line, or to
    the end if none), in a paragraph (text since the last blank line, whatever the line endings) holding
    a link reference definition's ``]:`` before ``at``, or after a link's ``](`` where its destination or
    title may still be open (no ``)`` after it, or a quote or ``(``: ``[x](/y{ref})`` builds, the ``{``
    in the destination). ``[Link](/pure.html){target="_self"}`` is not in doubt: the link closed before
    the ``{``. Called once per page (when a build error is raised): linear."""
    if view.startswith("---"):  # gray-matter's opener, with or without a language after it
        first = view.find("\n")
        close = _FRONT_MATTER_CLOSE.search(view, first + 1) if first >= 0 else None
        if close is None or at < close.end():
            return True
    paragraph = 0
    for blank in _BLANK_LINE.finditer(view, 0, at):  # the last blank line before ``at`` (CRLF too)
        paragraph = blank.end()
    text = view[paragraph:at]
    if "]:" in text:
        return True
    links = text.split("](")[1:]  # the text after each '](': a destination, then maybe a title, then ')'
    return any(")" not in after or any(ch in after for ch in "\"'(") for after in links)

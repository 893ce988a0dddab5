"""JavaScript expressions in an MDX page, read far enough to know whether the page builds (no I/O).

``{...}`` expressions, attribute values and ``import``/``export`` statements: the part of ECMAScript's
expression grammar MDX 3 accepts, the names a page may use without defining them, and the build
error a failure becomes."""

from __future__ import annotations

import re
from typing import Final

_NAME: Final = re.compile(r"[A-Za-z_$][\w$\-]*", re.ASCII)
_SPACE: Final = re.compile(r"\s*")
_NUMBER: Final = re.compile(r"[0-9]+(?:\.[0-9]+)?(?![\w$])", re.ASCII)
#: Lowercase words an MDX expression may use without the page defining them: JavaScript's reserved and
#: contextual words, what MDX and Docusaurus put in scope (``props``, ``toc``, ``metadata``, ``assets``,
#: ``arguments`` in the content function), and the lowercase globals of Node, webpack and browsers.
_MAYBE_DEFINED: Final = frozenset(
    [
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
        "let",
        "static",
        "implements",
        "interface",
        "package",
        "private",
        "protected",
        "public",
        "await",
        "async",
        "of",
        "get",
        "set",
        "undefined",
        "props",
        "toc",
        "metadata",
        "assets",
        "arguments",
        "global",
        "process",
        "console",
        "require",
        "module",
        "exports",
        "fetch",
        "crypto",
        "performance",
        "navigator",
        "escape",
        "unescape",
        "eval",
        "atob",
        "btoa",
        "window",
        "document",
        "self",
        "top",
        "parent",
        "frames",
        "location",
        "history",
        "name",
        "status",
        "length",
        "origin",
        "event",
        "screen",
        "opener",
        "closed",
        "external",
        "print",
        "alert",
        "confirm",
        "prompt",
        "open",
        "close",
        "stop",
        "focus",
        "blur",
        "scroll",
        "scrollbars",
        "toolbar",
        "menubar",
        "personalbar",
        "statusbar",
        "locationbar",
        "caches",
        "indexeddb",
        "localstorage",
        "sessionstorage",
    ]
)
_GLOBALS: Final = frozenset(
    {
        "props",
        "true",
        "false",
        "null",
        "undefined",
        "Math",
        "JSON",
        "Date",
        "String",
        "Number",
        "Array",
        "Object",
        "Boolean",
        "NaN",
        "Infinity",
    }
)
_OPERATORS: Final = ("===", "!==", "**", "==", "!=", "<=", ">=", "&&", "||", "??", "+", "-", "*", "/", "%", "<", ">")


class _BuildError(Exception):
    """MDX does not build the page at ``at`` (``certain``), or the gate cannot tell that it does."""

    def __init__(self, at: int, why: str, certain: bool = True) -> None:
        super().__init__(why)
        self.at, self.why, self.certain = at, why, certain


def _statements(view: str, start: int, end: int) -> bool:
    """Does ``view[start:end]``, an expression's text without quotes, backticks or slashes (no string,
    template, comment or regular expression to skip), hold a ``;``, or a ``:`` no ``?`` comes before,
    outside brackets? No JavaScript expression does (CSS declarations ``width: 0;``), so acorn fails."""
    text = view[start:end]
    if any(ch in text for ch in "'\"`/"):
        return False
    depth = questions = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0:
            if ch == ";" or (ch == ":" and questions == 0):
                return True
            if ch == "?":
                questions += 1
            elif ch == ":":
                questions -= 1
    return False


def _expression_end(view: str, at: int) -> int:
    """The offset after the ``}`` that closes the expression opened at ``at`` (strings, template
    literals, comments and nested braces skipped); a build error if none."""
    i, size = at, len(view)
    stack: list[str] = []  # "{" or "${" (inside a template literal)
    while i < size:
        ch = view[i]
        if ch in ("'", '"'):
            close = i + 1
            while close < size and view[close] != ch and view[close] != "\n":
                close += 2 if view[close] == "\\" else 1
            if close >= size or view[close] != ch:
                raise _BuildError(at, "a string in an expression is never closed: MDX does not build this page")
            i = close + 1
            continue
        if ch == "`":
            i = _template_literal(view, i + 1, at, stack)
            continue
        if view.startswith("/*", i):
            close = view.find("*/", i + 2)
            if close < 0:
                raise _BuildError(at, "a comment in an expression is never closed: MDX does not build this page")
            i = close + 2
            continue
        if ch == "{":
            stack.append("{")
        elif ch == "}":
            if not stack:
                break
            opened = stack.pop()
            if not stack:
                return i + 1
            if opened == "${":  # back inside the template literal
                i = _template_literal(view, i + 1, at, stack)
                continue
        i += 1
    raise _BuildError(at, "a '{' that no '}' closes: MDX does not build this page (write \\{)")


def _template_literal(view: str, i: int, at: int, stack: list[str]) -> int:
    """Read a template literal's text from ``i``: the offset after its closing backtick, or after a
    ``${`` that opens an interpolation (pushed on ``stack``); a build error (the expression at ``at``)
    if it never closes."""
    size = len(view)
    while i < size:
        if view[i] == "\\":
            i += 2
        elif view[i] == "`":
            return i + 1
        elif view.startswith("${", i):
            stack.append("${")
            return i + 2
        else:
            i += 1
    raise _BuildError(at, "a template literal is never closed: MDX does not build this page")


#: An expression's first character that begins no JavaScript expression (ECMAScript's PrimaryExpression and
#: UnaryExpression starts): a ``.`` before no digit, ``#`` (a private name outside a class), ``*``, ``)``,
#: ``]``, ``=``, ``:``, ``;``, ``,``, ``?``, ``|``, ``&``, ``^``, ``%``, ``>``, ``@``. Acorn, which MDX parses
#: expressions with, fails on it whatever follows, so MDX certainly does not build the page
#: (``{ #anchor }``, ``{.class}``, ``{* file *}``, Python-Markdown's attribute lists and FastAPI's includes).
_NO_EXPRESSION_START: Final = re.compile(r"[ \t\r\n]*(\.(?![0-9])|[#*)\]=:;,?|&^%>@])", re.ASCII)


class _Expression:
    """A small JavaScript expression parser: numbers, strings, template literals, known names, member
    access, calls, unary and binary operators, ``?:``, arrays. What it does not parse may not build."""

    def __init__(
        self,
        view: str,
        start: int,
        end: int,
        known: set[str],
        spread: bool = False,
        imported: dict[str, str] | None = None,
    ) -> None:
        self.view, self.i, self.end, self.known, self.start = view, start, end, known, start
        self.imported = imported or {}
        #: the first construct whose shown text the gate cannot know: (offset, what it is)
        self.unknown: tuple[int, str] | None = None
        if spread:
            self._space()
            if not self.view.startswith("...", self.i, self.end):
                self._fail()
            self.i += 3

    def _unknown(self, at: int, why: str) -> None:
        if self.unknown is None:
            self.unknown = (at, why)

    def _fail(self) -> None:
        first = _NO_EXPRESSION_START.match(self.view, self.start, self.end)
        if first is not None:
            raise _BuildError(
                self.start - 1,
                f"an expression that begins {first.group(1)!r}, which begins no "
                "JavaScript expression: MDX does not build this page (write \\{)",
            )
        if _statements(self.view, self.start, self.end):
            raise _BuildError(
                self.start - 1,
                "an expression holding ';' or ':' outside brackets (CSS, a statement), "
                "which no JavaScript expression does: MDX does not build this page "
                "(write \\{)",
            )
        raise _BuildError(
            self.start - 1,
            "an expression the gate does not model (or a name the page does not define): MDX may not build this page",
            certain=False,
        )

    def _space(self) -> None:
        view = self.view
        while self.i < self.end:
            if view[self.i] in " \t\r\n":
                self.i += 1
            elif view.startswith("/*", self.i, self.end):
                close = view.find("*/", self.i + 2, self.end)
                if close < 0:
                    self._fail()
                self.i = close + 2
            else:
                return

    def _peek(self, token: str) -> bool:
        self._space()
        return self.view.startswith(token, self.i, self.end)

    def whole(self) -> None:
        self._ternary()
        self._space()
        if self.i != self.end:
            self._fail()

    def _ternary(self) -> None:
        self._binary()
        if self._peek("?") and not self._peek("??") and not self._peek("?."):
            self.i += 1
            self._ternary()
            if not self._peek(":"):
                self._fail()
            self.i += 1
            self._ternary()

    def _binary(self) -> None:
        self._unary()
        while True:
            self._space()
            operator = next((p for p in _OPERATORS if self.view.startswith(p, self.i, self.end)), None)
            if operator is None:
                return
            if operator == "+":
                self._unknown(self.i, "'+' may join strings into text no literal spells out")
            self.i += len(operator)
            self._unary()

    def _unary(self) -> None:
        while self._peek("!") or self._peek("-") or self._peek("+") or self._peek("~"):
            self.i += 1
        self._postfix()

    def _postfix(self) -> None:
        self._primary()
        while True:
            if self._peek("?."):
                self.i += 2
                self._member_name()
            elif self._peek("."):
                self.i += 1
                self._member_name()
            elif self._peek("["):
                self.i += 1
                self._ternary()
                if not self._peek("]"):
                    self._fail()
                self.i += 1
            elif self._peek("("):
                self._unknown(self.i, "a call computes its text")
                self.i += 1
                self._items(")")
            else:
                return

    def _items(self, close: str) -> None:
        """Comma-separated expressions (none allowed) up to ``close``, and ``close`` itself: a call's
        arguments, an array literal's elements."""
        if not self._peek(close):
            self._ternary()
            while self._peek(","):
                self.i += 1
                self._ternary()
        if not self._peek(close):
            self._fail()
        self.i += 1

    def _member_name(self) -> None:
        self._space()
        name = _NAME.match(self.view, self.i, self.end)
        if name is None or "-" in name.group():
            self._fail()
            return
        self.i = name.end()

    def _primary(self) -> None:
        self._space()
        view, i = self.view, self.i
        if i >= self.end:
            self._fail()
        ch = view[i]
        number = _NUMBER.match(view, i, self.end)
        if number is not None:
            self.i = number.end()
        elif ch in ("'", '"'):
            close = i + 1
            while close < self.end and view[close] not in (ch, "\n"):
                if view[close] == "\\":
                    self._unknown(close, "a JavaScript escape such as \\u0040 or \\x40 decodes to other text")
                close += 2 if view[close] == "\\" else 1
            if close >= self.end or view[close] != ch:
                self._fail()
            self.i = close + 1
        elif ch == "`":
            close = i + 1
            while close < self.end and view[close] != "`":
                if view.startswith("${", close, self.end):
                    self._fail()  # substitutions are not modelled
                if view[close] == "\\":
                    self._unknown(close, "a JavaScript escape such as \\u0040 or \\x40 decodes to other text")
                close += 2 if view[close] == "\\" else 1
            if close >= self.end:
                self._fail()
            self.i = close + 1
        elif ch == "(":
            self.i += 1
            self._ternary()
            if not self._peek(")"):
                self._fail()
            self.i += 1
        elif ch == "[":
            self._unknown(i, "React shows an array's items run together")
            self.i += 1
            self._items("]")
        else:
            name = _NAME.match(view, i, self.end)
            if name is None or "-" in name.group() or name.group() not in self.known:
                if name is not None and self._undefined_first(name):
                    raise _BuildError(
                        self.start - 1,
                        f"{name.group().partition('-')[0]!r} is a name the page does "
                        "not define, so rendering it fails: MDX does not build this "
                        "page (write \\{)",
                    )
                self._fail()
                return
            if name.group() in self.imported:
                self._unknown(
                    i,
                    f"{name.group()!r} is imported from {self.imported[name.group()]!r}, which the gate does not read",
                )
            self.i = name.end()

    def _undefined_first(self, name: re.Match[str]) -> bool:
        """Is ``name`` the expression's first token, a lowercase word nothing defines (not the page, MDX,
        Docusaurus, JavaScript, Node or a browser: :data:`_MAYBE_DEFINED`), evaluated whatever follows (not
        a parameter: no ``=>`` after it)? Then rendering the page throws a ReferenceError, and
        Docusaurus's build fails (MyST roles ``{ref}``, ``{note}``; attribute lists ``{ data-preview }``,
        and ``{target="_self"}``: MDX compiles to an ES module, strict code, where assigning to a name
        nothing declares throws too). Where the page scan may misread MDX text (front matter, a link's
        title), :func:`~_conflict_gate.reading.blocks.mdx.read_mdx` does not call the failure certain."""
        word = name.group().partition("-")[0]  # JavaScript reads 'data-preview' as data - preview
        if (
            not (word.isascii() and word.isalpha() and word.islower())
            or word in _MAYBE_DEFINED
            or word in self.known
            or self.view[self.start : name.start()].strip(" \t\r\n")
        ):
            return False
        after = _SPACE.match(self.view, name.start() + len(word), self.end)
        rest = self.view[after.end() : after.end() + 2] if after is not None else ""
        return not rest.startswith("=>")

"""The directive grammar a manifest declares (``_conflict_gate/manifest/grammar.py``).

Three parts, each tested on its own, with no file I/O:

* :func:`grammar_from_json` turns the manifest's ``"grammar"`` value into a
  frozen :class:`Grammar` or raises a :class:`GrammarError` whose ``pointer``
  is the JSON pointer of the bad part (one reason of ``GRAMMAR_REASONS``);
* the value rules (:class:`EnumRule`, :class:`IntegerRule`): integers are
  canonical ASCII decimal, bounds give their own reason;
* :meth:`Grammar.parse` (the exact directive, with the 1-based code-point
  column where a line goes wrong) and :attr:`Grammar.shape` (directive-shaped
  text, matched after NFKC), with :attr:`Grammar.candidates` (bytes patterns) as its cheap,
  sound pre-filter.
"""

from __future__ import annotations

import copy
import dataclasses
import unicodedata
import unittest
from collections.abc import Callable
from typing import Any, ClassVar

from conflict_gate import (
    DIRECTIVE_REASONS,
    GRAMMAR_REASONS,
    DirectiveError,
    EnumRule,
    Grammar,
    GrammarError,
    IntegerRule,
    grammar_from_json,
)
from tests.support import QUILL_GRAMMAR

#: A grammar that uses everything the issue names: a hyphenated namespace, a
#: hyphenated key, a dotted operation, an enum of digits and integer rules.
RICH_JSON: dict[str, Any] = {
    "namespace": "acme-widgets",
    "product": "Acme Widgets",
    "operations": {
        "connect": {
            "max-retries": {"type": "integer", "min": 0, "max": 10},
            "timeout": {"type": "integer", "min": 1},
            "offset": {"type": "integer"},
            "delta": {"type": "integer", "min": -5, "max": 5},
            "ceiling": {"type": "integer", "max": 5},
            "mode": {"type": "enum", "values": ["30", "fast", "Slow.v2"]},
        },
        "v2.close": {"flush": {"type": "enum", "values": ["yes", "no"]}},
    },
}
QUILL = grammar_from_json(QUILL_GRAMMAR)
RICH = grammar_from_json(RICH_JSON)

#: The reasons ``Grammar.parse`` documents; the reader adds its own (markup, duplicates, ...).
PARSE_REASONS = {
    "malformed_directive",
    "unsupported_operation",
    "unsupported_claim_key",
    "unknown_directive_value",
    "invalid_integer",
    "integer_out_of_range",
}


def edited(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """A deep copy of the lab grammar JSON with ``change`` applied to it (in place)."""
    data = copy.deepcopy(QUILL_GRAMMAR)
    change(data)
    return data


def with_rule(rule: Any, key: str = "existing_path") -> dict[str, Any]:
    """The lab grammar JSON with create_copy's ``key`` rule replaced by ``rule``."""
    return edited(lambda g: g["operations"]["create_copy"].__setitem__(key, rule))


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


class GrammarFromJsonTest(unittest.TestCase):
    def refused(self, data: Any, reason: str, pointer: str, *, path: str | None = None) -> GrammarError:
        with self.assertRaises(GrammarError) as caught:
            grammar_from_json(data, path=path)
        error = caught.exception
        self.assertIn(error.reason, GRAMMAR_REASONS)
        self.assertEqual((error.reason, error.pointer), (reason, pointer), str(error))
        self.assertEqual(error.path, path)
        self.assertIsNone(error.source_id)
        self.assertIsNone(error.line)
        self.assertTrue(str(error).isprintable(), repr(str(error)))
        return error

    def test_the_lab_grammar_loads(self) -> None:
        """Control for the tables below: the lab's grammar becomes a Grammar with its rules in order."""
        self.assertEqual((QUILL.namespace, QUILL.product), ("quill", "Quill"))
        self.assertEqual(
            QUILL.claims(),
            [
                ("create_copy", "existing_path", EnumRule(("refuse", "overwrite"))),
                ("create_copy", "close_required", EnumRule(("yes", "no"))),
            ],
        )
        self.assertEqual(QUILL.head, "@quill ")
        self.assertEqual(QUILL.form, "@quill <operation> <key>=<value>")
        self.assertEqual(
            QUILL.directive("create_copy", "existing_path", "refuse"), "@quill create_copy existing_path=refuse"
        )

    def test_names_and_values_the_issue_requires_work(self) -> None:
        """Guards against names like ``acme-widgets``/``max-retries`` or values like ``30`` being refused."""
        self.assertEqual(RICH.namespace, "acme-widgets")
        self.assertEqual(list(RICH.operations), ["connect", "v2.close"])
        self.assertEqual(RICH.rule("connect", "max-retries"), IntegerRule(0, 10))
        self.assertEqual(RICH.rule("connect", "timeout"), IntegerRule(1, None))
        self.assertEqual(RICH.rule("connect", "offset"), IntegerRule(None, None))
        self.assertEqual(RICH.rule("connect", "mode"), EnumRule(("30", "fast", "Slow.v2")))
        self.assertIsNone(RICH.rule("connect", "nope"))
        self.assertIsNone(RICH.rule("nope", "mode"))
        self.assertIsNone(RICH.rule(["connect"], "mode"))  # type: ignore[arg-type]  # unhashable: no TypeError
        for name in ("a", "a" * 64, "x1", "a.b-c_d", "z-"):
            with self.subTest(name=name):
                data = edited(lambda g: g.update(namespace=name))  # noqa: B023 - called at once
                self.assertEqual(grammar_from_json(data).namespace, name)

    def test_problems_are_grammar_errors_with_the_pointer_of_the_bad_part(self) -> None:
        """Guards against a bad grammar loading, failing untyped, or pointing at the wrong place."""
        ops = "/grammar/operations"
        rule = f"{ops}/create_copy/existing_path"
        enum = {"type": "enum", "values": ["a"]}
        cases: dict[str, tuple[Any, str, str, str]] = {
            # name: (grammar JSON, reason, pointer, part of the message)
            "absent": (None, "missing_grammar", "/grammar", "the manifest declares no grammar"),
            "a list": ([QUILL_GRAMMAR], "invalid_grammar", "/grammar", "the grammar must be an object"),
            "a string": ("quill", "invalid_grammar", "/grammar", "the grammar must be an object"),
            "unknown key": (
                edited(lambda g: g.update(version="1")),
                "invalid_grammar",
                "/grammar/version",
                "unknown key 'version' (a grammar has namespace, product, operations)",
            ),
            "missing namespace": (
                edited(lambda g: g.pop("namespace")),
                "invalid_grammar",
                "/grammar/namespace",
                "missing 'namespace'",
            ),
            "missing product": (
                edited(lambda g: g.pop("product")),
                "invalid_grammar",
                "/grammar/product",
                "missing 'product'",
            ),
            "missing operations": (
                edited(lambda g: g.pop("operations")),
                "invalid_grammar",
                "/grammar/operations",
                "missing 'operations'",
            ),
            "namespace upper case": (
                edited(lambda g: g.update(namespace="Quill")),
                "invalid_name",
                "/grammar/namespace",
                "namespace 'Quill' is not a name",
            ),
            "namespace starts with a digit": (
                edited(lambda g: g.update(namespace="2quill")),
                "invalid_name",
                "/grammar/namespace",
                "'2quill'",
            ),
            "namespace starts with '_'": (
                edited(lambda g: g.update(namespace="_quill")),
                "invalid_name",
                "/grammar/namespace",
                "'_quill'",
            ),
            "namespace of 65 characters": (
                edited(lambda g: g.update(namespace="q" * 65)),
                "invalid_name",
                "/grammar/namespace",
                "at most 64 characters",
            ),
            "empty namespace": (
                edited(lambda g: g.update(namespace="")),
                "invalid_name",
                "/grammar/namespace",
                "namespace '' is not a name",
            ),
            "namespace with a space": (
                edited(lambda g: g.update(namespace="qu ill")),
                "invalid_name",
                "/grammar/namespace",
                "'qu ill'",
            ),
            "non-ASCII namespace": (
                edited(lambda g: g.update(namespace="qu\u00edll")),
                "invalid_name",
                "/grammar/namespace",
                "'qu\u00edll'",
            ),
            "namespace with a trailing newline": (
                edited(lambda g: g.update(namespace="quill\n")),
                "invalid_name",
                "/grammar/namespace",
                "'quill\\n'",
            ),
            "namespace is a number": (
                edited(lambda g: g.update(namespace=7)),
                "invalid_name",
                "/grammar/namespace",
                "namespace an int is not a name",
            ),
            "empty product": (
                edited(lambda g: g.update(product="")),
                "invalid_grammar",
                "/grammar/product",
                "product must be 1-100 printable characters",
            ),
            "product of 101 characters": (
                edited(lambda g: g.update(product="Q" * 101)),
                "invalid_grammar",
                "/grammar/product",
                "1-100 printable characters",
            ),
            "product with an escape": (
                edited(lambda g: g.update(product="Quill\x1b[2J")),
                "invalid_grammar",
                "/grammar/product",
                "no control, format or line-separator characters",
            ),
            "product with a C1 control": (
                edited(lambda g: g.update(product="Quill\x85")),
                "invalid_grammar",
                "/grammar/product",
                "no control, format or line-separator characters",
            ),
            "product is a number": (
                edited(lambda g: g.update(product=1)),
                "invalid_grammar",
                "/grammar/product",
                "product must be",
            ),
            "operations empty": (
                edited(lambda g: g.update(operations={})),
                "invalid_grammar",
                ops,
                "operations must be a non-empty object",
            ),
            "operations a list": (
                edited(lambda g: g.update(operations=[])),
                "invalid_grammar",
                ops,
                "operations must be a non-empty object",
            ),
            "operation upper case": (
                edited(lambda g: g["operations"].update(Copy={"k": enum})),
                "invalid_name",
                f"{ops}/Copy",
                "operation 'Copy' is not a name",
            ),
            "operation without keys": (
                edited(lambda g: g["operations"].update(copy={})),
                "invalid_grammar",
                f"{ops}/copy",
                "an operation must be a non-empty object of keys",
            ),
            "operation keys a list": (
                edited(lambda g: g["operations"].update(copy=[enum])),
                "invalid_grammar",
                f"{ops}/copy",
                "non-empty object of keys",
            ),
            "key with a space": (
                with_rule(enum, "bad key"),
                "invalid_name",
                f"{ops}/create_copy/bad key",
                "key 'bad key' is not a name",
            ),
            "key with '='": (with_rule(enum, "a=b"), "invalid_name", f"{ops}/create_copy/a=b", "'a=b'"),
            "key named as the answer form's version statement": (
                with_rule(enum, "version"),
                "reserved_name",
                f"{ops}/create_copy/version",
                "key 'version' is a name the answer form states on its own",
            ),
            "rule a list": (
                with_rule(["refuse"]),
                "invalid_value_rule",
                rule,
                'a value rule is {"type": "enum", "values": [...]} or {"type": "integer", "min": N, "max": N}',
            ),
            "rule without type": (with_rule({"values": ["a"]}), "invalid_value_rule", rule, "a value rule is"),
            "unknown rule type": (with_rule({"type": "string"}), "invalid_value_rule", rule, "a value rule is"),
            "rule type in another case": (
                with_rule({"type": "Enum", "values": ["a"]}),
                "invalid_value_rule",
                rule,
                "a value rule is",
            ),
            "rule type unhashable": (
                with_rule({"type": ["enum"], "values": ["a"]}),
                "invalid_value_rule",
                rule,
                "a value rule is",
            ),
            "enum with a min": (
                with_rule({"type": "enum", "values": ["a"], "min": 1}),
                "invalid_value_rule",
                f"{rule}/min",
                "unknown key 'min'",
            ),
            "enum without values": (
                with_rule({"type": "enum"}),
                "invalid_value_rule",
                f"{rule}/values",
                "an enum rule needs a non-empty list of values",
            ),
            "enum with no values": (
                with_rule({"type": "enum", "values": []}),
                "invalid_value_rule",
                f"{rule}/values",
                "non-empty list of values",
            ),
            "enum values a string": (
                with_rule({"type": "enum", "values": "refuse"}),
                "invalid_value_rule",
                f"{rule}/values",
                "non-empty list of values",
            ),
            "enum value a number": (
                with_rule({"type": "enum", "values": ["refuse", 30]}),
                "invalid_value_rule",
                f"{rule}/values/1",
                "value an int is not a token",
            ),
            "enum value with a space": (
                with_rule({"type": "enum", "values": ["refuse", "over write"]}),
                "invalid_value_rule",
                f"{rule}/values/1",
                "'over write'",
            ),
            "enum value with '='": (
                with_rule({"type": "enum", "values": ["a=b"]}),
                "invalid_value_rule",
                f"{rule}/values/0",
                "'a=b' is not a token",
            ),
            "enum value starting with '_'": (
                with_rule({"type": "enum", "values": ["_a"]}),
                "invalid_value_rule",
                f"{rule}/values/0",
                "'_a'",
            ),
            "enum value of 65 characters": (
                with_rule({"type": "enum", "values": ["v" * 65]}),
                "invalid_value_rule",
                f"{rule}/values/0",
                "at most 64",
            ),
            "enum value empty": (
                with_rule({"type": "enum", "values": [""]}),
                "invalid_value_rule",
                f"{rule}/values/0",
                "value '' is not a token",
            ),
            "enum value listed twice": (
                with_rule({"type": "enum", "values": ["a", "b", "a"]}),
                "invalid_value_rule",
                f"{rule}/values/2",
                "value 'a' is listed twice",
            ),
            "integer with values": (
                with_rule({"type": "integer", "values": ["1"]}),
                "invalid_value_rule",
                f"{rule}/values",
                "unknown key 'values'",
            ),
            "integer min a string": (
                with_rule({"type": "integer", "min": "0"}),
                "invalid_value_rule",
                f"{rule}/min",
                "min must be an integer of at most 18 digits",
            ),
            "integer min a float": (
                with_rule({"type": "integer", "min": 0.0}),
                "invalid_value_rule",
                f"{rule}/min",
                "min must be an integer",
            ),
            "integer min a boolean": (
                with_rule({"type": "integer", "min": True}),
                "invalid_value_rule",
                f"{rule}/min",
                "min must be an integer",
            ),
            "integer min null": (
                with_rule({"type": "integer", "min": None}),
                "invalid_value_rule",
                f"{rule}/min",
                "min must be an integer",
            ),
            "integer max of 19 digits": (
                with_rule({"type": "integer", "max": 10**18}),
                "invalid_value_rule",
                f"{rule}/max",
                "max must be an integer of at most 18 digits",
            ),
            "integer min of 19 digits": (
                with_rule({"type": "integer", "min": -(10**18)}),
                "invalid_value_rule",
                f"{rule}/min",
                "at most 18 digits",
            ),
            "integer min over max": (
                with_rule({"type": "integer", "min": 5, "max": 4}),
                "invalid_value_rule",
                rule,
                "min 5 is greater than max 4",
            ),
        }
        for name, (data, reason, pointer, detail) in cases.items():
            with self.subTest(name):
                error = self.refused(data, reason, pointer)
                self.assertIn(detail, str(error))
                self.assertTrue(str(error).startswith(f"at {pointer}: "), str(error))
        self.assertEqual({case[1] for case in cases.values()}, set(GRAMMAR_REASONS))

    def test_the_issue_example_pointer(self) -> None:
        """Guards against a pointer that stops at the rule instead of naming the bad value."""
        data = with_rule({"type": "enum", "values": ["refuse", "Over write"]})
        error = self.refused(
            data, "invalid_value_rule", "/grammar/operations/create_copy/existing_path/values/1", path="manifest.json"
        )
        self.assertTrue(
            str(error).startswith(
                "manifest.json at /grammar/operations/create_copy/existing_path/values/1: "
                "value 'Over write' is not a token"
            ),
            str(error),
        )

    def test_pointers_escape_slash_and_tilde(self) -> None:
        """Guards against a pointer that names another member (RFC 6901: '~' is '~0', '/' is '~1')."""
        enum = {"type": "enum", "values": ["a"]}
        cases = {
            "a/b": "/grammar/operations/create_copy/a~1b",
            "a~b": "/grammar/operations/create_copy/a~0b",
            "~1": "/grammar/operations/create_copy/~01",
        }
        for key, pointer in cases.items():
            with self.subTest(key=key):
                self.refused(with_rule(enum, key), "invalid_name", pointer)

    def test_the_first_problem_in_document_order_is_reported(self) -> None:
        """Guards against a later problem masking an earlier one (the pointer must lead to the first)."""
        data = edited(
            lambda g: g["operations"].update(
                {
                    "zeta": {"Bad": {"type": "enum", "values": ["a"]}},
                    "alpha": {"k": {"type": "nope"}},
                }
            )
        )
        self.refused(data, "invalid_name", "/grammar/operations/zeta/Bad")
        data = with_rule({"type": "enum", "values": ["a", "a", "b c"]})
        self.refused(data, "invalid_value_rule", "/grammar/operations/create_copy/existing_path/values/1")

    def test_product_with_a_lone_surrogate_is_refused(self) -> None:
        """Regression: a product holding '\\ud800' (JSON ``"\\ud800"``) passed, then crashed output.

        The product is printed by ``conflict-gate grammar`` and placed in the
        answer request; a lone surrogate cannot be encoded as UTF-8, so it must
        be refused where the grammar is checked, like every other bad product.
        """
        self.refused(edited(lambda g: g.update(product="Quill\ud800")), "invalid_grammar", "/grammar/product")

    def test_messages_are_one_printable_line(self) -> None:
        """Guards against a name with a newline or escape forging a line on the user's terminal."""
        enum = {"type": "enum", "values": ["a"]}
        cases = {
            "newline in a key": with_rule(enum, "a\nb"),
            "escape in a key": with_rule(enum, "\x1b[2J"),
            "line separator in an operation": edited(lambda g: g["operations"].update({"a\u2028b": {}})),
            "lone surrogate in the namespace": edited(lambda g: g.update(namespace="\ud800")),
            "newline in an enum value": with_rule({"type": "enum", "values": ["a\nb"]}),
            "escape in an unknown grammar key": edited(lambda g: g.update({"\x1b]0;x\x07": 1})),
            "newline in an unknown rule key": with_rule({"type": "integer", "m\nin": 1}),
        }
        for name, data in cases.items():
            with self.subTest(name):
                with self.assertRaises(GrammarError) as caught:
                    grammar_from_json(data, path="docs/m\n.json")
                message = str(caught.exception)
                self.assertTrue(message.isprintable(), repr(message))
                self.assertIn("docs/m\\n.json at /grammar", message)

    def test_integer_bounds_at_their_limits(self) -> None:
        """Guards against off-by-one limits on bounds (18 digits either sign; min == max is one value)."""
        cases = {
            "largest max": ({"type": "integer", "max": 10**18 - 1}, IntegerRule(None, 10**18 - 1)),
            "smallest min": ({"type": "integer", "min": -(10**18 - 1)}, IntegerRule(-(10**18 - 1), None)),
            "min equals max": ({"type": "integer", "min": 5, "max": 5}, IntegerRule(5, 5)),
            "no bounds": ({"type": "integer"}, IntegerRule(None, None)),
            "negative range": ({"type": "integer", "min": -9, "max": -3}, IntegerRule(-9, -3)),
        }
        for name, (rule, expected) in cases.items():
            with self.subTest(name):
                self.assertEqual(grammar_from_json(with_rule(rule)).rule("create_copy", "existing_path"), expected)

    def test_summary_is_the_manifest_form(self) -> None:
        """Guards against a summary (printed by ``grammar --format json``) that cannot be read back."""
        summary = RICH.summary()
        self.assertEqual(summary["directive"], "@acme-widgets <operation> <key>=<value>")
        data = {key: value for key, value in summary.items() if key != "directive"}
        self.assertEqual(data, RICH_JSON)
        self.assertEqual(grammar_from_json(data), RICH)


class ImmutabilityTest(unittest.TestCase):
    def test_grammar_is_frozen(self) -> None:
        """Guards against a caller changing the grammar a corpus, the gate and the reader share."""
        with self.assertRaises(dataclasses.FrozenInstanceError):
            QUILL.namespace = "acme"  # type: ignore[misc]
        with self.assertRaises(TypeError):
            QUILL.operations["delete"] = {}  # type: ignore[index]
        with self.assertRaises(TypeError):
            QUILL.operations["create_copy"]["mode"] = EnumRule(("a",))  # type: ignore[index]
        with self.assertRaises(dataclasses.FrozenInstanceError):
            QUILL.operations["create_copy"]["existing_path"].values = ("merge",)  # type: ignore[union-attr,misc]
        with self.assertRaises(dataclasses.FrozenInstanceError):
            RICH.rule("connect", "timeout").minimum = 0  # type: ignore[union-attr,misc]

    def test_editing_the_json_afterwards_changes_nothing(self) -> None:
        """Guards against a grammar that aliases the caller's dicts and lists."""
        data = copy.deepcopy(QUILL_GRAMMAR)
        grammar = grammar_from_json(data)
        data["namespace"] = "acme"
        data["operations"]["create_copy"]["existing_path"]["values"].append("merge")
        data["operations"]["create_copy"]["mode"] = {"type": "enum", "values": ["a"]}
        data["operations"]["delete"] = {"k": {"type": "integer"}}
        self.assertEqual(grammar, QUILL)
        self.assertEqual(grammar.rule("create_copy", "existing_path"), EnumRule(("refuse", "overwrite")))
        self.assertEqual(
            grammar.parse("@quill create_copy existing_path=refuse"), ("create_copy", "existing_path", "refuse")
        )
        with self.assertRaises(DirectiveError):
            grammar.parse("@quill create_copy existing_path=merge")

    def test_equal_json_gives_equal_grammars(self) -> None:
        """Value semantics: two grammars from equal JSON are equal; a different rule is not."""
        self.assertEqual(grammar_from_json(copy.deepcopy(QUILL_GRAMMAR)), QUILL)
        other = grammar_from_json(with_rule({"type": "enum", "values": ["overwrite", "refuse"]}))
        self.assertNotEqual(other, QUILL)
        self.assertIsInstance(QUILL, Grammar)


class ValueRuleTest(unittest.TestCase):
    def test_integer_values(self) -> None:
        """Guards against ``int()`` leniency: '+3', '030', '-0', '３０', '1_000', ' 3' must not pass."""
        non_negative = IntegerRule(0, 30)
        unbounded = IntegerRule()
        cases: list[tuple[IntegerRule, str, str | None]] = [
            # (rule, value, reason or None when allowed)
            (non_negative, "0", None),
            (non_negative, "30", None),
            (non_negative, "7", None),
            (non_negative, "31", "integer_out_of_range"),
            (non_negative, "030", "invalid_integer"),
            (non_negative, "00", "invalid_integer"),
            (non_negative, "+3", "invalid_integer"),
            (non_negative, "-0", "invalid_integer"),
            (non_negative, "-1", "invalid_integer"),  # no '-' when the minimum is not negative
            (non_negative, "\uff13\uff10", "invalid_integer"),  # fullwidth 30: int() would take it
            (non_negative, "\u0663", "invalid_integer"),  # Arabic-Indic 3
            (non_negative, "\u00b3", "invalid_integer"),  # superscript 3
            (non_negative, "1_0", "invalid_integer"),
            (non_negative, " 3", "invalid_integer"),
            (non_negative, "3 ", "invalid_integer"),
            (non_negative, "3\n", "invalid_integer"),
            (non_negative, "1e1", "invalid_integer"),
            (non_negative, "0x1", "invalid_integer"),
            (non_negative, "3.0", "invalid_integer"),
            (non_negative, "", "invalid_integer"),
            (non_negative, "-", "invalid_integer"),
            (IntegerRule(1, None), "0", "integer_out_of_range"),
            (IntegerRule(1, None), "999999999999999999", None),
            (IntegerRule(1, None), "1000000000000000000", "invalid_integer"),  # 19 digits
            (unbounded, "-7", None),
            (unbounded, "-999999999999999999", None),
            (unbounded, "-1000000000000000000", "invalid_integer"),
            (unbounded, "-0", "invalid_integer"),
            (unbounded, "-07", "invalid_integer"),
            (unbounded, "--7", "invalid_integer"),
            (IntegerRule(None, 5), "-100", None),  # no minimum: negatives allowed
            (IntegerRule(None, 5), "6", "integer_out_of_range"),
            (IntegerRule(-5, 5), "-5", None),
            (IntegerRule(-5, 5), "-6", "integer_out_of_range"),
            (IntegerRule(-5, 5), "6", "integer_out_of_range"),
            (IntegerRule(0, None), "-3", "invalid_integer"),
        ]
        for rule, value, reason in cases:
            with self.subTest(rule=rule, value=value):
                problem = rule.check(value)
                self.assertEqual(problem and problem[0], reason, problem)

    def test_integer_messages(self) -> None:
        """The detail says what a canonical integer is, and the range that was missed."""
        self.assertEqual(
            IntegerRule(0, 30).check("030"),
            (
                "invalid_integer",
                "value '030' is not a canonical non-negative integer "
                "(ASCII digits, no '+', no leading zeros, at most 18 digits)",
            ),
        )
        self.assertEqual(
            IntegerRule().check("+1"),
            (
                "invalid_integer",
                "value '+1' is not a canonical integer (ASCII digits, no '+', no leading zeros, at most 18 digits)",
            ),
        )
        self.assertEqual(IntegerRule(0, 30).check("31"), ("integer_out_of_range", "value 31 is outside integer 0..30"))
        self.assertEqual(IntegerRule(1, None).check("0"), ("integer_out_of_range", "value 0 is outside integer >= 1"))
        self.assertEqual(IntegerRule(None, 5).check("6"), ("integer_out_of_range", "value 6 is outside integer <= 5"))
        self.assertEqual(IntegerRule().describe(), "integer")

    def test_enum_values_are_exact_tokens(self) -> None:
        """Guards against case folding, trimming or Unicode look-alikes matching an enum value."""
        rule = EnumRule(("refuse", "30"))
        for value in ("refuse", "30"):
            with self.subTest(value=value):
                self.assertIsNone(rule.check(value))
        for value in ("Refuse", "refuse ", "\uff52efuse", "030", "", "refuse\u200b"):
            with self.subTest(value=value):
                problem = rule.check(value)
                self.assertEqual(problem and problem[0], "unknown_directive_value")
                self.assertIn("(allowed: refuse, 30)", problem[1])  # type: ignore[index]
        self.assertEqual(rule.describe(), "refuse | 30")

    def test_long_enum_lists_are_clipped_in_messages(self) -> None:
        """Guards against a message that lists hundreds of values."""
        rule = EnumRule(tuple(f"v{i}" for i in range(20)))
        problem = rule.check("x")
        self.assertTrue(problem[1].endswith("v11, ... (20 in all))"), problem)  # type: ignore[index]


class ParseTest(unittest.TestCase):
    def test_accepts_every_value_of_the_grammar(self) -> None:
        """Control: every enum value of both grammars parses to (operation, key, value)."""
        for grammar in (QUILL, RICH):
            for operation, key, rule in grammar.claims():
                if isinstance(rule, EnumRule):
                    for value in rule.values:
                        with self.subTest(grammar=grammar.namespace, key=key, value=value):
                            line = grammar.directive(operation, key, value)
                            self.assertEqual(grammar.parse(line), (operation, key, value))

    def test_integer_directives_keep_the_token(self) -> None:
        """Guards against the agreed value becoming an int (then '30' and 30 would both 'agree')."""
        cases = {
            "@acme-widgets connect max-retries=10": ("connect", "max-retries", "10"),
            "@acme-widgets connect max-retries=0": ("connect", "max-retries", "0"),
            "@acme-widgets connect offset=-42": ("connect", "offset", "-42"),
            "@acme-widgets connect timeout=999999999999999999": ("connect", "timeout", "999999999999999999"),
            "@acme-widgets connect mode=30": ("connect", "mode", "30"),
            "@acme-widgets v2.close flush=yes": ("v2.close", "flush", "yes"),
        }
        for line, expected in cases.items():
            with self.subTest(line=line):
                parsed = RICH.parse(line)
                self.assertEqual(parsed, expected)
                self.assertIs(type(parsed[2]), str)

    def test_refusals_with_reason_and_column(self) -> None:
        """Guards against accepting a near-miss, or a column that does not point where the line goes wrong.

        Columns are 1-based code points. For a body that cannot match, the
        column is the first character where no directive could continue
        (or one past the end when the line stops short).
        """
        prefix = "@quill create_copy existing_path"
        cases: list[tuple[str, str, int]] = [
            # (line, reason, column)
            (prefix + " = refuse", "malformed_directive", len(prefix) + 1),
            (prefix + "==refuse", "malformed_directive", len(prefix) + 2),
            (prefix + "=a=b", "malformed_directive", len(prefix) + 3),
            ("@quill create_copy  existing_path=refuse", "malformed_directive", 20),
            ("@quill =x y=z", "malformed_directive", 8),
            ("@quill a=b c=d", "malformed_directive", 9),
            ("@quill\tcreate_copy existing_path=refuse", "malformed_directive", 7),
            ("@quill create_copy\u00a0existing_path=refuse", "malformed_directive", 19),
            (prefix + "=refuse ", "malformed_directive", len(prefix + "=refuse") + 1),
            (prefix + "=refuse\r", "malformed_directive", len(prefix + "=refuse") + 1),
            (prefix + "=refuse\u3000", "malformed_directive", len(prefix + "=refuse") + 1),
            (prefix + "=refuse # note", "malformed_directive", len(prefix + "=refuse") + 1),
            (prefix + "=refuse=", "malformed_directive", len(prefix + "=refuse") + 1),
            (" " + prefix + "=refuse", "malformed_directive", 1),
            ("\u200b" + prefix + "=refuse", "malformed_directive", 1),
            ("\ufeff" + prefix + "=refuse", "malformed_directive", 1),
            ("x" + prefix + "=refuse", "malformed_directive", 1),
            ("@quil create_copy existing_path=refuse", "malformed_directive", 6),
            ("@QUILL create_copy existing_path=refuse", "malformed_directive", 2),
            ("\uff20quill create_copy existing_path=refuse", "malformed_directive", 1),
            ("@quillcreate_copy existing_path=refuse", "malformed_directive", 7),
            ("@quill.task", "malformed_directive", 7),
            ("@quill", "malformed_directive", 7),
            ("@", "malformed_directive", 2),
            ("", "malformed_directive", 1),
            ("@quill ", "malformed_directive", 8),
            ("@quill create_copy", "malformed_directive", len("@quill create_copy") + 1),
            (prefix, "malformed_directive", len(prefix) + 1),
            (prefix + "=", "malformed_directive", len(prefix + "=") + 1),
            ("@quill copy_file existing_path=refuse", "unsupported_operation", 8),
            ("@quill Create_copy existing_path=refuse", "unsupported_operation", 8),
            ("@quill cr\u00ebate_copy existing_path=refuse", "unsupported_operation", 8),
            ("@quill create_copy mode=refuse", "unsupported_claim_key", 20),
            ("@quill create_copy Existing_path=refuse", "unsupported_claim_key", 20),
            (prefix + "=merge", "unknown_directive_value", len(prefix + "=") + 1),
            (prefix + "=Refuse", "unknown_directive_value", len(prefix + "=") + 1),
            (prefix + "=\uff52efuse", "unknown_directive_value", len(prefix + "=") + 1),
            (
                "@quill create_copy close_required=refuse",
                "unknown_directive_value",
                len("@quill create_copy close_required=") + 1,
            ),
        ]
        for line, reason, column in cases:
            with self.subTest(line=line):
                with self.assertRaises(DirectiveError) as caught:
                    QUILL.parse(line, source_id="s", path="p.md", line=4)
                error = caught.exception
                self.assertEqual((error.reason, error.column), (reason, column), str(error))
                self.assertEqual((error.source_id, error.path, error.line, error.quote), ("s", "p.md", 4, line))
                self.assertTrue(str(error).startswith(f"source 's' (p.md:4:{column}): "), str(error))
                self.assertTrue(str(error).isprintable(), repr(str(error)))

    def test_column_points_at_a_missing_operation_or_key(self) -> None:
        """Regression: an empty operation or key (a doubled space, '=' right after a space) was skipped.

        The column went to the next space or past the end of the line instead
        of the character where the operation or key is missing, so an editor
        jumped to the wrong place (column 20 for a doubled space at column 8).
        """
        cases = {
            "@quill  create_copy existing_path=refuse": 8,
            "@quill  x=y": 8,
            "@quill create_copy =refuse": 20,
        }
        for line, column in cases.items():
            with self.subTest(line=line):
                with self.assertRaises(DirectiveError) as caught:
                    QUILL.parse(line)
                self.assertEqual((caught.exception.reason, caught.exception.column), ("malformed_directive", column))
                self.assertIsNotNone(caught.exception.column)
                self.assertLessEqual(caught.exception.column or 0, len(line))

    def test_integer_refusals_with_reason_and_column(self) -> None:
        """Guards against lenient integers in directives, and out-of-range ones reported as malformed."""
        head = "@acme-widgets connect "
        cases = [
            ("max-retries=030", "invalid_integer"),
            ("max-retries=+3", "invalid_integer"),
            ("max-retries=-0", "invalid_integer"),
            ("max-retries=-1", "invalid_integer"),
            ("max-retries=\uff13\uff10", "invalid_integer"),
            ("max-retries=11", "integer_out_of_range"),
            ("timeout=0", "integer_out_of_range"),
            ("timeout=1000000000000000000", "invalid_integer"),
            ("offset=-0", "invalid_integer"),
            ("delta=-6", "integer_out_of_range"),
            ("ceiling=6", "integer_out_of_range"),
            ("mode=030", "unknown_directive_value"),
        ]
        for body, reason in cases:
            line = head + body
            with self.subTest(line=line):
                with self.assertRaises(DirectiveError) as caught:
                    RICH.parse(line, line=2)
                error = caught.exception
                column = len(head) + body.index("=") + 2
                self.assertEqual((error.reason, error.column, error.line), (reason, column, 2))
                self.assertTrue(str(error).startswith(f":2:{column}: connect "), str(error))

    def test_parse_produces_every_grammar_reason(self) -> None:
        """``Grammar.parse`` produces each reason its docstring names, all of them registered."""
        lines = {
            "malformed_directive": "@quill  create_copy existing_path=refuse",
            "unsupported_operation": "@quill delete existing_path=refuse",
            "unsupported_claim_key": "@quill create_copy mode=refuse",
            "unknown_directive_value": "@quill create_copy existing_path=merge",
        }
        reasons = set()
        for expected, line in lines.items():
            with self.assertRaises(DirectiveError) as caught:
                QUILL.parse(line)
            reasons.add(caught.exception.reason)
            self.assertEqual(caught.exception.reason, expected)
        for line in ("@acme-widgets connect max-retries=01", "@acme-widgets connect max-retries=99"):
            with self.assertRaises(DirectiveError) as caught:
                RICH.parse(line)
            reasons.add(caught.exception.reason)
        self.assertEqual(reasons, PARSE_REASONS)
        self.assertLessEqual(PARSE_REASONS, set(DIRECTIVE_REASONS))

    def test_messages_give_a_hint(self) -> None:
        """A refusal says what to do: the expected form, the known names, the allowed values or range."""
        form = "expected exactly '@quill <operation> <key>=<value>'"
        cases = {
            "@QUILL create_copy existing_path=refuse": f"{form}, got '@QUILL create_copy existing_path=refuse'; "
            "a directive starts with '@quill ': lowercase, one space",
            "@quill create_copy existing_path = refuse": f"{form}, got '@quill create_copy existing_path = refuse'; "
            "use single spaces, names from the grammar and nothing after the value",
            "@quill delete existing_path=refuse": "unsupported operation 'delete' (known: create_copy); to accept it, add it to the "
            'manifest\'s grammar first, under "operations" with its keys',
            "@quill create_copy mode=refuse": "unsupported key 'mode' for 'create_copy' (known: existing_path, close_required); to accept it, "
            "add it to the manifest's grammar first, under \"operations\" -> 'create_copy'",
            "@quill create_copy existing_path=merge": "create_copy existing_path: value 'merge' is not allowed (allowed: refuse, overwrite)",
        }
        for line, detail in cases.items():
            with self.subTest(line=line):
                with self.assertRaises(DirectiveError) as caught:
                    QUILL.parse(line)
                self.assertEqual(caught.exception.detail, detail)
                self.assertEqual(str(caught.exception), detail)  # no location given: the detail alone
        with self.assertRaises(DirectiveError) as caught:
            RICH.parse("@acme-widgets connect max-retries=11")
        self.assertEqual(caught.exception.detail, "connect max-retries: value 11 is outside integer 0..10")

    def test_long_and_unprintable_lines(self) -> None:
        """Guards against a huge or hostile line making a huge or multi-line message."""
        long_line = "@quill create_copy existing_path=refuse " + "r" * 500
        with self.assertRaises(DirectiveError) as caught:
            QUILL.parse(long_line)
        error = caught.exception
        self.assertEqual(error.quote, long_line[:200])
        self.assertIn(repr(long_line[:80]) + "... (540 code points)", str(error))
        self.assertLess(len(str(error)), 300)
        hostile = {
            "escape in the operation": "@quill \x1b[2Jcreate existing_path=refuse",
            "escape in the key": "@quill create_copy \x1b]0;pwned\x07=refuse",
            "escape in the value": "@quill create_copy existing_path=\x1b[31mrefuse",
            "line separator": "@quill create_copy existing_path=refuse\u2028@quill x y=z",
            "bidi override": "@quill create_copy existing_path=\u202eesufer",
            "lone surrogate": "@quill create_copy existing_path=\ud800",
            "newline": "@quill create_copy existing_path=refuse\n@quill",
        }
        for name, line in hostile.items():
            with self.subTest(name):
                with self.assertRaises(DirectiveError) as caught:
                    QUILL.parse(line, source_id="a\nb", path="docs/\x1b.md", line=1)
                message = str(caught.exception)
                self.assertTrue(message.isprintable(), repr(message))
                self.assertTrue(message.startswith("source 'a\\nb' (docs/\\x1b.md:1:"), message)
                self.assertEqual(caught.exception.quote, line)  # the attribute keeps the line as written

    def test_parse_reads_the_namespace_from_the_grammar(self) -> None:
        """Guards against a parser that still expects '@quill' whatever the manifest declares."""
        with self.assertRaises(DirectiveError) as caught:
            RICH.parse("@quill connect mode=fast")
        self.assertEqual((caught.exception.reason, caught.exception.column), ("malformed_directive", 2))
        self.assertIn("a directive starts with '@acme-widgets '", str(caught.exception))
        self.assertEqual(RICH.parse("@acme-widgets connect mode=Slow.v2"), ("connect", "mode", "Slow.v2"))


class ShapeTest(unittest.TestCase):
    """``Grammar.shape``: what a reader may take for a directive, matched after NFKC."""

    SHAPED: ClassVar[list[str]] = [
        "@quill create_copy existing_path=refuse",
        "@quill x",
        "@quill_ x",  # a trailing '_' is emphasis markup, not a name character
        "@Quill x",
        "@QUILL x",
        "@qUiLl",
        "\uff20quill x",  # fullwidth at sign
        "\ufe6bquill x",  # small at sign
        "@\uff51\uff55\uff49\uff4c\uff4c x",  # fullwidth letters
        "@q_u_i_l_l x",
        "@*quill* x",
        "@~~quill~~ x",
        "@_quill_ x",
        "@quill",
        "@quill:",
        "@quill=x",
        "@quill\tx",
        "@quill\u00e9",  # a non-ASCII letter is no name character
    ]
    NOT_SHAPED: ClassVar[list[str]] = [
        "@quill_team",
        "@quilljs",
        "@quill.task(",
        "@quill/core",  # an npm scoped package: a slash goes on a path, never a directive
        "@quill-x",
        "@quill2 x",
        "@quil x",
        "@ quill x",
        "@alice reviewed this",
        "quill x",
        "@qu ill x",
        "@quill__team",
    ]

    def test_directive_shaped_text(self) -> None:
        """Guards against look-alikes slipping past the shape, and plain words being taken for it."""
        for text in self.SHAPED:
            with self.subTest(shaped=text):
                self.assertIsNotNone(QUILL.shape.match(nfkc(text)))
        for text in self.NOT_SHAPED:
            with self.subTest(not_shaped=text):
                self.assertIsNone(QUILL.shape.match(nfkc(text)))

    def test_shape_follows_the_namespace(self) -> None:
        """Guards against a shape that still looks for '@quill' (or ignores '-' and '.' in a namespace)."""
        cases = {
            "@acme-widgets connect mode=fast": True,
            "@Acme-Widgets x": True,
            "@acme_widgets x": False,  # '-' is part of the name, '_' is not a stand-in for it
            "@acme-widgets.io x": False,
            "@acmewidgets x": False,
            "@quill create_copy existing_path=refuse": False,
        }
        for text, shaped in cases.items():
            with self.subTest(text=text):
                self.assertEqual(RICH.shape.match(nfkc(text)) is not None, shaped)
        underscored = grammar_from_json(edited(lambda g: g.update(namespace="my_ns")))
        for text in ("@my_ns x", "@myns x", "@my__ns x", "@MY_NS x"):
            with self.subTest(namespace="my_ns", text=text):
                self.assertIsNotNone(underscored.shape.match(text))
        self.assertIsNone(underscored.shape.match("@my_nsx y"))

    def test_candidates_find_every_shaped_at_sign(self) -> None:
        """Guards against the cheap pre-filter skipping an at sign the shape would match (fail open)."""
        for text in [
            *self.SHAPED,
            "&#64;quill x",
            "&#x40;quill x",
            "&commat;quill x",
            "@qu&#105;ll x",
            "@qu\\ill x",
            "@q\u200buill x",
            "@quill\xad x",
            "@<b>quill</b> x",
        ]:
            with self.subTest(text=text):
                encoded = text.encode("utf-8")
                found = [p.match(encoded) for literal, p in QUILL.candidates if encoded.startswith(literal)]
                self.assertTrue(any(found))

    def test_candidates_skip_plain_other_words(self) -> None:
        """The filter's purpose: an at sign before a plain word that is not the namespace is skipped."""
        for text in (
            "@alice reviewed",
            "@quilljs",
            "@quill_team",
            "@pytest.fixture",
            "@retry(times=3)",
            "user@example.com",
        ):
            with self.subTest(text=text):
                for _, pattern in QUILL.candidates:
                    self.assertEqual(list(pattern.finditer(text.encode("utf-8"))), [])


if __name__ == "__main__":
    unittest.main()

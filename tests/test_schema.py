"""The JSON Schemas of the results: well-formed and strict (standard library), and every result valid (jsonschema).

:class:`SchemaStructureTest` needs nothing installed: every schema declares
draft 2020-12, every ``$ref`` resolves, every object is closed, and the
enumerations are the registry's. :class:`SchemaValidationTest` needs
``jsonschema`` (pinned in ``.ci/run``, which runs it in a throwaway virtual
environment; without it the class skips, saying so): the lab's saved result,
every case's decision, the lab's ``audit --format json`` and answer checks, and
the decisions, audits and answer checks of seeded random corpora validate
(``CONFLICT_GATE_FUZZ_CASES`` of them, 15 by default; ``.ci/run`` step 4: 40); a
result with a field removed, added, of the wrong type or of another reason
does not.
"""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
import tempfile
import unittest
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

from _conflict_gate.answer.check import check_answer
from _conflict_gate.base.errors import LocatedError
from _conflict_gate.base.registry import AUDIT_STATUSES, DECISIONS, FINDINGS, INGESTION_REASONS, VERDICTS
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.decide.decision import audit, gate
from _conflict_gate.results.schema import DIALECT, SCHEMAS, result_schema
from tests.support import FIXTURE_MANIFEST, QUILL_GRAMMAR, REPO, run_cli, schema_validator, write_corpus

try:
    import jsonschema
except ImportError:  # the default suite runs with nothing installed
    jsonschema = None

SAVED = REPO / "expected-result.json"
FUZZ_CORPORA = int(os.environ.get("CONFLICT_GATE_FUZZ_CASES", "15"))


def walk(node: Any) -> Iterator[Any]:
    """Every dict and list inside ``node``, ``node`` included."""
    yield node
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        yield from walk(child)


class SchemaStructureTest(unittest.TestCase):
    def test_each_schema_is_closed_and_every_reference_resolves(self) -> None:
        for name in SCHEMAS:
            with self.subTest(name):
                schema = result_schema(name)
                self.assertEqual(schema["$schema"], DIALECT)
                self.assertEqual(json.loads(json.dumps(schema)), schema)  # JSON, as printed
                self.assertEqual(result_schema(name), schema)  # the same every time
                defs = schema["$defs"]
                for node in walk(schema):
                    if isinstance(node, dict) and "$ref" in node:
                        self.assertTrue(node["$ref"].startswith("#/$defs/"), node)
                        self.assertIn(node["$ref"][len("#/$defs/") :], defs)
                    if isinstance(node, dict) and node.get("type") == "object" and "properties" in node:
                        self.assertIs(node["additionalProperties"], False, node.get("description"))
                        self.assertLessEqual(set(node["required"]), set(node["properties"]))

    def test_enumerations_come_from_the_registry(self) -> None:
        defs = result_schema("lab-result")["$defs"]
        decision = defs["Decision"]["properties"]
        self.assertEqual(decision["status"]["enum"], list(DECISIONS))
        self.assertEqual(decision["reason"]["enum"], [r for reasons in DECISIONS.values() for r in reasons])
        self.assertEqual(defs["LabAnswer"]["properties"]["verdict"]["enum"], list(VERDICTS))
        self.assertEqual(
            result_schema("answer-check")["$defs"]["AnswerCheck"]["properties"]["verdict"]["enum"], list(VERDICTS)
        )
        self.assertEqual(defs["Finding"]["properties"]["kind"]["enum"], list(FINDINGS))
        self.assertEqual(defs["IngestionRefusal"]["properties"]["reason"]["enum"], list(INGESTION_REASONS))
        audit_defs = result_schema("audit")["$defs"]
        self.assertEqual(audit_defs["AuditEntry"]["properties"]["status"]["enum"], list(AUDIT_STATUSES))

    def test_each_decision_reason_has_an_if_then_rule(self) -> None:
        rules = result_schema("decision")["$defs"]["Decision"]["allOf"]
        reasons = [rule["if"]["properties"]["reason"]["const"] for rule in rules]
        self.assertEqual(reasons, [r for reasons in DECISIONS.values() for r in reasons])
        ready = rules[reasons.index("eligible_directives_agree")]["then"]
        self.assertEqual(ready["required"], ["agreed_value"])
        self.assertIs(ready["properties"]["missing_claim_source_ids"], False)
        self.assertEqual(ready["properties"]["status"], {"const": "ready"})

    def test_an_unknown_name_is_a_key_error(self) -> None:
        with self.assertRaises(KeyError):
            result_schema("verdict")


@unittest.skipIf(
    jsonschema is None,
    "SKIPPED: jsonschema is not installed; .ci/run installs it (pinned) into a "
    "throwaway venv and runs this class there",
)
class SchemaValidationTest(unittest.TestCase):
    validators: ClassVar[dict[str, Any]]
    saved: ClassVar[Any]

    @classmethod
    def setUpClass(cls) -> None:
        assert jsonschema is not None
        cls.validators = {name: schema_validator(name) for name in SCHEMAS}  # each schema checked first
        cls.saved = json.loads(SAVED.read_text(encoding="utf-8"))

    def assertValid(self, name: str, instance: Any) -> None:
        errors = sorted(self.validators[name].iter_errors(json.loads(json.dumps(instance))), key=str)
        self.assertEqual([], [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:3]])

    def assertInvalid(self, name: str, instance: Any, why: str) -> None:
        self.assertFalse(self.validators[name].is_valid(instance), f"{why} still validates")

    def test_the_saved_result_and_each_of_its_parts(self) -> None:
        self.assertValid("lab-result", self.saved)
        for case in self.saved["cases"]:
            with self.subTest(case["case_id"]):
                self.assertValid("decision", case["result"])
        for answer in self.saved["answers"]:
            with self.subTest(answer["answer_id"]):
                self.assertValid(
                    "answer-check", {k: answer[k] for k in ("verdict", "verdict_class", "findings", "decision")}
                )

    def test_the_lab_audit_as_the_command_prints_it(self) -> None:
        code, out, err = run_cli(["audit", "--manifest", str(FIXTURE_MANIFEST), "--format", "json"])
        self.assertEqual(code, 1, err)  # the lab is not clean by design
        self.assertValid("audit", json.loads(out))

    def test_an_audit_with_unlisted_pages(self) -> None:
        """The audit of a manifest with ``sources``: one page unlisted that init --update can add, one it cannot."""
        with tempfile.TemporaryDirectory(prefix="conflict-gate-schema-") as tmp:
            docs = Path(tmp, "docs")
            for rel in ("1.0/a.md", "1.0/b.md", "1.1.0/c.md"):
                (docs / rel).parent.mkdir(parents=True, exist_ok=True)
                (docs / rel).write_bytes(b"# Page\n\n@quill create_copy existing_path=refuse\n")
            (docs / "1.1.0" / "c.md").rename(docs / "c.md")
            self.assertEqual(run_cli(["init", str(docs), "--version-from", "{version}/**"])[0], 0)
            manifest = str(docs / "manifest.json")
            self.assertEqual(run_cli(["pin", "--manifest", manifest])[0], 0)
            (docs / "1.0" / "new.md").write_bytes(b"# New\n")
            (docs / "c.md").rename(docs / "1.1.0" / "c.md")
            report = audit(load_documents(manifest))
        self.assertEqual(
            [(u["path"], u["source_id"]) for u in report["unlisted_sources"]],
            [("1.0/new.md", "1.0/new"), ("1.1.0/c.md", None)],
        )
        self.assertValid("audit", report)
        broken = json.loads(json.dumps(report))
        broken["unlisted_sources"][0]["reason"] = "unlisted"
        self.assertInvalid("audit", broken, "an unlisted page of an unknown reason")

    def test_a_result_with_a_field_removed_added_or_of_the_wrong_type_fails(self) -> None:
        ready = next(c["result"] for c in self.saved["cases"] if c["result"]["status"] == "ready")
        conflict = next(c["result"] for c in self.saved["cases"] if c["result"]["status"] == "conflict")
        refused = next(c["result"] for c in self.saved["cases"] if c["result"]["status"] == "refused")
        mutants: dict[str, tuple[Any, Callable[[Any], object]]] = {
            "a required field removed": (ready, lambda d: d.pop("eligible_source_ids")),
            "the reason's own field removed": (ready, lambda d: d.pop("agreed_value")),
            "an unknown field added": (ready, lambda d: d.update(extra=1)),
            "a field added inside a claim": (ready, lambda d: d["claims"][0].update(extra=1)),
            "a line as a string": (ready, lambda d: d["claims"][0].update(start_line="37")),
            "a digest that is not hex": (ready, lambda d: d["claims"][0].update(source_sha256="x" * 64)),
            "another reason's field": (conflict, lambda d: d.update(agreed_value="refuse")),
            "a status that does not fit the reason": (conflict, lambda d: d.update(status="ready")),
            "an unregistered reason": (conflict, lambda d: d.update(reason="values_differ")),
            "an answer request when not ready": (conflict, lambda d: d.update(answer_request=ready["answer_request"])),
            "no answer request when ready": (ready, lambda d: d.update(answer_request=None)),
            "claims on a refusal": (refused, lambda d: d.update(claims=ready["claims"])),
            "a fourth message": (
                ready,
                lambda d: d["answer_request"]["messages"].extend(
                    [{"role": "user", "content": "q"}, {"role": "user", "content": "r"}]
                ),
            ),
            "the claims' message dropped": (ready, lambda d: d["answer_request"]["messages"].pop()),
        }
        for why, (base, mutate) in mutants.items():
            with self.subTest(why):
                mutant = copy.deepcopy(base)
                mutate(mutant)
                self.assertInvalid("decision", mutant, why)
        asked = gate(
            load_documents(FIXTURE_MANIFEST),
            ["quill-guide", "quill-reference"],
            "1.0",
            "create_copy",
            "existing_path",
            question="Does create_copy overwrite?",
        )
        self.assertValid("decision", json.loads(json.dumps(asked)))  # three messages: the user's question last
        lab = copy.deepcopy(self.saved)
        lab["answers"][0]["verdict"] = "fine"
        self.assertInvalid("lab-result", lab, "an unregistered verdict")
        lab = copy.deepcopy(self.saved)
        lab["changed_source"]["result"]["eligible_source_ids"] = []
        self.assertInvalid("lab-result", lab, "eligibility on a refusal before deciding")

    def test_non_strict_and_set_aside_results_validate(self) -> None:
        """Decisions refused by a failed source, decisions made with unrelated="set_aside", and the
        audit of a corpus with failed sources; a failed source's refusal claiming another class fails."""
        from tests.test_isolation import GRAMMAR, SERVICE_FILES, SERVICE_STATUSES, SERVICE_VERSIONS, requests

        with tempfile.TemporaryDirectory(prefix="conflict-gate-schema-") as tmp:
            manifest = write_corpus(
                Path(tmp), SERVICE_FILES, versions=SERVICE_VERSIONS, statuses=SERVICE_STATUSES, grammar=GRAMMAR
            )
            (Path(tmp) / "docs/rival.md").unlink()
            corpus = load_documents(manifest, strict=False)
        self.assertValid("audit", audit(corpus))
        reasons = set()
        for candidates, version, operation, key, unrelated in requests(["broken", "guide", "mover", "rival"]):
            decision = gate(corpus, candidates, version, operation, key, unrelated=unrelated)
            if (decision["reason"], unrelated) not in reasons:  # one of each: validating is slow
                self.assertValid("decision", decision)
                reasons.add((decision["reason"], unrelated))
        self.assertLessEqual(
            {
                ("source_missing", "withhold"),
                ("source_missing", "set_aside"),
                ("no_related_source", "set_aside"),
                ("eligible_directives_agree", "set_aside"),
            },
            reasons,
        )
        failed = gate(corpus, ["rival"], "1.0", "create_copy", "existing_path")
        self.assertInvalid("decision", {**failed, "error": "DirectiveError"}, "a failed source as a directive error")
        aside = gate(corpus, ["guide", "mover"], "1.0", "create_copy", "existing_path", unrelated="set_aside")
        self.assertInvalid("decision", {**aside, "set_aside_unrelated_ids": "mover"}, "set-aside ids as a string")

    def test_the_service_results_validate(self) -> None:
        """The versions listing (also with a failed page), a truncated audit and tool errors of each class."""
        from _conflict_gate.service.gate import GateService

        with tempfile.TemporaryDirectory(prefix="conflict-gate-schema-") as tmp:
            shutil.copytree(REPO / "docs", Path(tmp) / "docs")
            shutil.copy2(FIXTURE_MANIFEST, Path(tmp) / "manifest.json")
            service = GateService(Path(tmp) / "manifest.json")
            self.assertValid("versions", service.versions())
            self.assertValid("audit", service.audit(1))
            (Path(tmp) / "docs" / "quill-guide.md").write_bytes(b"# edited\n")
            listing = service.versions()
            self.assertValid("versions", listing)
            errors: list[LocatedError] = []
            for call in (
                lambda: service.gate(["ghost"], "1.0", "existing_path"),
                lambda: service.check_answer({"candidate_ids": []}, "x"),
            ):
                try:
                    call()
                except LocatedError as error:
                    errors.append(error)
            (Path(tmp) / "manifest.json").write_text("{", encoding="utf-8")
            try:
                service.audit()
            except LocatedError as error:
                errors.append(error)
        self.assertEqual([type(e).__name__ for e in errors], ["GateError", "DecisionError", "IngestionError"])
        for located in errors:
            self.assertValid("tool-error", service.error_result(located)[1])
        self.assertInvalid("tool-error", {**service.error_result(errors[0])[1], "reason": "oops"}, "an unknown reason")
        self.assertInvalid("versions", {**listing, "renderer": "hugo"}, "a renderer the registry does not have")

    def test_results_of_random_corpora_validate(self) -> None:
        """The decisions, audits and answer checks of seeded random pages (the fuzz tests' generator)."""
        from tests.test_fuzz import fuzz_page

        rng = random.Random(20261201)
        checked = 0
        with tempfile.TemporaryDirectory(prefix="conflict-gate-schema-") as tmp:
            for index in range(FUZZ_CORPORA):
                root = Path(tmp) / str(index)
                root.mkdir()
                pages = {f"{sid}.md": fuzz_page(rng).encode("utf-8", "surrogatepass") for sid in ("a", "b", "c")}
                manifest = write_corpus(
                    root, pages, grammar=QUILL_GRAMMAR, statuses={"c": rng.choice(("approved", "draft"))}
                )
                try:
                    corpus = load_documents(manifest)
                except LocatedError:
                    continue
                self.assertValid("audit", audit(corpus))
                for key in ("existing_path", "close_required"):
                    decision = gate(corpus, rng.sample(["a", "b", "c"], rng.randint(1, 3)), "1.0", "create_copy", key)
                    self.assertValid("decision", decision)
                    answer = rng.choice(self.saved["answers"])
                    report = check_answer(corpus, decision, (REPO / answer["path"]).read_bytes())
                    self.assertValid("answer-check", report)
                    checked += 1
        self.assertGreater(checked, FUZZ_CORPORA)


if __name__ == "__main__":
    unittest.main()

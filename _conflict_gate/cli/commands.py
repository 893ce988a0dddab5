"""The subcommands of ``conflict-gate``, each from its parsed arguments to an exit code.

gate, audit, pin, init, grammar, check-answer, versions, mcp and schema, and the table that names
them; the exit codes are in reference/errors.md."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from typing import Final

from ..base.errors import DecisionError
from ..base.files import read_head
from ..base.jsondata import render_json
from ..base.registry import MAX_ANSWER_BYTES, RENDERERS
from ..corpus.load import Corpus
from ..decide.decision import audit, claim_operation, gate, versions_listing
from ..manifest.read import read_manifest
from .support import (
    CliError,
    check_ci_options,
    ci_locations,
    exit_code,
    failed_line,
    load_corpus,
    plural,
    printable_path,
    shown_manifest,
    write_report,
)

# --------------------------------------------------------------------------
# gate


def _gate(args: argparse.Namespace) -> int:
    corpus = _site_judged(args, load_corpus(args, only=args.source_ids))  # its candidates' pages only
    operation = claim_operation(
        corpus.grammar,
        args.claim,
        args.operation,
        name_one=" with --operation",
        see_grammar=f"; see '{args.prog} grammar --manifest {shown_manifest(args.manifest)}'",
    )
    result = gate(
        corpus,
        args.source_ids,
        args.version,
        operation,
        args.claim,
        unrelated="set_aside" if args.set_aside_unrelated else "withhold",
        question=args.question,
    )
    sys.stdout.write(render_json(result))
    status, reason = result["status"], result["reason"]
    if reason == "no_eligible_version":
        have = ", ".join(result["candidate_versions"]) or "none (no candidates)"
        print(f"not_in_docs: no candidate has version {args.version}; candidates have: {have}", file=sys.stderr)
    elif reason == "no_approved_source":
        print(
            f"not_in_docs: no approved candidate has version {args.version} (set aside: "
            f"{', '.join(result['excluded_unapproved_ids'])})",
            file=sys.stderr,
        )
    elif reason == "no_related_source":
        print(
            f"not_in_docs: every eligible candidate is about other operations than {operation} (set aside: "
            f"{', '.join(result['set_aside_unrelated_ids'])})",
            file=sys.stderr,
        )
    elif status == "not_in_docs":
        missing = result["missing_claim_source_ids"]
        print(
            f"not_in_docs: {', '.join(missing)} {'does' if len(missing) == 1 else 'do'} not declare "
            f"{operation} {args.claim}",
            file=sys.stderr,
        )
    elif status == "conflict":
        values = ", ".join(f"{c['source_id']}={c['value']}" for c in result["claims"])
        print(f"conflict: {values}", file=sys.stderr)
    elif status == "refused":
        print(f"refused: {result['message']} [{reason}]", file=sys.stderr)
    return exit_code("ok" if status == "ready" else status)


# --------------------------------------------------------------------------
# audit


def _audit(args: argparse.Namespace) -> int:
    from .ci import Report, audit_checks  # each command's own modules are imported when it runs
    from .markdown import render_audit_markdown

    check_ci_options(args)
    corpus = _site_judged(args, load_corpus(args, warn=False))
    report = audit(corpus)
    if args.format == "json":
        sys.stdout.write(render_json(report))
    elif args.format == "markdown":
        sys.stdout.write(render_audit_markdown(report, args.manifest))
    else:
        where = ci_locations(args, corpus.manifest.root)
        write_report(args, Report("audit", tuple(audit_checks(report, where))), where)
    if corpus.failed:  # after the report, which lists every one
        sys.stdout.flush()
        where_listed = {
            "json": "in refused_sources (error IngestionError)",
            "markdown": 'under "Sources that failed verification"',
        }.get(args.format, "as an error finding")
        raise CliError("input", f"{failed_line(corpus, args)}; the report lists each {where_listed}")
    return exit_code("ok" if report["clean"] else "findings")


# --------------------------------------------------------------------------
# the CI formats (github, sarif, junit) of audit and pin --check


# --------------------------------------------------------------------------
# pin


def _pin(args: argparse.Namespace) -> int:
    """``pin``: with ``--site``, pin and record the build's readings (:mod:`~_conflict_gate.cli.pin_site`)."""
    if args.site is not None:
        from .pin_site import pin_site_command  # each command's own modules are imported when it runs

        return pin_site_command(args)
    from .pin import pin_command

    return pin_command(args)


# --------------------------------------------------------------------------
# init


def _init(args: argparse.Namespace) -> int:
    from .init import init_command

    return init_command(args)


# --------------------------------------------------------------------------
# grammar


def _grammar(args: argparse.Namespace) -> int:
    from ..results.lab import GRAMMAR_REPORT_FIELDS, GrammarReport
    from ..results.shapes import build
    from .markdown import grammar_table

    manifest = read_manifest(args.manifest, require_pins=False)
    grammar, renderer = manifest.grammar, manifest.renderer_name  # a name: no reading module is imported
    if args.format == "json":
        sys.stdout.write(
            render_json(build(GrammarReport, GRAMMAR_REPORT_FIELDS, {**grammar.summary(), "renderer": renderer}))
        )
    else:
        print(f"{grammar.product}: directives are whole lines {grammar.form!r}")
        print(f"renderer: {renderer} ({RENDERERS[renderer]})\n")
        print("\n".join(grammar_table(grammar)))
    return exit_code("ok")


# --------------------------------------------------------------------------
# check-answer


def _check_answer(args: argparse.Namespace) -> int:
    from ..answer.check import (  # the answer check's readers: here only
        CORPUS_WIDE_FINDINGS,
        check_answer,
        load_decision,
    )

    decision = load_decision(args.decision)
    candidates = decision.get("candidate_ids") if isinstance(decision, dict) else None
    if isinstance(candidates, list) and all(isinstance(sid, str) for sid in candidates):
        corpus = _site_judged(args, load_corpus(args, only=candidates))  # the pages the decision was made from
    else:
        corpus = _site_judged(args, load_corpus(args))  # check_answer names what is wrong with the decision
    if args.answer == "-":
        answer = sys.stdin.buffer.read(MAX_ANSWER_BYTES + 1)
    else:

        def unreadable(reason: str, detail: str) -> CliError:
            return CliError("input", f"cannot read the answer {printable_path(args.answer)}: {detail}")

        answer = read_head(os.path.realpath(args.answer), MAX_ANSWER_BYTES + 1, unreadable)
    try:
        report = check_answer(corpus, decision, answer)
        if not corpus.complete and any(finding["kind"] in CORPUS_WIDE_FINDINGS for finding in report["findings"]):
            report = check_answer(_site_judged(args, load_corpus(args, warn=False)), decision, answer)  # every page
    except DecisionError as error:
        if error.path is not None:
            raise
        raise DecisionError(
            error.reason, error.detail, path=printable_path(args.decision), pointer=error.pointer
        ) from None  # name the decision file
    sys.stdout.write(render_json(report))
    kinds = ", ".join(sorted({f["kind"] for f in report["findings"]})) or "no findings"
    print(f"{report['verdict']}: {kinds}", file=sys.stderr)
    return exit_code("ok" if report["verdict_class"] == "supported" else report["verdict_class"])


# --------------------------------------------------------------------------
# versions


def _versions(args: argparse.Namespace) -> int:
    from .markdown import versions_table

    listing = versions_listing(load_corpus(args))
    sys.stdout.write(render_json(listing) if args.format == "json" else "\n".join(versions_table(listing)) + "\n")
    return exit_code("ok")


# --------------------------------------------------------------------------
# mcp


#: How to get the MCP SDK, said in one line when it is missing.
MCP_INSTALL: Final = 'pip install "conflict-gate[mcp]" (from a checkout: pip install "/path/to/conflict-gate[mcp]")'


def _mcp(args: argparse.Namespace) -> int:
    try:  # the SDK is an optional extra: imported here only, never by import conflict_gate
        from ..service.mcp import serve
    except ImportError as error:
        if not (error.name or "").split(".")[0] == "mcp":
            raise
        import importlib.metadata  # 20-40 ms: only to say which mcp is installed

        try:
            found = f"; found mcp {importlib.metadata.version('mcp')}"
        except importlib.metadata.PackageNotFoundError:
            found = ""
        raise CliError(
            "usage", f"the mcp command needs the MCP Python SDK 2.x (mcp>=2,<3){found}: {MCP_INSTALL}"
        ) from None
    from ..service.gate import GateService

    service = GateService(args.manifest, prog=args.prog, cache=args.cache, jobs=args.jobs)
    corpus = service.corpus
    print(
        f"{args.prog}: serving {plural(len(corpus), 'source')} of {printable_path(args.manifest)} over stdio "
        "(MCP); stop by closing the connection",
        file=sys.stderr,
    )
    if corpus.failed:
        print(
            f"{args.prog}: warning: {failed_line(corpus, args)}; each refuses the requests it is eligible for",
            file=sys.stderr,
        )
    try:
        serve(service)
    except KeyboardInterrupt:
        pass
    return exit_code("ok")


# --------------------------------------------------------------------------
# schema


def _schema(args: argparse.Namespace) -> int:
    from ..results.schema import result_schema  # the JSON Schema builder: here only

    sys.stdout.write(render_json(result_schema(args.name)))
    return exit_code("ok")


def _site_judged(args: argparse.Namespace, corpus: Corpus) -> Corpus:
    """``corpus`` judged by the built site ``--site`` names (:func:`~_conflict_gate.site.build.judge_site`,
    as ``--strict`` says), or as it is without ``--site``."""
    if args.site is None:
        return corpus
    from ..site.build import judge_site, locate_site  # only with --site

    return judge_site(corpus, locate_site(args.site, corpus.manifest.root), strict=args.strict)


_COMMANDS: Final[Mapping[str, Callable[[argparse.Namespace], int]]] = {
    "gate": _gate,
    "audit": _audit,
    "pin": _pin,
    "init": _init,
    "grammar": _grammar,
    "check-answer": _check_answer,
    "schema": _schema,
    "versions": _versions,
    "mcp": _mcp,
}

"""conflict-gate's implementation. Import the public names from :mod:`conflict_gate` instead.

One module per step of the flow, each importing only the steps before it;
:data:`MODULES` lists them in that order, with the step each serves
(``reference/dev/architecture.md`` renders it with each module's summary). The
root modules ``conflict_gate.py`` (the public API) and ``run.py`` (the lab)
sit beside this package; ``pip install`` installs ``conflict_gate`` and this
package, nothing with a generic name.
"""

#: The release, read by pyproject.toml (``[tool.setuptools.dynamic]``) and ``conflict-gate --version``.
__version__ = "0.2.0"

#: (module, the step of the flow it serves), in the flow's order: a module imports only modules
#: listed before it, but for annotations (``if TYPE_CHECKING:``); tests/test_architecture.py checks
#: both this order and that every module is here.
MODULES = (
    ("base.registry", "vocabularies"),
    ("base.errors", "typed errors"),
    ("base.jsondata", "JSON in and out"),
    ("base.files", "reading files"),
    ("manifest.form", "the answer form"),
    ("manifest.grammar", "the grammar"),
    ("manifest.sources", "the manifest's sources"),
    ("reading.fences", "one page -> what a reader sees"),
    ("reading.inline_spans", "one page -> what a reader sees"),
    ("reading.inline_html", "one page -> what a reader sees"),
    ("reading.inlines", "one page -> what a reader sees"),
    ("reading.blocks", "one page -> what a reader sees"),
    ("reading.html_elements", "one page -> what a reader sees"),
    ("reading.html_tree", "one page -> what a reader sees"),
    ("reading.html_attributes", "one page -> what a reader sees"),
    ("reading.mkdocs_lines", "one page -> what a reader sees"),
    ("reading.mkdocs_marks", "one page -> what a reader sees"),
    ("reading.mkdocs", "one page -> what a reader sees"),
    ("reading.renderers", "renderers as values"),
    ("manifest.read", "manifest -> entries"),
    ("manifest.edit", "manifest edits"),
    ("manifest.tree", "the docs tree"),
    ("reading.lookalike", "look-alikes of ASCII"),
    ("reading.candidates", "one page -> candidates"),
    ("reading.reading_shapes", "one page -> claims"),
    ("reading.reader_findings", "one page -> claims"),
    ("reading.reader_lines", "one page -> claims"),
    ("reading.reader", "one page -> claims"),
    ("corpus.quotes", "quotes looked up in the corpus"),
    ("corpus.suggest", "unknown ids"),
    ("corpus.cache", "the reading cache"),
    ("corpus.pool", "the parallel first load"),
    ("corpus.recorded", "recorded readings"),
    ("corpus.source_files", "entries -> verified corpus"),
    ("corpus.load", "entries -> verified corpus"),
    ("corpus.chunks", "retrieved chunks -> sources"),
    ("results.shapes", "result shapes"),
    ("results.audit", "result shapes"),
    ("results.lab", "result shapes"),
    ("results.service", "result shapes"),
    ("results.context", "result shapes"),
    ("answer.controls", "answer -> what a reader sees"),
    ("decide.request", "decision -> answer request"),
    ("answer.html", "answer -> what a reader sees"),
    ("answer.inline", "answer -> what a reader sees"),
    ("answer.reader", "answer -> what a reader sees"),
    ("answer.forms", "answer -> forms and statements"),
    ("answer.findings", "answer -> forms and statements"),
    ("answer.struck", "answer -> what a reader sees"),
    ("answer.disguise", "answer -> forms and statements"),
    ("answer.layouts", "answer -> forms and statements"),
    ("decide.decision", "corpus -> decision, audit"),
    ("decide.context", "retrieved pages -> context decision"),
    ("rag.filter", "retrieved chunks -> kept chunks"),
    ("rag.llamaindex", "retrieved chunks -> kept chunks"),
    ("rag.langchain", "retrieved chunks -> kept chunks"),
    ("rag.haystack", "retrieved chunks -> kept chunks"),
    ("answer.statements", "decision + answer -> verdict"),
    ("answer.check", "decision + answer -> verdict"),
    ("results.schema", "result shapes -> JSON Schema"),
    ("cli.ci", "findings for CI"),
    ("cli.support", "the command line"),
    ("cli.markdown", "the command line"),
    ("cli.pin", "the command line"),
    ("site.detect", "the command line"),
    ("site.html", "one built page -> what a reader sees"),
    ("site.static", "verified corpus -> site-judged corpus"),
    ("site.locate", "verified corpus -> site-judged corpus"),
    ("site.build", "verified corpus -> site-judged corpus"),
    ("cli.pin_site", "the command line"),
    ("cli.init", "the command line"),
    ("service.gate", "a long-running gate"),
    ("service.mcp", "the MCP server"),
    ("cli.commands", "the command line"),
    ("cli.main", "the command line"),
    ("api", "the public surface"),
)

"""conflict-gate's implementation. Import the public names from :mod:`conflict_gate` instead.

One module per step of the flow, each importing only the steps before it;
:data:`MODULES` lists them in that order, with the step each serves
(``reference/architecture.md`` renders it with each module's summary). The
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
    ("registry", "vocabularies"),
    ("errors", "typed errors"),
    ("jsondata", "JSON in and out"),
    ("files", "reading files"),
    ("form", "the answer form"),
    ("grammar", "the grammar"),
    ("sources", "the manifest's sources"),
    ("inlines", "one page -> what a reader sees"),
    ("blocks", "one page -> what a reader sees"),
    ("html_tree", "one page -> what a reader sees"),
    ("site_mkdocs", "one page -> what a reader sees"),
    ("renderers", "renderers as values"),
    ("manifest", "manifest -> entries"),
    ("manifest_text", "manifest edits"),
    ("tree", "the docs tree"),
    ("lookalike", "look-alikes of ASCII"),
    ("candidates", "one page -> candidates"),
    ("reader", "one page -> claims"),
    ("quotes", "quotes looked up in the corpus"),
    ("suggest", "unknown ids"),
    ("cache", "the reading cache"),
    ("pool", "the parallel first load"),
    ("site_record", "recorded readings"),
    ("corpus", "entries -> verified corpus"),
    ("chunks", "retrieved chunks -> sources"),
    ("results", "result shapes"),
    ("results_audit", "result shapes"),
    ("results_lab", "result shapes"),
    ("results_service", "result shapes"),
    ("results_context", "result shapes"),
    ("answer_controls", "answer -> what a reader sees"),
    ("request", "decision -> answer request"),
    ("answer_html", "answer -> what a reader sees"),
    ("answer_inline", "answer -> what a reader sees"),
    ("answer_reader", "answer -> what a reader sees"),
    ("answer_forms", "answer -> forms and statements"),
    ("answer_struck", "answer -> what a reader sees"),
    ("answer_disguise", "answer -> forms and statements"),
    ("decision", "corpus -> decision, audit"),
    ("context", "retrieved pages -> context decision"),
    ("rag", "retrieved chunks -> kept chunks"),
    ("rag_llamaindex", "retrieved chunks -> kept chunks"),
    ("rag_langchain", "retrieved chunks -> kept chunks"),
    ("rag_haystack", "retrieved chunks -> kept chunks"),
    ("answer", "decision + answer -> verdict"),
    ("schema", "result shapes -> JSON Schema"),
    ("ci", "findings for CI"),
    ("cli_support", "the command line"),
    ("markdown", "the command line"),
    ("cli_pin", "the command line"),
    ("site_detect", "the command line"),
    ("site_html", "one built page -> what a reader sees"),
    ("site_static", "verified corpus -> site-judged corpus"),
    ("site_locate", "verified corpus -> site-judged corpus"),
    ("site_build", "verified corpus -> site-judged corpus"),
    ("site_pin", "the command line"),
    ("cli_init", "the command line"),
    ("service", "a long-running gate"),
    ("mcp_server", "the MCP server"),
    ("cli", "the command line"),
    ("api", "the public surface"),
    ("reference_tables", "the reference pages"),
    ("reference", "the reference pages"),
)

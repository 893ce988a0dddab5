"""JSON Schemas (draft 2020-12) of every result, derived from :mod:`~_conflict_gate.results.shapes` (no I/O).

:func:`result_schema` walks a result's :class:`~typing.TypedDict` annotations
and renders each type once, under ``$defs``:

* ``str``, ``int``, ``bool``, ``None`` -> ``string``, ``integer``, ``boolean``, ``null``;
  ``Literal[...]`` -> ``const``/``enum``; ``X | Y`` -> ``anyOf``;
  ``list[X]`` -> ``array``; ``dict[str, X]`` -> an object of ``X``;
* ``Annotated[str, OneOf(...)]`` -> ``enum`` (the registry's names);
  ``Annotated[str, Pattern(...)]`` -> ``pattern``; ``Annotated[list[X], Size(a, b)]`` -> ``minItems``, ``maxItems``;
* a TypedDict -> an object with exactly its keys (``additionalProperties:
  false``), its required keys ``required``, each described by its field table.

A decision also carries, per reason, an ``if``/``then``: the status that
reason belongs to, the fields it adds (required) and the fields of other
reasons (forbidden), ``claims`` empty and ``error`` the reason's class when
refused, ``answer_request`` an object exactly when ready. The schemas are strict on purpose: a result with
a field removed, added or of the wrong type does not validate.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, Literal, Union, get_args, get_origin, get_type_hints

from .. import __version__
from ..base.registry import DECISIONS, DIRECTIVE_REASONS, RESULT_SCHEMAS, status_of
from .audit import SHAPES as AUDIT_SHAPES
from .audit import AuditReport
from .context import CONTEXT_REASON_FIELDS, ContextDecision
from .context import SHAPES as CONTEXT_SHAPES
from .lab import SHAPES as LAB_SHAPES
from .lab import LabResult
from .service import SHAPES as SERVICE_SHAPES
from .service import ToolError, Versions
from .shapes import (
    REASON_FIELD_MEANINGS,
    REASON_FIELDS,
    REFUSED_FIELDS,
    AnswerCheck,
    AnswerRequest,
    Decision,
    OneOf,
    Pattern,
    Size,
)
from .shapes import SHAPES as DECISION_SHAPES

__all__ = ["ALL_SHAPES", "DIALECT", "SCHEMAS", "result_schema"]

#: The JSON Schema dialect every schema declares.
DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"

#: Every result shape (TypedDict) -> its field table, from the three results modules.
ALL_SHAPES: Final[Mapping[type, Mapping[str, str]]] = MappingProxyType(
    {**DECISION_SHAPES, **AUDIT_SHAPES, **LAB_SHAPES, **SERVICE_SHAPES, **CONTEXT_SHAPES}
)

# result name -> its TypedDict (a name of RESULT_SCHEMAS missing here fails at import)
_SHAPE_OF: Final[Mapping[str, type]] = {
    "decision": Decision,
    "audit": AuditReport,
    "answer-check": AnswerCheck,
    "lab-result": LabResult,
    "versions": Versions,
    "context-decision": ContextDecision,
    "tool-error": ToolError,
}
#: name -> (the result's TypedDict, what it describes). ``conflict-gate schema NAME`` prints one; the
#: names and descriptions are :data:`~_conflict_gate.base.registry.RESULT_SCHEMAS`.
SCHEMAS: Final[Mapping[str, tuple[type, str]]] = MappingProxyType(
    {name: (_SHAPE_OF[name], what) for name, what in RESULT_SCHEMAS.items()}
)


def result_schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the result ``name`` (a key of :data:`SCHEMAS`).

    Returns a new dict, JSON-serialisable, the same on every call. Raises
    ``KeyError`` for an unknown name.
    """
    shape, description = SCHEMAS[name]
    defs: dict[str, Any] = {}
    root = _schema_of(shape, defs)
    # the root says it is an object, beside its $ref: an MCP tool's output schema must (the server
    # publishes these schemas as they are)
    return {
        "$schema": DIALECT,
        "$id": f"urn:conflict-gate:{__version__}:schema:{name}",
        "title": f"conflict-gate {name}",
        "description": description,
        "type": "object",
        **root,
        "$defs": dict(sorted(defs.items())),
    }


def _schema_of(annotation: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of one annotation (see the module docstring); TypedDicts go to ``defs``."""
    origin = get_origin(annotation)
    if origin is typing.Annotated:
        base, *metadata = get_args(annotation)
        schema = _schema_of(base, defs)
        for item in metadata:
            if isinstance(item, OneOf):
                schema = {"enum": list(item.values)}
            elif isinstance(item, Pattern):
                schema["pattern"] = item.regex
            elif isinstance(item, Size):
                schema = {**schema, "minItems": item.minimum, "maxItems": item.maximum}
        return schema
    if origin is Literal:
        values = list(get_args(annotation))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin is Union or origin is types.UnionType:
        return {"anyOf": [_schema_of(member, defs) for member in get_args(annotation)]}
    if origin is list:
        (item,) = get_args(annotation)
        return {"type": "array", "items": _schema_of(item, defs)}
    if origin is dict:
        key, value = get_args(annotation)
        if key is not str:
            raise TypeError(f"JSON object keys are strings, not {key!r}")
        return {"type": "object", "additionalProperties": _schema_of(value, defs)}
    if typing.is_typeddict(annotation):
        name = annotation.__name__
        if name not in defs:
            defs[name] = {}  # placeholder: recursive shapes refer to it
            defs[name] = _object(annotation, defs)
        return {"$ref": f"#/$defs/{name}"}
    simple = {str: "string", int: "integer", bool: "boolean", type(None): "null"}
    if annotation in simple:
        return {"type": simple[annotation]}
    if annotation is Any:
        return {}
    raise TypeError(f"no JSON Schema for {annotation!r}")


def _object(shape: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """A TypedDict as a closed object, its properties in field-table order, each described."""
    hints = get_type_hints(shape, include_extras=True)
    meanings = ALL_SHAPES.get(shape, {})
    order = [*meanings, *(key for key in hints if key not in meanings)]
    properties = {}
    for key in order:
        field = _schema_of(hints[key], defs)
        properties[key] = {"description": meanings[key], **field} if key in meanings else field
    schema: dict[str, Any] = {"type": "object"}
    if shape.__doc__:
        schema["description"] = " ".join(shape.__doc__.split())
    schema.update(
        {
            "properties": properties,
            "required": [key for key in order if key in shape.__required_keys__],
            "additionalProperties": False,
        }
    )
    if shape is Decision:
        schema["allOf"] = _per_reason(defs)
    if shape is ContextDecision:
        schema["allOf"] = _context_per_reason(defs)
    return schema


def _context_per_reason(defs: dict[str, Any]) -> list[dict[str, Any]]:
    """A context decision's ``if``/``then`` per reason it can have: its status, its own fields, nothing
    of the others, and the answer request only when ready."""
    optional = [*dict.fromkeys(f for fields in CONTEXT_REASON_FIELDS.values() for f in fields), *REFUSED_FIELDS]
    request = _schema_of(AnswerRequest, defs)
    rules = []
    reasons = [*CONTEXT_REASON_FIELDS, *DECISIONS["refused"]]
    for reason in reasons:
        status = status_of(reason)
        own = list(REFUSED_FIELDS) if status == "refused" else list(CONTEXT_REASON_FIELDS[reason])
        then: dict[str, Any] = {
            "status": {"const": status},
            "answer_request": request if status == "ready" else {"type": "null"},
        }
        then.update({field: False for field in optional if field not in own})
        rules.append(
            {
                "if": {"properties": {"reason": {"const": reason}}, "required": ["reason"]},
                "then": {"properties": then, "required": own},
            }
        )
    rules.append({"properties": {"reason": {"enum": reasons}}})
    return rules


def _per_reason(defs: dict[str, Any]) -> list[dict[str, Any]]:
    """A decision's ``if``/``then`` per reason: its status, its own fields, nothing of the others."""
    optional = [*REASON_FIELD_MEANINGS, *REFUSED_FIELDS]
    request = _schema_of(AnswerRequest, defs)
    rules = []
    for reasons in DECISIONS.values():
        for reason in reasons:
            status = status_of(reason)
            own = list(REFUSED_FIELDS) if status == "refused" else list(REASON_FIELDS[reason])
            then: dict[str, Any] = {
                "status": {"const": status},
                "answer_request": request if status == "ready" else {"type": "null"},
            }
            if status == "refused":
                then["claims"] = {"maxItems": 0}
                then["error"] = {"const": "DirectiveError" if reason in DIRECTIVE_REASONS else "IngestionError"}
            then.update({field: False for field in optional if field not in own})
            rules.append(
                {
                    "if": {"properties": {"reason": {"const": reason}}, "required": ["reason"]},
                    "then": {"properties": then, "required": own},
                }
            )
    return rules

"""Output schemas of the episode tools: `{"result": <observation>, "episode": <EpisodeStatus>}`, where each
`EpisodeTool` names its observation's type (a suite's own models: ShoppingBench's are in
mcp_server.shopping.tool_outputs).

The schemas are lean, because the official client validates every result against them with `jsonschema`, whose cost
grows with every property it descends into (~5 µs each): references are inlined, titles dropped, a nullable field is
`{"type": [T, "null"]}` rather than an `anyOf` of two schemas (the same constraint, one descent instead of three),
and the records of a list (`ListRecord`s: find_product hits, view_product_information entries, web_search results)
are checked for their required keys (each declared with the empty schema), with their fields and types in the
description instead of a schema per field. That took validating a find_product page from ~0.44 to ~0.1 ms. What is
declared is still exactly what the sandbox returns.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from mcp_server.protocol import EpisodeStatus


class OpenModel(BaseModel):
    """An observation's model: keys beyond those declared are allowed, as JSON Schema's default."""

    model_config = ConfigDict(extra="allow")


class ListRecord(OpenModel):
    """A record of a list observation, declared in the output schema by its required keys (see the module docstring):
    clients check every record of a page against it."""


def output_schema(tool: str, observation: Any) -> dict[str, Any]:
    """The tool's output schema: {"result": its observation (of this type), "episode": the episode's status after the
    call}."""
    model = create_model(
        f"{tool}Output",
        result=(observation, Field(description=f"What {tool} returned.")),
        episode=(EpisodeStatus, Field(description="The episode after this call: running or ended (and why), steps.")),
    )
    schema = model.model_json_schema()
    for record in ListRecord.__subclasses__():
        if record.__name__ in schema.get("$defs", {}):
            schema["$defs"][record.__name__] = record_schema(record)
    return lean_schema(schema)


def record_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A record as an object with its required keys; every field, with its JSON type, is named in the description.
    Other keys are allowed, JSON Schema's default (not spelt out: clients check every hit of a page against it). Each
    required key is also declared under `properties` with the empty schema (any value, nothing to descend into): a
    strict validator (Ajv's strictRequired) refuses a `required` key that `properties` does not name."""
    full = lean_schema(model.model_json_schema())
    fields = ", ".join(f"{name} ({_type_words(sub)})" for name, sub in full.get("properties", {}).items())
    required = full.get("required", [])
    return {
        "type": "object",
        "properties": {name: {} for name in required},
        "required": required,
        "description": f"{(model.__doc__ or model.__name__).strip()} Fields: {fields}.",
    }


def _type_words(schema: dict[str, Any]) -> str:
    kind = schema.get("type", "any")
    words = " or ".join(kind) if isinstance(kind, list) else kind
    if kind == "array" and isinstance(schema.get("items"), dict):
        return f"array of {_type_words(schema['items'])}"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return f"object of {_type_words(schema['additionalProperties'])}"
    return str(words)


def lean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with every local `$ref` replaced by its definition, titles dropped, and each nullable `anyOf: [X,
    {"type": "null"}]` (X with a single type) written as X with "null" added to its type (and to its enum): the same
    instances pass, at a fraction of the validation cost (see the module docstring)."""
    return _nullable_collapsed(_inlined(schema))


def _nullable_collapsed(node: Any) -> Any:
    if isinstance(node, list):
        return [_nullable_collapsed(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {
        key: value if key in ("enum", "const", "default")
        else {name: _nullable_collapsed(sub) for name, sub in value.items()} if key == "properties"
        else _nullable_collapsed(value)
        for key, value in node.items()
    }
    options = node.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        other = options[0] if options[1] == {"type": "null"} else options[1]
        if isinstance(other, dict) and isinstance(other.get("type"), str) and "anyOf" not in other:
            merged = {key: value for key, value in node.items() if key != "anyOf"}
            merged.update(other)
            merged["type"] = [other["type"], "null"]
            if "enum" in other:
                merged["enum"] = [*other["enum"], None]
            return merged
    return node


def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with every local `$ref` replaced by its definition and titles dropped: resolving references costs
    several times the validation itself (4.5 ms a find_product result with references, a fraction of that without)."""
    definitions = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return walk({**definitions[ref.removeprefix("#/$defs/")], **{k: v for k, v in node.items() if k != "$ref"}})
        inlined = {}
        for key, value in node.items():
            if key in ("$defs", "title"):
                continue
            # "properties" maps names (which may be "title") to schemas
            inlined[key] = {name: walk(sub) for name, sub in value.items()} if key == "properties" else walk(value)
        return inlined

    return walk(schema)

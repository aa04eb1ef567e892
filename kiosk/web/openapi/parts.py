"""The building blocks both OpenAPI descriptions share (the kiosk's, `kiosk.web.openapi`, and the
parlor's, `kiosk.parlor.web.openapi`): JSON Schema shorthands, an operation with its answers,
the one error shape, the document around the paths, and the route that serves it.

The descriptions are data written by hand beside the views; tests/kiosk/test_openapi.py keeps
them true (every route described, every described route there, every example valid) and fuzzes
both apps from them with schemathesis.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask import Flask, Response

Schema = dict[str, Any]
JSON = "application/json"
PATH = "/api/openapi.json"

INT: Schema = {"type": "integer"}
NUM: Schema = {"type": "number"}
STR: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
ANY_OBJECT: Schema = {"type": "object"}
NULL_STR: Schema = {"type": ["string", "null"]}
BINARY: Schema = {"type": "string", "format": "binary"}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def obj(props: Mapping[str, Schema] | None = None, required: Iterable[str] = (), *,
        closed: bool = False, **more: Any) -> Schema:
    """An object; `closed`: no other field (the API refuses unknown fields of most bodies)."""
    out: Schema = {"type": "object", "properties": dict(props or {})}
    if required:
        out["required"] = list(required)
    if closed:
        out["additionalProperties"] = False
    return {**out, **more}


def arr(items: Schema, **more: Any) -> Schema:
    return {"type": "array", "items": items, **more}


def text(low: int = 0, high: int | None = None, **more: Any) -> Schema:
    out: Schema = {"type": "string", "minLength": low, **more}
    if high is not None:
        out["maxLength"] = high
    return out


def whole(low: int | None = None, high: int | None = None, **more: Any) -> Schema:
    out: Schema = {"type": "integer", **more}
    if low is not None:
        out["minimum"] = low
    if high is not None:
        out["maximum"] = high
    return out


def choice(*values: Any) -> Schema:
    return {"enum": list(values)}


#: The one shape of every refusal (docs/api.md, "Errors"; docs/parlor.md): `error` in words,
#: `status` as sent; the kiosk adds `problems`, a stable `code` and the `words` that fill it,
#: the parlor the `field` a refusal names.
ERROR = obj({
    "error": STR, "status": whole(400, 599), "problems": arr(STR), "code": STR,
    "words": ANY_OBJECT, "problem_codes": arr(obj({"code": STR, "words": ANY_OBJECT})),
    "field": NULL_STR, "needs_pin": BOOL, "needs_login": BOOL, "retry_after": NUM,
    "untranslated": BOOL, "said": obj({"error": STR, "problems": arr(STR)}),
}, ["error", "status"], example={"error": "field 'seat': expected a seat 0-3", "status": 400,
                                 "problems": [], "code": "field_seat",
                                 "words": {"field": "seat", "last": 3}})


def param(name: str, where: str, schema: Schema, description: str = "", *,
          required: bool | None = None, example: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "in": where, "schema": schema,
                           "required": where == "path" if required is None else required}
    if description:
        out["description"] = description
    if example is not None:
        out["example"] = example
    return out


def query(name: str, schema: Schema, description: str = "", **kw: Any) -> dict[str, Any]:
    return param(name, "query", schema, description, **kw)


def in_path(name: str, schema: Schema | None = None, description: str = "",
            **kw: Any) -> dict[str, Any]:
    return param(name, "path", schema or text(1), description, **kw)


def answer(description: str, schema: Schema | None = None, media: str = JSON,
           example: Any = None, headers: Mapping[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if schema is not None:
        content: dict[str, Any] = {"schema": schema}
        if example is not None:
            content["example"] = example
        out["content"] = {media: content}
    if headers:
        out["headers"] = dict(headers)
    return out


REFUSED = {"$ref": "#/components/responses/Refused"}


def op(summary: str, tag: str, answers: Mapping[int | str, Any], *,
       body: Schema | None = None, example: Any = None, media: str = JSON,
       params: Iterable[Any] = (), security: list[dict[str, list[str]]] | None = None,
       optional_body: bool = False, description: str = "", **more: Any) -> dict[str, Any]:
    """One operation: `answers` maps a status to an `answer(...)` or to a schema (JSON); every
    operation may also be refused in the one error shape (4XX, and the documented 5XX)."""
    responses: dict[str, Any] = {}
    for status, said in answers.items():
        is_answer = isinstance(said, dict) and "description" in said
        responses[str(status)] = said if is_answer else answer("the answer", said)
    responses.setdefault("4XX", REFUSED)
    out: dict[str, Any] = {"summary": summary, "tags": [tag], "responses": responses}
    if description:
        out["description"] = description
    if params:
        out["parameters"] = list(params)
    if body is not None:
        content: dict[str, Any] = {"schema": body}
        if example is not None:
            content["example"] = example
        out["requestBody"] = {"required": not optional_body, "content": {media: content}}
    if security is not None:
        out["security"] = security
    return {**out, **more}


def document(title: str, description: str, paths: Mapping[str, Any], *,
             schemas: Mapping[str, Schema], security_schemes: Mapping[str, Any],
             parameters: Mapping[str, Any] | None = None, tags: Iterable[str] = ()) -> dict:
    """The OpenAPI 3.1 document around the paths (JSON Schema 2020-12 in `schemas`)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = version("riichi-table-assistant")
    except PackageNotFoundError:  # run from a checkout that was never installed
        release = "0"
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": release, "description": description},
        "tags": [{"name": t} for t in tags],
        "paths": dict(paths),
        "components": {
            "schemas": {"Error": ERROR, **schemas},
            "responses": {"Refused": answer("a refusal, in the one error shape", ref("Error"))},
            "parameters": dict(parameters or {}),
            "securitySchemes": dict(security_schemes),
        },
    }


def serve(app: Flask, build: Callable[[], dict[str, Any]], endpoint: str = "openapi") -> None:
    """`GET /api/openapi.json` on `app`: the description, built once when first asked."""
    made: list[bytes] = []

    def openapi() -> Response:
        if not made:
            made.append(json.dumps(build(), ensure_ascii=False).encode())
        return Response(made[0], mimetype=JSON)

    app.add_url_rule(PATH, endpoint, openapi, methods=["GET"])

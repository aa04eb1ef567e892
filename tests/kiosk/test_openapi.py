"""The OpenAPI descriptions of the kiosk and the parlor (`GET /api/openapi.json`, issue 37 part 4)
are true: a valid OpenAPI 3.1 document; every route of each app under /api/ described with its
methods, and every described route there (the two live streams, which the server itself serves,
named by `x-served-by` and checked against it); every example valid against its schema; and
what the reads of a fresh kiosk and parlor answer valid against the described answers.
The fuzzing from them is tests/kiosk/test_openapi_fuzz.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from flask import Flask
from openapi_spec_validator import validate as validate_spec

from kiosk.parlor.store.db import open_database
from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.web.app import create_app as create_parlor
from kiosk.parlor.web.openapi import parlor_description
from kiosk.serve import camera_stream, server
from kiosk.web.openapi import kiosk_description
from kiosk.web.openapi.parts import PATH
from tests.kiosk.conftest import make_kiosk
from tests.kiosk.parlor.conftest import PASSWORD, STAFF, Staff

METHODS = {"get", "post", "put", "patch", "delete"}
SERVED_BY = {"kiosk.serve.server": server.STREAM_PATH, "kiosk.serve.camera_stream":
             camera_stream.PATH}


@pytest.fixture
def apps(tmp_path: Path) -> Iterator[dict[str, tuple[Flask, dict[str, Any]]]]:
    kiosk, services = make_kiosk(tmp_path / "kiosk")
    services.start(camera=False, recogniser=False)
    store = ParlorStore(open_database(f"sqlite:///{tmp_path / 'parlor.sqlite3'}"))
    parlor = create_parlor(store)
    store.add_staff(STAFF, PASSWORD)
    yield {"kiosk": (kiosk, kiosk_description()), "parlor": (parlor, parlor_description())}
    services.stop()
    store.close()


def routes(app: Flask) -> set[tuple[str, str]]:
    """(OpenAPI path, method) of every route of `app` under /api/."""
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
            out |= {(path, m.lower()) for m in rule.methods or () if m.lower() in METHODS}
    return out


def described(doc: dict[str, Any], *, served_by_app: bool = True) -> set[tuple[str, str]]:
    return {(path, method) for path, item in doc["paths"].items() for method in item
            if method in METHODS and ("x-served-by" not in item) == served_by_app}


@pytest.mark.parametrize("name", ["kiosk", "parlor"])
def test_every_route_is_described_and_every_described_route_exists(apps: Any, name: str) -> None:
    app, doc = apps[name]
    assert routes(app) - described(doc) == set(), "routes not described"
    assert described(doc) - routes(app) == set(), "described routes the app does not have"
    for path, item in doc["paths"].items():
        if "x-served-by" in item:  # the live streams: the server's, before the app
            assert SERVED_BY[item["x-served-by"]] == path
            assert not any(p == path for p, _ in routes(app))


@pytest.mark.parametrize("name", ["kiosk", "parlor"])
def test_the_description_is_valid_openapi_and_served(apps: Any, name: str) -> None:
    app, doc = apps[name]
    validate_spec(doc)
    answer = app.test_client().get(PATH)
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.get_json() == doc
    ids = [o["operationId"] for item in doc["paths"].values() for m, o in item.items()
           if m in METHODS and "operationId" in o]
    assert len(ids) == len(set(ids))
    for item in doc["paths"].values():  # a link names an operation that is there
        for o in (o for m, o in item.items() if m in METHODS):
            for said in o["responses"].values():
                for link in said.get("links", {}).values():
                    assert link["operationId"] in ids


def examples(node: Any, where: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(where, example, schema) of every example in the document."""
    if isinstance(node, dict):
        if "example" in node and "schema" in node:  # a media type or a parameter
            yield where, node["example"], node["schema"]
        elif "example" in node and ("type" in node or "oneOf" in node):  # a schema's own
            yield where, node["example"], {k: v for k, v in node.items() if k != "example"}
        for key, value in node.items():
            yield from examples(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from examples(value, f"{where}/{i}")


def check(doc: dict[str, Any], value: Any, schema: dict[str, Any], where: str) -> None:
    """`value` against `schema`, its `$ref`s resolved in `doc` (JSON Schema 2020-12)."""
    jsonschema.Draft202012Validator({**schema, "components": doc["components"]}).validate(value)


@pytest.mark.parametrize("name", ["kiosk", "parlor"])
def test_every_example_validates_against_its_schema(apps: Any, name: str) -> None:
    doc = apps[name][1]
    found = list(examples(doc))
    assert len(found) >= 10
    for where, example, schema in found:
        try:
            check(doc, example, schema, where)
        except jsonschema.ValidationError as e:
            pytest.fail(f"{name} {where}: {e.message}")


def answers_as_described(client: Any, doc: dict[str, Any]) -> int:
    """GET every described path without parameters; its JSON answer validates against the
    description of that status. The number of answers checked."""
    checked, wrong = 0, []
    for path, item in doc["paths"].items():
        if "{" in path or "get" not in item or "x-served-by" in item:
            continue
        answer = client.get(path)
        said = item["get"]["responses"].get(str(answer.status_code)) or item["get"][
            "responses"]["4XX"]
        said = doc["components"]["responses"]["Refused"] if "$ref" in said else said
        media = said.get("content", {}).get(answer.mimetype)
        assert media is not None, f"GET {path} -> {answer.status_code} {answer.mimetype}"
        if answer.mimetype == "application/json":
            try:
                check(doc, answer.get_json(), media["schema"], path)
            except jsonschema.ValidationError as e:
                wrong.append(f"GET {path} -> {answer.status_code}: {e.json_path}: {e.message}")
        checked += 1
    assert not wrong, "\n".join(wrong)
    return checked


def test_what_the_kiosk_answers_is_as_described(apps: Any) -> None:
    app, doc = apps["kiosk"]
    # The camera's picture: a 503 without a camera, in the error shape.
    assert answers_as_described(app.test_client(), doc) >= 15


def test_what_the_parlor_answers_is_as_described(apps: Any) -> None:
    app, doc = apps["parlor"]
    staff = Staff(app.test_client())
    # /api/me answers 401 to staff (members only), in the error shape.
    assert answers_as_described(staff.client, doc) >= 10

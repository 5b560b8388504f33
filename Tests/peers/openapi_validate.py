"""Validates courier-server's OpenAPI document, and real exchanges with the server against it.

Usage: openapi_validate.py EXCHANGES.json

EXCHANGES.json (written by OpenAPIContractTests) holds:
- "document": the document as the server served it at /openapi.json;
- "exchanges": [{"method", "url", "requestHeaders", "requestBody", "status", "responseHeaders",
  "responseBody", "validateRequest"}], bodies as text (base64 under "responseBodyBase64" when
  not UTF-8); each response is validated, and the request too when "validateRequest" is true
  (error cases send requests the document forbids on purpose);
- "frames": [{"schema", "frame"}]: WebSocket frames, validated against components/schemas.

Every documented operation must be exercised by at least one exchange, so the document
describes nothing the test does not check. Prints one line per failure and exits 1 if there was any; prints a summary and exits 0 otherwise.
"""
import base64
import json
import re
import sys
from urllib.parse import parse_qs, urlsplit

from jsonschema.exceptions import ValidationError
from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate as validate_spec
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012


def request_of(exchange):
    url = urlsplit(exchange["url"])
    headers = {k.lower(): v for k, v in exchange.get("requestHeaders", {}).items()}
    cookies = {}
    for part in headers.get("cookie", "").split(";"):
        if "=" in part:
            name, value = part.strip().split("=", 1)
            cookies[name] = value
    body = exchange.get("requestBody")
    return MockRequest(
        f"{url.scheme}://{url.netloc}",
        exchange["method"].lower(),
        url.path,
        args={k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()},
        headers=headers,
        cookies=cookies,
        data=body.encode() if body is not None else None,
        content_type=headers.get("content-type", "application/json"),
    )


def response_of(exchange):
    headers = {k: v for k, v in exchange.get("responseHeaders", {}).items()}
    lowered = {k.lower(): v for k, v in headers.items()}
    if "responseBodyBase64" in exchange:
        data = base64.b64decode(exchange["responseBodyBase64"])
    else:
        data = (exchange.get("responseBody") or "").encode()
    content_type = lowered.get("content-type", "").split(";")[0].strip()
    return MockResponse(data, status_code=exchange["status"], headers=headers, content_type=content_type or None)


def describe(error):
    """The error and the schema errors behind it, short: values can be whole documents."""
    text = type(error).__name__
    cause = error.__cause__
    schema_errors = getattr(cause, "schema_errors", None) or getattr(error, "schema_errors", None)
    if schema_errors:
        text += ": " + "; ".join(f"{e.message[:200]} at {list(e.absolute_path)}" for e in schema_errors)
    elif cause is not None:
        text += f": {cause!r}"[:400]
    else:
        text += f": {error}"[:400]
    return text


def operations(document):
    """(method, template, regex) for every operation of the document."""
    result = []
    for template, item in document["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$"
        for method in item:
            if method in ("get", "put", "post", "delete", "patch", "head", "options"):
                result.append((method, template, re.compile(pattern)))
    return result


def operation_of(exchange, known):
    """The documented operation an exchange went to: the template with the fewest parameters."""
    method, path = exchange["method"].lower(), urlsplit(exchange["url"]).path
    matches = [(t.count("{"), t) for m, t, r in known if m == method and r.match(path)]
    return (method, min(matches)[1]) if matches else None


def main():
    record = json.load(open(sys.argv[1], encoding="utf-8"))
    document = record["document"]
    # The document itself, once: OpenAPI.from_dict would check it again, so it is told not to.
    # An object member the document does not name is an error unless its schema says
    # `additionalProperties: true` (free-form JSON such as `properties` or `fields`): a field the
    # server adds or renames without the document fails here.
    validate_spec(document)
    config = Config(spec_validator_cls=None, additional_properties_default_policy="forbid")
    api = OpenAPI.from_dict(document, config=config)
    failures = []
    for exchange in record.get("exchanges", []):
        name = f'{exchange["method"]} {urlsplit(exchange["url"]).path} → {exchange["status"]}'
        request = request_of(exchange)
        if exchange.get("validateRequest"):
            try:
                api.validate_request(request)
            except Exception as error:  # openapi-core raises a family of errors; report any
                failures.append(f"request of {name}: {describe(error)}")
        try:
            api.validate_response(request, response_of(exchange))
        except Exception as error:
            body = exchange.get("responseBody", "")[:200]
            failures.append(f"response of {name}: {describe(error)} (body {body!r})")
    registry = Registry().with_resource("urn:courier:openapi", Resource.from_contents(document, DRAFT202012))
    for item in record.get("frames", []):
        schema = {"$ref": "urn:courier:openapi#/components/schemas/" + item["schema"]}
        validator = OAS31Validator(schema, registry=registry)
        errors = list(validator.iter_errors(item["frame"]))
        if errors:
            failures.append(f'frame {item["schema"]}: {errors[0].message} in {json.dumps(item["frame"])[:300]}')
    known = operations(document)
    exercised = {operation_of(exchange, known) for exchange in record.get("exchanges", [])}
    for method, template, _ in known:
        if (method, template) not in exercised:
            failures.append(f"{method.upper()} {template} is documented but no exchange exercised it")
    for failure in failures:
        print(failure)
    if failures:
        sys.exit(1)
    print(f'valid: the document, {len(record.get("exchanges", []))} exchanges, {len(record.get("frames", []))} frames')


if __name__ == "__main__":
    main()

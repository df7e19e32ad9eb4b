"""A session against a live server in which openapi-core (0.23) validates every request sent
and every response received against the server's own /openapi.json: parameters, bodies,
status codes, content types and envelopes, on the primary surface, the compatibility surface
and by the original vendor's names, errors included. Run by tests/outside/openapi_core.rs;
arguments: base URL, API key. Prints "validated N exchanges" when every one validates."""

import struct
import sys
import zlib

import requests
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
from openapi_core.validation.request.validators import (
    V31RequestParametersValidator,
    V31RequestSecurityValidator,
)

BASE, KEY = sys.argv[1], sys.argv[2]


def png():
    """A valid 1x1 PNG."""
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\x80")) + chunk(b"IEND", b""))


session = requests.Session()
document = session.get(BASE + "/openapi.json").json()
api = OpenAPI.from_dict(document)
# openapi-core 0.23 refuses the bytes of a multipart file part under `type: string, format:
# binary` (its issue #854), the spelling generated clients need to send a file (typeless,
# openapi-python-client sends the part as text). For multipart requests its parameter and
# security validators run; the body is the server's own tests' to check.
multipart_checks = [
    OpenAPI.from_dict(document, config=Config(request_validator_cls=cls))
    for cls in (V31RequestParametersValidator, V31RequestSecurityValidator)
]
validated = []


def call(method, path, status, key=KEY, invalid=False, **kwargs):
    """Sends one request, checks its status, and validates the request and the response. An
    `invalid` request is one the document itself refuses: its validation must fail, and the
    error response must still validate."""
    headers = kwargs.pop("headers", {})
    checks = multipart_checks if "files" in kwargs else [api]
    if key is not None:
        headers["Authorization"] = "Bearer " + key
    prepared = requests.Request(method, BASE + path, headers=headers, **kwargs).prepare()
    response = session.send(prepared, allow_redirects=False)
    assert response.status_code == status, (method, path, response.status_code, response.text)
    request = RequestsOpenAPIRequest(prepared)
    if invalid:
        try:
            api.validate_request(request)
        except Exception:
            pass
        else:
            raise SystemExit(f"{method} {path}: the document admits a request the server refuses")
        checks = []
    try:
        for check in checks:
            check.validate_request(request)
        api.validate_response(request, RequestsOpenAPIResponse(response))
    except Exception as err:  # the report names the exchange and every schema error
        details = getattr(err, "__cause__", None)
        errors = getattr(details, "schema_errors", None) or [details]
        raise SystemExit(f"{method} {path} -> {response.status_code}: {err!r}: {errors}\n"
                         f"{response.headers.get('content-type')}: {response.text[:500]}")
    validated.append(f"{method} {path} {response.status_code}")
    return response


def data(response):
    return response.json()["data"]


# The primary surface: chains, their QR codes and statistics, groups, uploads, domains.
group = data(call("POST", "/groups", 201, json={"name": "launch"}))
call("GET", "/groups", 200)
call("GET", f"/groups/{group['id']}", 200)
chain = data(call("POST", "/chains", 201, json={
    "target_url": "https://example.com/spring?utm_source=x",
    "chain_title": "Spring \"sale\"",
    "group_id": group["id"],
}))
call("POST", "/chains", 201, json={"target_url": "https://example.com/b", "code": "Case-Twin"})
call("GET", "/chains?page=1&page_size=5&q=spring", 200)
call("GET", f"/chains?group_id={group['id']}", 200)
call("GET", f"/chains/{chain['id']}", 200)
call("PATCH", f"/chains/{chain['id']}", 200,
     json={"target_url": "https://example.com/summer", "chain_title": "Summer"})
call("GET", f"/chains/{chain['id']}/qr?size=128", 200)
call("GET", f"/chains/{chain['id']}/qr?format=svg", 200)
call("GET", f"/chains/{chain['id']}/stats?days=7", 200)
call("GET", f"/chains/{chain['id']}/stats/devices", 200)
call("GET", "/stats", 200)
call("GET", "/domains", 200)
call("GET", "/templates", 403)  # a scope the key lacks
call("POST", "/chains/bulk", 200, json={"chains": [
    {"target_url": "https://example.com/bulk-1"},
    {"target_url": "not a url"},
]})
upload = data(call("POST", "/uploads", 201, files={"file": ("dot.png", png(), "image/png")}))
call("GET", "/uploads", 200)
call("GET", f"/files/{upload['object_key']}", 200, key=None)
call("DELETE", f"/uploads/{upload['file_id']}", 200)

# Errors in the primary envelope.
call("GET", "/chains/999999999", 404)
call("GET", "/chains?q=%ff", 400)
call("POST", "/chains", 400, invalid=True, json={"target_url": "ftp://example.com/"})
call("PATCH", f"/chains/{chain['id']}", 400, invalid=True, json={})
call("GET", "/chains", 401, key="lk_not_a_key_of_anyone")
call("GET", "/chains", 401, key=None, invalid=True)

# The compatibility surface, and the vendor's names.
created = call("POST", "/openapi/v1/chain/create", 200,
               json={"target_url": "https://example.com/compat", "chain_title": "Compat"})
compat_code = created.json()["result"]["chain"]
call("GET", "/openapi/v1/chain/list?page=1&page_size=10", 200)
call("POST", "/openapi/v1/chain/edit", 200,
     json={"chain": compat_code, "target_url": "https://example.com/compat-2"})
call("GET", "/openapi/v1/group/list", 200)
call("GET", "/openapi/v1/domain/list", 200)
call("POST", "/v1/chain/createChain", 200, json={"target_url": "https://example.com/vendor"})
call("GET", "/v1/chain/getChainList?page=1&page_size=10", 200)
call("GET", "/v1/chainGroup/getChainGroup", 200)
call("POST", "/openapi/v1/chain/delete", 200, json={"chains": [compat_code]})
call("POST", "/openapi/v1/chain/edit", 400, invalid=True, json={"target_url": "https://e.com/"})

# The redirect a visitor follows, and deleting on the primary surface.
call("GET", f"/{chain['code']}", 302, key=None,
     headers={"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36"})
call("DELETE", f"/chains/{chain['id']}", 200)
call("GET", "/healthz", 200, key=None)

print(f"validated {len(validated)} exchanges")

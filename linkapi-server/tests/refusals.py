"""Clients that write their whole body before they read the answer, as Python's http.client
(and requests, and urllib3 under it) do, against a real linkapi server: every refusal made
before the body was read must reach them as a status they can act on, never as a broken pipe.

Usage: refusals.py BASE_URL KEY. Exits non-zero with what went wrong.
"""

import http.client
import json
import sys
import threading
import urllib.parse

import requests

base, key = sys.argv[1], sys.argv[2]
url = urllib.parse.urlsplit(base)


def largest_bulk(tag):
    """10,000 chains of long targets, each with a rule: about 27 MiB."""
    long, rule = "a" * 1350, "r" * 1250
    chains = [
        {
            "target_url": f"https://example.com/{tag}/{long}/{i:05}",
            "rules": [{"device": "ios", "target_url": f"https://apps.example/{rule}"}],
        }
        for i in range(10_000)
    ]
    return json.dumps({"chains": chains}).encode()


def with_http_client(path, body, headers):
    """(status, headers) as http.client sees them, or the exception it raised."""
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    try:
        conn.request("POST", path, body=body, headers=headers)
        answer = conn.getresponse()
        answer.read()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}
    except Exception as err:  # the failure this test is about
        return type(err).__name__, {}
    finally:
        conn.close()


def with_requests(path, body, headers):
    try:
        answer = requests.post(base + path, data=body, headers=headers, timeout=120)
        return answer.status_code, {k.lower(): v for k, v in answer.headers.items()}
    except Exception as err:
        return type(err).__name__, {}


failures = []


def expect(what, got, statuses, retry_after=False):
    status, headers = got
    if status not in statuses:
        failures.append(f"{what}: {status}, not one of {statuses}")
    elif retry_after and status in (429, 503) and "retry-after" not in headers:
        failures.append(f"{what}: {status} without Retry-After")


bulk = largest_bulk("refusals")
keyed = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

for client in (with_http_client, with_requests):
    name = client.__name__
    # Six at once of one key: the user's share takes one or two; the rest are refused 429
    # while their bodies are still coming, and must read it.
    results = [None] * 6

    def send(i):
        results[i] = client("/chains/bulk", bulk, keyed)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, got in enumerate(results):
        expect(f"{name}: concurrent bulk {i}", got, (200, 429), retry_after=True)
    statuses = [status for status, _ in results]
    if 200 not in statuses or 429 not in statuses:
        failures.append(f"{name}: six bulks answered {statuses}: some created, some refused")

    # Refused before any of the body is read: no key, a bad key, no such path, too large.
    plain = {"Content-Type": "application/json"}
    expect(f"{name}: no key", client("/chains/bulk", bulk, plain), (401,))
    bad = {"Authorization": "Bearer lk_not_a_key", "Content-Type": "application/json"}
    expect(f"{name}: a bad key", client("/chains/bulk", bulk, bad), (401,))
    expect(f"{name}: no such path", client("/no/such/path", bulk, keyed), (404,))
    expect(f"{name}: too large for /chains", client("/chains", bulk, keyed), (413,))

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("every refusal was read")

#!/usr/bin/env python3
"""The mock from another language: Python's standard library only, HTTP only.

Run against a started bin: python3 acceptance.py http://127.0.0.1:4010

Reads the fixtures, creates a low-tier client and meets its 429 with Retry-After, revokes it and
meets client_revoked, creates an order with a POS user token, and sees location_out_of_scope from a
child partner where its parent succeeds. Exits 1 with the failed step on stderr.
"""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

BASE = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:4010"


def call(method, path, body=None, token=None, form=None):
    """One request; returns (status, headers, parsed JSON or None). Never raises on an HTTP error."""
    headers = {}
    data = None
    if token:
        headers["authorization"] = "Bearer " + token
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["content-type"] = "application/x-www-form-urlencoded"
    elif body is not None:
        data = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, answer_headers, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, answer_headers, raw = error.code, error.headers, error.read()
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None
    return status, answer_headers, parsed


def check(what, condition, detail=""):
    if not condition:
        sys.stderr.write("python acceptance failed: %s %s\n" % (what, detail))
        sys.exit(1)


def token_of(client_id, client_secret):
    status, _, body = call(
        "POST",
        "/oauth2/token",
        form={"grant_type": "client_credentials", "client_id": client_id, "client_secret": client_secret},
    )
    check("mint a token for " + client_id, status == 200, str(body))
    return body["access_token"]


def payments_location(partner):
    for location in partner["locations"]:
        if location["active"] and "payments" in location["features"]:
            return location["location_id"]
    check("a payments location of " + partner["partner_id"], False)


steps = []

# 1. The fixtures: partners with their parents, clients with their mock credentials, locations.
status, _, fixtures = call("GET", "/_mock/v1/fixtures")
check("GET /_mock/v1/fixtures", status == 200, str(status))
partners = {p["partner_id"]: p for p in fixtures["partners"]}
named = fixtures["named"]
default_client = next(
    c for p in partners.values() for c in p["clients"] if c["client_id"] == named["default_client_id"]
)
partner_a = next(p for p in partners.values() if default_client in p["clients"])
parent = partners[named["parent_partner_id"]]
child = partners[named["child_partner_id"]]
check("the child names its parent", child["parent_partner_id"] == parent["partner_id"])
steps.append("fixtures (%d partners)" % len(partners))

# 2. A low-tier client meets 429 with Retry-After past its burst of 10.
status, _, created = call("POST", "/_mock/v1/clients", {"partner_id": partner_a["partner_id"], "tier": "low"})
check("POST /_mock/v1/clients", status == 201 and created["tier"] == "low", str(created))
low_token = token_of(created["client_id"], created["client_secret"])
location_a = payments_location(partner_a)
limited = None
for _ in range(30):
    status, headers, body = call("GET", "/pos/v1/locations/" + location_a, token=low_token)
    if status == 429:
        limited = (body, headers.get("Retry-After"))
        break
check("a 429 for the low-tier client", limited is not None)
check("rate_limit_exceeded", limited[0]["error"] == "rate_limit_exceeded", str(limited[0]))
check("Retry-After in whole seconds", (limited[1] or "").isdigit() and int(limited[1]) >= 1, str(limited[1]))
steps.append("low tier: 429, Retry-After %s" % limited[1])

# 3. Revoked after its token was minted: client_revoked.
status, _, _ = call("POST", "/_mock/v1/clients/%s/revoke" % created["client_id"])
check("POST /_mock/v1/clients/{id}/revoke", status == 200, str(status))
status, _, body = call("GET", "/pos/v1/locations/" + location_a, token=low_token)
check("401 client_revoked", status == 401 and body["error"] == "client_revoked", "%s %s" % (status, body))
steps.append("revoked: 401 client_revoked")

# 4. An order with a POS user token (spec 5.6): opened by no machine client.
status, _, user = call("POST", "/_mock/v1/user-tokens", {"partner_id": partner_a["partner_id"]})
check("POST /_mock/v1/user-tokens", status == 201 and user["expires_in"] > 0, str(user))
status, _, order = call(
    "POST", "/pos/v1/orders", {"location_id": location_a, "total_cents": 2500}, token=user["access_token"]
)
check("an order with a user token", status == 201, "%s %s" % (status, order))
default_token = token_of(default_client["client_id"], default_client["client_secret"])
status, _, read = call("GET", "/pos/v1/orders/" + order["order_id"], token=default_token)
check("opened_by_m2m_client_id is null", status == 200 and read["opened_by_m2m_client_id"] is None, str(read))
steps.append("user token: order %s" % order["order_id"])

# 5. The partner subtree: a child cannot order at its parent's location; the parent can at its child's.
child_token = token_of(child["clients"][0]["client_id"], child["clients"][0]["client_secret"])
parent_token = token_of(parent["clients"][0]["client_id"], parent["clients"][0]["client_secret"])
status, _, body = call(
    "POST", "/pos/v1/orders", {"location_id": payments_location(parent), "total_cents": 100}, token=child_token
)
check("403 location_out_of_scope from the child", status == 403 and body["error"] == "location_out_of_scope",
      "%s %s" % (status, body))
status, _, body = call(
    "POST", "/pos/v1/orders", {"location_id": payments_location(child), "total_cents": 100}, token=parent_token
)
check("the parent orders at its child's location", status == 201, "%s %s" % (status, body))
steps.append("subtree: child 403 location_out_of_scope, parent 201")

print("python acceptance: ok (" + "; ".join(steps) + ")")

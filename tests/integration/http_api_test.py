#!/usr/bin/env python3
"""The HTTP/JSON listener of dpq-server (docs/http.md) over real TLS.

Run by tests/integration/http_gateway_test.cc, which starts the server with
--http-listen, --max-message-bytes 131072 and --http-cors-origins
DPQ_TEST_CORS_ORIGIN, registers "hospital" and sets:
  DPQ_TEST_HTTP_URL      https://127.0.0.1:PORT
  DPQ_TEST_CA            the CA of the server's certificate
  DPQ_TEST_ADMIN_TOKEN   the admin token
  DPQ_TEST_TOKEN_ALICE   a buyer with epsilon 5 on hospital
  DPQ_TEST_TOKEN_CAROL   a buyer with epsilon 0.5 on hospital
  DPQ_TEST_UPLOAD_MANIFEST / DPQ_TEST_UPLOAD_CSV
                         a manifest (JSON, dataset "people_http") and its CSV
  DPQ_TEST_CORS_ORIGIN   the one origin allowed across origins
Only the standard library: http.client and ssl.
"""

import http.client
import json
import os
import re
import ssl
import unittest
import urllib.parse
import uuid

URL = urllib.parse.urlsplit(os.environ["DPQ_TEST_HTTP_URL"])
ADMIN = os.environ["DPQ_TEST_ADMIN_TOKEN"]
ALICE = os.environ["DPQ_TEST_TOKEN_ALICE"]
CAROL = os.environ["DPQ_TEST_TOKEN_CAROL"]
ORIGIN = os.environ["DPQ_TEST_CORS_ORIGIN"]
UNITS = 10**12  # exact amounts: units of 1e-12 epsilon
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")


def connection():
    context = ssl.create_default_context(cafile=os.environ["DPQ_TEST_CA"])
    return http.client.HTTPSConnection(URL.hostname, URL.port, context=context, timeout=60)


class Reply:
    def __init__(self, response):
        self.status = response.status
        self.headers = response.headers
        self.raw = response.read()
        self.json = None
        if self.headers.get("Content-Type", "").startswith("application/json"):
            self.json = json.loads(self.raw)

    def error(self):
        return self.json["error"]


def call(method, path, token=None, body=None, headers=None):
    """One request on a new connection (the listener closes each one)."""
    all_headers = dict(headers or {})
    if token is not None:
        all_headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = body if isinstance(body, (bytes, str)) else json.dumps(body)
        all_headers.setdefault("Content-Type", "application/json")
    conn = connection()
    try:
        conn.request(method, path, body=data, headers=all_headers)
        return Reply(conn.getresponse())
    finally:
        conn.close()


def budget(token, dataset="hospital"):
    reply = call("GET", f"/v1/datasets/{dataset}/budget", token)
    assert reply.status == 200, reply.raw
    (entry,) = reply.json["budgets"]
    return entry


class ConsoleAndHeaders(unittest.TestCase):
    def test_console_page_carries_the_web_policy(self):
        page = call("GET", "/")
        self.assertEqual(page.status, 200)
        self.assertTrue(page.headers["Content-Type"].startswith("text/html"))
        self.assertEqual(page.headers["Content-Security-Policy"], CSP)
        self.assertEqual(page.headers["X-Content-Type-Options"], "nosniff")
        self.assertEqual(page.headers["X-Frame-Options"], "DENY")
        self.assertEqual(page.headers["Referrer-Policy"], "no-referrer")
        self.assertIn("max-age=", page.headers["Strict-Transport-Security"])
        html = page.raw.decode()
        # No inline script, handler or style: the CSP would block them.
        self.assertIsNone(re.search(r"<script(?![^>]*\ssrc=)", html))
        self.assertIsNone(re.search(r"\son[a-z]+\s*=", html))
        self.assertIsNone(re.search(r"\sstyle\s*=", html))
        scripts = re.findall(r'<script[^>]*\ssrc="([^"]+)"', html)
        self.assertTrue(scripts)
        for src in scripts:
            script = call("GET", src)
            self.assertEqual(script.status, 200, src)
            self.assertTrue(script.headers["Content-Type"].startswith("text/javascript"))
            self.assertEqual(script.headers["X-Content-Type-Options"], "nosniff")

    def test_unknown_pages_and_methods(self):
        self.assertEqual(call("GET", "/console/missing.js").status, 404)
        self.assertEqual(call("GET", "/console/../server.cc").status, 404)
        refused = call("POST", "/", body={})
        self.assertEqual(refused.status, 405)

    def test_api_answers_are_never_cached(self):
        reply = call("GET", "/v1/datasets", ALICE)
        self.assertEqual(reply.status, 200)
        self.assertEqual(reply.headers["Cache-Control"], "no-store")
        self.assertEqual(reply.headers["Content-Security-Policy"], CSP)
        self.assertEqual(reply.headers["X-Content-Type-Options"], "nosniff")
        errors = call("GET", "/v1/datasets")
        self.assertEqual(errors.headers["Cache-Control"], "no-store")


class JsonMapping(unittest.TestCase):
    def test_list_and_describe(self):
        listed = call("GET", "/v1/datasets", ALICE)
        self.assertEqual(listed.status, 200)
        ids = [d["datasetId"] for d in listed.json["datasets"]]
        self.assertIn("hospital", ids)
        described = call("GET", "/v1/datasets/hospital", ALICE)
        self.assertEqual(described.status, 200)
        self.assertEqual(described.json["dataset"]["datasetId"], "hospital")

    def test_query_parameters_fill_the_request(self):
        reply = call("GET", "/v1/datasets/hospital/budget?includeHistory=true&history_limit=3",
                     ALICE)
        self.assertEqual(reply.status, 200)
        self.assertIn("history", reply.json)
        self.assertIsInstance(reply.json["budgets"][0]["grantedUnits"], str)  # int64: a string
        unknown = call("GET", "/v1/datasets/hospital/budget?colour=red", ALICE)
        self.assertEqual(unknown.status, 400)
        self.assertIn("colour", unknown.error()["message"])
        self.assertEqual(unknown.error()["status"], "INVALID_ARGUMENT")
        bad_bool = call("GET", "/v1/datasets/hospital/budget?includeHistory=maybe", ALICE)
        self.assertEqual(bad_bool.status, 400)

    def test_bad_bodies(self):
        path = "/v1/datasets/hospital:measure"
        broken = call("POST", path, ALICE, body="{not json")
        self.assertEqual(broken.status, 400)
        self.assertIn("MeasureInconsistencyRequest", broken.error()["message"])
        unknown = call("POST", path, ALICE, body={"measure": "MEASURE_MI", "colour": 1})
        self.assertEqual(unknown.status, 400)
        body_on_get = call("GET", "/v1/datasets", ALICE, body={"pageSize": 1})
        self.assertEqual(body_on_get.status, 400)
        query_on_post = call("POST", path + "?epsilon=1", ALICE, body={})
        self.assertEqual(query_on_post.status, 400)

    def test_routes(self):
        missing = call("GET", "/v1/nothing", ALICE)
        self.assertEqual(missing.status, 404)
        self.assertEqual(missing.error()["status"], "NOT_FOUND")
        wrong_method = call("GET", "/v1/datasets/hospital:measure", ALICE)
        self.assertEqual(wrong_method.status, 405)
        self.assertIn("POST", wrong_method.error()["message"])
        not_found = call("GET", "/v1/datasets/nosuch", ALICE)
        self.assertEqual(not_found.status, 404)

    def test_body_above_the_limit_is_413(self):
        # 4/3 of 128 KiB plus 64 KiB is about 235 KiB.
        reply = call("POST", "/v1/datasets/hospital:measure", ALICE,
                     body='{"requestId": "' + "x" * 300_000 + '"}')
        self.assertEqual(reply.status, 413)
        self.assertEqual(reply.error()["status"], "RESOURCE_EXHAUSTED")

    def test_grpc_timeout_header(self):
        bad = call("GET", "/v1/datasets", ALICE, headers={"Grpc-Timeout": "soon"})
        self.assertEqual(bad.status, 400)
        good = call("GET", "/v1/datasets", ALICE, headers={"Grpc-Timeout": "20S"})
        self.assertEqual(good.status, 200)


class RolesAndTokens(unittest.TestCase):
    def test_missing_and_bad_tokens_are_401(self):
        missing = call("GET", "/v1/datasets")
        self.assertEqual(missing.status, 401)
        self.assertIn("Bearer", missing.headers["WWW-Authenticate"])
        self.assertEqual(missing.error()["status"], "UNAUTHENTICATED")
        self.assertEqual(call("GET", "/v1/datasets", "not-a-token").status, 401)
        self.assertEqual(call("GET", "/v1/datasets", headers={"Authorization": "Basic x"}).status,
                         401)

    def test_a_buyer_cannot_reach_admin_routes(self):
        before = budget(ALICE)["grantedUnits"]
        for method, path, body in [("GET", "/v1/admin/buyers", None),
                                   ("GET", "/v1/admin/ledger", None),
                                   ("POST", "/v1/admin/budgets:grant",
                                    {"buyerId": "alice", "datasetId": "hospital", "epsilon": 9}),
                                   ("DELETE", "/v1/admin/datasets/hospital", None)]:
            reply = call(method, path, ALICE, body=body)
            self.assertEqual(reply.status, 403, path)
            self.assertEqual(reply.error()["status"], "PERMISSION_DENIED")
        self.assertEqual(budget(ALICE)["grantedUnits"], before)

    def test_a_revoked_buyer_is_refused_at_once(self):
        created = call("POST", "/v1/admin/buyers", ADMIN, body={"name": "mallory"})
        self.assertEqual(created.status, 200, created.raw)
        token = created.json["token"]
        self.assertEqual(call("GET", "/v1/datasets", token).status, 200)
        revoked = call("POST", "/v1/admin/buyers/mallory:revoke", ADMIN, body={})
        self.assertEqual(revoked.status, 200, revoked.raw)
        self.assertEqual(call("GET", "/v1/datasets", token).status, 401)
        buyers = call("GET", "/v1/admin/buyers", ADMIN).json["buyers"]
        self.assertTrue(any(b["buyerId"] == "mallory" and b["revoked"] for b in buyers))


class Ledger(unittest.TestCase):
    def test_a_measure_is_charged_once_and_replayed(self):
        spent = int(budget(ALICE)["spentUnits"])
        request = {"measure": "MEASURE_MI", "epsilon": 1, "requestId": str(uuid.uuid4())}
        preview = call("POST", "/v1/costs:preview", ALICE,
                       body={"measureInconsistency": dict(request, datasetId="hospital")})
        self.assertEqual(preview.status, 200, preview.raw)
        self.assertEqual(int(preview.json["epsilonChargedUnits"]), UNITS)
        self.assertEqual(int(budget(ALICE)["spentUnits"]), spent)  # a preview is free
        first = call("POST", "/v1/datasets/hospital:measure", ALICE, body=request)
        self.assertEqual(first.status, 200, first.raw)
        self.assertEqual(int(first.json["epsilonChargedUnits"]), UNITS)
        self.assertFalse(first.json["replayed"])
        again = call("POST", "/v1/datasets/hospital:measure", ALICE, body=request)
        self.assertEqual(again.status, 200)
        self.assertTrue(again.json["replayed"])
        self.assertEqual(again.json["result"], first.json["result"])
        self.assertEqual(int(budget(ALICE)["spentUnits"]), spent + UNITS)
        receipts = call("GET", "/v1/datasets/hospital/receipts?pageSize=10", ALICE)
        self.assertEqual(receipts.status, 200)
        ids = [r["entry"]["requestId"] for r in receipts.json["receipts"]]
        self.assertIn(request["requestId"], ids)
        reused = call("POST", "/v1/datasets/hospital:measure", ALICE,
                      body=dict(request, epsilon=2))
        self.assertEqual(reused.status, 409)

    def test_an_exhausted_budget_is_429_with_rich_details(self):
        reply = call("POST", "/v1/datasets/hospital:measure", CAROL,
                     body={"measure": "MEASURE_MI", "epsilon": 1, "requestId": "carol-1"})
        self.assertEqual(reply.status, 429)
        error = reply.error()
        self.assertEqual(error["code"], 429)
        self.assertEqual(error["status"], "RESOURCE_EXHAUSTED")
        infos = [d for d in error["details"]
                 if d["@type"] == "type.googleapis.com/google.rpc.ErrorInfo"]
        self.assertEqual(infos[0]["reason"], "BUDGET_EXHAUSTED")
        self.assertEqual(int(budget(CAROL)["spentUnits"]), 0)

    def test_admin_ledger_and_audit_pages(self):
        for i in range(3):
            grant = call("POST", "/v1/admin/budgets:grant", ADMIN,
                         body={"buyerId": "carol", "datasetId": "hospital", "epsilon": 0.125})
            self.assertEqual(grant.status, 200, grant.raw)
        first = call("GET", "/v1/admin/audit?limit=2&action=GrantBudget", ADMIN)
        self.assertEqual(first.status, 200, first.raw)
        self.assertEqual(len(first.json["entries"]), 2)
        self.assertTrue(all(e["action"] == "GrantBudget" for e in first.json["entries"]))
        token = first.json["nextPageToken"]
        self.assertTrue(token)
        second = call("GET", f"/v1/admin/audit?limit=2&action=GrantBudget&pageToken={token}",
                      ADMIN)
        self.assertEqual(second.status, 200)
        self.assertTrue(second.json["entries"])
        self.assertLessEqual(second.json["entries"][0]["time"], first.json["entries"][-1]["time"])
        bad = call("GET", "/v1/admin/audit?pageToken=xyz", ADMIN)
        self.assertEqual(bad.status, 400)
        # The ledger: two of alice's charges, one page each.
        for i in range(2):
            call("POST", "/v1/datasets/hospital:measure", ALICE,
                 body={"measure": "MEASURE_MI", "epsilon": 0.25, "requestId": f"page-{i}"})
        page1 = call("GET", "/v1/admin/ledger?buyerId=alice&limit=1", ADMIN)
        self.assertEqual(page1.status, 200)
        (newest,) = page1.json["entries"]
        self.assertEqual(newest["buyerId"], "alice")
        page2 = call("GET", "/v1/admin/ledger?buyerId=alice&limit=1&pageToken="
                     + page1.json["nextPageToken"], ADMIN)
        (older,) = page2.json["entries"]
        self.assertLess(int(older["entryId"]), int(newest["entryId"]))


class Uploads(unittest.TestCase):
    def stream(self, lines):
        """POSTs `lines` as a chunked NDJSON body, one chunk per line."""
        conn = connection()
        try:
            conn.request("POST", "/v1/admin/datasets",
                         body=(line.encode() + b"\n" for line in lines),
                         headers={"Authorization": f"Bearer {ADMIN}",
                                  "Content-Type": "application/x-ndjson"},
                         encode_chunked=True)
            return Reply(conn.getresponse())
        finally:
            conn.close()

    def test_register_a_dataset_as_a_chunked_stream(self):
        import base64
        manifest = json.loads(os.environ["DPQ_TEST_UPLOAD_MANIFEST"])
        with open(os.environ["DPQ_TEST_UPLOAD_CSV"], "rb") as f:
            csv = f.read()
        chunks = [csv[i:i + 200] for i in range(0, len(csv), 200)]
        lines = [json.dumps({"header": {"manifest": manifest}})]
        lines += [json.dumps({"csvChunk": base64.b64encode(c).decode()}) for c in chunks]
        reply = self.stream(lines)
        self.assertEqual(reply.status, 200, reply.raw)
        self.assertEqual(reply.json["dataset"]["datasetId"], "people_http")
        self.assertEqual(reply.json["stats"]["rows"], "40")
        again = self.stream(lines)
        self.assertEqual(again.status, 409)  # ALREADY_EXISTS
        listed = call("GET", "/v1/admin/datasets", ADMIN).json["datasets"]
        self.assertIn("people_http", [d["dataset"]["datasetId"] for d in listed])

    def test_a_bad_line_ends_the_upload(self):
        manifest = json.loads(os.environ["DPQ_TEST_UPLOAD_MANIFEST"])
        manifest["datasetId"] = "people_broken"
        reply = self.stream([json.dumps({"header": {"manifest": manifest}}), "{broken"])
        self.assertEqual(reply.status, 400)
        self.assertIn("RegisterDatasetRequest", reply.error()["message"])
        listed = call("GET", "/v1/admin/datasets", ADMIN).json["datasets"]
        self.assertNotIn("people_broken", [d["dataset"]["datasetId"] for d in listed])


class Cors(unittest.TestCase):
    def test_no_cross_origin_access_unless_configured(self):
        plain = call("GET", "/v1/datasets", ALICE)
        self.assertNotIn("Access-Control-Allow-Origin", plain.headers)
        evil = call("GET", "/v1/datasets", ALICE, headers={"Origin": "https://evil.example"})
        self.assertNotIn("Access-Control-Allow-Origin", evil.headers)
        preflight = call("OPTIONS", "/v1/datasets", headers={
            "Origin": "https://evil.example", "Access-Control-Request-Method": "GET"})
        self.assertEqual(preflight.status, 403)
        self.assertNotIn("Access-Control-Allow-Origin", preflight.headers)

    def test_the_configured_origin_is_allowed(self):
        preflight = call("OPTIONS", "/v1/datasets", headers={
            "Origin": ORIGIN, "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization"})
        self.assertEqual(preflight.status, 204)
        self.assertEqual(preflight.headers["Access-Control-Allow-Origin"], ORIGIN)
        self.assertIn("authorization", preflight.headers["Access-Control-Allow-Headers"])
        reply = call("GET", "/v1/datasets", ALICE, headers={"Origin": ORIGIN})
        self.assertEqual(reply.headers["Access-Control-Allow-Origin"], ORIGIN)
        self.assertEqual(reply.headers["Vary"], "Origin")


if __name__ == "__main__":
    unittest.main(verbosity=2)

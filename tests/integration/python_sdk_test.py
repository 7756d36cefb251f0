"""The Python SDK (dpq_client) against a real dpq-server.

Started by python_sdk_test.cc, which registers the datasets "hospital"
(the demo table), "people" (40 rows, cube dimensions Sex, Age, Label; one
public exact cuboid, so non-cube releases cost 2x) and "net" (a 6-node
graph), creates the buyers and passes, in the environment:
  DPQ_TEST_SERVER, DPQ_TEST_CA       the TLS server and the CA to trust
  DPQ_TEST_TOKEN_ALICE               20 on hospital (exact-budget test only)
  DPQ_TEST_TOKEN_CAROL               1 on hospital (to exhaust)
  DPQ_TEST_TOKEN_DAVE (and _FILE_)   10 on people, 5 on net
  DPQ_TEST_TOKEN_BOB                 nothing granted
  DPQ_TEST_TOKEN_ERIN                revoked
Cases: listing and describing; each release returns its request id; a
retry with the same id replays (nothing charged, same answer); the same id
with other parameters; a timed-out heavy call retried by the SDK with the
same id is charged once; budget exhausted and no-grant errors with their
details; exact Decimal budgets (20 - 1 - 1 - 1 - 0.9 - 0.5 = 15.6); bad
input; bad token; a revoked buyer; configuration errors; UNAVAILABLE
retries; channel sharing; DataFrames and plain dicts of real answers
(DPQ_TEST_TOKEN_FRANK: 20 on people, 10 on hospital). With
DPQ_TEST_INSTALLED_IN (a venv), also that dpq_client was imported from
that installation, with its generated modules and py.typed.
"""

import json
import os
import time
import unittest
from decimal import Decimal

import grpc

import dpq_client
from dpq_client import RetryPolicy, channels

SERVER = os.environ["DPQ_TEST_SERVER"]
CA = os.environ["DPQ_TEST_CA"]


def assert_documented(test, e):
    """The docstring of e's class starts with the reason or the code the
    server sent (dpq_client.errors)."""
    doc = type(e).__doc__ or ""
    test.assertTrue(doc.startswith((e.reason or e.code.name) + ":"),
                    f"{type(e).__name__}: {doc[:60]!r} for {e.reason or e.code.name}")


def client(token_name, **kwargs):
    return dpq_client.Client(SERVER, token=os.environ["DPQ_TEST_TOKEN_" + token_name],
                             ca_file=CA, **kwargs)


@unittest.skipUnless(os.environ.get("DPQ_TEST_INSTALLED_IN"), "SDK of the build tree")
class InstalledPackage(unittest.TestCase):
    def test_imported_from_the_installation(self):
        venv = os.path.realpath(os.environ["DPQ_TEST_INSTALLED_IN"])
        package = os.path.dirname(os.path.realpath(dpq_client.__file__))
        self.assertTrue(package.startswith(venv + os.sep), package)
        from dpq_client._proto.dpq.v1 import buyer_service_pb2
        self.assertTrue(os.path.realpath(buyer_service_pb2.__file__).startswith(package))
        self.assertTrue(os.path.isfile(os.path.join(package, "py.typed")))
        self.assertRegex(dpq_client.__version__, r"^[0-9]+\.[0-9]+\.[0-9]+$")


class ListAndDescribe(unittest.TestCase):
    def test_lists_and_describes(self):
        with client("DAVE") as dpq:
            datasets = dpq.list_datasets()
            self.assertEqual([d.dataset_id for d in datasets], ["hospital", "net", "people"])
            # Pages of one dataset each, followed to the end.
            self.assertEqual([d.dataset_id for d in dpq.list_datasets(page_size=1)],
                             ["hospital", "net", "people"])
            people = dpq.describe_dataset("people")
            self.assertEqual(people.kind, "TABLE")
            self.assertEqual([c.column for c in people.cube_dimensions], ["Sex", "Age", "Label"])
            self.assertEqual(people.public_max_rows, 100)
            self.assertEqual(people.charge_multiplier, 2)
            self.assertIn("ReleaseCuboids", people.supported_releases)
            self.assertEqual(people.public_cuboids[0].dimensions, ["Sex"])
            self.assertEqual(dpq.describe_dataset("net").kind, "GRAPH")
            hospital = dpq.describe_dataset("hospital")
            self.assertEqual(hospital.supported_measures, ["MI", "P", "R"])
            self.assertIsNone(hospital.row_count)  # not public

    def test_unknown_dataset_is_not_found(self):
        with client("DAVE") as dpq:
            with self.assertRaises(dpq_client.NotFound) as cm:
                dpq.describe_dataset("nope")
            self.assertEqual(cm.exception.code, grpc.StatusCode.NOT_FOUND)
            if cm.exception.reason:  # rich details (server side may predate them)
                self.assertIsInstance(cm.exception, dpq_client.DatasetNotFound)


class ExactBudget(unittest.TestCase):
    def test_twenty_minus_charges_is_exactly_15_6(self):
        with client("ALICE") as dpq:
            before = dpq.get_budget("hospital").for_dataset("hospital")
            self.assertEqual(before.granted, Decimal(20))
            ids = []
            for _ in range(3):
                r = dpq.measure_inconsistency("hospital", "r", 1)
                self.assertEqual(r.epsilon_charged, Decimal(1))
                ids.append(r.request_id)
            r = dpq.quality_report("hospital", "0.9")
            self.assertEqual(r.epsilon_charged, Decimal("0.9"))
            self.assertEqual([m.measure for m in r.results], ["MI", "P", "R"])
            ids.append(r.request_id)
            for m in r.results:
                # Each part carries its 95% interval, bias included.
                self.assertLessEqual(m.lower95, m.value)
                self.assertGreaterEqual(m.upper95, m.value)
                self.assertTrue(m.describe().startswith(
                    f"{m.lower95} to {m.upper95} (" if m.upper_proved
                    else f"at least {m.lower95} ("), m.describe())
            mi, p, rr = (m.value for m in r.results)
            self.assertLessEqual(rr, p)  # the parts agree
            self.assertLessEqual(p, 2 * mi)
            self.assertIsNone(r.row_count)
            self.assertIsNone(r.per_row())
            r = dpq.measure_inconsistency("hospital", "p", Decimal("0.5"))
            self.assertEqual(r.result.method, "group_bound")
            lo, hi = r.result.interval
            self.assertLessEqual(lo, r.result.value)
            self.assertTrue(hi is None or hi >= r.result.value)
            ids.append(r.request_id)
            self.assertEqual(r.remaining_budget, Decimal("15.6"))
            self.assertEqual(str(r.remaining_budget), "15.6")
            report = dpq.get_budget(history=True)
            b = report.for_dataset("hospital")
            self.assertEqual((b.granted, b.spent, b.reserved, b.remaining),
                             (Decimal(20), Decimal("4.4"), Decimal(0), Decimal("15.6")))
            self.assertEqual([e.request_id for e in report.history], ids[::-1])
            self.assertEqual([e.epsilon for e in report.history],
                             [Decimal("0.5"), Decimal("0.9"), Decimal(1), Decimal(1), Decimal(1)])
            self.assertTrue(all(e.state == "COMMITTED" for e in report.history))


class Releases(unittest.TestCase):
    def test_release_returns_its_request_id_and_a_retry_replays(self):
        with client("DAVE") as dpq:
            first = dpq.release_cuboids("people", [["Sex", "Label"]], "0.5")
            self.assertTrue(first.request_id.startswith("py-"), first.request_id)
            self.assertEqual(len(first.request_id), 3 + 32)
            self.assertFalse(first.replayed)
            self.assertEqual(first.attempts, 1)
            self.assertEqual(first.epsilon_charged, Decimal("0.5"))
            self.assertEqual(first.cuboids[0].dimensions, ["Sex", "Label"])
            again = dpq.release_cuboids("people", [["Sex", "Label"]], "0.5",
                                        request_id=first.request_id)
            self.assertTrue(again.replayed)
            self.assertEqual(again.request_id, first.request_id)
            self.assertEqual(again.epsilon_charged, Decimal(0))
            self.assertEqual(again.remaining_budget, first.remaining_budget)
            self.assertEqual(again.cuboids, first.cuboids)  # same noise

    def test_every_release_kind(self):
        with client("DAVE") as dpq:
            tree = dpq.train_decision_tree("people", "Label", "yes", "0.2",
                                           accuracy_epsilon="0.1", request_id="dave-tree-1")
            self.assertEqual(tree.request_id, "dave-tree-1")
            self.assertEqual(tree.epsilon_charged, Decimal("0.6"))  # k_Q = 2
            self.assertIsNotNone(tree.tpr)
            self.assertTrue(tree.nodes and tree.tree_text)
            nodes = dpq.select_influential_nodes("net", 2, "0.5", objectives=["degree"],
                                                 sensitivity="local")
            self.assertEqual(len(nodes.nodes), 2)
            self.assertEqual(nodes.epsilon_charged, Decimal("0.5"))
            m = dpq.measure_inconsistency("people", "mi", "0.1", method="optimized")
            self.assertEqual(m.result.measure, "MI")
            self.assertEqual(m.result.method, "optimized")
            self.assertEqual(m.epsilon_charged, Decimal("0.2"))
            # people's public cuboids make its row count public: exact, free.
            rep = dpq.quality_report("people", "0.3", row_count=True)
            self.assertEqual(rep.epsilon_charged, Decimal("0.6"))  # k_Q = 2
            self.assertTrue(rep.row_count.exact)
            self.assertEqual(rep.row_count.value, 40)
            self.assertEqual(rep.row_count.epsilon, Decimal(0))
            self.assertEqual(set(rep.per_row()), {"MI", "P", "R"})

    def test_same_id_other_parameters_is_refused(self):
        with client("DAVE") as dpq:
            r = dpq.measure_inconsistency("people", "p", "0.1")
            with self.assertRaises(dpq_client.AlreadyExists) as cm:
                dpq.measure_inconsistency("people", "p", "0.2", request_id=r.request_id)
            self.assertEqual(cm.exception.code, grpc.StatusCode.ALREADY_EXISTS)
            self.assertEqual(cm.exception.request_id, r.request_id)
            if cm.exception.reason:
                self.assertIsInstance(cm.exception, dpq_client.RequestIdReused)

    def test_timed_out_heavy_call_is_retried_with_its_id_and_charged_once(self):
        policy = RetryPolicy(max_retries=6, initial_backoff=0.05, timeout_multiplier=4.0)
        with client("DAVE", retries=policy) as dpq:
            dpq.list_datasets()  # connected: the first attempt reaches the server
            spent = dpq.get_budget("people").for_dataset("people").spent
            start = time.monotonic()
            tree = dpq.train_decision_tree("people", "Label", "yes", "0.05", generations=30,
                                           population=100, request_id="dave-slow-tree",
                                           timeout=0.05)
            took = time.monotonic() - start
            print(f"\n  heavy tree: {tree.attempts} attempts, replayed={tree.replayed}, "
                  f"{took:.2f} s", flush=True)
            self.assertGreater(tree.attempts, 1)
            self.assertEqual(tree.request_id, "dave-slow-tree")
            after = dpq.get_budget("people", history=True)
            self.assertEqual(after.for_dataset("people").spent - spent, Decimal("0.1"))
            entries = [e for e in after.history if e.request_id == "dave-slow-tree"]
            self.assertEqual(len(entries), 1)
            self.assertEqual(entries[0].state, "COMMITTED")
            # The retried call charged once: either the first attempt
            # charged and a later one got the answer free (replayed), or no
            # attempt before the last reached the ledger.
            self.assertEqual(tree.epsilon_charged, Decimal(0) if tree.replayed else Decimal("0.1"))


class Errors(unittest.TestCase):
    def test_budget_exhausted_has_the_buyers_numbers(self):
        with client("CAROL") as dpq:
            with self.assertRaises(dpq_client.ResourceExhausted) as cm:
                dpq.measure_inconsistency("hospital", "r", 2, request_id="carol-1")
            e = cm.exception
            self.assertEqual(e.code, grpc.StatusCode.RESOURCE_EXHAUSTED)
            self.assertEqual(e.request_id, "carol-1")
            self.assertEqual(e.attempts, 1)
            if e.reason:  # the rich details
                self.assertIsInstance(e, dpq_client.BudgetExhausted)
                self.assertEqual(e.reason, "BUDGET_EXHAUSTED")
                self.assertEqual(e.dataset_id, "hospital")
                self.assertEqual(e.remaining_epsilon, Decimal(1))
                self.assertEqual(e.requested_epsilon, Decimal(2))
                self.assertTrue(e.quota_violations)
            assert_documented(self, e)
            self.assertEqual(dpq.get_budget("hospital").for_dataset("hospital").remaining,
                             Decimal(1))

    def test_no_grant_is_not_budget_exhausted(self):
        with client("BOB") as dpq:
            with self.assertRaises(dpq_client.DpqError) as cm:
                dpq.measure_inconsistency("hospital", "mi", 1)
            e = cm.exception
            self.assertTrue(e.request_id.startswith("py-"))
            if e.reason:
                self.assertIsInstance(e, dpq_client.NoBudgetGranted)
                self.assertEqual(e.code, grpc.StatusCode.FAILED_PRECONDITION)
                assert_documented(self, e)
                self.assertEqual(e.dataset_id, "hospital")
            else:  # a server without the rich errors said RESOURCE_EXHAUSTED
                self.assertIn(e.code, (grpc.StatusCode.FAILED_PRECONDITION,
                                       grpc.StatusCode.RESOURCE_EXHAUSTED))
            self.assertEqual(dpq.get_budget().budgets, [])

    def test_bad_input(self):
        with client("DAVE") as dpq:
            remaining = dpq.get_budget("people").for_dataset("people").remaining
            for kwargs in ({"epsilon": 0}, {"epsilon": -1}, {"epsilon": float("nan")},
                           {"epsilon": 1e7}, {"epsilon": 1, "request_id": "x" * 129},
                           {"epsilon": 1, "request_id": "tab\there"}):
                with self.subTest(kwargs=kwargs):
                    with self.assertRaises(dpq_client.InvalidArgument) as cm:
                        dpq.measure_inconsistency("people", "mi", **kwargs)
                    self.assertEqual(cm.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
                    assert_documented(self, cm.exception)
                    self.assertTrue(cm.exception.request_id)
                    self.assertEqual(cm.exception.attempts, 1)
            with self.assertRaises(dpq_client.InvalidArgument) as cm:
                dpq.release_cuboids("people", [["Height"]], 1)
            with self.assertRaises(dpq_client.DpqError) as cm:
                dpq.select_influential_nodes("net", 0, 1)
            self.assertEqual(cm.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
            # Refused by the SDK before any call.
            with self.assertRaises(dpq_client.InvalidArgument) as cm:
                dpq.measure_inconsistency("people", "median", 1)
            self.assertEqual(cm.exception.field_violations[0].subject, "measure")
            self.assertTrue(cm.exception.request_id.startswith("py-"))
            with self.assertRaises(dpq_client.InvalidArgument):
                dpq.release_cuboids("people", ["Sex"], 1)
            self.assertEqual(dpq.get_budget("people").for_dataset("people").remaining, remaining)

    def test_bad_token_is_unauthenticated(self):
        with dpq_client.Client(SERVER, token="dpq_not-a-token", ca_file=CA) as dpq:
            with self.assertRaises(dpq_client.Unauthenticated) as cm:
                dpq.list_datasets()
            self.assertEqual(cm.exception.code, grpc.StatusCode.UNAUTHENTICATED)
            self.assertEqual(cm.exception.attempts, 1)  # never retried
            assert_documented(self, cm.exception)

    def test_revoked_buyer_is_unauthenticated_as_documented(self):
        with client("ERIN") as dpq:
            for call in (dpq.list_datasets, lambda: dpq.measure_inconsistency("hospital", "r", 1)):
                with self.assertRaises(dpq_client.Unauthenticated) as cm:
                    call()
                assert_documented(self, cm.exception)
                self.assertIn("revoked", type(cm.exception).__doc__)

    def test_token_file(self):
        with dpq_client.Client(SERVER, token_file=os.environ["DPQ_TEST_TOKEN_FILE_DAVE"],
                               ca_file=CA) as dpq:
            self.assertEqual(len(dpq.list_datasets()), 3)


class Frames(unittest.TestCase):
    """to_pandas() and to_dict() of real answers (frank: 20 on people, 10
    on hospital)."""

    def test_report_frame_has_float_amounts_beside_exact_ones(self):
        with client("FRANK") as dpq:
            report = dpq.quality_report("hospital", "0.3", row_count=True)
        df = report.to_pandas()
        self.assertEqual(list(df.measure), ["MI", "P", "R"])
        self.assertEqual(set(df.dataset_id), {"hospital"})
        self.assertEqual(str(df.epsilon.dtype), "float64")
        self.assertEqual(df.epsilon_charged_exact[0], Decimal("0.3"))
        self.assertAlmostEqual(float((df.epsilon * 0.5).sum()), 0.15 * 0.9)
        self.assertEqual(list(df.value), [m.value for m in report.results])
        self.assertEqual(list(df.interval), [m.describe() for m in report.results])
        self.assertEqual(int(df.rows[0]), report.row_count.value)
        self.assertNotIn("raw", df.columns)
        # JSON without the protobuf, amounts exact.
        data = json.loads(json.dumps(report.to_dict()))
        self.assertNotIn("raw", data)
        self.assertEqual(data["epsilon_charged"], "0.3")
        self.assertEqual(data["results"][0]["measure"], "MI")
        self.assertEqual(data["row_count"]["value"], report.row_count.value)

    def test_cuboids_are_tidy_with_an_other_flag(self):
        with client("FRANK") as dpq:
            release = dpq.release_cuboids("people", [["Sex"], ["Sex", "Label"]], 1)
            budget = dpq.get_budget("people", history=True)
        df = release.to_pandas()
        cells = sum(len(c.cells) for c in release.cuboids)
        self.assertEqual(len(df), cells)
        self.assertEqual(set(df.cuboid), {"Sex", "Sex,Label"})
        self.assertEqual(list(df[df.cuboid == "Sex"].Label), [None] * 3)
        self.assertEqual(list(df[df.cuboid == "Sex"].Sex), ["F", "M", "other"])
        self.assertEqual(list(df[df.cuboid == "Sex"].other), [False, False, True])
        self.assertEqual(int(df.other.sum()), 1 + (3 + 3 - 1))  # any label "other"
        self.assertEqual(str(df["count"].dtype), "float64")
        json.dumps(release.to_dict())
        # Budgets: one row each, float and exact amounts; the history's
        # times as UTC datetimes.
        frame = budget.to_pandas()
        self.assertEqual(list(frame.dataset_id), ["people"])
        self.assertEqual(frame.remaining_exact[0], budget.budgets[0].remaining)
        self.assertAlmostEqual(frame.remaining[0], float(budget.budgets[0].remaining))
        history = budget.history_to_pandas()
        self.assertEqual(list(history.request_id)[0], release.request_id)
        self.assertEqual(str(history.created_at.dtype), "datetime64[ns, UTC]")

    def test_reports_of_several_datasets_stack(self):
        with client("FRANK") as dpq:
            reports = [dpq.quality_report(d, 1) for d in ("hospital", "people")]
            datasets = dpq.list_datasets()
        df = dpq_client.to_pandas(reports)
        self.assertEqual(list(df.dataset_id), ["hospital"] * 3 + ["people"] * 3)
        self.assertEqual(list(df.epsilon_charged_exact), [Decimal(1)] * 3 + [Decimal(2)] * 3)
        listing = dpq_client.to_pandas(datasets)
        self.assertEqual(list(listing.dataset_id), ["hospital", "net", "people"])
        self.assertEqual(list(listing.charge_multiplier), [1, 1, 2])


class Preview(unittest.TestCase):
    """preview_cost(): the charge and the noise before buying, free."""

    def test_preview_is_what_the_release_then_charges(self):
        with client("FRANK") as dpq:
            before = dpq.get_budget("people").for_dataset("people").remaining
            cost = dpq.preview_cost("measure_inconsistency", "people", measure="p",
                                    epsilon="0.25")
            self.assertEqual(dpq.get_budget("people").for_dataset("people").remaining, before)
            r = dpq.measure_inconsistency("people", "p", "0.25")
        # people publishes an exact cuboid: k_Q = 2.
        self.assertEqual(cost.epsilon_charged, Decimal("0.5"))
        self.assertEqual(cost.charge_multiplier, 2)
        self.assertIn("2 x 0.25", cost.charge_basis)
        self.assertEqual(cost.remaining_budget, before)
        self.assertTrue(cost.fits_budget)
        self.assertEqual(r.epsilon_charged, cost.epsilon_charged)
        [noise] = cost.noise
        self.assertEqual((noise.measure, noise.method), ("P", r.result.method))
        self.assertEqual((noise.theta_coefficient, noise.sensitivity_constant), (1, 1))
        self.assertLessEqual(abs(noise.bound95(r.result.theta) - r.result.bound95), 1)
        json.dumps(cost.to_dict())

    def test_report_preview_has_every_measure_and_refusals_match(self):
        with client("FRANK") as dpq:
            cost = dpq.preview_cost("quality_report", "hospital", epsilon=1000)
            self.assertEqual([n.measure for n in cost.noise], ["MI", "P", "R"])
            self.assertFalse(cost.fits_budget)
            self.assertEqual(len(cost.to_pandas()), 3)
            trees = dpq.preview_cost("release_cuboids", "people", cuboids=[["Sex"]], epsilon=1)
            self.assertEqual((trees.charge_multiplier, trees.noise), (1, []))
            with self.assertRaises(dpq_client.InvalidArgument):  # the server's check
                dpq.preview_cost("measure_inconsistency", "hospital", measure="mi", epsilon=0)
            with self.assertRaises(dpq_client.InvalidArgument) as cm:  # before any call
                dpq.preview_cost("measure_inconsistency", "hospital", measure="mi")
            self.assertEqual(cm.exception.attempts, 0)
            with self.assertRaises(dpq_client.InvalidArgument):
                dpq.preview_cost("nothing", "hospital", epsilon=1)
            with self.assertRaises(dpq_client.DatasetNotFound):
                dpq.preview_cost("quality_report", "no-such-dataset", epsilon=1)


class Receipts(unittest.TestCase):
    """list_receipts(): frank's own releases with their answers, free."""

    def test_receipts_hold_the_answers_as_returned(self):
        with client("FRANK") as dpq:
            r = dpq.measure_inconsistency("hospital", "mi", "0.1", request_id="frank-rc-1")
            report = dpq.quality_report("hospital", "0.3", request_id="frank-rc-2")
            before = dpq.get_budget("hospital", history=True)
            newest = dpq.list_receipts("hospital", limit=2)
            every = dpq.list_receipts("hospital", page_size=1)  # one per page
            self.assertEqual(dpq.get_budget("hospital").for_dataset("hospital").remaining,
                             before.for_dataset("hospital").remaining)  # free
        self.assertEqual([x.entry.request_id for x in newest], ["frank-rc-2", "frank-rc-1"])
        self.assertEqual([x.kind for x in newest], ["QualityReport", "MeasureInconsistency"])
        self.assertEqual(newest[1].answer.result, r.result)
        self.assertEqual(newest[0].answer.results, report.results)
        self.assertEqual(newest[1].answer.epsilon_charged, Decimal("0.1"))
        self.assertIsNone(newest[1].answer.remaining_budget)
        self.assertEqual(newest[0].entry.state, "COMMITTED")
        self.assertEqual([x.entry.request_id for x in every],
                         [e.request_id for e in before.history])
        df = dpq_client.to_pandas(newest)
        self.assertEqual(list(df.measure), ["MI", "P", "R", "MI"])
        self.assertEqual(list(df.request_id), ["frank-rc-2"] * 3 + ["frank-rc-1"])
        self.assertEqual(df.epsilon_exact.iloc[3], Decimal("0.1"))
        json.dumps([x.to_dict() for x in newest])

    def test_another_buyers_receipts_are_not_listed(self):
        with client("BOB") as dpq:
            self.assertEqual(dpq.list_receipts("hospital"), [])
            with self.assertRaises(dpq_client.DatasetNotFound):
                dpq.list_receipts("no-such-dataset")
        with dpq_client.Client(SERVER, token="dpq_not-a-token", ca_file=CA) as dpq:
            with self.assertRaises(dpq_client.Unauthenticated):
                dpq.list_receipts("hospital")


class Transport(unittest.TestCase):
    def test_unavailable_is_retried_then_raised_with_the_id(self):
        policy = RetryPolicy(max_retries=2, initial_backoff=0.01)
        # Port 1 on loopback: nothing listens, so every attempt is refused.
        with dpq_client.Client("127.0.0.1:1", token="t", ca_file=CA, retries=policy,
                               timeout=5) as dpq:
            with self.assertRaises(dpq_client.Unavailable) as cm:
                dpq.quality_report("hospital", 1, request_id="r-unavail")
            self.assertEqual(cm.exception.attempts, 3)
            self.assertEqual(cm.exception.request_id, "r-unavail")

    def test_wrong_ca_is_a_configuration_error_never_retried(self):
        # The server certificate is not signed by the system roots.
        with dpq_client.Client(SERVER, token="t", retries=3) as dpq:
            with self.assertRaises(dpq_client.ConfigurationError) as cm:
                dpq.list_datasets()
            self.assertEqual(cm.exception.attempts, 1)
            self.assertFalse(cm.exception.retryable)
            self.assertIn("pass ca_file=", cm.exception.message)
            assert_documented(self, cm.exception)

    def test_one_channel_per_token(self):
        a, b, c = client("DAVE"), client("DAVE"), client("CAROL")
        try:
            self.assertEqual(a._key, b._key)
            self.assertNotEqual(a._key, c._key)
            self.assertEqual(channels._pool[a._key][1], 2)
        finally:
            a.close(), b.close(), c.close()
        self.assertNotIn(a._key, channels._pool)


if __name__ == "__main__":
    unittest.main(verbosity=2)

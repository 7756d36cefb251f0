"""dpq_client without a server: the rich error model is decoded from a
google.rpc.Status trailer into the right DpqError subclass with exact
amounts; the request id and retry rules; amounts from units or doubles."""

import random
import unittest
from decimal import Decimal

import grpc
from google.protobuf import duration_pb2

import dpq_client
from dpq_client import errors, retry
from dpq_client.amounts import epsilon_field, format_epsilon, units_to_decimal
from dpq_client._proto.dpq.v1 import buyer_service_pb2, ledger_pb2
from dpq_client._proto.google.rpc import error_details_pb2, status_pb2


class FakeRpcError(grpc.RpcError):
    """What a failed unary call raises: a grpc.RpcError that is a grpc.Call."""

    def __init__(self, code, message, details=(), trailer=None):
        self._code, self._message = code, message
        status = status_pb2.Status(code=code.value[0], message=message)
        for d in details:
            status.details.add().Pack(d)
        self._trailer = trailer if trailer is not None else status.SerializeToString()

    def code(self):
        return self._code

    def details(self):
        return self._message

    def trailing_metadata(self):
        return (("grpc-status-details-bin", self._trailer),) if self._trailer else ()


def info(reason, **metadata):
    return error_details_pb2.ErrorInfo(reason=reason, domain="dpq.v1", metadata=metadata)


class ErrorsFromTrailers(unittest.TestCase):
    def test_budget_exhausted_with_quota_failure_and_exact_amounts(self):
        quota = error_details_pb2.QuotaFailure()
        quota.violations.add(subject="buyer:alice dataset:hospital", description="2 > 1.3")
        e = errors.from_rpc_error(FakeRpcError(
            grpc.StatusCode.RESOURCE_EXHAUSTED, "Budget exhausted",
            [info("BUDGET_EXHAUSTED", dataset_id="hospital", requested_epsilon="2",
                  remaining_epsilon="1.3", remaining_epsilon_units="1300000000000"), quota]),
            request_id="q1")
        self.assertIsInstance(e, dpq_client.BudgetExhausted)
        self.assertIsInstance(e, dpq_client.ResourceExhausted)
        self.assertEqual((e.reason, e.dataset_id, e.request_id),
                         ("BUDGET_EXHAUSTED", "hospital", "q1"))
        self.assertEqual(e.remaining_epsilon, Decimal("1.3"))
        self.assertEqual(e.requested_epsilon, Decimal(2))
        self.assertIsNone(e.cap_epsilon)
        self.assertEqual(e.quota_violations[0].description, "2 > 1.3")
        self.assertIn("request id q1", str(e))

    def test_reason_first_code_second(self):
        cases = [
            (grpc.StatusCode.FAILED_PRECONDITION, "NO_BUDGET_GRANTED", dpq_client.NoBudgetGranted),
            (grpc.StatusCode.RESOURCE_EXHAUSTED, "DATASET_CAP_REACHED",
             dpq_client.DatasetCapReached),
            (grpc.StatusCode.ALREADY_EXISTS, "REQUEST_ID_REUSED", dpq_client.RequestIdReused),
            (grpc.StatusCode.ABORTED, "REQUEST_IN_PROGRESS", dpq_client.RequestInProgress),
            (grpc.StatusCode.UNAVAILABLE, "HEAVY_JOBS_BUSY", dpq_client.HeavyJobsBusy),
            (grpc.StatusCode.NOT_FOUND, "DATASET_NOT_FOUND", dpq_client.DatasetNotFound),
            (grpc.StatusCode.NOT_FOUND, "SOMETHING_NEW", dpq_client.NotFound),
            (grpc.StatusCode.INTERNAL, "", dpq_client.Internal),
            (grpc.StatusCode.DATA_LOSS, "", dpq_client.DpqError),
        ]
        for code, reason, cls in cases:
            with self.subTest(reason=reason):
                details = [info(reason)] if reason else []
                e = errors.from_rpc_error(FakeRpcError(code, "m", details))
                self.assertIs(type(e), cls)
                self.assertEqual(e.code, code)

    def test_bad_request_retry_info_request_info_resource_info(self):
        bad = error_details_pb2.BadRequest()
        bad.field_violations.add(field="epsilon", description="must be in [1e-6, 1e6]")
        e = errors.from_rpc_error(FakeRpcError(
            grpc.StatusCode.INVALID_ARGUMENT, "bad",
            [info("INVALID_ARGUMENT", field="epsilon"), bad]))
        self.assertIsInstance(e, ValueError)
        self.assertEqual(e.field_violations[0].subject, "epsilon")
        e = errors.from_rpc_error(FakeRpcError(
            grpc.StatusCode.UNAVAILABLE, "busy",
            [info("HEAVY_JOBS_BUSY"),
             error_details_pb2.RetryInfo(
                 retry_delay=duration_pb2.Duration(seconds=1, nanos=500000000))]))
        self.assertEqual(e.retry_delay, 1.5)
        self.assertTrue(e.retryable)
        e = errors.from_rpc_error(FakeRpcError(
            grpc.StatusCode.INTERNAL, "internal error",
            [info("INTERNAL"), error_details_pb2.RequestInfo(request_id="incident-7")]))
        self.assertEqual(e.incident_id, "incident-7")
        e = errors.from_rpc_error(FakeRpcError(
            grpc.StatusCode.NOT_FOUND, "no",
            [info("DATASET_NOT_FOUND"),
             error_details_pb2.ResourceInfo(resource_type="dpq.v1.Dataset", resource_name="x")]))
        self.assertEqual(e.dataset_id, "x")

    def test_no_or_garbled_trailer_keeps_code_and_message(self):
        for trailer in (b"", b"\xff\xff\xff"):
            e = errors.from_rpc_error(FakeRpcError(grpc.StatusCode.RESOURCE_EXHAUSTED, "msg",
                                                   trailer=trailer), request_id="r")
            self.assertIs(type(e), dpq_client.ResourceExhausted)
            self.assertEqual((e.message, e.reason, e.request_id), ("msg", "", "r"))

    def test_a_foreign_domain_is_not_a_dpq_reason(self):
        foreign = error_details_pb2.ErrorInfo(reason="BUDGET_EXHAUSTED", domain="example.com")
        e = errors.from_rpc_error(FakeRpcError(grpc.StatusCode.ABORTED, "m", [foreign]))
        self.assertIs(type(e), dpq_client.Aborted)


class Retries(unittest.TestCase):
    def test_only_unavailable_and_deadline_are_retried(self):
        policy = dpq_client.RetryPolicy(max_retries=2)
        make = lambda code, reason="": errors.from_rpc_error(
            FakeRpcError(code, "m", [info(reason)] if reason else []))
        self.assertTrue(retry.should_retry(make(grpc.StatusCode.UNAVAILABLE), 0, policy, False))
        self.assertTrue(
            retry.should_retry(make(grpc.StatusCode.DEADLINE_EXCEEDED), 1, policy, False))
        self.assertFalse(retry.should_retry(make(grpc.StatusCode.UNAVAILABLE), 2, policy, False))
        for code in (grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.INTERNAL,
                     grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.ABORTED):
            self.assertFalse(retry.should_retry(make(code), 0, policy, False), code)
        # Our own earlier attempt still running: retried only after a
        # retryable failure of this call.
        busy = make(grpc.StatusCode.ABORTED, "REQUEST_IN_PROGRESS")
        self.assertFalse(retry.should_retry(busy, 0, policy, False))
        self.assertTrue(retry.should_retry(busy, 1, policy, True))

    def test_backoff_is_jittered_bounded_and_honours_retry_info(self):
        policy = dpq_client.RetryPolicy(initial_backoff=0.2, max_backoff=1.0)
        rng = random.Random(7)
        waits = [policy.backoff(r, None, rng) for r in range(8)]
        self.assertTrue(all(0 <= w <= min(1.0, 0.2 * 2**r) for r, w in enumerate(waits)), waits)
        self.assertEqual(policy.backoff(0, 3.0, rng), 3.0)
        self.assertEqual([policy.attempt_timeout(1.0, r) for r in range(3)], [1.0, 2.0, 4.0])
        self.assertEqual(dpq_client.RetryPolicy(max_timeout=3).attempt_timeout(1.0, 5), 3)

    def test_arguments_the_sdk_cannot_encode_fail_before_any_call(self):
        # Port 1: a call would fail UNAVAILABLE, so InvalidArgument proves
        # that none was made.
        with dpq_client.Client("127.0.0.1:1", token="t", retries=0) as dpq:
            for call in (lambda: dpq.measure_inconsistency("d", "median", 1),
                         lambda: dpq.quality_report("d", "lots"),
                         lambda: dpq.release_cuboids("d", ["Sex"], 1),
                         lambda: dpq.select_influential_nodes("d", 1, 1, objectives=["x"])):
                with self.assertRaises(dpq_client.InvalidArgument) as cm:
                    call()
                self.assertEqual(cm.exception.attempts, 0)
                self.assertTrue(cm.exception.request_id.startswith("py-"))

    def test_request_ids_are_fresh(self):
        ids = {dpq_client.new_request_id() for _ in range(100)}
        self.assertEqual(len(ids), 100)
        self.assertTrue(all(len(i) == 35 and i.startswith("py-") for i in ids))


class Amounts(unittest.TestCase):
    def test_units_to_decimal(self):
        self.assertEqual(str(units_to_decimal(15_600_000_000_000)), "15.6")
        self.assertEqual(str(units_to_decimal(3_000_000_000_000)), "3")
        self.assertEqual(str(units_to_decimal(100 * 10**12)), "100")
        self.assertEqual(format_epsilon(units_to_decimal(1)), "0.000000000001")
        self.assertEqual(units_to_decimal(10**18), Decimal(10**6))

    def test_units_field_or_the_double(self):
        r = buyer_service_pb2.MeasureInconsistencyResponse(remaining_budget=15.600000000000001)
        if "remaining_budget_units" in r.DESCRIPTOR.fields_by_name:
            r.remaining_budget_units = 15_600_000_000_000
        self.assertEqual(epsilon_field(r, "remaining_budget"), Decimal("15.6"))
        b = ledger_pb2.Budget(remaining=0.30000000000000004)
        self.assertEqual(epsilon_field(b, "remaining"), Decimal("0.3"))


if __name__ == "__main__":
    unittest.main()

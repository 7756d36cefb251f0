"""dpq_client.frames without a server: to_dict() is JSON with exact
amounts and no raw message; to_pandas() has float amounts beside exact
ones and tidy cuboids; without pandas, a clear ImportError."""

import json
import sys
import unittest
from decimal import Decimal
from unittest import mock

import dpq_client
from dpq_client import frames, results
from dpq_client._proto.dpq.v1 import buyer_service_pb2, dataset_pb2


def measure_response():
    r = buyer_service_pb2.MeasureInconsistencyResponse(
        request_id="q1", epsilon_charged=0.1, epsilon_charged_units=100_000_000_000,
        remaining_budget=15.6, remaining_budget_units=15_600_000_000_000)
    r.result.measure = dataset_pb2.MEASURE_P
    r.result.value, r.result.lower95, r.result.upper95 = 40, 30, 70
    r.result.upper_proved = True
    r.result.estimate = dataset_pb2.ESTIMATE_LOWER_BOUND
    r.result.truncated = True
    r.result.epsilon, r.result.epsilon_units = 0.1, 100_000_000_000
    return r


def cuboid_response():
    r = buyer_service_pb2.ReleaseCuboidsResponse(request_id="c1", strategy="per_cuboid",
                                                 noise_stddev=[1.5])
    c = r.cuboids.add(dimensions=["Sex"])
    for label, count in (("F", 10.2), ("M", 9.7), ("other", 0.4)):
        c.cells.add(values=[label], count=count)
    return r


class ToDict(unittest.TestCase):
    def test_json_with_exact_amounts_and_no_raw(self):
        release = results.measure_release("hospital", measure_response(), 1)
        data = json.loads(json.dumps(release.to_dict()))
        self.assertNotIn("raw", data)
        self.assertNotIn("raw", data["result"])
        self.assertEqual(data["remaining_budget"], "15.6")
        self.assertEqual(data["result"]["epsilon"], "0.1")
        self.assertEqual(data["result"]["measure"], "P")
        self.assertEqual(data["dataset_id"], "hospital")


class ToPandas(unittest.TestCase):
    def setUp(self):
        try:
            import pandas  # noqa: F401
        except ImportError:  # pragma: no cover - Debian's python3-pandas is a dependency
            self.skipTest("pandas is not installed")

    def test_amounts_are_floats_beside_exact_decimals(self):
        df = results.measure_release("hospital", measure_response(), 1).to_pandas()
        self.assertEqual(len(df), 1)
        self.assertEqual(str(df.remaining_budget.dtype), "float64")
        self.assertEqual(df.remaining_budget_exact[0], Decimal("15.6"))
        self.assertAlmostEqual((df.epsilon * 0.5)[0], 0.05)
        self.assertEqual(df.interval[0], "30 to 70 (includes the possible undercount)")
        self.assertNotIn("raw", df.columns)

    def test_cuboid_cells_are_rows_with_an_other_flag(self):
        df = results.cuboid_release("people", cuboid_response(), 1).to_pandas()
        self.assertEqual(list(df.Sex), ["F", "M", "other"])
        self.assertEqual(list(df.other), [False, False, True])
        self.assertEqual(list(df.noise_stddev), [1.5] * 3)
        self.assertEqual(list(df.cuboid), ["Sex"] * 3)

    def test_other_labels(self):
        for label, other in (("other", True), ("(other)", True), ("((other))", True),
                             ("(other", False), ("others", False), ("F", False)):
            self.assertEqual(frames.is_other_label(label), other, label)

    def test_records_stack(self):
        a = results.measure_release("a", measure_response(), 1)
        b = results.measure_release("b", measure_response(), 1)
        self.assertEqual(list(dpq_client.to_pandas([a, b]).dataset_id), ["a", "b"])


class Receipts(unittest.TestCase):
    def receipt(self, with_answer=True):
        r = buyer_service_pb2.Receipt()
        r.entry.entry_id, r.entry.request_id = 7, "q1"
        r.entry.dataset_id = "hospital"
        r.entry.operation = "MeasureInconsistency P group_bound"
        r.entry.epsilon, r.entry.epsilon_units = 0.1, 100_000_000_000
        r.entry.state = 2  # COMMITTED
        if with_answer:
            r.measure_inconsistency.CopyFrom(measure_response())
            r.measure_inconsistency.ClearField("remaining_budget")
            r.measure_inconsistency.ClearField("remaining_budget_units")
        return results.Receipt.from_proto(r)

    def test_answer_is_the_release_without_a_remaining_budget(self):
        receipt = self.receipt()
        self.assertEqual(receipt.kind, "MeasureInconsistency")
        self.assertIsInstance(receipt.answer, dpq_client.MeasureRelease)
        self.assertEqual(receipt.answer.result.value, 40)
        self.assertIsNone(receipt.answer.remaining_budget)
        self.assertEqual(receipt.answer.attempts, 0)
        self.assertEqual(receipt.entry.epsilon, Decimal("0.1"))
        data = json.loads(json.dumps(receipt.to_dict()))
        self.assertIsNone(data["answer"]["remaining_budget"])
        self.assertIsNone(self.receipt(with_answer=False).answer)

    def test_frame_has_a_row_per_measure(self):
        try:
            import pandas  # noqa: F401
        except ImportError:  # pragma: no cover
            self.skipTest("pandas is not installed")
        df = dpq_client.to_pandas([self.receipt(), self.receipt(with_answer=False)])
        self.assertEqual(list(df.kind), ["MeasureInconsistency"] * 2)
        self.assertEqual(df.measure.iloc[0], "P")
        self.assertEqual(df.value.iloc[0], 40)
        self.assertEqual(str(df.epsilon.dtype), "float64")


class WithoutPandas(unittest.TestCase):
    def test_import_error_says_how_to_install(self):
        release = results.measure_release("hospital", measure_response(), 1)
        with mock.patch.dict(sys.modules, {"pandas": None}):
            with self.assertRaises(ImportError) as cm:
                release.to_pandas()
        self.assertIn("pip install 'dpq-client[pandas]'", str(cm.exception))
        self.assertIn("python3-pandas", str(cm.exception))
        self.assertEqual(release.to_dict()["request_id"], "q1")  # no pandas needed


if __name__ == "__main__":
    unittest.main()

"""dpq_client: a Python SDK for buyers of dpq (dpq.v1.BuyerService).

    import dpq_client
    with dpq_client.Client("localhost:50051", token_file="alice.token",
                           ca_file="certs/ca.pem") as dpq:
        r = dpq.measure_inconsistency("hospital", "mi", epsilon=1)
        print(r.result.value, r.request_id, r.remaining_budget)

docs/clients.md documents the set-up (PYTHONPATH), every call, the errors,
the retries and the exact amounts.
"""

from dpq_client.amounts import format_epsilon, units_to_decimal
from dpq_client.client import DEFAULT_TIMEOUT, Client, new_request_id
from dpq_client.errors import (Aborted, AlreadyExists, BudgetExhausted, Cancelled,
                               DatasetCapReached, DatasetNotFound, DeadlineExceeded, DpqError,
                               FailedPrecondition, HeavyJobsBusy, Internal, InvalidArgument,
                               NoBudgetGranted, NotFound, PermissionDenied, RequestIdReused,
                               RequestInProgress, ResourceExhausted, Unauthenticated,
                               Unavailable, Unimplemented, Violation)
from dpq_client.results import (Budget, BudgetReport, Charged, Column, CubeDimension, Cuboid,
                                CuboidCell, CuboidRelease, Dataset, DecisionTree,
                                InfluentialNodes, LedgerEntry, MeasureRelease, MeasureResult,
                                QualityReport, TreeNode)
from dpq_client.retry import RetryPolicy

__all__ = [name for name in dir() if not name.startswith("_")]

"""dpq_client: a Python SDK for buyers of dpq (dpq.v1.BuyerService).

    import dpq_client
    with dpq_client.Client("localhost:50051", token_file="alice.token",
                           ca_file="certs/ca.pem") as dpq:
        r = dpq.measure_inconsistency("hospital", "mi", epsilon=1)
        print(r.result.value, r.request_id, r.remaining_budget)

docs/clients.md documents the set-up (pip install client/python), every
call, the errors, the retries and the exact amounts.
"""

import os as _os

# gRPC's C core logs failed handshakes and connections to stderr itself
# ("E1201 ... Handshake failed"); the SDK raises each failure as an
# exception that says what to do, so the core stays quiet unless the user
# asks for its lines (GRPC_VERBOSITY=ERROR or DEBUG, set before the first
# channel).
_os.environ.setdefault("GRPC_VERBOSITY", "NONE")

try:
    from dpq_client._version import __version__
except ImportError:  # a source checkout, not a built package
    __version__ = "0+unknown"

from dpq_client.amounts import format_epsilon, units_to_decimal
from dpq_client.client import DEFAULT_TIMEOUT, Client, Epsilon, EnumValue, new_request_id
from dpq_client.errors import (Aborted, AlreadyExists, BudgetExhausted, Cancelled, ConfigurationError,
                               DatasetCapReached, DatasetNotFound, DeadlineExceeded, DpqError,
                               FailedPrecondition, HeavyJobsBusy, Internal, InvalidArgument,
                               NoBudgetGranted, NotFound, PermissionDenied, RequestIdReused,
                               RequestInProgress, ResourceExhausted, Unauthenticated,
                               Unavailable, Unimplemented, Violation)
from dpq_client.results import (Budget, BudgetReport, Charged, Column, CubeDimension, Cuboid,
                                CuboidCell, CuboidRelease, Dataset, DecisionTree,
                                InfluentialNodes, LedgerEntry, MeasureRelease, MeasureResult,
                                QualityReport, Receipt, RowCount, TreeNode, CostPreview,
                                MeasureNoise)
from dpq_client.frames import Record, to_pandas
from dpq_client.retry import RetryPolicy

__all__ = [name for name in dir() if not name.startswith("_")]

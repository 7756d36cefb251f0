"""dpq_client.Client: the buyer's side of dpq.v1.BuyerService."""

import secrets
import time
from typing import Iterable, Optional, Sequence, Union

import grpc

from dpq_client import _stubs  # noqa: F401
from dpq_client import channels, results
from dpq_client.errors import DpqError, from_rpc_error, invalid_argument
from dpq_client.retry import RetryPolicy, should_retry
from dpq.v1 import buyer_service_pb2 as pb
from dpq.v1 import buyer_service_pb2_grpc as pb_grpc
from dpq.v1 import dataset_pb2

# Per-attempt deadline when none is given, seconds.
DEFAULT_TIMEOUT = 30.0


def new_request_id() -> str:
    """"py-" and 32 hex digits: 128 bits from the OS CSPRNG (ids only need
    to be unique per buyer, but a guessable id costs nothing to avoid)."""
    return "py-" + secrets.token_hex(16)


def _read_token(token, token_file):
    if token is not None and token_file is not None:
        raise ValueError("give token or token_file, not both")
    if token_file is not None:
        with open(token_file, "r", encoding="ascii") as f:
            token = f.read()
        if token.endswith("\n"):  # one trailing newline, as `dpq` drops it
            token = token[:-1]
    if token is not None and (token == "" or any(ord(c) <= 0x20 or ord(c) >= 0x7F for c in token)):
        # Never echo the token itself.
        raise ValueError("the token is empty or contains spaces or control characters")
    return token


def _read(path):
    if path is None:
        return None
    with open(path, "rb") as f:
        return f.read()


def _enum(enum_type, prefix: str, value, field: str, request_id: str) -> int:
    """An enum number from a short name ("mi", "gem", "cover_bound"), a
    full name ("MEASURE_MI") or a number; None -> 0 (the server default)."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    name = str(value).upper()
    for candidate in (name, prefix + name):
        if candidate in enum_type.keys():
            return enum_type.Value(candidate)
    known = ", ".join(k[len(prefix):].lower() for k in enum_type.keys()
                      if not k.endswith("UNSPECIFIED"))
    raise invalid_argument(field, f"unknown value {value!r} (one of {known})", request_id)


def _epsilon(value, field: str, request_id: str) -> float:
    """The double of an epsilon given as int, float, Decimal or str (the
    server checks its range)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise invalid_argument(field, f"not a number: {value!r}", request_id) from None


class Client:
    """A buyer's connection to dpq-server.

    Args:
      target: "host:port" (or any gRPC target).
      token, token_file: the buyer's bearer token, or a file holding it (one
        trailing newline is dropped).
      ca_file: PEM of the CA to trust (the dev ca.pem); None: system roots.
      server_name: the name to check the server certificate against, when
        it differs from the target's host.
      insecure: plaintext (a server started with --insecure); the token is
        then sent as call metadata.
      timeout: deadline of each call's first attempt, seconds.
      retries: retries of UNAVAILABLE and DEADLINE_EXCEEDED, as a count or a
        RetryPolicy (dpq_client.retry).
      client_cert_file, client_key_file: for servers that require mutual TLS.

    Clients with the same settings share one channel. A Client is
    thread-safe; close() it (or use `with`) when done.
    """

    def __init__(self, target: str, token: Optional[str] = None, token_file: Optional[str] = None,
                 ca_file: Optional[str] = None, server_name: Optional[str] = None,
                 insecure: bool = False, timeout: float = DEFAULT_TIMEOUT,
                 retries: Union[int, RetryPolicy] = 3, client_cert_file: Optional[str] = None,
                 client_key_file: Optional[str] = None):
        token = _read_token(token, token_file)
        if (client_cert_file is None) != (client_key_file is None):
            raise ValueError("client_cert_file and client_key_file go together")
        self.target = target
        self.timeout = float(timeout)
        self.retry_policy = (retries if isinstance(retries, RetryPolicy)
                             else RetryPolicy(max_retries=int(retries)))
        self._key, channel = channels.acquire(
            target, token, insecure, _read(ca_file), _read(client_cert_file),
            _read(client_key_file), server_name)
        self._stub = pb_grpc.BuyerServiceStub(channel)
        # Call credentials need TLS; on a plaintext channel the token goes
        # into each call's metadata instead.
        self._metadata = (("authorization", "Bearer " + token),) if insecure and token else ()
        self._closed = False

    def close(self):
        if not self._closed:
            self._closed = True
            channels.release(self._key)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- The calls ---------------------------------------------------------

    def list_datasets(self, timeout: Optional[float] = None, page_size: int = 0):
        """Every dataset's public metadata (list of results.Dataset). Free.

        The server answers in pages (at most page_size datasets, 0 = its
        default of 100, and below 3 MiB each); this follows every page.
        """
        datasets = []
        token = ""
        while True:
            r, _ = self._call("ListDatasets",
                              pb.ListDatasetsRequest(page_size=page_size, page_token=token),
                              "", timeout)
            datasets.extend(results.Dataset.from_proto(d) for d in r.datasets)
            token = r.next_page_token
            if not token:
                return datasets

    def describe_dataset(self, dataset_id: str, timeout: Optional[float] = None):
        """One dataset's public metadata (results.Dataset). Free."""
        r, _ = self._call("DescribeDataset", pb.DescribeDatasetRequest(dataset_id=dataset_id), "",
                          timeout)
        return results.Dataset.from_proto(r.dataset)

    def get_budget(self, dataset_id: Optional[str] = None, history: bool = False,
                   history_limit: int = 0, timeout: Optional[float] = None):
        """The caller's budgets (all datasets, or one) and, with history,
        the caller's own ledger entries, newest first (results.BudgetReport).
        history_limit: 0 = the server default (100)."""
        req = pb.GetBudgetRequest(dataset_id=dataset_id or "", include_history=history,
                                  history_limit=history_limit)
        r, _ = self._call("GetBudget", req, "", timeout)
        return results.BudgetReport(budgets=[results.Budget.from_proto(b) for b in r.budgets],
                                    history=[results.LedgerEntry.from_proto(e) for e in r.history],
                                    raw=r)

    def measure_inconsistency(self, dataset_id: str, measure, epsilon, method=None,
                              repair_method=None, request_id: Optional[str] = None,
                              timeout: Optional[float] = None):
        """One DP inconsistency measure (results.MeasureRelease).

        measure: "mi", "p" or "r"; method (MI, P): "group_bound" (default),
        "gem", "optimized", "hierarchical", "basic", "baseline"; repair_method (R):
        "cover_bound", "exact", "vertex_cover". Charges epsilon (times the
        dataset's charge_multiplier)."""
        rid = request_id or new_request_id()
        req = pb.MeasureInconsistencyRequest(
            dataset_id=dataset_id, epsilon=_epsilon(epsilon, "epsilon", rid), request_id=rid,
            measure=_enum(dataset_pb2.Measure, "MEASURE_", measure, "measure", rid),
            method=_enum(dataset_pb2.SelectionMethod, "SELECTION_METHOD_", method, "method", rid),
            repair_method=_enum(dataset_pb2.RepairMethod, "REPAIR_METHOD_", repair_method,
                                "repair_method", rid))
        return results.measure_release(*self._call("MeasureInconsistency", req, rid, timeout))

    def quality_report(self, dataset_id: str, epsilon, method=None, repair_method=None,
                       request_id: Optional[str] = None, timeout: Optional[float] = None,
                       row_count: bool = False):
        """I_MI, I_P and I_R for one charge of epsilon (epsilon/3 each;
        results.QualityReport). row_count=True adds the DP row count (10%
        of epsilon; exact and free where the owner published it), so that
        report.per_row() can compare datasets of different sizes."""
        rid = request_id or new_request_id()
        req = pb.QualityReportRequest(
            dataset_id=dataset_id, epsilon=_epsilon(epsilon, "epsilon", rid), request_id=rid,
            method=_enum(dataset_pb2.SelectionMethod, "SELECTION_METHOD_", method, "method", rid),
            repair_method=_enum(dataset_pb2.RepairMethod, "REPAIR_METHOD_", repair_method,
                                "repair_method", rid),
            include_row_count=bool(row_count))
        return results.quality_report(*self._call("QualityReport", req, rid, timeout))

    def release_cuboids(self, dataset_id: str, cuboids: Sequence[Sequence[str]], epsilon,
                        non_negative_integral: bool = False, request_id: Optional[str] = None,
                        timeout: Optional[float] = None):
        """DP count marginals over declared cube dimensions, one list of
        dimension names per cuboid, e.g. [["Condition", "EmergencyService"]]
        (results.CuboidRelease)."""
        rid = request_id or new_request_id()
        cuboids = [] if isinstance(cuboids, str) else list(cuboids)
        if not cuboids or any(isinstance(c, str) for c in cuboids):
            raise invalid_argument("cuboids", "give a list of lists of dimension names", rid)
        req = pb.ReleaseCuboidsRequest(
            dataset_id=dataset_id, epsilon=_epsilon(epsilon, "epsilon", rid), request_id=rid,
            non_negative_integral=non_negative_integral,
            cuboids=[dataset_pb2.CuboidSpec(dimensions=list(c)) for c in cuboids])
        return results.cuboid_release(*self._call("ReleaseCuboids", req, rid, timeout))

    def train_decision_tree(self, dataset_id: str, label_column: str, positive_class: str,
                            epsilon, features: Iterable[str] = (), approach=None,
                            weights: Iterable[float] = (), sensitivity=None, generations: int = 0,
                            population: int = 0, accuracy_epsilon=0,
                            request_id: Optional[str] = None, timeout: Optional[float] = None):
        """A DP cost-sensitive decision tree (results.DecisionTree).
        approach: "aggregation" (default; weights 1, 1: balanced accuracy)
        or "pareto"; sensitivity: "local" (default) or "global";
        accuracy_epsilon > 0 also buys the DP TPR and TNR (charged on top
        of epsilon). The result's caveat says when the budget is too small
        for a useful tree (useful_epsilon: the least that passes) or the
        tree is a single leaf. A heavy job: HeavyJobsBusy (retried) when the
        server's slots are taken."""
        rid = request_id or new_request_id()
        req = pb.TrainDecisionTreeRequest(
            dataset_id=dataset_id, label_column=label_column, positive_class=positive_class,
            features=list(features), weights=[float(w) for w in weights],
            approach=_enum(pb.SelectionApproach, "SELECTION_APPROACH_", approach, "approach", rid),
            sensitivity=_enum(pb.SensitivityMode, "SENSITIVITY_MODE_", sensitivity,
                              "sensitivity", rid),
            epsilon=_epsilon(epsilon, "epsilon", rid), generations=generations,
            population=population,
            accuracy_epsilon=_epsilon(accuracy_epsilon, "accuracy_epsilon", rid), request_id=rid)
        return results.decision_tree(*self._call("TrainDecisionTree", req, rid, timeout))

    def select_influential_nodes(self, dataset_id: str, k: int, epsilon,
                                 objectives: Iterable = (), approach=None,
                                 weights: Iterable[float] = (), sensitivity=None,
                                 request_id: Optional[str] = None,
                                 timeout: Optional[float] = None):
        """The k most influential nodes of a graph dataset
        (results.InfluentialNodes). objectives: "degree",
        "egocentric_density" (default: both)."""
        rid = request_id or new_request_id()
        req = pb.SelectInfluentialNodesRequest(
            dataset_id=dataset_id, k=k, epsilon=_epsilon(epsilon, "epsilon", rid), request_id=rid,
            objectives=[_enum(pb.NodeObjective, "NODE_OBJECTIVE_", o, "objectives", rid)
                        for o in objectives],
            approach=_enum(pb.SelectionApproach, "SELECTION_APPROACH_", approach, "approach", rid),
            weights=[float(w) for w in weights],
            sensitivity=_enum(pb.SensitivityMode, "SENSITIVITY_MODE_", sensitivity,
                              "sensitivity", rid))
        return results.influential_nodes(*self._call("SelectInfluentialNodes", req, rid, timeout))

    # --- Retries -------------------------------------------------------------

    def _call(self, method: str, request, request_id: str, timeout: Optional[float]):
        """(response, attempts) of a unary call, retried per the policy
        with the same request (hence the same request id)."""
        if self._closed:
            raise DpqError(grpc.StatusCode.CANCELLED, "the client is closed", request_id,
                           attempts=0)
        rpc = getattr(self._stub, method)
        first = self.timeout if timeout is None else float(timeout)
        policy = self.retry_policy
        after_retryable = False
        retry = 0
        while True:
            try:
                response = rpc(request, timeout=policy.attempt_timeout(first, retry),
                               metadata=self._metadata)
                return response, retry + 1
            except grpc.RpcError as e:
                error = from_rpc_error(e, request_id, retry + 1)
            if not should_retry(error, retry, policy, after_retryable):
                raise error
            after_retryable = after_retryable or error.retryable
            time.sleep(policy.backoff(retry, error.retry_delay))
            retry += 1

"""dpq_client.Client: the buyer's side of dpq.v1.BuyerService."""

import secrets
import time
from decimal import Decimal
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import grpc

from dpq_client import _stubs  # noqa: F401
from dpq_client import channels, diagnose, results
from dpq_client.errors import DpqError, configuration_error, from_rpc_error, invalid_argument
from dpq_client.retry import RetryPolicy, should_retry
from dpq_client._proto.dpq.v1 import buyer_service_pb2 as pb
from dpq_client._proto.dpq.v1 import buyer_service_pb2_grpc as pb_grpc
from dpq_client._proto.dpq.v1 import dataset_pb2

# Per-attempt deadline when none is given, seconds.
DEFAULT_TIMEOUT = 30.0

# An epsilon: exact as a Decimal or a str ("0.1"), or an int or float.
Epsilon = Union[Decimal, str, int, float]
# An enum value: a short name ("mi", "group_bound"), a full name
# ("MEASURE_MI") or its number; None for the server's default.
EnumValue = Union[str, int, None]


def new_request_id() -> str:
    """"py-" and 32 hex digits: 128 bits from the OS CSPRNG (ids only need
    to be unique per buyer, but a guessable id costs nothing to avoid)."""
    return "py-" + secrets.token_hex(16)


def _read_file(path: str, what: str) -> bytes:
    """The bytes of a file given to Client, or a ConfigurationError that
    names the argument."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise configuration_error(f"{what} {path!r} cannot be read: {e.strerror}") from None


def _read_token(token: Optional[str], token_file: Optional[str]) -> Optional[str]:
    if token is not None and token_file is not None:
        raise ValueError("give token or token_file, not both")
    if token_file is not None:
        try:
            token = _read_file(token_file, "token_file").decode("ascii")
        except UnicodeDecodeError:
            raise configuration_error(f"token_file {token_file!r} is not a dpq token") from None
        if token.endswith("\n"):  # one trailing newline, as `dpq` drops it
            token = token[:-1]
    if token is not None and (token == "" or any(ord(c) <= 0x20 or ord(c) >= 0x7F for c in token)):
        # Never echo the token itself.
        raise ValueError("the token is empty or contains spaces or control characters")
    return token


def _read_pem(path: Optional[str], what: str, kind: str) -> Optional[bytes]:
    """A PEM file's bytes (None for None), or a ConfigurationError when it
    cannot be read or holds no `kind` ("CERTIFICATE", "PRIVATE KEY")."""
    if path is None:
        return None
    data = _read_file(path, what)
    if b"-----BEGIN " not in data or kind.encode() not in data:
        raise configuration_error(f"{what} {path!r} is not a PEM file with a {kind.lower()}")
    return data


def _enum(enum_type: Any, prefix: str, value: EnumValue, field: str, request_id: str) -> int:
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


def _epsilon(value: Epsilon, field: str, request_id: str) -> float:
    """The double of an epsilon given as int, float, Decimal or str (the
    server checks its range)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise invalid_argument(field, f"not a number: {value!r}", request_id) from None


# --- The release requests (the release methods and preview_cost) ---------


def _measure_request(dataset_id: str, measure: EnumValue, epsilon: Epsilon, method: EnumValue,
                     repair_method: EnumValue, rid: str) -> Any:
    return pb.MeasureInconsistencyRequest(
        dataset_id=dataset_id, epsilon=_epsilon(epsilon, "epsilon", rid), request_id=rid,
        measure=_enum(dataset_pb2.Measure, "MEASURE_", measure, "measure", rid),
        method=_enum(dataset_pb2.SelectionMethod, "SELECTION_METHOD_", method, "method", rid),
        repair_method=_enum(dataset_pb2.RepairMethod, "REPAIR_METHOD_", repair_method,
                            "repair_method", rid))


def _report_request(dataset_id: str, epsilon: Epsilon, method: EnumValue,
                    repair_method: EnumValue, row_count: bool, rid: str) -> Any:
    return pb.QualityReportRequest(
        dataset_id=dataset_id, epsilon=_epsilon(epsilon, "epsilon", rid), request_id=rid,
        method=_enum(dataset_pb2.SelectionMethod, "SELECTION_METHOD_", method, "method", rid),
        repair_method=_enum(dataset_pb2.RepairMethod, "REPAIR_METHOD_", repair_method,
                            "repair_method", rid),
        include_row_count=bool(row_count))


def _cuboids_request(dataset_id: str, cuboids: Sequence[Sequence[str]], epsilon: Epsilon,
                     non_negative_integral: bool, rid: str) -> Any:
    cuboids = [] if isinstance(cuboids, str) else list(cuboids)
    if not cuboids or any(isinstance(c, str) for c in cuboids):
        raise invalid_argument("cuboids", "give a list of lists of dimension names", rid)
    return pb.ReleaseCuboidsRequest(
        dataset_id=dataset_id, epsilon=_epsilon(epsilon, "epsilon", rid), request_id=rid,
        non_negative_integral=non_negative_integral,
        cuboids=[dataset_pb2.CuboidSpec(dimensions=list(c)) for c in cuboids])


def _tree_request(dataset_id: str, label_column: str, positive_class: str, epsilon: Epsilon,
                  features: Iterable[str], approach: EnumValue, weights: Iterable[float],
                  sensitivity: EnumValue, generations: int, population: int,
                  accuracy_epsilon: Epsilon, rid: str) -> Any:
    return pb.TrainDecisionTreeRequest(
        dataset_id=dataset_id, label_column=label_column, positive_class=positive_class,
        features=list(features), weights=[float(w) for w in weights],
        approach=_enum(pb.SelectionApproach, "SELECTION_APPROACH_", approach, "approach", rid),
        sensitivity=_enum(pb.SensitivityMode, "SENSITIVITY_MODE_", sensitivity,
                          "sensitivity", rid),
        epsilon=_epsilon(epsilon, "epsilon", rid), generations=generations,
        population=population,
        accuracy_epsilon=_epsilon(accuracy_epsilon, "accuracy_epsilon", rid), request_id=rid)


def _nodes_request(dataset_id: str, k: int, epsilon: Epsilon, objectives: Iterable[EnumValue],
                   approach: EnumValue, weights: Iterable[float], sensitivity: EnumValue,
                   rid: str) -> Any:
    return pb.SelectInfluentialNodesRequest(
        dataset_id=dataset_id, k=k, epsilon=_epsilon(epsilon, "epsilon", rid), request_id=rid,
        objectives=[_enum(pb.NodeObjective, "NODE_OBJECTIVE_", o, "objectives", rid)
                    for o in objectives],
        approach=_enum(pb.SelectionApproach, "SELECTION_APPROACH_", approach, "approach", rid),
        weights=[float(w) for w in weights],
        sensitivity=_enum(pb.SensitivityMode, "SENSITIVITY_MODE_", sensitivity,
                          "sensitivity", rid))


def _preview_request(release: str, dataset_id: str, arguments: Dict[str, Any]) -> Any:
    """The PreviewCostRequest of release method `release` with `arguments`
    (its keyword arguments, as the method takes them)."""
    kinds = {
        "measure_inconsistency": (_measure_request, ("measure", "epsilon"),
                                  dict(method=None, repair_method=None)),
        "quality_report": (_report_request, ("epsilon",),
                           dict(method=None, repair_method=None, row_count=False)),
        "release_cuboids": (_cuboids_request, ("cuboids", "epsilon"),
                            dict(non_negative_integral=False)),
        "train_decision_tree": (_tree_request, ("label_column", "positive_class", "epsilon"),
                                dict(features=(), approach=None, weights=(), sensitivity=None,
                                     generations=0, population=0, accuracy_epsilon=0)),
        "select_influential_nodes": (_nodes_request, ("k", "epsilon"),
                                     dict(objectives=(), approach=None, weights=(),
                                          sensitivity=None)),
    }
    if release not in kinds:
        raise invalid_argument("release", f"unknown release {release!r} (one of "
                               f"{', '.join(kinds)})")
    build, required, optional = kinds[release]
    unknown = set(arguments) - set(required) - set(optional)
    missing = [name for name in required if name not in arguments]
    if unknown or missing:
        raise invalid_argument("release", f"{release} takes {', '.join(required)} and "
                               f"optionally {', '.join(optional)}; "
                               + (f"missing {', '.join(missing)}" if missing else
                                  f"unknown {', '.join(sorted(unknown))}"))
    values = [arguments[name] for name in required]
    values += [arguments.get(name, default) for name, default in optional.items()]
    request = build(dataset_id, *values, "")
    return pb.PreviewCostRequest(**{release: request})


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

    A file that cannot be read raises ConfigurationError here; a connection
    that can never work (TLS settings that do not match the server's)
    raises it at the first call, without retries. Clients with the same
    settings share one channel. A Client is thread-safe; close() it (or use
    `with`) when done.
    """

    def __init__(self, target: str, token: Optional[str] = None, token_file: Optional[str] = None,
                 ca_file: Optional[str] = None, server_name: Optional[str] = None,
                 insecure: bool = False, timeout: float = DEFAULT_TIMEOUT,
                 retries: Union[int, RetryPolicy] = 3, client_cert_file: Optional[str] = None,
                 client_key_file: Optional[str] = None) -> None:
        token = _read_token(token, token_file)
        if (client_cert_file is None) != (client_key_file is None):
            raise ValueError("client_cert_file and client_key_file go together")
        if insecure and (ca_file or client_cert_file or server_name):
            raise configuration_error("insecure=True is plaintext: it takes no ca_file, "
                                      "client certificate or server_name")
        self.target = target
        self.timeout = float(timeout)
        self.retry_policy = (retries if isinstance(retries, RetryPolicy)
                             else RetryPolicy(max_retries=int(retries)))
        self._insecure = insecure
        self._client_cert = client_cert_file is not None
        self._diagnosed = False
        self._key, channel = channels.acquire(
            target, token, insecure, _read_pem(ca_file, "ca_file", "CERTIFICATE"),
            _read_pem(client_cert_file, "client_cert_file", "CERTIFICATE"),
            _read_pem(client_key_file, "client_key_file", "PRIVATE KEY"), server_name)
        self._stub = pb_grpc.BuyerServiceStub(channel)
        # Call credentials need TLS; on a plaintext channel the token goes
        # into each call's metadata instead.
        self._metadata = (("authorization", "Bearer " + token),) if insecure and token else ()
        self._closed = False

    def close(self) -> None:
        """Releases the channel (closed with its last Client)."""
        if not self._closed:
            self._closed = True
            channels.release(self._key)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- The calls ---------------------------------------------------------

    def list_datasets(self, timeout: Optional[float] = None,
                      page_size: int = 0) -> List[results.Dataset]:
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

    def describe_dataset(self, dataset_id: str,
                         timeout: Optional[float] = None) -> results.Dataset:
        """One dataset's public metadata (results.Dataset). Free."""
        r, _ = self._call("DescribeDataset", pb.DescribeDatasetRequest(dataset_id=dataset_id), "",
                          timeout)
        return results.Dataset.from_proto(r.dataset)

    def get_budget(self, dataset_id: Optional[str] = None, history: bool = False,
                   history_limit: int = 0,
                   timeout: Optional[float] = None) -> results.BudgetReport:
        """The caller's budgets (all datasets, or one) and, with history,
        the caller's own ledger entries, newest first (results.BudgetReport).
        history_limit: 0 = the server default (100)."""
        req = pb.GetBudgetRequest(dataset_id=dataset_id or "", include_history=history,
                                  history_limit=history_limit)
        r, _ = self._call("GetBudget", req, "", timeout)
        return results.BudgetReport(budgets=[results.Budget.from_proto(b) for b in r.budgets],
                                    history=[results.LedgerEntry.from_proto(e) for e in r.history],
                                    raw=r)

    def list_receipts(self, dataset_id: str, limit: Optional[int] = None, page_size: int = 0,
                      timeout: Optional[float] = None) -> List[results.Receipt]:
        """The caller's own releases on `dataset_id`, newest first, each with
        its answer as it was returned (results.Receipt). Free.

        Follows the server's pages (page_size receipts each, 0 = its
        default of 50, at most 500) until `limit` receipts (None: all).
        """
        receipts: List[results.Receipt] = []
        token = ""
        while limit is None or len(receipts) < limit:
            size = page_size
            if limit is not None and (size == 0 or size > limit - len(receipts)):
                size = min(limit - len(receipts), 500)
            r, _ = self._call("ListReceipts",
                              pb.ListReceiptsRequest(dataset_id=dataset_id, page_size=size,
                                                     page_token=token), "", timeout)
            receipts.extend(results.Receipt.from_proto(x) for x in r.receipts)
            token = r.next_page_token
            if not token:
                break
        return receipts if limit is None else receipts[:limit]

    def preview_cost(self, release: str, dataset_id: str, timeout: Optional[float] = None,
                     **arguments: Any) -> results.CostPreview:
        """What a release would cost, before buying it (results.CostPreview).
        Free: nothing is charged or reserved, and no noise is drawn.

        release: the name of a release method ("measure_inconsistency",
        "quality_report", "release_cuboids", "train_decision_tree",
        "select_influential_nodes"); arguments: that method's keyword
        arguments (request_id and timeout aside), e.g.
        preview_cost("quality_report", "hospital", epsilon=1, row_count=True).
        The server runs the release's own checks, so what the release
        would refuse for its arguments is refused here the same way.
        """
        req = _preview_request(release, dataset_id, arguments)
        r, _ = self._call("PreviewCost", req, "", timeout)
        return results.CostPreview.from_proto(dataset_id, release, r)

    def measure_inconsistency(self, dataset_id: str, measure: EnumValue, epsilon: Epsilon,
                              method: EnumValue = None, repair_method: EnumValue = None,
                              request_id: Optional[str] = None,
                              timeout: Optional[float] = None) -> results.MeasureRelease:
        """One DP inconsistency measure (results.MeasureRelease).

        measure: "mi", "p" or "r"; method (MI, P): "group_bound" (default),
        "gem", "optimized", "hierarchical", "basic", "baseline"; repair_method (R):
        "cover_bound", "exact", "vertex_cover". Charges epsilon (times the
        dataset's charge_multiplier)."""
        rid = request_id or new_request_id()
        req = _measure_request(dataset_id, measure, epsilon, method, repair_method, rid)
        return results.measure_release(dataset_id,
                                       *self._call("MeasureInconsistency", req, rid, timeout))

    def quality_report(self, dataset_id: str, epsilon: Epsilon, method: EnumValue = None,
                       repair_method: EnumValue = None, request_id: Optional[str] = None,
                       timeout: Optional[float] = None,
                       row_count: bool = False) -> results.QualityReport:
        """I_MI, I_P and I_R for one charge of epsilon (epsilon/3 each;
        results.QualityReport). row_count=True adds the DP row count (10%
        of epsilon; exact and free where the owner published it), so that
        report.per_row() can compare datasets of different sizes."""
        rid = request_id or new_request_id()
        req = _report_request(dataset_id, epsilon, method, repair_method, row_count, rid)
        return results.quality_report(dataset_id,
                                      *self._call("QualityReport", req, rid, timeout))

    def release_cuboids(self, dataset_id: str, cuboids: Sequence[Sequence[str]],
                        epsilon: Epsilon, non_negative_integral: bool = False,
                        request_id: Optional[str] = None,
                        timeout: Optional[float] = None) -> results.CuboidRelease:
        """DP count marginals over declared cube dimensions, one list of
        dimension names per cuboid, e.g. [["Condition", "EmergencyService"]]
        (results.CuboidRelease)."""
        rid = request_id or new_request_id()
        req = _cuboids_request(dataset_id, cuboids, epsilon, non_negative_integral, rid)
        return results.cuboid_release(dataset_id,
                                      *self._call("ReleaseCuboids", req, rid, timeout))

    def train_decision_tree(self, dataset_id: str, label_column: str, positive_class: str,
                            epsilon: Epsilon, features: Iterable[str] = (),
                            approach: EnumValue = None, weights: Iterable[float] = (),
                            sensitivity: EnumValue = None, generations: int = 0,
                            population: int = 0, accuracy_epsilon: Epsilon = 0,
                            request_id: Optional[str] = None,
                            timeout: Optional[float] = None) -> results.DecisionTree:
        """A DP cost-sensitive decision tree (results.DecisionTree).
        approach: "aggregation" (default; weights 1, 1: balanced accuracy)
        or "pareto"; sensitivity: "local" (default) or "global";
        accuracy_epsilon > 0 also buys the DP TPR and TNR (charged on top
        of epsilon). The result's caveat says when the budget is too small
        for a useful tree (useful_epsilon: the least that passes) or the
        tree is a single leaf. A heavy job: HeavyJobsBusy (retried) when the
        server's slots are taken."""
        rid = request_id or new_request_id()
        req = _tree_request(dataset_id, label_column, positive_class, epsilon, features, approach,
                            weights, sensitivity, generations, population, accuracy_epsilon, rid)
        return results.decision_tree(dataset_id,
                                     *self._call("TrainDecisionTree", req, rid, timeout))

    def select_influential_nodes(self, dataset_id: str, k: int, epsilon: Epsilon,
                                 objectives: Iterable[EnumValue] = (),
                                 approach: EnumValue = None, weights: Iterable[float] = (),
                                 sensitivity: EnumValue = None,
                                 request_id: Optional[str] = None,
                                 timeout: Optional[float] = None) -> results.InfluentialNodes:
        """The k most influential nodes of a graph dataset
        (results.InfluentialNodes). objectives: "degree",
        "egocentric_density" (default: both)."""
        rid = request_id or new_request_id()
        req = _nodes_request(dataset_id, k, epsilon, objectives, approach, weights, sensitivity,
                             rid)
        return results.influential_nodes(
            dataset_id, *self._call("SelectInfluentialNodes", req, rid, timeout))

    # --- Retries -------------------------------------------------------------

    def _call(self, method: str, request: Any, request_id: str,
              timeout: Optional[float]) -> Tuple[Any, int]:
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
                error = self._configuration_error(e, request_id, retry + 1) or from_rpc_error(
                    e, request_id, retry + 1)
            if not should_retry(error, retry, policy, after_retryable):
                raise error
            after_retryable = after_retryable or error.retryable
            time.sleep(policy.backoff(retry, error.retry_delay))
            retry += 1

    def _configuration_error(self, rpc_error: Any, request_id: str,
                             attempts: int) -> Optional[DpqError]:
        """A ConfigurationError for an UNAVAILABLE that no retry can mend
        (dpq_client.diagnose), else None. The probe after "Socket closed"
        runs once per Client."""
        if rpc_error.code() != grpc.StatusCode.UNAVAILABLE:
            return None
        message = rpc_error.details() or ""
        fix = diagnose.from_message(message, self._insecure)
        if fix is None and "Socket closed" in message and not self._diagnosed:
            self._diagnosed = True
            fix = diagnose.after_socket_closed(self.target, self._insecure, self._client_cert)
        if fix is None:
            return None
        return configuration_error(f"cannot connect to {self.target}: {fix}", request_id,
                                   attempts, grpc.StatusCode.UNAVAILABLE)

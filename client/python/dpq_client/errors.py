"""DpqError and its subclasses: every failed call raises one.

An error is built from the gRPC status code and the google.rpc.Status the
server attaches in the trailing metadata key `grpc-status-details-bin`
(the standard gRPC rich error model): ErrorInfo (domain "dpq.v1", a stable
reason and string metadata), QuotaFailure, PreconditionFailure, BadRequest,
RetryInfo, ResourceInfo and RequestInfo. The class is chosen by the
ErrorInfo reason first and by the gRPC code when there is no (known)
reason. Every error carries the request id of the call (for charged calls:
the id to retry with), also when the call never reached the server.
"""

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Dict, List, Optional

import grpc

from dpq_client import _stubs  # noqa: F401  (clear message if not built)
from dpq_client.amounts import units_to_decimal
from dpq_client._proto.google.rpc import error_details_pb2, status_pb2

# The trailer that holds the serialized google.rpc.Status.
STATUS_DETAILS_KEY = "grpc-status-details-bin"
# ErrorInfo.domain of dpq's own reasons.
DOMAIN = "dpq.v1"


@dataclass(frozen=True)
class Violation:
    """One QuotaFailure / PreconditionFailure violation or BadRequest field
    violation: `subject` is the quota subject, the precondition subject or
    the field path (e.g. "epsilon", "request_id")."""

    subject: str
    description: str
    type: str = ""


class DpqError(Exception):
    """A failed dpq call.

    Attributes:
      code: the grpc.StatusCode.
      message: the server's message (the gRPC status details text).
      request_id: the request id the call was sent with ("" for calls that
        take none, e.g. list_datasets).
      reason: the ErrorInfo reason, e.g. "BUDGET_EXHAUSTED" ("" if none).
      metadata: the ErrorInfo metadata (str -> str), e.g. dataset_id,
        requested_epsilon, remaining_epsilon_units.
      quota_violations, precondition_violations, field_violations:
        lists of Violation.
      retry_delay: seconds from RetryInfo, or None.
      incident_id: RequestInfo.request_id of an INTERNAL error (the id to
        quote to the operator; the server logs the cause under it).
      resource_type, resource_name: from ResourceInfo ("" if none).
      details: every decoded detail message (google.rpc.* protos).
      attempts: how many calls were made (1 + retries; 0 if none was).

    Each subclass's docstring starts with the reason or the gRPC code it
    stands for.
    """

    def __init__(self, code: Any, message: str, request_id: str = "", status: Any = None,
                 attempts: int = 1):
        self.code = code
        self.message = message
        self.request_id = request_id
        self.attempts = attempts
        self.reason = ""
        self.domain = ""
        self.metadata: Dict[str, str] = {}
        self.quota_violations: List[Violation] = []
        self.precondition_violations: List[Violation] = []
        self.field_violations: List[Violation] = []
        self.retry_delay: Optional[float] = None
        self.incident_id = ""
        self.resource_type = ""
        self.resource_name = ""
        self.details = []
        if status is not None:
            self._read_details(status)
        super().__init__(self._text())

    def _text(self):
        name = self.code.name if isinstance(self.code, grpc.StatusCode) else str(self.code)
        text = f"{name}: {self.message}"
        if self.reason:
            text += f" [reason {self.reason}]"
        if self.request_id:
            text += f" (request id {self.request_id})"
        return text

    def _read_details(self, status):
        for any_msg in status.details:
            for cls in _DETAIL_TYPES:
                if any_msg.Is(cls.DESCRIPTOR):
                    detail = cls()
                    any_msg.Unpack(detail)
                    self.details.append(detail)
                    self._absorb(detail)
                    break

    def _absorb(self, d):
        if isinstance(d, error_details_pb2.ErrorInfo):
            self.reason, self.domain = d.reason, d.domain
            self.metadata = dict(d.metadata)
        elif isinstance(d, error_details_pb2.QuotaFailure):
            self.quota_violations += [Violation(v.subject, v.description) for v in d.violations]
        elif isinstance(d, error_details_pb2.PreconditionFailure):
            self.precondition_violations += [
                Violation(v.subject, v.description, v.type) for v in d.violations]
        elif isinstance(d, error_details_pb2.BadRequest):
            self.field_violations += [
                Violation(v.field, v.description) for v in d.field_violations]
        elif isinstance(d, error_details_pb2.RetryInfo):
            delay = d.retry_delay
            self.retry_delay = delay.seconds + delay.nanos / 1e9
        elif isinstance(d, error_details_pb2.RequestInfo):
            self.incident_id = d.request_id
        elif isinstance(d, error_details_pb2.ResourceInfo):
            self.resource_type, self.resource_name = d.resource_type, d.resource_name

    # The epsilon amounts of the ErrorInfo metadata, exact.
    def amount(self, key: str) -> Optional[Decimal]:
        """Exact Decimal of metadata `key` (e.g. "remaining_epsilon"): from
        `<key>_units` when present, else from the decimal text; None when
        the server sent neither."""
        units = self.metadata.get(key + "_units")
        if units is not None:
            try:
                return units_to_decimal(int(units))
            except ValueError:
                pass
        text = self.metadata.get(key)
        if text is None:
            return None
        try:
            return Decimal(text)
        except InvalidOperation:
            return None

    @property
    def dataset_id(self) -> str:
        return self.metadata.get("dataset_id", "") or (
            self.resource_name if self.resource_type.endswith("Dataset") else "")

    @property
    def requested_epsilon(self) -> Optional[Decimal]:
        return self.amount("requested_epsilon")

    @property
    def charged_epsilon(self) -> Optional[Decimal]:
        return self.amount("charged_epsilon")

    @property
    def remaining_epsilon(self) -> Optional[Decimal]:
        return self.amount("remaining_epsilon")

    @property
    def granted_epsilon(self) -> Optional[Decimal]:
        return self.amount("granted_epsilon")

    @property
    def cap_epsilon(self) -> Optional[Decimal]:
        return self.amount("cap_epsilon")

    @property
    def retryable(self) -> bool:
        """True for the codes the SDK retries itself (with the same request
        id): UNAVAILABLE and DEADLINE_EXCEEDED, unless a ConfigurationError."""
        return self.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


# By gRPC code. Subclasses by reason below them.
class InvalidArgument(DpqError, ValueError):
    """INVALID_ARGUMENT: a malformed request (field_violations name the
    fields). Also raised before any call for arguments the SDK cannot
    encode (an unknown measure name, ...)."""


class NotFound(DpqError):
    """NOT_FOUND: what the call names does not exist."""


class DatasetNotFound(NotFound):
    """DATASET_NOT_FOUND: no dataset with that id."""


class AlreadyExists(DpqError):
    """ALREADY_EXISTS: what the call would create exists already."""


class RequestIdReused(AlreadyExists):
    """REQUEST_ID_REUSED: the request id was used before with different
    parameters; pick a new one (or repeat the original parameters)."""


class ResourceExhausted(DpqError):
    """RESOURCE_EXHAUSTED: a budget, a cap or a server limit is used up."""


class BudgetExhausted(ResourceExhausted):
    """BUDGET_EXHAUSTED: the charge does not fit in the buyer's remaining
    budget (remaining_epsilon, requested_epsilon, charged_epsilon)."""


class DatasetCapReached(ResourceExhausted):
    """DATASET_CAP_REACHED: the dataset's cap over all buyers is spent
    (cap_epsilon)."""


class FailedPrecondition(DpqError):
    """FAILED_PRECONDITION: e.g. a release the dataset does not answer."""


class NoBudgetGranted(FailedPrecondition):
    """NO_BUDGET_GRANTED: nothing was ever granted to this buyer on the
    dataset (not the same as an exhausted budget)."""


class Aborted(DpqError):
    """ABORTED: the call was not carried out; see the reason."""


class RequestInProgress(Aborted):
    """REQUEST_IN_PROGRESS: a call with this request id is still being
    computed; retry later with the same id (nothing more is charged)."""


class Unavailable(DpqError):
    """UNAVAILABLE: retried by the SDK; raised when retries ran out."""


class HeavyJobsBusy(Unavailable):
    """HEAVY_JOBS_BUSY: too many heavy jobs (trees, node selections) run;
    nothing was charged; retry after retry_delay."""


class DeadlineExceeded(DpqError):
    """DEADLINE_EXCEEDED: retried by the SDK with the same request id;
    raised when retries ran out. The call may have been charged: a retry
    with the same request_id returns its answer at no further cost."""


class Unauthenticated(DpqError):
    """UNAUTHENTICATED: a missing, malformed, unknown or revoked token (a
    revoked buyer's token is unknown from then on)."""


class PermissionDenied(DpqError):
    """PERMISSION_DENIED: the token is valid but may not make this call
    (the admin service refuses a buyer's token). The buyer service sends
    it for no buyer call: a revoked buyer gets Unauthenticated."""


class ConfigurationError(DpqError):
    """CONFIGURATION: this client's own settings cannot work, so no retry
    could help, and none is made: a file given to Client that cannot be
    read or is not PEM (code INVALID_ARGUMENT), or a connection that can
    never succeed (code UNAVAILABLE): TLS against a plaintext server or
    plaintext against a TLS server, a CA that did not sign the server's
    certificate, a server name the certificate does not hold, a server
    that requires a client certificate. The message says what to fix.
    Raised by the SDK, never sent by the server (reason "CONFIGURATION")."""

    @property
    def retryable(self) -> bool:
        return False


class Cancelled(DpqError):
    """CANCELLED: the call was cancelled (or the client closed)."""


class Internal(DpqError):
    """INTERNAL: incident_id names the server log entry."""


class Unimplemented(DpqError):
    """UNIMPLEMENTED: the server does not know the call (an older server)."""


_BY_REASON = {
    "INVALID_ARGUMENT": InvalidArgument,
    "DATASET_NOT_FOUND": DatasetNotFound,
    "REQUEST_ID_REUSED": RequestIdReused,
    "BUDGET_EXHAUSTED": BudgetExhausted,
    "DATASET_CAP_REACHED": DatasetCapReached,
    "NO_BUDGET_GRANTED": NoBudgetGranted,
    "REQUEST_IN_PROGRESS": RequestInProgress,
    "HEAVY_JOBS_BUSY": HeavyJobsBusy,
    "UNAVAILABLE": Unavailable,
    "UNAUTHENTICATED": Unauthenticated,
    "PERMISSION_DENIED": PermissionDenied,
    "INTERNAL": Internal,
}

_BY_CODE = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.ALREADY_EXISTS: AlreadyExists,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition,
    grpc.StatusCode.ABORTED: Aborted,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceeded,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.CANCELLED: Cancelled,
    grpc.StatusCode.INTERNAL: Internal,
    grpc.StatusCode.UNIMPLEMENTED: Unimplemented,
}

_DETAIL_TYPES = (
    error_details_pb2.ErrorInfo,
    error_details_pb2.QuotaFailure,
    error_details_pb2.PreconditionFailure,
    error_details_pb2.BadRequest,
    error_details_pb2.RetryInfo,
    error_details_pb2.RequestInfo,
    error_details_pb2.ResourceInfo,
)


def _rich_status(rpc_error):
    """The google.rpc.Status of the trailer, or None (absent or garbled:
    the code and message still make a usable error)."""
    trailers = rpc_error.trailing_metadata() if hasattr(rpc_error, "trailing_metadata") else None
    for key, value in trailers or ():
        if key == STATUS_DETAILS_KEY:
            status = status_pb2.Status()
            try:
                status.ParseFromString(value)
            except Exception:  # a garbled trailer: ignore the details
                return None
            return status
    return None


def from_rpc_error(rpc_error: Any, request_id: str = "", attempts: int = 1) -> DpqError:
    """The DpqError for a grpc.RpcError raised by a unary call."""
    code = rpc_error.code() if hasattr(rpc_error, "code") else grpc.StatusCode.UNKNOWN
    message = rpc_error.details() if hasattr(rpc_error, "details") else str(rpc_error)
    status = _rich_status(rpc_error)
    reason = ""
    if status is not None:
        for any_msg in status.details:
            if any_msg.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                any_msg.Unpack(info)
                if info.domain in ("", DOMAIN):
                    reason = info.reason
                break
    cls = _BY_REASON.get(reason) or _BY_CODE.get(code, DpqError)
    return cls(code, message or "", request_id, status, attempts)


def configuration_error(fix: str, request_id: str = "", attempts: int = 0,
                        code: grpc.StatusCode = grpc.StatusCode.INVALID_ARGUMENT
                        ) -> ConfigurationError:
    """A ConfigurationError whose message is `fix`."""
    err = ConfigurationError(code, fix, request_id, attempts=attempts)
    err.reason = "CONFIGURATION"
    err.args = (err._text(),)
    return err


def invalid_argument(field: str, description: str, request_id: str = "") -> InvalidArgument:
    """A client-side INVALID_ARGUMENT for `field` (no call was made)."""
    err = InvalidArgument(grpc.StatusCode.INVALID_ARGUMENT,
                          f"{field}: {description}", request_id, attempts=0)
    err.field_violations.append(Violation(field, description))
    err.reason = "INVALID_ARGUMENT"
    return err

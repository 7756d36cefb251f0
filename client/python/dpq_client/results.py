"""Typed results: plain dataclasses built from the response messages.

Epsilon amounts are exact decimal.Decimal values (dpq_client.amounts);
enum values are their short names ("MI", "LOWER_BOUND", "COMMITTED").
Every result keeps the response message it came from in `raw`, for fields
this module does not copy.
"""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, List, Optional, Tuple

from dpq_client import _stubs  # noqa: F401
from dpq_client.amounts import epsilon_field
from dpq.v1 import dataset_pb2, ledger_pb2


def enum_short_name(enum_type, value: int, prefix: str) -> str:
    """"MEASURE_MI" -> "MI"; str(value) for numbers this build does not
    know (a newer server)."""
    try:
        name = enum_type.Name(value)
    except ValueError:
        return str(value)
    return name[len(prefix):] if name.startswith(prefix) else name


def _time(ts) -> Optional[datetime.datetime]:
    if ts.seconds == 0 and ts.nanos == 0:
        return None
    return ts.ToDatetime(tzinfo=datetime.timezone.utc)


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # "INT64", "DOUBLE", "STRING"


@dataclass(frozen=True)
class CuboidCell:
    values: List[str]  # one label per dimension, in the cuboid's order
    count: float


@dataclass(frozen=True)
class Cuboid:
    dimensions: List[str]
    cells: List[CuboidCell]


@dataclass(frozen=True)
class CubeDimension:
    column: str
    labels: List[str]


def _cuboid(c) -> Cuboid:
    return Cuboid(list(c.dimensions), [CuboidCell(list(x.values), x.count) for x in c.cells])


@dataclass(frozen=True, kw_only=True)
class Dataset:
    """Public metadata of a dataset (dpq.v1.DatasetInfo)."""

    dataset_id: str
    description: str
    kind: str  # "TABLE" or "GRAPH"
    version: int
    registered_at: Optional[datetime.datetime]
    columns: List[Column]
    constraints: List[str]
    public_max_rows: int
    row_count: Optional[int]  # None unless the owner made it public
    supported_measures: List[str]  # "MI", "P", "R"
    supported_releases: List[str]  # RPC names, e.g. "ReleaseCuboids"
    neighbouring: str  # the privacy unit
    charge_multiplier: int  # k_Q: epsilon charged per epsilon requested
    cube_dimensions: List[CubeDimension]
    public_cuboids: List[Cuboid]
    node_count: int
    exact_repair: bool
    raw: Any = field(repr=False, compare=False)

    @staticmethod
    def from_proto(d) -> "Dataset":
        return Dataset(
            dataset_id=d.dataset_id,
            description=d.description,
            kind=enum_short_name(dataset_pb2.DatasetKind, d.kind, "DATASET_KIND_"),
            version=d.version,
            registered_at=_time(d.registered_at),
            columns=[Column(c.name, enum_short_name(dataset_pb2.ColumnType, c.type, "COLUMN_TYPE_"))
                     for c in d.columns],
            constraints=list(d.constraints),
            public_max_rows=d.public_max_rows,
            row_count=d.row_count if d.row_count_public else None,
            supported_measures=[enum_short_name(dataset_pb2.Measure, m, "MEASURE_")
                                for m in d.supported_measures],
            supported_releases=list(d.supported_releases),
            neighbouring=d.neighbouring,
            charge_multiplier=d.charge_multiplier,
            cube_dimensions=[CubeDimension(c.column, list(c.labels)) for c in d.cube_dimensions],
            public_cuboids=[_cuboid(c) for c in d.public_cuboids],
            node_count=d.node_count,
            exact_repair=d.exact_repair,
            raw=d,
        )


@dataclass(frozen=True, kw_only=True)
class Budget:
    """The caller's budget on one dataset; remaining = granted - spent -
    reserved, exactly."""

    dataset_id: str
    buyer_id: str
    granted: Decimal
    spent: Decimal
    reserved: Decimal
    remaining: Decimal
    raw: Any = field(repr=False, compare=False)

    @staticmethod
    def from_proto(b) -> "Budget":
        return Budget(dataset_id=b.dataset_id, buyer_id=b.buyer_id,
                      granted=epsilon_field(b, "granted"), spent=epsilon_field(b, "spent"),
                      reserved=epsilon_field(b, "reserved"),
                      remaining=epsilon_field(b, "remaining"), raw=b)


@dataclass(frozen=True, kw_only=True)
class LedgerEntry:
    """One of the caller's own ledger entries."""

    entry_id: int
    dataset_id: str
    request_id: str
    operation: str
    epsilon: Decimal
    state: str  # "RESERVED", "COMMITTED", "REFUNDED", "CHARGED"
    created_at: Optional[datetime.datetime]
    settled_at: Optional[datetime.datetime]
    neighbouring: str
    raw: Any = field(repr=False, compare=False)

    @staticmethod
    def from_proto(e) -> "LedgerEntry":
        return LedgerEntry(
            entry_id=e.entry_id, dataset_id=e.dataset_id, request_id=e.request_id,
            operation=e.operation, epsilon=epsilon_field(e, "epsilon"),
            state=enum_short_name(ledger_pb2.LedgerEntryState, e.state, "LEDGER_ENTRY_STATE_"),
            created_at=_time(e.created_at), settled_at=_time(e.settled_at),
            neighbouring=e.neighbouring, raw=e)


@dataclass(frozen=True, kw_only=True)
class BudgetReport:
    """get_budget(): budgets sorted by dataset id; history newest first
    (empty unless asked for)."""

    budgets: List[Budget]
    history: List[LedgerEntry]
    raw: Any = field(repr=False, compare=False)

    def for_dataset(self, dataset_id: str) -> Optional[Budget]:
        """The budget on `dataset_id`, or None if nothing was granted."""
        return next((b for b in self.budgets if b.dataset_id == dataset_id), None)


@dataclass(frozen=True, kw_only=True)
class MeasureResult:
    """One released inconsistency measure."""

    measure: str  # "MI", "P", "R"
    value: int  # the DP estimate, clamped to the measure's public range [0, max]
    epsilon: Decimal  # epsilon spent on this measure
    theta: int
    bound95: int  # |noise| <= bound95 with probability 95% (noise only)
    method: str
    estimate: str  # "EXACT", "LOWER_BOUND", "UPPER_BOUND"
    # The measure itself lies in [lower95, upper95] with probability >= 95%,
    # the undercount of a lower-bound estimate included. When upper_proved is
    # False, upper95 is only the public maximum: read it as "at least lower95".
    lower95: int
    upper95: int
    upper_proved: bool
    degree_upper: Optional[int]  # DP bound on one row's conflicts (MI, P), if any
    truncated: bool  # theta may cut rows with more conflicts (MI, P)
    raw: Any = field(repr=False, compare=False)

    @property
    def interval(self) -> Tuple[int, Optional[int]]:
        """(lower, upper) of the 95% interval; upper is None when nothing
        bounds the undercount (a one-sided interval)."""
        return (self.lower95, self.upper95 if self.upper_proved else None)

    def describe(self) -> str:
        """The interval in words, as the dpq CLI prints it."""
        if not self.upper_proved:
            return f"at least {self.lower95} (no upper limit known: may undercount)"
        if self.estimate == "LOWER_BOUND" and (self.measure == "R" or self.truncated):
            note = "includes the possible undercount"
        elif self.estimate == "UPPER_BOUND":
            note = "includes the possible overcount"
        else:
            note = "noise only"
        return f"{self.lower95} to {self.upper95} ({note})"

    @staticmethod
    def from_proto(r) -> "MeasureResult":
        return MeasureResult(
            measure=enum_short_name(dataset_pb2.Measure, r.measure, "MEASURE_"),
            value=r.value, epsilon=epsilon_field(r, "epsilon"), theta=r.theta,
            bound95=r.bound95, method=r.method,
            estimate=enum_short_name(dataset_pb2.Estimate, r.estimate, "ESTIMATE_"),
            lower95=r.lower95, upper95=r.upper95, upper_proved=r.upper_proved,
            degree_upper=r.degree_upper or None, truncated=r.truncated, raw=r)


@dataclass(frozen=True, kw_only=True)
class Charged:
    """What every charged release returns besides its values.

    request_id: the id the answer is recorded under (a retry with it
      returns the same answer, charging nothing).
    replayed: True if nothing was charged by this call (a recorded answer,
      or one computed now for an earlier call that was charged).
    epsilon_charged: what this call charged (0 when replayed).
    remaining_budget: the caller's remaining budget on the dataset after it.
    attempts: how many calls the SDK made (1 + retries).
    """

    request_id: str
    replayed: bool
    epsilon_charged: Decimal
    remaining_budget: Decimal
    attempts: int
    raw: Any = field(repr=False, compare=False)


def charged_fields(response, attempts: int) -> dict:
    return dict(request_id=response.request_id, replayed=response.replayed,
                epsilon_charged=epsilon_field(response, "epsilon_charged"),
                remaining_budget=epsilon_field(response, "remaining_budget"),
                attempts=attempts, raw=response)


@dataclass(frozen=True, kw_only=True)
class MeasureRelease(Charged):
    """measure_inconsistency()."""

    result: MeasureResult


@dataclass(frozen=True, kw_only=True)
class RowCount:
    """A quality report's row count (row_count=True)."""

    value: int  # rows + DP noise, clamped to [0, public_max_rows]; exact if `exact`
    lower95: int  # the row count lies in [lower95, upper95] with probability 95%
    upper95: int
    epsilon: Decimal  # spent on it (0 when exact)
    exact: bool  # the owner published the row count: no noise, no charge
    raw: Any = field(repr=False, compare=False)

    @staticmethod
    def from_proto(r) -> "RowCount":
        return RowCount(value=r.value, lower95=r.lower95, upper95=r.upper95,
                        epsilon=epsilon_field(r, "epsilon"), exact=r.exact, raw=r)


@dataclass(frozen=True, kw_only=True)
class QualityReport(Charged):
    """quality_report(): MI, P and R, in that order, and the row count when
    asked for (None otherwise)."""

    results: List[MeasureResult]
    row_count: Optional[RowCount] = None

    def per_row(self) -> Optional[dict]:
        """Each measure's value divided by the row count's value ({"MI":
        ..., "P": ..., "R": ...}), or None without a (positive) row count."""
        if self.row_count is None or self.row_count.value <= 0:
            return None
        return {m.measure: m.value / self.row_count.value for m in self.results}


@dataclass(frozen=True, kw_only=True)
class CuboidRelease(Charged):
    """release_cuboids(): the DP cuboids in request order."""

    cuboids: List[Cuboid]
    noise_stddev: List[float]  # per cuboid, per cell
    strategy: str  # "per_cuboid" or "base_cuboid"
    sensitivity: float


@dataclass(frozen=True)
class TreeNode:
    leaf: bool
    positive: bool  # leaves: predicts the positive class
    feature: str
    numeric_test: bool  # feature <= threshold (else feature == category)
    threshold: float
    category: str
    left: int  # index into DecisionTree.nodes; -1 for leaves
    right: int


@dataclass(frozen=True, kw_only=True)
class DecisionTree(Charged):
    """train_decision_tree(): nodes[0] is the root."""

    nodes: List[TreeNode]
    tree_text: str
    depth: int
    tpr: Optional[float]  # only when accuracy_epsilon was paid
    tnr: Optional[float]
    # Why the tree may be of no use (budget below useful_epsilon, or a
    # single leaf); None when neither.
    caveat: Optional[str] = None
    # Smallest epsilon passing the server's public usefulness rule.
    useful_epsilon: Optional[float] = None


@dataclass(frozen=True, kw_only=True)
class InfluentialNodes(Charged):
    """select_influential_nodes(): node ids in selection order."""

    nodes: List[str]


def measure_release(r, attempts) -> MeasureRelease:
    return MeasureRelease(result=MeasureResult.from_proto(r.result), **charged_fields(r, attempts))


def quality_report(r, attempts) -> QualityReport:
    return QualityReport(results=[MeasureResult.from_proto(x) for x in r.results],
                         row_count=RowCount.from_proto(r.row_count)
                         if r.HasField("row_count") else None,
                         **charged_fields(r, attempts))


def cuboid_release(r, attempts) -> CuboidRelease:
    return CuboidRelease(cuboids=[_cuboid(c) for c in r.cuboids],
                         noise_stddev=list(r.noise_stddev), strategy=r.strategy,
                         sensitivity=r.sensitivity, **charged_fields(r, attempts))


def decision_tree(r, attempts) -> DecisionTree:
    nodes = [TreeNode(n.leaf, n.positive, n.feature, n.numeric_test, n.threshold,
                      n.category, n.left, n.right) for n in r.nodes]
    return DecisionTree(nodes=nodes, tree_text=r.tree_text, depth=r.depth,
                        tpr=r.tpr if r.HasField("tpr") else None,
                        tnr=r.tnr if r.HasField("tnr") else None,
                        caveat=r.caveat if r.HasField("caveat") else None,
                        useful_epsilon=r.useful_epsilon
                        if r.HasField("useful_epsilon") else None,
                        **charged_fields(r, attempts))


def influential_nodes(r, attempts) -> InfluentialNodes:
    return InfluentialNodes(nodes=list(r.nodes), **charged_fields(r, attempts))

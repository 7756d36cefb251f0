"""Typed results: plain dataclasses built from the response messages.

Epsilon amounts are exact decimal.Decimal values (dpq_client.amounts);
enum values are their short names ("MI", "LOWER_BOUND", "COMMITTED");
times are timezone-aware UTC datetimes. Every result keeps the response
message it came from in `raw`, for fields this module does not copy.

Every result is a Record: to_dict() gives plain, JSON-serialisable data
(no `raw`; amounts as exact decimal strings, times in ISO 8601) and
to_pandas() a DataFrame (pandas is optional: dpq_client.frames) with each
amount twice, as a float column under its name and as the exact Decimal in
`<name>_exact`. dpq_client.to_pandas(records) stacks a list of them, e.g.
the reports of several datasets.
"""

import datetime
import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Dict, List, Optional, Tuple

from dpq_client import _stubs  # noqa: F401
from dpq_client.amounts import epsilon_field
from dpq_client.frames import Record, flat_row, is_other_label
from dpq_client._proto.dpq.v1 import dataset_pb2, ledger_pb2


def enum_short_name(enum_type: Any, value: int, prefix: str) -> str:
    """"MEASURE_MI" -> "MI"; str(value) for numbers this build does not
    know (a newer server)."""
    try:
        name = enum_type.Name(value)
    except ValueError:
        return str(value)
    return name[len(prefix):] if name.startswith(prefix) else name


def _time(ts: Any) -> Optional[datetime.datetime]:
    if ts.seconds == 0 and ts.nanos == 0:
        return None
    return ts.ToDatetime(tzinfo=datetime.timezone.utc)


@dataclass(frozen=True)
class Column(Record):
    """One column of a table dataset.

    Attributes:
      name: the column's name, as in the CSV header.
      type: "INT64", "DOUBLE" or "STRING".
    """

    name: str
    type: str


@dataclass(frozen=True)
class CuboidCell(Record):
    """One cell of a cuboid.

    Attributes:
      values: one label per dimension, in the cuboid's order (a bin such
        as "[20,40)", a nominal value, or the dimension's catch-all label
        "other", written "(other)" if a real label is "other").
      count: the count: exact in a dataset's public cuboids, DP in a
        release (a float unless the release asked for non-negative
        integral counts).
    """

    values: List[str]
    count: float


@dataclass(frozen=True)
class Cuboid(Record):
    """A cuboid (a count marginal) with every one of its cells.

    Attributes:
      dimensions: its dimensions (column names); empty for the apex, the
        total count.
      cells: every cell, row-major over the dimensions' labels, empty
        ones included.

    to_pandas() is tidy: one row per cell, one column per dimension, then
    `count` and `other` (True when some value of the cell is its
    dimension's catch-all label).
    """

    dimensions: List[str]
    cells: List[CuboidCell]

    def _rows(self) -> List[Dict[str, Any]]:
        return [{**dict(zip(self.dimensions, c.values)), "count": c.count,
                 "other": any(is_other_label(v) for v in c.values)} for c in self.cells]


@dataclass(frozen=True)
class CubeDimension(Record):
    """A public dimension of a dataset's data cube.

    Attributes:
      column: the column it is made from.
      labels: its cell labels in order: bins as "[e0,e1)", nominal values
        as text, then the catch-all label ("other") if it has one.
    """

    column: str
    labels: List[str]


def _cuboid(c: Any) -> Cuboid:
    return Cuboid(list(c.dimensions), [CuboidCell(list(x.values), x.count) for x in c.cells])


@dataclass(frozen=True, kw_only=True)
class Dataset(Record):
    """Public metadata of a dataset (dpq.v1.DatasetInfo): what the owner
    declared at registration, never anything computed from the rows.

    Attributes:
      dataset_id: the id to pass to every call.
      description: the owner's description (free text, as registered).
      kind: "TABLE" (rows; inconsistency measures, cuboids, trees) or
        "GRAPH" (an edge list; node selection).
      version: the dataset's version (ReplaceDataset adds one).
      registered_at: when this version was registered (UTC).
      columns: the table's columns (empty for a graph).
      constraints: the denial constraints, as registered.
      public_max_rows: N, the public upper bound on the row count that the
        measures' ranges and sensitivities use.
      row_count: the exact row count, or None unless the owner published it.
      supported_measures: the measures this dataset answers ("MI", "P",
        "R").
      supported_releases: the buyer RPCs it answers, e.g. "ReleaseCuboids".
      neighbouring: the privacy unit (which datasets count as neighbours).
      charge_multiplier: k_Q, the epsilon charged per epsilon requested by
        every release but ReleaseCuboids (1 + the number of public exact
        cuboids).
      cube_dimensions: the public dimensions of its data cube.
      public_cuboids: the exact cuboids the owner published.
      node_count: a graph's node count (public for graphs); 0 for tables.
      exact_repair: True if the owner registered the exact minimum repair,
        so that I_R can be released with repair_method "exact".
      raw: the DatasetInfo message.
    """

    dataset_id: str
    description: str
    kind: str
    version: int
    registered_at: Optional[datetime.datetime]
    columns: List[Column]
    constraints: List[str]
    public_max_rows: int
    row_count: Optional[int]
    supported_measures: List[str]
    supported_releases: List[str]
    neighbouring: str
    charge_multiplier: int
    cube_dimensions: List[CubeDimension]
    public_cuboids: List[Cuboid]
    node_count: int
    exact_repair: bool
    raw: Any = field(repr=False, compare=False)

    def _rows(self) -> List[Dict[str, Any]]:
        row = flat_row(self)
        row["columns"] = [c.name for c in self.columns]
        row["cube_dimensions"] = [d.column for d in self.cube_dimensions]
        row["public_cuboids"] = [",".join(c.dimensions) for c in self.public_cuboids]
        return [row]

    @staticmethod
    def from_proto(d: Any) -> "Dataset":
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
class Budget(Record):
    """The caller's budget on one dataset, exact: remaining = granted -
    spent - reserved.

    Attributes:
      dataset_id: the dataset.
      buyer_id: the caller.
      granted: epsilon granted in all.
      spent: epsilon charged by committed releases.
      reserved: epsilon held by releases in flight (0 when none runs).
      remaining: what can still be charged.
      raw: the BudgetInfo message.
    """

    dataset_id: str
    buyer_id: str
    granted: Decimal
    spent: Decimal
    reserved: Decimal
    remaining: Decimal
    raw: Any = field(repr=False, compare=False)

    @staticmethod
    def from_proto(b: Any) -> "Budget":
        return Budget(dataset_id=b.dataset_id, buyer_id=b.buyer_id,
                      granted=epsilon_field(b, "granted"), spent=epsilon_field(b, "spent"),
                      reserved=epsilon_field(b, "reserved"),
                      remaining=epsilon_field(b, "remaining"), raw=b)


@dataclass(frozen=True, kw_only=True)
class LedgerEntry(Record):
    """One of the caller's own ledger entries.

    Attributes:
      entry_id: the ledger's sequence number (increasing).
      dataset_id: the dataset charged.
      request_id: the request id of the release.
      operation: what was released, e.g. "MeasureInconsistency P
        group_bound".
      epsilon: the epsilon of the entry (what it charges once committed).
      state: "RESERVED" (in flight: nothing released yet), "COMMITTED"
        (charged, the answer recorded), "REFUNDED" (the answer could not
        be recorded, so nothing left the server: not charged) or "CHARGED"
        (charged without a recorded answer: the call ended after the
        computation started; a retry with the same request id returns the
        answer at no further cost).
      created_at: when it was reserved (UTC).
      settled_at: when it was committed or refunded (None while reserved).
      neighbouring: the privacy unit of the dataset at the time.
      raw: the LedgerEntry message.
    """

    entry_id: int
    dataset_id: str
    request_id: str
    operation: str
    epsilon: Decimal
    state: str
    created_at: Optional[datetime.datetime]
    settled_at: Optional[datetime.datetime]
    neighbouring: str
    raw: Any = field(repr=False, compare=False)

    @staticmethod
    def from_proto(e: Any) -> "LedgerEntry":
        return LedgerEntry(
            entry_id=e.entry_id, dataset_id=e.dataset_id, request_id=e.request_id,
            operation=e.operation, epsilon=epsilon_field(e, "epsilon"),
            state=enum_short_name(ledger_pb2.LedgerEntryState, e.state, "LEDGER_ENTRY_STATE_"),
            created_at=_time(e.created_at), settled_at=_time(e.settled_at),
            neighbouring=e.neighbouring, raw=e)


@dataclass(frozen=True, kw_only=True)
class BudgetReport(Record):
    """get_budget().

    Attributes:
      budgets: the caller's budgets, sorted by dataset id.
      history: the caller's own ledger entries, newest first (empty unless
        asked for).
      raw: the GetBudgetResponse message.

    to_pandas() has one row per budget; history_to_pandas() one per entry.
    """

    budgets: List[Budget]
    history: List[LedgerEntry]
    raw: Any = field(repr=False, compare=False)

    def for_dataset(self, dataset_id: str) -> Optional[Budget]:
        """The budget on `dataset_id`, or None if nothing was granted."""
        return next((b for b in self.budgets if b.dataset_id == dataset_id), None)

    def _rows(self) -> List[Dict[str, Any]]:
        return [flat_row(b) for b in self.budgets]

    def history_to_pandas(self) -> Any:
        """The history as a DataFrame, one row per ledger entry."""
        from dpq_client.frames import to_pandas
        return to_pandas(self.history)


@dataclass(frozen=True, kw_only=True)
class MeasureResult(Record):
    """One released inconsistency measure.

    Attributes:
      measure: "MI" (conflicting pairs), "P" (rows in some conflict) or
        "R" (the fewest rows to delete for a consistent table).
      value: the DP estimate, clamped to the measure's public range
        [0, max] (max from public_max_rows).
      epsilon: the epsilon spent on this measure.
      theta: the degree cap the release used (MI, P; 0 for R).
      bound95: the noise alone: |noise| <= bound95 with probability 95%.
      method: the method that computed it, e.g. "group_bound".
      estimate: "EXACT" (the measure plus noise), "LOWER_BOUND" (it may
        undercount: a cap cut rows, or an LP bound) or "UPPER_BOUND".
      lower95, upper95: the measure itself lies in [lower95, upper95] with
        probability at least 95%, a lower bound's undercount included.
        When upper_proved is False, upper95 is only the public maximum:
        read it as "at least lower95".
      upper_proved: whether upper95 is a proved 95% bound.
      degree_upper: the DP upper bound on one row's conflicts (MI, P), or
        None.
      truncated: True if theta may cut rows with more conflicts (MI, P).
      raw: the MeasureResult message.
    """

    measure: str
    value: int
    epsilon: Decimal
    theta: int
    bound95: int
    method: str
    estimate: str
    lower95: int
    upper95: int
    upper_proved: bool
    degree_upper: Optional[int]
    truncated: bool
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

    def _rows(self) -> List[Dict[str, Any]]:
        row = flat_row(self)
        row["interval"] = self.describe()
        return [row]

    @staticmethod
    def from_proto(r: Any) -> "MeasureResult":
        return MeasureResult(
            measure=enum_short_name(dataset_pb2.Measure, r.measure, "MEASURE_"),
            value=r.value, epsilon=epsilon_field(r, "epsilon"), theta=r.theta,
            bound95=r.bound95, method=r.method,
            estimate=enum_short_name(dataset_pb2.Estimate, r.estimate, "ESTIMATE_"),
            lower95=r.lower95, upper95=r.upper95, upper_proved=r.upper_proved,
            degree_upper=r.degree_upper or None, truncated=r.truncated, raw=r)


@dataclass(frozen=True, kw_only=True)
class Charged(Record):
    """What every charged release returns besides its values.

    Attributes:
      dataset_id: the dataset the release was asked of.
      request_id: the id the answer is recorded under (a retry with it
        returns the same answer, charging nothing).
      replayed: True if nothing was charged by this call (a recorded
        answer, or one computed now for an earlier call that was charged).
      epsilon_charged: what this call charged (0 when replayed).
      remaining_budget: the caller's remaining budget on the dataset after
        it (None in a receipt: get_budget() says what is left now).
      attempts: how many calls the SDK made (1 + retries).
      raw: the response message.
    """

    dataset_id: str
    request_id: str
    replayed: bool
    epsilon_charged: Decimal
    remaining_budget: Optional[Decimal]
    attempts: int
    raw: Any = field(repr=False, compare=False)

    def _charge(self) -> Dict[str, Any]:
        """The charge's columns, for the rows of the release's values."""
        return flat_row(self, only=("dataset_id", "request_id", "replayed", "epsilon_charged",
                                    "remaining_budget"))


def charged_fields(dataset_id: str, response: Any, attempts: int) -> Dict[str, Any]:
    """The Charged fields of a response; attempts 0 marks a receipt's
    answer, which carries no remaining budget."""
    return dict(dataset_id=dataset_id, request_id=response.request_id,
                replayed=response.replayed,
                epsilon_charged=epsilon_field(response, "epsilon_charged"),
                remaining_budget=epsilon_field(response, "remaining_budget")
                if attempts else None,
                attempts=attempts, raw=response)


@dataclass(frozen=True, kw_only=True)
class MeasureRelease(Charged):
    """measure_inconsistency().

    Attributes:
      result: the released measure.
      (and the charge: see Charged.)

    to_pandas(): one row, the result's columns and the charge's.
    """

    result: MeasureResult

    def _rows(self) -> List[Dict[str, Any]]:
        return [{**self._charge(), **self.result._rows()[0]}]


@dataclass(frozen=True, kw_only=True)
class RowCount(Record):
    """A quality report's row count (row_count=True).

    Attributes:
      value: the row count plus DP noise, clamped to [0, public_max_rows];
        exact if `exact`.
      lower95, upper95: the row count lies in [lower95, upper95] with
        probability 95%.
      epsilon: the epsilon spent on it (0 when exact).
      exact: True if the owner published the row count: no noise, no
        charge.
      raw: the RowCount message.
    """

    value: int
    lower95: int
    upper95: int
    epsilon: Decimal
    exact: bool
    raw: Any = field(repr=False, compare=False)

    @staticmethod
    def from_proto(r: Any) -> "RowCount":
        return RowCount(value=r.value, lower95=r.lower95, upper95=r.upper95,
                        epsilon=epsilon_field(r, "epsilon"), exact=r.exact, raw=r)


@dataclass(frozen=True, kw_only=True)
class QualityReport(Charged):
    """quality_report().

    Attributes:
      results: MI, P and R, in that order.
      row_count: the row count, or None unless asked for.
      (and the charge: see Charged.)

    to_pandas(): one row per measure with the charge's columns, and, with
    a row count, `rows` (its value) and `per_row` (value / rows).
    """

    results: List[MeasureResult]
    row_count: Optional[RowCount] = None

    def per_row(self) -> Optional[Dict[str, float]]:
        """Each measure's value divided by the row count's value ({"MI":
        ..., "P": ..., "R": ...}), or None without a (positive) row count."""
        if self.row_count is None or self.row_count.value <= 0:
            return None
        return {m.measure: m.value / self.row_count.value for m in self.results}

    def _rows(self) -> List[Dict[str, Any]]:
        rows = []
        per_row = self.per_row()
        for m in self.results:
            row = {**self._charge(), **m._rows()[0]}
            if self.row_count is not None:
                row["rows"] = self.row_count.value
                row["per_row"] = per_row[m.measure] if per_row else None
            rows.append(row)
        return rows


@dataclass(frozen=True, kw_only=True)
class CuboidRelease(Charged):
    """release_cuboids().

    Attributes:
      cuboids: the DP cuboids, in request order, consistent with the
        dataset's public exact cuboids.
      noise_stddev: per cuboid, the standard deviation of one cell's noise
        before the consistency step (which can only reduce it).
      strategy: "per_cuboid" (each cuboid noised, epsilon split evenly) or
        "base_cuboid" (one cuboid over all requested dimensions noised, the
        others derived from it): whichever adds less noise.
      sensitivity: the sensitivity the noise is calibrated to.
      (and the charge: see Charged.)

    to_pandas() is tidy: one row per cell of every cuboid, with `cuboid`
    (its dimensions joined by ","), one column per dimension (None where
    the cuboid does not have it), `count`, `other`, `noise_stddev` and the
    charge's columns.
    """

    cuboids: List[Cuboid]
    noise_stddev: List[float]
    strategy: str
    sensitivity: float

    def _rows(self) -> List[Dict[str, Any]]:
        every = list(dict.fromkeys(d for c in self.cuboids for d in c.dimensions))
        rows = []
        for cuboid, stddev in zip(self.cuboids, self.noise_stddev):
            for cell in cuboid._rows():
                rows.append({**self._charge(), "cuboid": ",".join(cuboid.dimensions),
                             **{d: cell.get(d) for d in every}, "count": cell["count"],
                             "other": cell["other"], "noise_stddev": stddev})
        return rows


@dataclass(frozen=True)
class TreeNode(Record):
    """One node of a released decision tree.

    Attributes:
      leaf: True for a leaf.
      positive: for leaves, whether it predicts the positive class.
      feature: the feature an inner node tests.
      numeric_test: True for "feature <= threshold", False for "feature ==
        category".
      threshold: the numeric test's threshold.
      category: the nominal test's category.
      left, right: indexes into DecisionTree.nodes of the children (test
        true, test false); -1 for leaves.
    """

    leaf: bool
    positive: bool
    feature: str
    numeric_test: bool
    threshold: float
    category: str
    left: int
    right: int


@dataclass(frozen=True, kw_only=True)
class DecisionTree(Charged):
    """train_decision_tree().

    Attributes:
      nodes: the tree, nodes[0] the root.
      tree_text: the tree as indented text.
      depth: its depth.
      tpr, tnr: the DP true positive and true negative rates, only when
        accuracy_epsilon was paid (None otherwise).
      caveat: why the tree may be of no use (the budget is below
        useful_epsilon, or it is a single leaf); None when neither.
      useful_epsilon: the smallest epsilon that passes the server's public
        usefulness rule, or None.
      (and the charge: see Charged.)

    to_pandas(): one row per node, with the charge's columns.
    """

    nodes: List[TreeNode]
    tree_text: str
    depth: int
    tpr: Optional[float]
    tnr: Optional[float]
    caveat: Optional[str] = None
    useful_epsilon: Optional[float] = None

    def _rows(self) -> List[Dict[str, Any]]:
        return [{**self._charge(), "node": i, **flat_row(n)} for i, n in enumerate(self.nodes)]


@dataclass(frozen=True, kw_only=True)
class InfluentialNodes(Charged):
    """select_influential_nodes().

    Attributes:
      nodes: the selected node ids, in selection order.
      (and the charge: see Charged.)

    to_pandas(): one row per node (`rank` from 1, `node`), with the
    charge's columns.
    """

    nodes: List[str]

    def _rows(self) -> List[Dict[str, Any]]:
        return [{**self._charge(), "rank": i + 1, "node": n} for i, n in enumerate(self.nodes)]


def measure_release(dataset_id: str, r: Any, attempts: int) -> MeasureRelease:
    return MeasureRelease(result=MeasureResult.from_proto(r.result),
                          **charged_fields(dataset_id, r, attempts))


def quality_report(dataset_id: str, r: Any, attempts: int) -> QualityReport:
    return QualityReport(results=[MeasureResult.from_proto(x) for x in r.results],
                         row_count=RowCount.from_proto(r.row_count)
                         if r.HasField("row_count") else None,
                         **charged_fields(dataset_id, r, attempts))


def cuboid_release(dataset_id: str, r: Any, attempts: int) -> CuboidRelease:
    return CuboidRelease(cuboids=[_cuboid(c) for c in r.cuboids],
                         noise_stddev=list(r.noise_stddev), strategy=r.strategy,
                         sensitivity=r.sensitivity, **charged_fields(dataset_id, r, attempts))


def decision_tree(dataset_id: str, r: Any, attempts: int) -> DecisionTree:
    nodes = [TreeNode(n.leaf, n.positive, n.feature, n.numeric_test, n.threshold,
                      n.category, n.left, n.right) for n in r.nodes]
    return DecisionTree(nodes=nodes, tree_text=r.tree_text, depth=r.depth,
                        tpr=r.tpr if r.HasField("tpr") else None,
                        tnr=r.tnr if r.HasField("tnr") else None,
                        caveat=r.caveat if r.HasField("caveat") else None,
                        useful_epsilon=r.useful_epsilon
                        if r.HasField("useful_epsilon") else None,
                        **charged_fields(dataset_id, r, attempts))


def influential_nodes(dataset_id: str, r: Any, attempts: int) -> InfluentialNodes:
    return InfluentialNodes(nodes=list(r.nodes), **charged_fields(dataset_id, r, attempts))


# The answer types of a receipt, by the oneof field of dpq.v1.Receipt.
_RECEIPT_ANSWERS = {
    "measure_inconsistency": ("MeasureInconsistency", measure_release),
    "quality_report": ("QualityReport", quality_report),
    "release_cuboids": ("ReleaseCuboids", cuboid_release),
    "train_decision_tree": ("TrainDecisionTree", decision_tree),
    "select_influential_nodes": ("SelectInfluentialNodes", influential_nodes),
}


@dataclass(frozen=True, kw_only=True)
class Receipt(Record):
    """One of the caller's releases (list_receipts()).

    Attributes:
      entry: its ledger entry: entry_id, request_id, operation (what was
        released), epsilon (the charge, k_Q included), state, created_at,
        settled_at.
      kind: the RPC that released it, e.g. "QualityReport" (the first
        word of entry.operation).
      answer: the answer as it was returned (a MeasureRelease,
        QualityReport, CuboidRelease, DecisionTree or InfluentialNodes
        with attempts 0 and remaining_budget None), or None when the entry
        is not COMMITTED (in flight, charged without an answer: retry with
        its request_id to get it, or refunded).
      raw: the Receipt message.

    to_pandas(): one row per released measure (a quality report has
    three), one row for other answers, with the entry's columns, `kind`,
    and `measure`, `value`, `lower95`, `upper95`, `interval` where the
    answer has measures.
    """

    entry: LedgerEntry
    kind: str
    answer: Optional[Charged]
    raw: Any = field(repr=False, compare=False)

    def _rows(self) -> List[Dict[str, Any]]:
        base = {**flat_row(self.entry), "kind": self.kind}
        measures: List[MeasureResult] = []
        if isinstance(self.answer, MeasureRelease):
            measures = [self.answer.result]
        elif isinstance(self.answer, QualityReport):
            measures = list(self.answer.results)
        if not measures:
            return [base]
        return [{**base, "measure": m.measure, "value": m.value, "lower95": m.lower95,
                 "upper95": m.upper95, "interval": m.describe()} for m in measures]

    @staticmethod
    def from_proto(r: Any) -> "Receipt":
        entry = LedgerEntry.from_proto(r.entry)
        which = r.WhichOneof("answer")
        answer = None
        if which in _RECEIPT_ANSWERS:
            answer = _RECEIPT_ANSWERS[which][1](entry.dataset_id, getattr(r, which), 0)
        kind = entry.operation.split(" ", 1)[0]
        return Receipt(entry=entry, kind=kind, answer=answer, raw=r)


@dataclass(frozen=True, kw_only=True)
class MeasureNoise(Record):
    """The noise of one measure's final count, as a function of theta.

    The count is the method's statistic at its private choice of theta
    plus discrete Laplace noise of scale (theta_coefficient * theta +
    sensitivity_constant) / release_epsilon: I_MI theta / eps_r, I_P
    (theta + 1) / eps_r, I_R 1 / eps (2 / eps for vertex_cover). theta is
    chosen from the data (the release reports it) and never exceeds the
    dataset's public_max_rows.

    Attributes:
      measure: "MI", "P" or "R".
      method: the method that would run, as the release names it.
      release_epsilon: the part of the measure's epsilon that buys the
        count (the rest buys the choice of theta).
      theta_coefficient, sensitivity_constant: the count's sensitivity is
        theta_coefficient * theta + sensitivity_constant.
      raw: the MeasureNoise message.
    """

    measure: str
    method: str
    release_epsilon: float
    theta_coefficient: int
    sensitivity_constant: int
    raw: Any = field(repr=False, compare=False)

    def scale(self, theta: int = 0) -> float:
        """The noise scale at `theta` (the release rounds it up, by far
        less than its last digit, to the rational its sampler uses)."""
        return (self.theta_coefficient * theta + self.sensitivity_constant) / self.release_epsilon

    def bound95(self, theta: int = 0) -> int:
        """The 95% bound of |noise| at `theta`, as the release reports it
        in bound95: the least k with P(|noise| > k) = 2 p^(k+1) / (1 + p)
        <= 5%, p = exp(-1 / scale) (off by one at most where the release's
        exact scale rounds differently)."""
        p = math.exp(-1.0 / self.scale(theta))
        return max(0, math.ceil(math.log(0.025 * (1 + p)) / math.log(p) - 1))

    @staticmethod
    def from_proto(n: Any) -> "MeasureNoise":
        return MeasureNoise(measure=enum_short_name(dataset_pb2.Measure, n.measure, "MEASURE_"),
                            method=n.method, release_epsilon=n.release_epsilon,
                            theta_coefficient=n.theta_coefficient,
                            sensitivity_constant=n.sensitivity_constant, raw=n)


@dataclass(frozen=True, kw_only=True)
class CostPreview(Record):
    """preview_cost(): what a release would charge, before buying it.

    Attributes:
      dataset_id: the dataset.
      release: the release method previewed, e.g. "quality_report".
      epsilon_charged: what the release would charge, exactly: the
        request's epsilon times charge_multiplier (plus a tree's
        accuracy_epsilon).
      charge_multiplier: k_Q, the epsilon charged per epsilon requested (1
        unless the dataset publishes exact cuboids; 1 for cuboids).
      charge_basis: how the charge follows from the request ("2 x 0.5:
        the dataset publishes an exact cuboid"), "" when it is the
        request's epsilon.
      remaining_budget: the caller's remaining budget on the dataset now.
      fits_budget: whether the charge fits it (the dataset's cap over all
        buyers may still refuse the release).
      noise: for measures and quality reports, each measure's noise.
      raw: the PreviewCostResponse message.

    to_pandas(): one row per measure (or one row), with the charge's
    columns.
    """

    dataset_id: str
    release: str
    epsilon_charged: Decimal
    charge_multiplier: int
    charge_basis: str
    remaining_budget: Decimal
    fits_budget: bool
    noise: List[MeasureNoise]
    raw: Any = field(repr=False, compare=False)

    def _rows(self) -> List[Dict[str, Any]]:
        base = flat_row(self)
        if not self.noise:
            return [base]
        return [{**base, **flat_row(n)} for n in self.noise]

    @staticmethod
    def from_proto(dataset_id: str, release: str, r: Any) -> "CostPreview":
        return CostPreview(dataset_id=dataset_id, release=release,
                           epsilon_charged=epsilon_field(r, "epsilon_charged"),
                           charge_multiplier=r.charge_multiplier, charge_basis=r.charge_basis,
                           remaining_budget=epsilon_field(r, "remaining_budget"),
                           fits_budget=r.fits_budget,
                           noise=[MeasureNoise.from_proto(n) for n in r.noise], raw=r)

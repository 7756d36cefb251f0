"""Plain data and DataFrames from the SDK's results.

Record is the base of every result dataclass (dpq_client.results):

- to_dict(): plain, JSON-serialisable data. Nested results become dicts
  and lists, the `raw` protobuf message is left out, exact amounts
  (Decimal) become their exact decimal text ("15.6", never a rounded
  float) and times ISO 8601 strings in UTC.
- to_pandas(): a pandas DataFrame. Each exact amount is a float64 column
  under its own name (so that df.epsilon * 0.5 and df.plot work) beside an
  object column `<name>_exact` with the Decimal; times are datetime64 in
  UTC. Results with several parts are tidy: one row per measure of a
  report, per cell of a cuboid, per budget.

to_pandas(records) stacks a list of results (the releases of several
datasets, list_datasets()) into one DataFrame. pandas is optional: without
it, to_pandas() raises an ImportError that says how to install it.
"""

import dataclasses
import datetime
import re
from decimal import Decimal
from typing import Any, Dict, Iterable, List, Optional, Sequence

# A dimension's catch-all label: "other", in as many parentheses as it
# takes to differ from the dimension's real labels (core/cube/cube_schema.cc).
_OTHER = re.compile(r"^(\(*)other(\)*)$")

_NO_PANDAS = ("to_pandas() needs pandas, which is not installed: pip install "
              "'dpq-client[pandas]' (or, on Debian, apt-get install python3-pandas)")


def is_other_label(label: str) -> bool:
    """True for a catch-all label: "other", "(other)", "((other))", ..."""
    m = _OTHER.match(label)
    return m is not None and len(m.group(1)) == len(m.group(2))


def _plain(value: Any) -> Any:
    """`value` as JSON-serialisable data (see the module docstring)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name))
                for f in dataclasses.fields(value) if f.name != "raw"}
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def flat_row(record: Any, only: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """One DataFrame row of a result's own fields: scalars as they are,
    each Decimal as a float plus `<name>_exact`, lists of scalars as lists;
    nested results and `raw` are left to the result's own _rows()."""
    row: Dict[str, Any] = {}
    for f in dataclasses.fields(record):
        if f.name == "raw" or (only is not None and f.name not in only):
            continue
        value = getattr(record, f.name)
        if isinstance(value, Decimal):
            row[f.name] = float(value)
            row[f.name + "_exact"] = value
        elif dataclasses.is_dataclass(value):
            continue
        elif isinstance(value, list) and any(dataclasses.is_dataclass(v) for v in value):
            continue
        else:
            row[f.name] = list(value) if isinstance(value, list) else value
    return row


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as e:
        raise ImportError(_NO_PANDAS) from e
    return pandas


def _frame(rows: List[Dict[str, Any]]) -> Any:
    pandas = _pandas()
    frame = pandas.DataFrame(rows)
    for column in frame.columns:
        if frame[column].map(lambda v: isinstance(v, datetime.datetime)).any():
            frame[column] = pandas.to_datetime(frame[column], utc=True)
    return frame


class Record:
    """to_dict() and to_pandas() for a result dataclass."""

    def to_dict(self) -> Dict[str, Any]:
        """Plain, JSON-serialisable data: json.dumps(r.to_dict()) works.
        Amounts are exact decimal strings; `raw` is left out."""
        return _plain(self)

    def to_pandas(self) -> Any:
        """A pandas DataFrame (pandas.DataFrame; see dpq_client.frames)."""
        return _frame(self._rows())

    def _rows(self) -> List[Dict[str, Any]]:
        """The DataFrame's rows; one of the record's own fields by default."""
        return [flat_row(self)]


def to_pandas(records: Iterable[Record]) -> Any:
    """One DataFrame of the rows of every record, in order (e.g. the
    quality reports of three datasets: 9 rows, told apart by dataset_id).
    """
    rows: List[Dict[str, Any]] = []
    for record in records:
        rows.extend(record._rows())
    return _frame(rows)

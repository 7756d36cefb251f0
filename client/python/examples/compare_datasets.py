"""Compares three datasets' quality before buying one (docs/clients.md).

    python3 compare_datasets.py --server HOST:PORT --token-file alice.token \
        --ca-file ca.pem --out quality.png hospital hospital-b people

Buys one quality report per dataset (epsilon 1 each, times the dataset's
charge multiplier) with its DP row count, prints each measure per row
with its 95% interval, and plots them side by side.
"""

import argparse

import matplotlib

matplotlib.use("Agg")  # no display needed: the plot goes to a file

import dpq_client  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--ca-file")
    parser.add_argument("--epsilon", default="1")
    parser.add_argument("--out", default="quality.png")
    parser.add_argument("datasets", nargs="+")
    args = parser.parse_args()

    with dpq_client.Client(args.server, token_file=args.token_file,
                           ca_file=args.ca_file) as dpq:
        reports = [dpq.quality_report(d, epsilon=args.epsilon, row_count=True)
                   for d in args.datasets]
        spent = sum(r.epsilon_charged for r in reports)  # exact Decimals

    frame = dpq_client.to_pandas(reports)  # one row per dataset and measure
    frame["lower_per_row"] = frame.lower95 / frame.rows
    frame["upper_per_row"] = frame.upper95.where(frame.upper_proved) / frame.rows
    print(frame[["dataset_id", "measure", "value", "rows", "per_row", "lower_per_row",
                 "upper_per_row"]].round(3).to_string(index=False))
    print(f"spent {spent} epsilon in all")

    # Bars: the values per row; whiskers: the 95% intervals, up to the
    # public maximum where nothing bounds the undercount; log scale.
    measures = ["MI", "P", "R"]
    frame["top_per_row"] = frame.upper95 / frame.rows
    value, low, top = (frame.pivot(index="dataset_id", columns="measure", values=v)[measures]
                       for v in ("per_row", "lower_per_row", "top_per_row"))
    yerr = [[(value[m] - low[m]).clip(lower=0), (top[m] - value[m]).clip(lower=0)]
            for m in measures]
    ax = value.plot.bar(rot=0, yerr=yerr, capsize=3, logy=True, ylabel="per row (log scale)",
                        title=f"Inconsistency per row, 95% intervals (epsilon {args.epsilon})")
    ax.figure.tight_layout()
    ax.figure.savefig(args.out, dpi=100)


if __name__ == "__main__":
    main()

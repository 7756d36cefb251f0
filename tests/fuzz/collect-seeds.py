#!/usr/bin/env python3
"""Collects the seed corpora of the fuzz targets (docs/fuzzing.md) into
OUT/<target>/: the committed seeds (tests/fuzz/seeds/), then inputs cut from
the real data in ../shared/data (see its README) and the demo data
(deploy/demo), small enough for each target's -max_len. Nothing large is
committed: the data files stay where they are and only their first lines
are copied.

  tests/fuzz/collect-seeds.py OUT
"""
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "data"))
DEMO = os.path.join(ROOT, "deploy", "demo")

# Lines of a data file kept in a seed: the targets' -max_len is a few KB.
HEAD_LINES = 40


def head(path, lines=HEAD_LINES):
    with open(path, "rb") as f:
        out = []
        for i, line in enumerate(f):
            if i >= lines:
                break
            out.append(line)
        return b"".join(out)


def write(out, target, name, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data)


def number_type(values):
    """int64, double or string: the inference of core/table/csv_reader.h,
    roughly (enough for a seed's schema line)."""
    values = [v for v in values if v != ""]
    if values and all(re.fullmatch(r"-?(0|[1-9][0-9]*)", v) for v in values):
        return "int64"
    if values and all(re.fullmatch(r"-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?", v)
                      for v in values):
        return "double"
    return "string"


def schema_line(csv_path):
    """The DC targets' first line for the columns of `csv_path`."""
    rows = [r.split(",") for r in
            head(csv_path, 200).decode("utf-8", "replace").splitlines()]
    header = rows[0]
    specs = []
    for i, name in enumerate(header):
        column = [r[i] for r in rows[1:] if len(r) == len(header)]
        specs.append("%s:%s" % (name, number_type(column)))
    return ",".join(specs)


def dc_seeds(out, name, csv_path, dc_path):
    """Splits a DC file by syntax into the three DC targets' seeds, with the
    wrapping each target adds taken off."""
    schema = schema_line(csv_path)
    lines = {"dc_native": [], "dc_fd": [], "dc_benchmark": []}
    with open(dc_path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            line = line.strip()
            if line.startswith("not(") and line.endswith(")"):
                lines["dc_native"].append(line[4:-1])
            elif line.startswith("t1&t2&"):
                lines["dc_benchmark"].append(line[len("t1&t2&"):])
            elif "->" in line:
                lines["dc_fd"].append(line)
    for target, body in lines.items():
        if body:
            write(out, target, name, "\n".join([schema] + body).encode())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    shutil.rmtree(out, ignore_errors=True)
    seeds = os.path.join(HERE, "seeds")
    for target in sorted(os.listdir(seeds)):
        if os.path.isdir(os.path.join(seeds, target)):
            shutil.copytree(os.path.join(seeds, target),
                            os.path.join(out, target))

    datasets = []  # (name, csv, dc files)
    if os.path.isdir(SHARED):
        for name in sorted(os.listdir(SHARED)):
            folder = os.path.join(SHARED, name)
            if not os.path.isdir(folder):
                continue
            files = sorted(os.listdir(folder))
            csvs = [f for f in files if f.endswith(".csv")]
            dcs = [f for f in files if f.endswith(".dc")]
            for csv in csvs:
                # The CSV reader: plain, and with the NULL spellings on.
                data = head(os.path.join(folder, csv))
                write(out, "csv_reader", "%s-%s" % (name, csv), b"\0" + data)
                write(out, "csv_reader", "%s-%s-na" % (name, csv),
                      b"\3" + data)
            if csvs and dcs:
                datasets.append((name, os.path.join(folder, csvs[0]),
                                 [os.path.join(folder, d) for d in dcs]))
        selection = os.path.join(SHARED, "selection")
        for edges in ("email-enron.txt", "musae-github-edges.csv"):
            path = os.path.join(selection, edges)
            if os.path.exists(path):
                write(out, "edge_list", edges, b"\0" + head(path, 200))
                write(out, "edge_list", edges + "-universe",
                      b"\1" + head(path, 200))
    else:
        print("collect-seeds: no %s; committed seeds only" % SHARED)
    datasets.append(("demo-hospital", os.path.join(DEMO, "hospital.csv"),
                     [os.path.join(DEMO, "hospital.dc")]))
    for name, csv, dcs in datasets:
        for dc in dcs:
            dc_seeds(out, "%s-%s" % (name, os.path.basename(dc)), csv, dc)
    write(out, "csv_reader", "demo-hospital.csv",
          b"\0" + head(os.path.join(DEMO, "hospital.csv")))
    write(out, "edge_list", "demo-network.csv",
          b"\0" + head(os.path.join(DEMO, "network.csv"), 200))
    example = os.path.join(ROOT, "deploy", "dpq-server.conf.example")
    if os.path.exists(example):
        write(out, "config", "dpq-server.conf.example", head(example, 400))

    for target in sorted(os.listdir(out)):
        print("collect-seeds: %-16s %3d seeds" %
              (target, len(os.listdir(os.path.join(out, target)))))


if __name__ == "__main__":
    main()

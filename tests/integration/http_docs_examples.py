#!/usr/bin/env python3
"""Runs the curl examples of docs/http.md's "Tour with curl" as written.

    http_docs_examples.py docs/http.md

Each ```sh block of that section runs in bash (-e -u -o pipefail) in a
temporary directory holding manifest.json and data.csv (the upload's
dataset, renamed "tour_people"), with DPQ_URL, DPQ_CA, DPQ_TOKEN (alice)
and DPQ_ADMIN_TOKEN from the environment tests/integration/
http_gateway_test.cc sets. A block fails the run if bash exits non-zero or
its output lacks what the block is for (checked below, in order).
"""

import json
import os
import re
import subprocess
import sys
import tempfile

# What each block's output must contain, in the order of the section.
EXPECTED = [
    ['"datasetId":"hospital"'],
    ['"epsilonChargedUnits":"1000000000000"', '"requestId":"tour-mi-1"'],
    ['"budgets":[', '"history":['],
    ['HTTP 429', '"reason":"BUDGET_EXHAUSTED"'],
    ['"token":"', '"grantedUnits":"2000000000000"', '"entries":[', '"action":"GrantBudget"'],
    ['"datasetId":"tour_people"'],
]


def blocks(markdown):
    section = markdown.split("## Tour with curl", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, re.DOTALL)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        found = blocks(f.read())
    if len(found) != len(EXPECTED):
        sys.exit(f"docs/http.md's tour has {len(found)} sh blocks; this test expects "
                 f"{len(EXPECTED)}: update EXPECTED with the docs")
    env = dict(os.environ)
    env["DPQ_URL"] = os.environ["DPQ_TEST_HTTP_URL"]
    env["DPQ_CA"] = os.environ["DPQ_TEST_CA"]
    env["DPQ_TOKEN"] = os.environ["DPQ_TEST_TOKEN_ALICE"]
    env["DPQ_ADMIN_TOKEN"] = os.environ["DPQ_TEST_ADMIN_TOKEN"]
    with tempfile.TemporaryDirectory() as work:
        manifest = json.loads(os.environ["DPQ_TEST_UPLOAD_MANIFEST"])
        manifest["datasetId"] = "tour_people"
        with open(os.path.join(work, "manifest.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=2)
        with open(os.environ["DPQ_TEST_UPLOAD_CSV"], "rb") as src, \
                open(os.path.join(work, "data.csv"), "wb") as dst:
            dst.write(src.read())
        for number, (script, wanted) in enumerate(zip(found, EXPECTED), start=1):
            run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=work, env=env,
                                 capture_output=True, text=True, timeout=60)
            print(f"--- example {number}:\n{script}--- output:\n{run.stdout}{run.stderr}")
            if run.returncode != 0:
                sys.exit(f"example {number} exited {run.returncode}")
            compact = re.sub(r'":\s+', '":', run.stdout)
            for text in wanted:
                if text not in compact:
                    sys.exit(f"example {number}: its output lacks {text!r}")
    print(f"{len(found)} examples passed")


if __name__ == "__main__":
    main()

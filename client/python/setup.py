"""Build hooks of the dpq-client package (metadata: pyproject.toml).

Two things pyproject.toml cannot say: the version is the project's own
(`project(dpq VERSION x.y.z)` in the top-level CMakeLists.txt), and the
generated protobuf and gRPC modules are made while the package is built
(generate_stubs.py), into the build folder, so the wheel carries them and
the source tree stays free of generated files.

Both are read from the repository this folder sits in (client/python, two
levels down); DPQ_SOURCE_ROOT names another checkout, for a copy of this
folder built elsewhere (the wheel test does that, so that the build writes
nothing into the source tree), and DPQ_PROTO_DIR another proto folder.
"""

import os
import re
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("DPQ_SOURCE_ROOT", os.path.dirname(os.path.dirname(HERE)))


def project_version() -> str:
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(\s*dpq\s+VERSION\s+([0-9][0-9.]*)", f.read())
    if not match:
        raise RuntimeError("no `project(dpq VERSION ...)` in CMakeLists.txt")
    return match.group(1)


class BuildWithStubs(build_py):
    """build_py, then the generated modules into build_lib/dpq_client/_proto."""

    def run(self):
        super().run()
        import generate_stubs  # next to this file

        proto_dir = os.environ.get("DPQ_PROTO_DIR", os.path.join(ROOT, "proto"))
        generate_stubs.generate(proto_dir, self.build_lib)
        version_file = os.path.join(self.build_lib, "dpq_client", "_version.py")
        with open(version_file, "w", encoding="utf-8") as f:
            f.write(f'__version__ = "{project_version()}"\n')


sys.path.insert(0, HERE)
setup(version=project_version(), cmdclass={"build_py": BuildWithStubs})

"""The generated protobuf and gRPC modules the SDK wraps.

They live in dpq_client._proto, generated from proto/ by
client/python/generate_stubs.py when the package is built: into the wheel
(`pip wheel client/python`) or into the build tree (the CMake target
dpq_python, build/client/python). A source checkout of client/python
without either build has none, which this says clearly.
"""

try:
    from dpq_client._proto.dpq.v1 import buyer_service_pb2  # noqa: F401
    from dpq_client._proto.dpq.v1 import buyer_service_pb2_grpc  # noqa: F401
    from dpq_client._proto.dpq.v1 import dataset_pb2  # noqa: F401
    from dpq_client._proto.dpq.v1 import ledger_pb2  # noqa: F401
    from dpq_client._proto.google.rpc import error_details_pb2  # noqa: F401
    from dpq_client._proto.google.rpc import status_pb2  # noqa: F401
except ImportError as e:  # pragma: no cover - a set-up error, said clearly
    raise ImportError(
        "dpq_client: the generated modules (dpq_client._proto) are missing "
        f"({e}): this is a source checkout, not a built package. Install the "
        "wheel (pip install client/python; docs/clients.md) or build the "
        "CMake target dpq_python and use build/client/python."
    ) from e

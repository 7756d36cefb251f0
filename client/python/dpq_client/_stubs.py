"""The generated protobuf and gRPC modules the SDK wraps.

They are generated at build time (client/python/CMakeLists.txt) into the
build tree next to a copy of this package, so one PYTHONPATH entry,
build/client/python, finds both (docs/clients.md).
"""

try:
    from dpq.v1 import buyer_service_pb2  # noqa: F401
    from dpq.v1 import buyer_service_pb2_grpc  # noqa: F401
    from dpq.v1 import dataset_pb2  # noqa: F401
    from dpq.v1 import ledger_pb2  # noqa: F401
    from google.rpc import error_details_pb2  # noqa: F401
    from google.rpc import status_pb2  # noqa: F401
except ImportError as e:  # pragma: no cover - a set-up error, said clearly
    raise ImportError(
        "dpq_client: the generated dpq.v1 / google.rpc modules are missing "
        f"({e}). Build them (ninja -C build dpq_python) and put "
        "build/client/python on PYTHONPATH; docs/clients.md says how."
    ) from e

#!/usr/bin/python3
"""Unit tests of dpq_reflect.py that need no dpq-server (the ones against a
real server are in tests/integration/dpq_reflect_test.cc):

- the reflection messages it builds by hand match the vendored
  proto/grpc_reflection/v1/reflection.proto, field for field, as Debian's
  protoc compiles it (and v1alpha has the same shape);
- it falls back to v1alpha when a server answers v1 with UNIMPLEMENTED (a
  server made with Debian's gRPC alone), here a grpcio server on loopback
  that serves only v1alpha list_services.

Usage: dpq_reflect_test.py PROTOC REPO_ROOT (ctest passes both).
"""

import os
import subprocess
import sys
import tempfile
import unittest
from concurrent import futures

import grpc
from google.protobuf import any_pb2
from google.protobuf import descriptor_pb2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dpq_reflect  # noqa: E402

PROTOC = None
REPO = None


def _status_details_bytes():
    """A google.rpc.Status (code 8, a message, one Any detail) encoded by
    hand: this test must not depend on dpq_reflect to build it."""
    detail = any_pb2.Any(type_url="type.googleapis.com/google.rpc.ErrorInfo",
                         value=b"\x0a\x10BUDGET_EXHAUSTED")
    message = "Budget exhausted".encode()
    body = detail.SerializeToString()
    return (b"\x08\x08" + b"\x12" + bytes([len(message)]) + message +
            b"\x1a" + bytes([len(body)]) + body)


_STATUS_DETAILS = _status_details_bytes()


class _RichStatus(grpc.Status):
    def __init__(self, details):
        self.code = grpc.StatusCode.RESOURCE_EXHAUSTED
        self.details = "Budget exhausted"
        self.trailing_metadata = (("grpc-status-details-bin", details),)


def _shape(file_proto):
    """What the wire depends on: per message, the fields' names, numbers,
    types, labels, type names and oneof membership; the service methods."""
    package = "." + file_proto.package + "."
    messages = {}
    for message in file_proto.message_type:
        fields = []
        for f in message.field:
            oneof = (message.oneof_decl[f.oneof_index].name
                     if f.HasField("oneof_index") else "")
            fields.append((f.name, f.number, f.type, f.label,
                           f.type_name.replace(package, "."), oneof))
        messages[message.name] = sorted(fields)
    methods = {}
    for service in file_proto.service:
        for m in service.method:
            methods[service.name + "." + m.name] = (
                m.input_type.replace(package, "."),
                m.output_type.replace(package, "."),
                m.client_streaming, m.server_streaming)
    return messages, methods


class DescriptorTest(unittest.TestCase):

    def test_hand_built_messages_match_the_vendored_proto(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "set.pb")
            subprocess.run(
                [PROTOC, "-I", os.path.join(REPO, "proto"),
                 "--descriptor_set_out=" + out,
                 "grpc_reflection/v1/reflection.proto"], check=True)
            with open(out, "rb") as f:
                compiled = descriptor_pb2.FileDescriptorSet.FromString(
                    f.read()).file[0]
        self.assertEqual(compiled.package, "grpc.reflection.v1")
        built = dpq_reflect._reflection_file("grpc.reflection.v1")
        self.assertEqual(_shape(built), _shape(compiled))
        # A mismatch must be visible: the comparison is not vacuous.
        self.assertEqual(len(_shape(compiled)[0]), 8)
        alpha = dpq_reflect._reflection_file("grpc.reflection.v1alpha")
        self.assertEqual(_shape(alpha), _shape(built))


class FallbackTest(unittest.TestCase):

    def setUp(self):
        client = dpq_reflect.ReflectionClient(None, 5)
        pool = client._own
        request_class = dpq_reflect._message_class(
            pool, "grpc.reflection.v1alpha.ServerReflectionRequest")
        response_class = dpq_reflect._message_class(
            pool, "grpc.reflection.v1alpha.ServerReflectionResponse")

        def answer(requests, context):
            for request in requests:
                response = response_class()
                response.original_request.CopyFrom(request)
                if request.WhichOneof("message_request") == "list_services":
                    response.list_services_response.service.add(
                        name="old.Service")
                else:
                    response.error_response.error_code = 5
                    response.error_response.error_message = "not found"
                yield response

        def fail(request, context):
            context.abort_with_status(_RichStatus(_STATUS_DETAILS))

        handler = grpc.method_handlers_generic_handler(
            "grpc.reflection.v1alpha.ServerReflection",
            {"ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
                answer, request_deserializer=request_class.FromString,
                response_serializer=response_class.SerializeToString)})
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        failing = grpc.method_handlers_generic_handler(
            "test.Failing",
            {"Fail": grpc.unary_unary_rpc_method_handler(
                fail, request_deserializer=bytes,
                response_serializer=bytes)})
        self.server.add_generic_rpc_handlers((handler, failing))
        port = self.server.add_insecure_port("127.0.0.1:0")
        self.server.start()
        self.channel = grpc.insecure_channel("127.0.0.1:%d" % port)

    def tearDown(self):
        self.channel.close()
        self.server.stop(None)

    def test_v1_unimplemented_falls_back_to_v1alpha(self):
        client = dpq_reflect.ReflectionClient(self.channel, 5)
        self.assertEqual(client.list_services(), ["old.Service"])
        self.assertEqual(client.version, "grpc.reflection.v1alpha")

    def test_rich_error_details_are_printed_without_reflection(self):
        client = dpq_reflect.ReflectionClient(self.channel, 5)
        call = self.channel.unary_unary("/test.Failing/Fail")
        with self.assertRaises(grpc.RpcError) as raised:
            call(b"", timeout=5)
        self.assertEqual(raised.exception.code(),
                         grpc.StatusCode.RESOURCE_EXHAUSTED)
        text = dpq_reflect._status_details(client, raised.exception)
        # The detail's type is unknown here (the server does not describe
        # it): the Status is shown with the raw Any.
        self.assertIn("Budget exhausted", text)
        self.assertIn("type.googleapis.com/google.rpc.ErrorInfo", text)

    def test_v1_only_reports_unimplemented(self):
        client = dpq_reflect.ReflectionClient(
            self.channel, 5, versions=("grpc.reflection.v1",))
        with self.assertRaises(grpc.RpcError) as raised:
            client.list_services()
        self.assertEqual(raised.exception.code(),
                         grpc.StatusCode.UNIMPLEMENTED)


if __name__ == "__main__":
    PROTOC, REPO = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)

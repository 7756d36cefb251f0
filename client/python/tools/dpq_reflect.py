#!/usr/bin/python3
"""dpq_reflect: a grpc_cli-style client driven by gRPC server reflection.

Debian 12 ships neither grpc_cli nor grpcurl; this needs only Debian's
python3-grpcio and python3-protobuf. It learns the API from the server
(grpc.reflection.v1, falling back to v1alpha when the server answers
UNIMPLEMENTED), so it needs no .proto files and no generated code: the
reflection messages themselves are built below from their descriptors
(the same shape as proto/grpc_reflection/v1/reflection.proto;
dpq_reflect_test.py checks that they match).

  dpq_reflect.py [options] ls                   services
  dpq_reflect.py [options] ls SERVICE           its methods
  dpq_reflect.py [options] describe SYMBOL      a service, method, message
                                                or enum, as .proto text
  dpq_reflect.py [options] call SERVICE/METHOD 'JSON'
                                                one call (a JSON array of
                                                requests for a client
                                                stream); prints the answer
                                                as JSON

Options: --address HOST:PORT (default $DPQ_SERVER or localhost:50051),
--ca-file F (PEM; default: the system roots), --token-file F (default:
$DPQ_TOKEN), --insecure (plaintext), --server-name NAME (the TLS name to
check, when it differs from HOST), --timeout S, --emit-defaults,
--reflection auto|v1|v1alpha (default auto).
Exit status: 0 ok, 1 the call failed (the status is printed), 2 bad usage
or input. docs/reflection.md shows each command with its output.
"""

import argparse
import json
import os
import sys
import uuid

import grpc
from google.protobuf import any_pb2
from google.protobuf import descriptor_pb2
from google.protobuf import descriptor_pool
from google.protobuf import json_format
from google.protobuf import message_factory

# Reflection requests per stream are cheap; one stream per question keeps
# this simple (the server sends each file's dependencies with it).
_REFLECTION_VERSIONS = ("grpc.reflection.v1", "grpc.reflection.v1alpha")
_STATUS_DETAILS_KEY = "grpc-status-details-bin"

_F = descriptor_pb2.FieldDescriptorProto


class UsageError(Exception):
    """Bad command line or input: exit status 2."""


def _message_class(pool, full_name):
    """The Python class of message `full_name` in `pool`."""
    descriptor = pool.FindMessageTypeByName(full_name)
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)


def _field(message, name, number, field_type, label=_F.LABEL_OPTIONAL,
           type_name=None, oneof_index=None):
    field = message.field.add(name=name, number=number, type=field_type,
                              label=label)
    if type_name:
        field.type_name = type_name
    if oneof_index is not None:
        field.oneof_index = oneof_index


def _reflection_file(package):
    """The FileDescriptorProto of server reflection in `package` (v1 and
    v1alpha have the same messages and field numbers)."""
    f = descriptor_pb2.FileDescriptorProto(
        name="dpq_reflect/%s.proto" % package, package=package,
        syntax="proto3")
    p = "." + package + "."
    request = f.message_type.add(name="ServerReflectionRequest")
    request.oneof_decl.add(name="message_request")
    _field(request, "host", 1, _F.TYPE_STRING)
    _field(request, "file_by_filename", 3, _F.TYPE_STRING, oneof_index=0)
    _field(request, "file_containing_symbol", 4, _F.TYPE_STRING,
           oneof_index=0)
    _field(request, "file_containing_extension", 5, _F.TYPE_MESSAGE,
           type_name=p + "ExtensionRequest", oneof_index=0)
    _field(request, "all_extension_numbers_of_type", 6, _F.TYPE_STRING,
           oneof_index=0)
    _field(request, "list_services", 7, _F.TYPE_STRING, oneof_index=0)
    extension = f.message_type.add(name="ExtensionRequest")
    _field(extension, "containing_type", 1, _F.TYPE_STRING)
    _field(extension, "extension_number", 2, _F.TYPE_INT32)
    response = f.message_type.add(name="ServerReflectionResponse")
    response.oneof_decl.add(name="message_response")
    _field(response, "valid_host", 1, _F.TYPE_STRING)
    _field(response, "original_request", 2, _F.TYPE_MESSAGE,
           type_name=p + "ServerReflectionRequest")
    _field(response, "file_descriptor_response", 4, _F.TYPE_MESSAGE,
           type_name=p + "FileDescriptorResponse", oneof_index=0)
    _field(response, "all_extension_numbers_response", 5, _F.TYPE_MESSAGE,
           type_name=p + "ExtensionNumberResponse", oneof_index=0)
    _field(response, "list_services_response", 6, _F.TYPE_MESSAGE,
           type_name=p + "ListServiceResponse", oneof_index=0)
    _field(response, "error_response", 7, _F.TYPE_MESSAGE,
           type_name=p + "ErrorResponse", oneof_index=0)
    files = f.message_type.add(name="FileDescriptorResponse")
    _field(files, "file_descriptor_proto", 1, _F.TYPE_BYTES,
           label=_F.LABEL_REPEATED)
    numbers = f.message_type.add(name="ExtensionNumberResponse")
    _field(numbers, "base_type_name", 1, _F.TYPE_STRING)
    _field(numbers, "extension_number", 2, _F.TYPE_INT32,
           label=_F.LABEL_REPEATED)
    services = f.message_type.add(name="ListServiceResponse")
    _field(services, "service", 1, _F.TYPE_MESSAGE, label=_F.LABEL_REPEATED,
           type_name=p + "ServiceResponse")
    service = f.message_type.add(name="ServiceResponse")
    _field(service, "name", 1, _F.TYPE_STRING)
    error = f.message_type.add(name="ErrorResponse")
    _field(error, "error_code", 1, _F.TYPE_INT32)
    _field(error, "error_message", 2, _F.TYPE_STRING)
    method = f.service.add(name="ServerReflection").method.add(
        name="ServerReflectionInfo",
        input_type=p + "ServerReflectionRequest",
        output_type=p + "ServerReflectionResponse")
    method.client_streaming = True
    method.server_streaming = True
    return f


def _status_file():
    """google.rpc.Status (code, message, details), for the
    grpc-status-details-bin trailer when the server's reflection does not
    have it."""
    f = descriptor_pb2.FileDescriptorProto(
        name="dpq_reflect/google_rpc_status.proto", package="google.rpc",
        syntax="proto3", dependency=["google/protobuf/any.proto"])
    status = f.message_type.add(name="Status")
    _field(status, "code", 1, _F.TYPE_INT32)
    _field(status, "message", 2, _F.TYPE_STRING)
    _field(status, "details", 3, _F.TYPE_MESSAGE, label=_F.LABEL_REPEATED,
           type_name=".google.protobuf.Any")
    return f


class ReflectionClient:
    """Asks the server about its API and keeps what it learns in a private
    DescriptorPool (the server's .proto files, as the server compiled
    them)."""

    def __init__(self, channel, timeout, versions=_REFLECTION_VERSIONS):
        """versions: the reflection packages to try, in order; the next one
        is used when the server answers UNIMPLEMENTED."""
        self._channel = channel
        self._timeout = timeout
        self._versions = tuple(versions)
        self._own = descriptor_pool.DescriptorPool()
        for package in _REFLECTION_VERSIONS:
            self._own.AddSerializedFile(
                _reflection_file(package).SerializeToString())
        self._version = 0  # index into self._versions
        self.pool = descriptor_pool.DescriptorPool()
        self._files = {}  # name -> FileDescriptorProto, not yet in pool
        self._added = set()

    @property
    def version(self):
        return self._versions[self._version]

    def _ask(self, **request_fields):
        """One reflection request; its response. Falls back to v1alpha
        once if v1 is UNIMPLEMENTED."""
        while True:
            package = self.version
            request_class = _message_class(
                self._own, package + ".ServerReflectionRequest")
            response_class = _message_class(
                self._own, package + ".ServerReflectionResponse")
            call = self._channel.stream_stream(
                "/%s.ServerReflection/ServerReflectionInfo" % package,
                request_serializer=request_class.SerializeToString,
                response_deserializer=response_class.FromString)
            try:
                responses = call(iter([request_class(**request_fields)]),
                                 timeout=self._timeout)
                for response in responses:
                    return response
                raise grpc.RpcError("no reflection response")
            except grpc.RpcError as error:
                code = error.code() if hasattr(error, "code") else None
                if (code == grpc.StatusCode.UNIMPLEMENTED and
                        self._version + 1 < len(self._versions)):
                    self._version += 1
                    continue
                raise

    def list_services(self):
        response = self._ask(list_services="")
        _raise_on_error(response)
        return [s.name for s in response.list_services_response.service]

    def _learn(self, response):
        _raise_on_error(response)
        for data in response.file_descriptor_response.file_descriptor_proto:
            proto = descriptor_pb2.FileDescriptorProto.FromString(data)
            if proto.name not in self._added:
                self._files[proto.name] = proto
        self._build()

    def _build(self):
        """Adds the learnt files to the pool, dependencies first; asks for
        any dependency the server did not send (sent on another stream)."""
        progress = True
        while self._files and progress:
            progress = False
            for name, proto in list(self._files.items()):
                missing = [d for d in proto.dependency
                           if d not in self._added]
                for dependency in missing:
                    if dependency not in self._files:
                        self._learn(self._ask(file_by_filename=dependency))
                        return self._build()
                if missing:
                    continue
                self.pool.AddSerializedFile(proto.SerializeToString())
                self._added.add(name)
                del self._files[name]
                progress = True

    def file_containing_symbol(self, symbol):
        """Loads the file defining `symbol` (and its imports) into pool.
        ReflectionError NOT_FOUND if the server does not know it."""
        self._learn(self._ask(file_containing_symbol=symbol))

    def try_symbol(self, symbol):
        """Like file_containing_symbol for a message type; False instead of
        NOT_FOUND (or of an answer that does not define it)."""
        try:
            self.file_containing_symbol(symbol)
            self.pool.FindMessageTypeByName(symbol)
            return True
        except KeyError:
            return False
        except ReflectionError as error:
            if error.code == grpc.StatusCode.NOT_FOUND.value[0]:
                return False
            raise

    def file_proto(self, name):
        proto = descriptor_pb2.FileDescriptorProto()
        self.pool.FindFileByName(name).CopyToProto(proto)
        return proto


class ReflectionError(Exception):
    """An error_response of the reflection service."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def _raise_on_error(response):
    if response.WhichOneof("message_response") == "error_response":
        raise ReflectionError(response.error_response.error_code,
                              response.error_response.error_message)


def _code_name(number):
    for code in grpc.StatusCode:
        if code.value[0] == number:
            return code.name
    return str(number)


# --- .proto text ------------------------------------------------------

_SCALARS = {
    _F.TYPE_DOUBLE: "double", _F.TYPE_FLOAT: "float",
    _F.TYPE_INT64: "int64", _F.TYPE_UINT64: "uint64",
    _F.TYPE_INT32: "int32", _F.TYPE_FIXED64: "fixed64",
    _F.TYPE_FIXED32: "fixed32", _F.TYPE_BOOL: "bool",
    _F.TYPE_STRING: "string", _F.TYPE_BYTES: "bytes",
    _F.TYPE_UINT32: "uint32", _F.TYPE_SFIXED32: "sfixed32",
    _F.TYPE_SFIXED64: "sfixed64", _F.TYPE_SINT32: "sint32",
    _F.TYPE_SINT64: "sint64",
}


def _type_text(field):
    if field.type in _SCALARS:
        return _SCALARS[field.type]
    return field.type_name.lstrip(".")


def _field_text(field, maps, indent):
    if field.type_name in maps:
        key, value = maps[field.type_name]
        kind = "map<%s, %s>" % (_type_text(key), _type_text(value))
    else:
        kind = _type_text(field)
        if field.label == _F.LABEL_REPEATED:
            kind = "repeated " + kind
        elif field.proto3_optional:
            kind = "optional " + kind
    return "%s%s %s = %d;" % (indent, kind, field.name, field.number)


def _enum_text(enum, indent):
    lines = ["%senum %s {" % (indent, enum.name)]
    for value in enum.value:
        lines.append("%s  %s = %d;" % (indent, value.name, value.number))
    lines.append(indent + "}")
    return lines


def _message_text(message, full_name, indent=""):
    """`message` (a DescriptorProto named `full_name`) as .proto text."""
    lines = ["%smessage %s {" % (indent, message.name)]
    inner = indent + "  "
    maps = {}
    for nested in message.nested_type:
        if nested.options.map_entry:
            maps["." + full_name + "." + nested.name] = (nested.field[0],
                                                         nested.field[1])
    for nested in message.nested_type:
        if not nested.options.map_entry:
            lines += _message_text(nested, full_name + "." + nested.name,
                                   inner)
    for enum in message.enum_type:
        lines += _enum_text(enum, inner)
    real_oneofs = {}
    for field in message.field:
        if field.HasField("oneof_index") and not field.proto3_optional:
            real_oneofs.setdefault(field.oneof_index, []).append(field)
    printed = set()
    for field in message.field:
        if field.HasField("oneof_index") and not field.proto3_optional:
            if field.oneof_index in printed:
                continue
            printed.add(field.oneof_index)
            lines.append("%soneof %s {" % (
                inner, message.oneof_decl[field.oneof_index].name))
            for member in real_oneofs[field.oneof_index]:
                lines.append(_field_text(member, maps, inner + "  "))
            lines.append(inner + "}")
        else:
            lines.append(_field_text(field, maps, inner))
    lines.append(indent + "}")
    return lines


def _method_text(method, indent=""):
    def stream(flag):
        return "stream " if flag else ""
    return "%srpc %s(%s%s) returns (%s%s);" % (
        indent, method.name, stream(method.client_streaming),
        method.input_type.lstrip("."), stream(method.server_streaming),
        method.output_type.lstrip("."))


def describe(client, symbol):
    """.proto text of a service, method, message or enum."""
    symbol = symbol.lstrip(".")
    client.file_containing_symbol(symbol)
    pool = client.pool
    finders = (
        ("service", pool.FindServiceByName),
        ("method", pool.FindMethodByName),
        ("message", pool.FindMessageTypeByName),
        ("enum", pool.FindEnumTypeByName),
    )
    for kind, find in finders:
        try:
            found = find(symbol)
        except KeyError:
            continue
        owner = found.containing_service if kind == "method" else found
        header = "// %s %s, in %s" % (kind, symbol, owner.file.name)
        if kind == "service":
            proto = descriptor_pb2.ServiceDescriptorProto()
            found.CopyToProto(proto)
            lines = ["service %s {" % proto.name]
            lines += [_method_text(m, "  ") for m in proto.method]
            lines.append("}")
        elif kind == "method":
            service = descriptor_pb2.ServiceDescriptorProto()
            found.containing_service.CopyToProto(service)
            lines = [_method_text(m) for m in service.method
                     if m.name == found.name]
        elif kind == "message":
            proto = descriptor_pb2.DescriptorProto()
            found.CopyToProto(proto)
            lines = _message_text(proto, found.full_name)
        else:
            proto = descriptor_pb2.EnumDescriptorProto()
            found.CopyToProto(proto)
            lines = _enum_text(proto, "")
        return "\n".join([header] + lines)
    raise ReflectionError(grpc.StatusCode.NOT_FOUND.value[0],
                          "'%s' is a field or extension; describe its "
                          "message instead." % symbol)


# --- calls ----------------------------------------------------------------

def _resolve_service(client, name):
    """The full name of service `name` (full, or unique short name)."""
    services = client.list_services()
    if name in services:
        return name
    matches = [s for s in services if s.rsplit(".", 1)[-1] == name]
    if len(matches) == 1:
        return matches[0]
    raise UsageError("unknown service '%s'; the server has: %s" %
                     (name, ", ".join(services)))


def _resolve_method(client, target):
    """SERVICE/METHOD or SERVICE.METHOD -> the MethodDescriptor."""
    if "/" in target:
        service_name, method_name = target.rsplit("/", 1)
    elif "." in target:
        service_name, method_name = target.rsplit(".", 1)
    else:
        raise UsageError("expected SERVICE/METHOD, e.g. "
                         "dpq.v1.BuyerService/ListDatasets, not '%s'" % target)
    service_name = _resolve_service(client, service_name.lstrip("."))
    client.file_containing_symbol(service_name)
    service = client.pool.FindServiceByName(service_name)
    method = service.methods_by_name.get(method_name)
    if method is None:
        raise UsageError("%s has no method '%s'; it has: %s" % (
            service_name, method_name,
            ", ".join(m.name for m in service.methods)))
    return method


def _parse_request(request_class, text):
    """The request message from JSON text (UsageError naming the type and
    the bad field)."""
    try:
        return json_format.Parse(text, request_class())
    except json_format.ParseError as error:
        raise UsageError("request JSON does not fit %s: %s" % (
            request_class.DESCRIPTOR.full_name, error))


def _add_request_id(request):
    """Fills an empty request_id field with a fresh id, so a call whose
    answer is lost (a timeout) can be retried without a second charge;
    returns the id ("" if the message has no such field or it is set)."""
    field = request.DESCRIPTOR.fields_by_name.get("request_id")
    if field is None or field.type != field.TYPE_STRING:
        return ""
    if getattr(request, "request_id"):
        return ""
    request.request_id = "rfl-" + uuid.uuid4().hex
    return request.request_id


def _to_json(message, pool, emit_defaults):
    return json_format.MessageToJson(
        message, including_default_value_fields=emit_defaults,
        preserving_proto_field_name=True, descriptor_pool=pool, indent=2)


def _status_details(client, error):
    """The rich details (google.rpc.Status) of a failed call, as a JSON
    text, or "" if there are none."""
    trailers = error.trailing_metadata() or ()
    raw = [v for k, v in trailers if k == _STATUS_DETAILS_KEY]
    if not raw:
        return ""
    pool = client.pool
    if not client.try_symbol("google.rpc.Status"):
        pool = descriptor_pool.DescriptorPool()
        pool.AddSerializedFile(any_pb2.DESCRIPTOR.serialized_pb)
        pool.AddSerializedFile(_status_file().SerializeToString())
    status = _message_class(pool, "google.rpc.Status").FromString(raw[0])
    for detail in status.details:
        type_name = detail.type_url.rsplit("/", 1)[-1]
        if pool is client.pool:
            client.try_symbol(type_name)
    try:
        return _to_json(status, pool, False)
    except (json_format.Error, TypeError, KeyError):
        # A detail type the server does not describe: show the raw Any.
        return str(status)


def call(client, channel, target, text, token, timeout, emit_defaults):
    method = _resolve_method(client, target)
    request_class = _message_class(client.pool, method.input_type.full_name)
    response_class = _message_class(client.pool,
                                    method.output_type.full_name)
    path = "/%s/%s" % (method.containing_service.full_name, method.name)
    if method.client_streaming:
        try:
            items = json.loads(text)
        except ValueError as error:
            raise UsageError("request JSON is not valid JSON: %s" % error)
        if not isinstance(items, list):
            items = [items]
        requests = [_parse_request(request_class, json.dumps(i))
                    for i in items]
    else:
        requests = [_parse_request(request_class, text)]
    for request in requests:
        request_id = _add_request_id(request)
        if request_id:
            print("request_id: %s (retry with it: the answer is recorded, "
                  "never charged twice)" % request_id, file=sys.stderr)
    metadata = (("authorization", "Bearer " + token),) if token else None
    kind = ("stream_" if method.client_streaming else "unary_") + (
        "stream" if method.server_streaming else "unary")
    stub = getattr(channel, kind)(
        path, request_serializer=request_class.SerializeToString,
        response_deserializer=response_class.FromString)
    argument = iter(requests) if method.client_streaming else requests[0]
    try:
        answer = stub(argument, timeout=timeout, metadata=metadata)
        responses = answer if method.server_streaming else [answer]
        for response in responses:
            print(_to_json(response, client.pool, emit_defaults))
    except grpc.RpcError as error:
        print("ERROR: %s: %s" % (error.code().name, error.details()),
              file=sys.stderr)
        details = _status_details(client, error)
        if details:
            print("details: " + details, file=sys.stderr)
        return 1
    return 0


# --- command line ----------------------------------------------------------

def _read_file(path, what):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as error:
        raise UsageError("%s '%s' cannot be read: %s" % (
            what, path, error.strerror))


def _channel(args):
    options = [("grpc.max_receive_message_length", 64 << 20)]
    if args.insecure:
        if args.ca_file or args.server_name:
            raise UsageError("--insecure excludes --ca-file and "
                             "--server-name")
        return grpc.insecure_channel(args.address, options=options)
    root = _read_file(args.ca_file, "--ca-file") if args.ca_file else None
    if args.server_name:
        options.append(("grpc.ssl_target_name_override", args.server_name))
    return grpc.secure_channel(
        args.address, grpc.ssl_channel_credentials(root_certificates=root),
        options=options)


def _token(args):
    if args.token_file:
        return _read_file(args.token_file, "--token-file").decode().strip()
    return os.environ.get("DPQ_TOKEN", "").strip()


def _parser():
    parser = argparse.ArgumentParser(
        prog="dpq_reflect.py",
        description="A gRPC client driven by server reflection (v1, or "
                    "v1alpha when v1 is not served).")
    parser.add_argument("--address",
                        default=os.environ.get("DPQ_SERVER",
                                               "localhost:50051"),
                        help="HOST:PORT (default $DPQ_SERVER, else "
                             "localhost:50051)")
    parser.add_argument("--ca-file", help="PEM CA certificate(s) to trust "
                        "(default: the system roots)")
    parser.add_argument("--token-file", help="file holding the bearer "
                        "token (default: $DPQ_TOKEN); reflection needs none")
    parser.add_argument("--insecure", action="store_true",
                        help="plaintext gRPC (a server run with --insecure)")
    parser.add_argument("--server-name", help="the name the server's "
                        "certificate must carry, if not HOST")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds per call (default 30)")
    parser.add_argument("--reflection", choices=("auto", "v1", "v1alpha"),
                        default="auto",
                        help="the reflection version to speak (default "
                             "auto: v1, then v1alpha if v1 is not served)")
    parser.add_argument("--emit-defaults", action="store_true",
                        help="call: print fields that hold their default "
                             "value too")
    sub = parser.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("ls", help="services, or one service's methods")
    ls.add_argument("service", nargs="?")
    d = sub.add_parser("describe", help=".proto text of a service, method, "
                       "message or enum")
    d.add_argument("symbol")
    c = sub.add_parser("call", help="call SERVICE/METHOD with a JSON "
                       "request; prints the response as JSON")
    c.add_argument("method", help="e.g. dpq.v1.BuyerService/ListDatasets "
                   "(the package may be left out)")
    c.add_argument("json", nargs="?", default="{}",
                   help="the request (default {}); - reads stdin")
    return parser


def _run(args):
    channel = _channel(args)
    versions = _REFLECTION_VERSIONS
    if args.reflection != "auto":
        versions = ("grpc.reflection." + args.reflection,)
    client = ReflectionClient(channel, args.timeout, versions)
    if args.command == "ls" and not args.service:
        for name in client.list_services():
            print(name)
        return 0
    if args.command == "ls":
        name = _resolve_service(client, args.service.lstrip("."))
        client.file_containing_symbol(name)
        for method in client.pool.FindServiceByName(name).methods:
            print(method.name)
        return 0
    if args.command == "describe":
        print(describe(client, args.symbol))
        return 0
    text = sys.stdin.read() if args.json == "-" else args.json
    return call(client, channel, args.method, text, _token(args),
                args.timeout, args.emit_defaults)


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except UsageError as error:
        print("dpq_reflect: %s" % error, file=sys.stderr)
        return 2
    except ReflectionError as error:
        print("dpq_reflect: %s: %s" % (_code_name(error.code),
                                       error.message), file=sys.stderr)
        return 1
    except grpc.RpcError as error:
        code = error.code().name if hasattr(error, "code") else "UNKNOWN"
        details = error.details() if hasattr(error, "details") else error
        print("dpq_reflect: reflection failed: %s: %s" % (code, details),
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

#include "client/cli.h"

#include <cstdlib>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "client/command.h"
#include "client/command_line.h"
#include "client/commands/registry.h"
#include "client/error_output.h"
#include "client/grpc_status.h"
#include "client/request_id.h"

namespace dpq::client {
namespace {

// The stub of the service a command calls is there (a test's connection
// may leave some out).
absl::Status CheckStub(const Connection& connection, Service service) {
  switch (service) {
    case Service::kHealth:
      if (connection.health != nullptr) return absl::OkStatus();
      return absl::InternalError(
          "No Health stub: the connection is incomplete.");
    case Service::kBuyer:
      if (connection.buyer != nullptr) return absl::OkStatus();
      return absl::InternalError(
          "No BuyerService stub: the connection is incomplete.");
    case Service::kAdmin:
      if (connection.admin != nullptr) return absl::OkStatus();
      return absl::InternalError(
          "No AdminService stub: the connection is incomplete.");
  }
  return absl::InternalError("Unknown service.");
}

// Whether a failed release may or may not have happened on the server, so
// that the user should retry with the same request id.
bool OutcomeUncertain(absl::StatusCode code) {
  return code == absl::StatusCode::kDeadlineExceeded ||
         code == absl::StatusCode::kUnavailable ||
         code == absl::StatusCode::kCancelled ||
         code == absl::StatusCode::kUnknown ||
         code == absl::StatusCode::kInternal ||
         code == absl::StatusCode::kAborted;
}

int Fail(const absl::Status& status, std::ostream& err) {
  err << ErrorLine(status) << "\n";
  return kExitError;
}

// A failed call: the error line (with the retry hint `hint`, if any) and
// the details' line on stderr; with --json also the error as JSON on
// stdout, so that a script reads reason and amounts without parsing text
// (docs/errors.md).
int FailCall(const absl::Status& status, absl::string_view hint, bool json,
             absl::string_view request_id, std::ostream& out,
             std::ostream& err) {
  err << ErrorLine(status) << hint << "\n";
  if (const std::optional<std::string> details = ErrorDetailLine(status);
      details.has_value()) {
    err << *details << "\n";
  }
  if (json) out << ErrorJsonLine(status, request_id);
  return kExitError;
}

}  // namespace

CliEnv DefaultCliEnv() {
  CliEnv env;
  env.getenv = [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
  env.connect = ConnectGrpc;
  env.new_request_id = [] { return GenerateRequestId(); };
  return env;
}

int RunCli(const std::vector<std::string>& args, const CliEnv& env,
           std::ostream& out, std::ostream& err) {
  CommandLine command_line(AllCommands());
  if (absl::Status parsed = command_line.Parse(args, env.getenv);
      !parsed.ok()) {
    err << "dpq: " << parsed.message() << "\n" << command_line.usage_hint();
    return kExitUsage;
  }
  if (command_line.help()) {
    out << command_line.HelpText();
    return kExitOk;
  }
  Command& command = *command_line.command();
  // Every local file first: a missing file fails before any call.
  absl::StatusOr<ConnectionSetup> setup =
      PrepareConnection(command_line.global(), command.info(), err);
  if (!setup.ok()) return Fail(setup.status(), err);
  if (absl::Status read = command.ReadFiles(env.upload_chunk_bytes);
      !read.ok()) {
    return Fail(read, err);
  }
  // A release without --request-id gets one here, so that an uncertain
  // failure can name it for the retry.
  std::string request_id = command.GivenRequestId();
  const bool generated_request_id =
      command.info().release && request_id.empty();
  if (generated_request_id) {
    request_id =
        env.new_request_id ? env.new_request_id() : GenerateRequestId();
  }
  if (!env.connect) return Fail(absl::InternalError("No way to connect."), err);
  absl::StatusOr<Connection> connection = env.connect(setup->connection);
  if (!connection.ok()) return Fail(connection.status(), err);
  if (absl::Status stub = CheckStub(*connection, command.info().service);
      !stub.ok()) {
    return Fail(stub, err);
  }
  const RunContext context{.connection = *connection,
                           .call = setup->call,
                           .json = command_line.global().json,
                           .request_id = request_id};
  absl::StatusOr<CommandOutput> output = command.Run(context);
  const bool json = command_line.global().json;
  if (!output.ok()) {
    std::string hint;
    if (generated_request_id && OutcomeUncertain(output.status().code())) {
      hint = absl::StrCat(" (request id ", request_id,
                          ": retry with --request-id ", request_id,
                          " to get its answer without a second charge)");
    }
    return FailCall(output.status(), hint, json, request_id, out, err);
  }
  out << output->text;
  // The output already holds the one JSON object (e.g. a health check's
  // answer): the failure goes to stderr only.
  if (!output->failure.ok()) {
    return FailCall(output->failure, "", false, request_id, out, err);
  }
  return kExitOk;
}

}  // namespace dpq::client

// The one skeleton of every RPC handler of dpq's services (BuyerService,
// AdminService): authenticate the caller by the call's own bearer token,
// check the RPC's role (the one place it is checked), run the RPC's
// function with the call's deadline and cancellation, convert its status
// once and write the request's one log line. Each gRPC method only names
// its log fields and its function (`<Rpc>Impl` in `<rpc>_impl.h`):
//
//   grpc::Status BuyerServiceImpl::GetBudget(grpc::ServerContext* context,
//       const v1::GetBudgetRequest* request, v1::GetBudgetResponse* response) {
//     RequestLog log("BuyerService.GetBudget", response);
//     return HandleCall(log, *context, *accounts_, Access::kAnyPrincipal,
//                       [&](const auth::Principal& caller, const CallContext&)
//                       {
//                         return GetBudgetImpl(core_, caller, *request,
//                                              response);
//                       });
//   }
#ifndef DPQ_SERVER_CALL_HANDLER_H_
#define DPQ_SERVER_CALL_HANDLER_H_

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/status.h"
#include "server/auth/accounts_store.h"
#include "server/auth/principal.h"
#include "server/call_context.h"
#include "server/request_log.h"

namespace dpq::server {

// Who may call an RPC, once the call's token has authenticated its caller.
enum class Access {
  // Buyers and the admin (who acts as the principal "admin", with its own
  // ledger).
  kAnyPrincipal,
  // The admin role only.
  kAdmin,
};

// The signature of the work of one RPC: its XImpl with the caller and the
// call.
using CallImpl =
    absl::FunctionRef<absl::Status(const auth::Principal&, const CallContext&)>;

// Runs one RPC: the caller, authenticated by the call's own bearer token
// against `accounts` (auth::CallerOf, server/auth/bearer_auth.h:
// UNAUTHENTICATED for a missing, malformed, unknown or revoked token, the
// store's UNAVAILABLE if its database is unreachable), whose id goes into
// `log` whatever the outcome (a rejected call is logged as principal "-");
// the role (`access`;
// PERMISSION_DENIED for a buyer calling an admin RPC); then `impl` with the
// call's deadline and cancellation. Its status is converted once
// (RequestLog::Finish: ToGrpcStatus) and written, with the fields the handler
// set on `log` (dataset, epsilon), as the request's one log line
// (RequestLog::Finish, which records the message of INTERNAL, UNKNOWN and
// DATA_LOSS errors under the incident id their caller reads instead).
grpc::Status HandleCall(RequestLog& log, const grpc::ServerContext& context,
                        const auth::AccountsStore& accounts, Access access,
                        CallImpl impl);

}  // namespace dpq::server

#endif  // DPQ_SERVER_CALL_HANDLER_H_

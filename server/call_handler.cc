#include "server/call_handler.h"

#include "absl/status/statusor.h"
#include "server/auth/bearer_auth.h"

namespace dpq::server {
namespace {

// The caller, with its role checked; its id is logged even when the role
// is wrong (who tried matters most then).
absl::StatusOr<auth::Principal> Authorize(const grpc::ServerContext& context,
                                          const auth::AccountsStore& accounts,
                                          Access access, RequestLog& log) {
  absl::StatusOr<auth::Principal> caller = auth::CallerOf(accounts, context);
  if (!caller.ok()) return caller.status();
  log.set_principal(caller->id);
  if (access == Access::kAdmin) {
    if (absl::Status s = auth::CheckAdmin(*caller); !s.ok()) return s;
  }
  return caller;
}

}  // namespace

grpc::Status HandleCall(RequestLog& log, const grpc::ServerContext& context,
                        const auth::AccountsStore& accounts, Access access,
                        CallImpl impl) {
  absl::StatusOr<auth::Principal> caller =
      Authorize(context, accounts, access, log);
  if (!caller.ok()) return log.Finish(caller.status());
  return log.Finish(impl(*caller, CallContext::FromServerContext(context)));
}

}  // namespace dpq::server

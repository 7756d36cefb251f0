#include "server/admin/buyer_accounts_impl.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/util/error_details.h"
#include "core/util/sha256_hex.h"
#include "core/util/status_macros.h"
#include "server/auth/token.h"
#include "server/ledger_convert.h"
#include "server/registry/dataset_id.h"
#include "server/timestamp.h"

namespace dpq::server::admin {
namespace {

using auth::Role;

void WriteBuyer(const auth::Account& account, v1::Buyer* out) {
  out->set_buyer_id(account.id);
  *out->mutable_created_at() = ToTimestamp(account.created_at);
  out->set_revoked(account.revoked);
}

}  // namespace

absl::Status CreateBuyerImpl(const AdminCore& service,
                             const auth::Principal& caller,
                             const v1::CreateBuyerRequest& request,
                             v1::CreateBuyerResponse* response) {
  RETURN_IF_ERROR(registry::ValidateId(request.name(), "name"));
  if (request.name() == auth::kAdminId) {
    return core::util::InvalidFieldError(
        "name",
        "name 'admin' is reserved for the admin principal: choose another "
        "buyer name.");
  }
  ASSIGN_OR_RETURN(std::string token, auth::GenerateToken());
  absl::StatusOr<auth::Account> account = service.accounts->Create(
      request.name(), Role::kBuyer, core::util::Sha256Hex(token));
  if (absl::IsAlreadyExists(account.status())) {
    return absl::AlreadyExistsError(absl::StrCat(
        "A buyer named '", request.name(), "' already exists (name)."));
  }
  RETURN_IF_ERROR(account.status());
  WriteBuyer(*account, response->mutable_buyer());
  response->set_token(std::move(token));
  service.Audit(caller, "CreateBuyer", absl::StrCat("buyer=", request.name()));
  return absl::OkStatus();
}

absl::Status CheckBuyerExists(const AdminCore& service,
                              const std::string& buyer_id) {
  RETURN_IF_ERROR(registry::ValidateId(buyer_id, "buyer_id"));
  absl::StatusOr<auth::Account> account = service.accounts->Get(buyer_id);
  if ((account.ok() && account->role != Role::kBuyer) ||
      absl::IsNotFound(account.status())) {
    return absl::NotFoundError(
        absl::StrCat("No buyer named '", buyer_id, "' (buyer_id)."));
  }
  return account.status();
}

absl::Status RevokeBuyerImpl(const AdminCore& service,
                             const auth::Principal& caller,
                             const v1::RevokeBuyerRequest& request,
                             v1::RevokeBuyerResponse* /*response*/) {
  RETURN_IF_ERROR(CheckBuyerExists(service, request.buyer_id()));
  RETURN_IF_ERROR(service.accounts->Revoke(request.buyer_id()));
  service.Audit(caller, "RevokeBuyer",
                absl::StrCat("buyer=", request.buyer_id()));
  return absl::OkStatus();
}

absl::Status ListBuyersImpl(const AdminCore& service,
                            const v1::ListBuyersRequest& /*request*/,
                            v1::ListBuyersResponse* response) {
  ASSIGN_OR_RETURN(const std::vector<auth::Account> buyers,
                   service.accounts->List(Role::kBuyer));
  for (const auth::Account& buyer : buyers) {
    WriteBuyer(buyer, response->add_buyers());
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::admin

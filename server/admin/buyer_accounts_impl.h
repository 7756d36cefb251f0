// AdminService.CreateBuyer, RevokeBuyer and ListBuyers: the buyer accounts
// (server/auth/accounts_store.h).
#ifndef DPQ_SERVER_ADMIN_BUYER_ACCOUNTS_IMPL_H_
#define DPQ_SERVER_ADMIN_BUYER_ACCOUNTS_IMPL_H_

#include <string>

#include "absl/status/status.h"
#include "dpq/v1/admin_service.pb.h"
#include "server/admin/admin_core.h"
#include "server/auth/principal.h"

namespace dpq::server::admin {

// A new buyer and its token (shown once). kInvalidArgument for a bad name
// or "admin"; kAlreadyExists if taken.
absl::Status CreateBuyerImpl(const AdminCore& service,
                             const auth::Principal& caller,
                             const v1::CreateBuyerRequest& request,
                             v1::CreateBuyerResponse* response);

// Revokes the buyer's token; kNotFound for an unknown buyer.
absl::Status RevokeBuyerImpl(const AdminCore& service,
                             const auth::Principal& caller,
                             const v1::RevokeBuyerRequest& request,
                             v1::RevokeBuyerResponse* response);

absl::Status ListBuyersImpl(const AdminCore& service,
                            const v1::ListBuyersRequest& request,
                            v1::ListBuyersResponse* response);

// kInvalidArgument naming buyer_id for a malformed id, kNotFound unless the
// buyer exists (the admin principal is not a buyer).
absl::Status CheckBuyerExists(const AdminCore& service,
                              const std::string& buyer_id);

}  // namespace dpq::server::admin

#endif  // DPQ_SERVER_ADMIN_BUYER_ACCOUNTS_IMPL_H_

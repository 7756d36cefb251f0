// BuyerService.ListReceipts: the caller's own releases on one dataset, with
// the answers as they were returned, newest first, paged.
#ifndef DPQ_SERVER_BUYER_LIST_RECEIPTS_IMPL_H_
#define DPQ_SERVER_BUYER_LIST_RECEIPTS_IMPL_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "core/ledger/ledger.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"

namespace dpq::server::buyer {

// Page sizes (proto): the default, the largest, and the bytes of answers
// after which a page ends early (below gRPC's 4 MiB default message limit;
// a page holds at least one receipt).
inline constexpr uint32_t kDefaultReceiptsPageSize = 50;
inline constexpr uint32_t kMaxReceiptsPageSize = 500;
inline constexpr size_t kReceiptsPageBytes = size_t{3} << 20;
// Entries read from the ledger at a time (with their answers).
inline constexpr size_t kReceiptsBatch = 16;

// The caller's entries on request.dataset_id, newest first, each with its
// recorded answer parsed into the response type of the RPC that released
// it. Never another principal's entries: the ledger filter always names the
// caller. Costs nothing: every answer was charged and returned to this
// caller already. kInvalidArgument naming dataset_id, page_size or
// page_token; kNotFound for a dataset that neither exists nor holds an
// entry of the caller.
absl::Status ListReceiptsImpl(const BuyerCore& service,
                              const auth::Principal& caller,
                              const v1::ListReceiptsRequest& request,
                              v1::ListReceiptsResponse* response);

// `entry` as a receipt: the entry, and its answer if it is committed and
// its recorded bytes parse as the response of the RPC its operation names
// (the operation's first word). An answer that does not parse is left out
// (its entry still says what was charged).
v1::Receipt ToReceipt(const core::ledger::LedgerEntry& entry);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_LIST_RECEIPTS_IMPL_H_

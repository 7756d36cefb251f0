#include "server/buyer/list_receipts_impl.h"

#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"
#include "server/buyer/release_pipeline.h"
#include "server/ledger_convert.h"
#include "server/registry/dataset_id.h"

namespace dpq::server::buyer {
namespace {

// The recorded answer as `Response`, with the entry's charge; false (and
// `out` untouched) if the bytes are not a `Response`.
template <typename Response>
bool ParseAnswer(const core::ledger::LedgerEntry& entry, Response* out) {
  Response answer;
  if (!ParseRecorded(entry.answer, &answer).ok()) return false;
  FillMeasureUnits(&answer);
  answer.set_epsilon_charged(entry.epsilon);
  answer.set_epsilon_charged_units(entry.epsilon_units);
  answer.clear_remaining_budget();
  answer.clear_remaining_budget_units();
  answer.set_replayed(false);
  *out = std::move(answer);
  return true;
}

// The answer of `entry` into `receipt`, by the RPC its operation names.
void AddAnswer(const core::ledger::LedgerEntry& entry, v1::Receipt* receipt) {
  const absl::string_view rpc =
      absl::string_view(entry.operation).substr(0, entry.operation.find(' '));
  v1::Receipt parsed;
  bool ok = false;
  if (rpc == "MeasureInconsistency") {
    ok = ParseAnswer(entry, parsed.mutable_measure_inconsistency());
  } else if (rpc == "QualityReport") {
    ok = ParseAnswer(entry, parsed.mutable_quality_report());
  } else if (rpc == "ReleaseCuboids") {
    ok = ParseAnswer(entry, parsed.mutable_release_cuboids());
  } else if (rpc == "TrainDecisionTree") {
    ok = ParseAnswer(entry, parsed.mutable_train_decision_tree());
  } else if (rpc == "SelectInfluentialNodes") {
    ok = ParseAnswer(entry, parsed.mutable_select_influential_nodes());
  }
  if (ok) receipt->MergeFrom(parsed);
}

// The page token: the caller's entry number below which the page starts
// ("" for the newest). Only the caller's own entries are ever listed, so a
// crafted token shows nothing more.
absl::StatusOr<int64_t> ParsePageToken(const std::string& token) {
  if (token.empty()) return 0;
  int64_t before = 0;
  if (!absl::SimpleAtoi(token, &before) || before <= 0) {
    return core::util::InvalidFieldError(
        "page_token",
        "page_token is not a next_page_token of ListReceipts; pass \"\" for "
        "the first page.");
  }
  return before;
}

}  // namespace

v1::Receipt ToReceipt(const core::ledger::LedgerEntry& entry) {
  v1::Receipt receipt;
  *receipt.mutable_entry() = ToProto(entry);
  if (entry.state == core::ledger::EntryState::kCommitted &&
      !entry.answer.empty()) {
    AddAnswer(entry, &receipt);
  }
  return receipt;
}

absl::Status ListReceiptsImpl(const BuyerCore& service,
                              const auth::Principal& caller,
                              const v1::ListReceiptsRequest& request,
                              v1::ListReceiptsResponse* response) {
  RETURN_IF_ERROR(auth::RequirePrincipal(caller));
  const std::string& dataset_id = request.dataset_id();
  RETURN_IF_ERROR(registry::ValidateId(dataset_id, "dataset_id"));
  if (request.page_size() > kMaxReceiptsPageSize) {
    return core::util::InvalidFieldError(
        "page_size",
        absl::StrCat("page_size must be at most ", kMaxReceiptsPageSize,
                     " (0 means ", kDefaultReceiptsPageSize, "), but is ",
                     request.page_size(), "."));
  }
  ASSIGN_OR_RETURN(const int64_t before, ParsePageToken(request.page_token()));
  const uint32_t page_size =
      request.page_size() == 0 ? kDefaultReceiptsPageSize : request.page_size();
  // The filter always names the caller: an empty buyer_id would match
  // every buyer's entries. Entries come with their answers, so they are
  // read a few at a time: the server holds at most a batch of answers
  // besides the page, however large the caller's answers are.
  core::ledger::LedgerFilter filter;
  filter.buyer_id = caller.id;
  filter.dataset_id = dataset_id;
  filter.limit = kReceiptsBatch;
  filter.before_buyer_seq = before;
  response->Clear();
  size_t bytes = 0;
  for (bool first = true;; first = false) {
    ASSIGN_OR_RETURN(const std::vector<core::ledger::LedgerEntry> entries,
                     service.ledger->ListEntries(filter));
    if (first && entries.empty() && before == 0 &&
        !service.registry->Contains(dataset_id)) {
      return registry::DatasetNotFoundError(dataset_id);
    }
    for (const core::ledger::LedgerEntry& e : entries) {
      if (e.buyer_id != caller.id) continue;  // defence in depth
      const bool full =
          response->receipts_size() == static_cast<int>(page_size) ||
          (response->receipts_size() > 0 &&
           bytes + e.answer.size() > kReceiptsPageBytes);
      if (full) {  // e is the first receipt of the next page
        response->set_next_page_token(
            absl::StrCat(response->receipts().rbegin()->entry().entry_id()));
        return absl::OkStatus();
      }
      bytes += e.answer.size();
      *response->add_receipts() = ToReceipt(e);
    }
    if (entries.size() < kReceiptsBatch) break;  // no older entries
    filter.before_buyer_seq = entries.back().buyer_seq;
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::buyer

#include "server/buyer/quality_report_impl.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/dp/secure_urbg.h"
#include "core/measures/measure.h"
#include "core/private/row_count_release.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/measure_release_steps.h"
#include "server/buyer/release_fingerprint.h"

namespace dpq::server::buyer {
namespace {

namespace pm = core::private_measures;
using core::measures::Measure;

// The report's row count (ReleaseRowCount with the release's epsilon
// share, or the owner's public count).
absl::StatusOr<v1::RowCount> ReleaseRows(
    const BuyerCore& service,
    const PreparedRelease<pm::MeasureRelease>& prepared) {
  const registry::LoadedDataset& d = *prepared.dataset;
  const std::unique_ptr<core::dp::SecureUrbg> urbg = service.NewUrbg();
  ASSIGN_OR_RETURN(const pm::RowCountRelease rows,
                   pm::ReleaseRowCount(*urbg, d.table.num_rows(),
                                       prepared.spec.row_count_public,
                                       prepared.spec.epsilon_row_count,
                                       d.manifest.public_max_rows()));
  return ToRowCount(rows);
}

}  // namespace

absl::StatusOr<PreparedRelease<pm::MeasureRelease>> PrepareQualityReport(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const v1::QualityReportRequest& request) {
  const ReleaseBasics basics = BasicsOf(registry::kQualityReport, request);
  ASSIGN_OR_RETURN(ReleaseStart start, StartRelease(registry, caller, basics));
  // Three parts that sum to at most epsilon exactly; each is at least a
  // third of the public floor 1e-6.
  ASSIGN_OR_RETURN(
      pm::MeasureRelease release,
      CheckMeasureRelease(request.method(), request.repair_method(),
                          {Measure::kMinimalInconsistency,
                           Measure::kProblematic, Measure::kRepair},
                          *start.dataset, start.budget,
                          request.include_row_count()));
  ReleaseIdentity identity = QualityReportIdentity(release, request.epsilon());
  return Prepared(caller, basics, std::move(start), std::move(release),
                  std::move(identity));
}

ReleaseIdentity QualityReportIdentity(const pm::MeasureRelease& release,
                                      double epsilon) {
  const std::string methods =
      absl::StrCat(release.MethodName(Measure::kMinimalInconsistency), ",",
                   release.MethodName(Measure::kRepair));
  ReleaseIdentity identity{{{"measure", "MI,P,R"},
                            {"epsilon", DoubleBits(epsilon)},
                            {"method", methods}},
                           absl::StrCat("QualityReport MI,P,R ", methods)};
  // A retry must ask for the same parts: the row count is one of them.
  if (release.row_count) {
    identity.parameters.emplace_back("row_count", "1");
    absl::StrAppend(&identity.operation, " +rows");
  }
  return identity;
}

absl::Status QualityReportImpl(const BuyerCore& service,
                               const auth::Principal& caller,
                               const v1::QualityReportRequest& request,
                               v1::QualityReportResponse* response,
                               const CallContext& call) {
  ASSIGN_OR_RETURN(const PreparedRelease<pm::MeasureRelease> prepared,
                   PrepareQualityReport(*service.registry, caller, request));
  return RunRelease<v1::QualityReportResponse>(
      *service.ledger, prepared.reserve, call,
      [&](v1::QualityReportResponse* answer) -> absl::Status {
        ASSIGN_OR_RETURN(std::vector<v1::MeasureResult> results,
                         ComputeMeasures(service, caller, prepared, call));
        for (v1::MeasureResult& result : results) {
          *answer->add_results() = std::move(result);
        }
        if (prepared.spec.row_count) {
          ASSIGN_OR_RETURN(*answer->mutable_row_count(),
                           ReleaseRows(service, prepared));
        }
        return absl::OkStatus();
      },
      response);
}

}  // namespace dpq::server::buyer

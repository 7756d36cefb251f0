#include "server/admin/admin_core.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/util/diagnostic_log.h"

namespace dpq::server::admin {

void AdminCore::Audit(const auth::Principal& caller, const char* action,
                      const std::string& details) const {
  const absl::Status status = accounts->AppendAudit(caller.id, action, details);
  if (!status.ok()) {
    core::util::LogError(absl::StrCat("audit entry for ", action, " (", details,
                                      ") lost: ", status.ToString()));
  }
}

}  // namespace dpq::server::admin

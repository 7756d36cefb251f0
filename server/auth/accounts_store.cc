#include "server/auth/accounts_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "core/util/sha256_hex.h"
#include "core/util/status_macros.h"
#include "server/auth/token.h"

namespace dpq::server::auth {

const char* RoleName(Role role) {
  return role == Role::kAdmin ? "admin" : "buyer";
}

Role RoleFromName(absl::string_view name) {
  return name == "admin" ? Role::kAdmin : Role::kBuyer;
}

absl::Status NoSuchPrincipalError(absl::string_view id) {
  return absl::NotFoundError(absl::StrCat("No buyer named '", id, "'."));
}

absl::Status PrincipalExistsError(absl::string_view id) {
  return absl::AlreadyExistsError(
      absl::StrCat("A principal named '", id, "' already exists."));
}

absl::StatusOr<bool> EnsureAdminToken(AccountsStore& accounts,
                                      const std::string& token_path) {
  absl::StatusOr<Account> admin = accounts.Get(kAdminId);
  if (admin.ok()) return false;
  if (!absl::IsNotFound(admin.status())) return admin.status();

  // A file left by a crash between writing it and storing its hash.
  std::ifstream existing(token_path);
  if (existing) {
    std::stringstream text;
    text << existing.rdbuf();
    const std::string token =
        std::string(absl::StripAsciiWhitespace(text.str()));
    if (!IsWellFormedToken(token)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", token_path,
          "' exists but holds no dpq token, and the "
          "accounts database has no admin: remove the file to create a new "
          "admin token."));
    }
    const absl::Status created =
        accounts.Create(kAdminId, Role::kAdmin, core::util::Sha256Hex(token))
            .status();
    // Replicas sharing the database and this file, started together: the
    // first one created the admin, from the same file.
    if (absl::IsAlreadyExists(created)) return false;
    RETURN_IF_ERROR(created);
    return false;
  }

  ASSIGN_OR_RETURN(const std::string token, GenerateToken());
  const int fd =
      ::open(token_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("Cannot create '", token_path,
                                            "': ", std::strerror(errno)));
  }
  const std::string line = token + "\n";
  const bool written = ::write(fd, line.data(), line.size()) ==
                           static_cast<ssize_t>(line.size()) &&
                       ::fsync(fd) == 0;
  const int saved_errno = errno;
  ::close(fd);
  if (!written) {
    ::unlink(token_path.c_str());
    return absl::InternalError(absl::StrCat("Cannot write '", token_path,
                                            "': ", std::strerror(saved_errno)));
  }
  // Make the new directory entry durable before the hash is stored.
  const std::string::size_type slash = token_path.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : token_path.substr(0, slash + 1);
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  const absl::Status created =
      accounts.Create(kAdminId, Role::kAdmin, core::util::Sha256Hex(token))
          .status();
  if (absl::IsAlreadyExists(created)) {
    // Another replica sharing the database created the admin first: its
    // token is the admin's, this file's would never work.
    ::unlink(token_path.c_str());
    return false;
  }
  RETURN_IF_ERROR(created);
  return true;
}

}  // namespace dpq::server::auth

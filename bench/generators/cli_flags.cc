#include "bench/generators/cli_flags.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace dpq::bench {

absl::StatusOr<CliFlags> CliFlags::Parse(int argc, char** argv,
                                         const std::set<std::string>& known) {
  CliFlags flags;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      // insert_or_assign with a std::string: assigning the literal trips
      // GCC 12's -Wrestrict false positive at -O3 (Release builds).
      flags.values_.insert_or_assign("help", std::string("1"));
      continue;
    }
    if (!absl::StartsWith(arg, "--")) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Unexpected argument '", arg, "'; flags are --name value."));
    }
    arg = arg.substr(2);
    std::string value;
    const size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("Flag --", arg, " needs a value."));
    }
    if (known.count(arg) == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Unknown flag --", arg, "."));
    }
    flags.values_[arg] = value;
  }
  return flags;
}

std::string CliFlags::GetString(const std::string& name,
                                const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

absl::StatusOr<double> CliFlags::GetDouble(const std::string& name,
                                           double fallback) const {
  if (!Has(name)) return fallback;
  double v = 0;
  if (!absl::SimpleAtod(values_.at(name), &v)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", name, " must be a number, but is '", values_.at(name), "'."));
  }
  return v;
}

absl::StatusOr<uint64_t> CliFlags::GetUint(const std::string& name,
                                           uint64_t fallback) const {
  if (!Has(name)) return fallback;
  uint64_t v = 0;
  if (!absl::SimpleAtoi(values_.at(name), &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, " must be a non-negative integer, but is '",
                     values_.at(name), "'."));
  }
  return v;
}

absl::StatusOr<std::string> CliFlags::Require(const std::string& name) const {
  if (!Has(name)) {
    return absl::InvalidArgumentError(absl::StrCat("Missing --", name, "."));
  }
  return values_.at(name);
}

}  // namespace dpq::bench

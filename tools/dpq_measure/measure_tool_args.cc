// Command-line parsing of dpq-measure.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/dpq_measure/measure_tool.h"

namespace dpq::server::tools {
namespace {

absl::Status Invalid(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

absl::Status ParseDoubleFlag(absl::string_view flag, const std::string& text,
                             double* out) {
  if (!absl::SimpleAtod(text, out)) {
    return Invalid(absl::StrCat(flag, " expects a number, got '", text, "'."));
  }
  return absl::OkStatus();
}

absl::Status ParseUintFlag(absl::string_view flag, const std::string& text,
                           uint64_t* out) {
  if (!absl::SimpleAtoi(text, out)) {
    return Invalid(absl::StrCat(flag, " expects a non-negative integer, got '",
                                text, "'."));
  }
  return absl::OkStatus();
}

// Applies one `--name value` pair.
absl::Status ApplyValueFlag(const std::string& name, const std::string& value,
                            MeasureToolOptions* o) {
  if (name == "--data") {
    o->data_path = value;
  } else if (name == "--constraints") {
    o->constraints_path = value;
  } else if (name == "--schema") {
    o->schema_path = value;
  } else if (name == "--measure") {
    o->measure = value;
  } else if (name == "--method") {
    o->method = value;
  } else if (name == "--epsilon") {
    double eps;
    if (absl::Status s = ParseDoubleFlag(name, value, &eps); !s.ok()) return s;
    o->epsilon = eps;
  } else if (name == "--public-max-rows") {
    uint64_t n;
    if (absl::Status s = ParseUintFlag(name, value, &n); !s.ok()) return s;
    o->public_max_rows = n;
  } else if (name == "--seed") {
    uint64_t seed;
    if (absl::Status s = ParseUintFlag(name, value, &seed); !s.ok()) return s;
    o->seed = seed;
  } else if (name == "--threads") {
    uint64_t threads;
    if (absl::Status s = ParseUintFlag(name, value, &threads); !s.ok()) {
      return s;
    }
    if (threads > 1024) return Invalid("--threads must be at most 1024.");
    o->threads = static_cast<int>(threads);
  } else {
    return Invalid(absl::StrCat("Unknown flag '", name, "'."));
  }
  return absl::OkStatus();
}

absl::Status CheckRequired(const MeasureToolOptions& o) {
  if (o.data_path.empty()) return Invalid("--data F.csv is required.");
  if (o.print_schema) {
    if (o.schema_path.has_value() || o.exact || o.epsilon.has_value()) {
      return Invalid(
          "--print-schema only needs --data (it prints the suggested "
          "schema and exits).");
    }
    return absl::OkStatus();
  }
  if (o.constraints_path.empty()) {
    return Invalid("--constraints F.dc is required.");
  }
  if (o.measure.empty()) return Invalid("--measure mi|p|r|d|mc is required.");
  if (o.exact == o.epsilon.has_value()) {
    return Invalid("Give exactly one of --exact and --epsilon E.");
  }
  if (o.exact && o.seed.has_value()) {
    return Invalid("--seed only applies to --epsilon runs.");
  }
  return absl::OkStatus();
}

}  // namespace

std::string MeasureToolUsage() {
  return "usage: dpq-measure --data F.csv --constraints F.dc [--schema F]\n"
         "         --measure mi|p|r|d|mc\n"
         "         (--exact | --epsilon E "
         "[--method M]\n"
         "                    [--public-max-rows N] [--seed S])\n"
         "         [--stats] [--threads T]\n"
         "       dpq-measure --print-schema --data F.csv\n"
         "  --schema F declares every column (`name: int64|double|string`); "
         "without it\n"
         "  every column is text. --print-schema prints inferred types to "
         "review.\n"
         "  --method: mi, p: group_bound (default) | gem | optimized | "
         "hierarchical | basic "
         "| baseline;\n"
         "            r: cover_bound (default) | exact | vertex_cover.\n";
}

absl::StatusOr<MeasureToolOptions> ParseMeasureToolArgs(
    const std::vector<std::string>& args) {
  MeasureToolOptions o;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string name = args[i];
    if (!absl::StartsWith(name, "--")) {
      return Invalid(absl::StrCat("Unexpected argument '", name, "'."));
    }
    if (name == "--exact") {
      o.exact = true;
      continue;
    }
    if (name == "--stats") {
      o.stats = true;
      continue;
    }
    if (name == "--print-schema") {
      o.print_schema = true;
      continue;
    }
    std::string value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return Invalid(absl::StrCat(name, " needs a value."));
    }
    if (absl::Status s = ApplyValueFlag(name, value, &o); !s.ok()) return s;
  }
  if (absl::Status s = CheckRequired(o); !s.ok()) return s;
  return o;
}

}  // namespace dpq::server::tools

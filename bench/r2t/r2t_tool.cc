#include "bench/r2t/r2t_tool.h"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "bench/r2t/r2t.h"
#include "bench/r2t/truncated_count.h"
#include "core/constraints/dc_parser.h"
#include "core/dp/hash_drbg.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/private/degree_bound.h"
#include "core/private/private_measures.h"
#include "core/table/csv_reader.h"
#include "core/util/status_macros.h"

namespace dpq::bench::r2t {
namespace {

namespace pm = core::private_measures;

// Odd constant separating dpq's noise stream from R2T's for one --seed;
// the k-th dpq method uses (k + 1) times it, so that the first method's
// draws do not depend on which others run.
constexpr uint64_t kDpqSeedOffset = 0x9E3779B97F4A7C15ull;

absl::Status Invalid(absl::string_view flag, absl::string_view what,
                     absl::string_view value) {
  return absl::InvalidArgumentError(
      absl::StrCat(flag, " expects ", what, ", got '", value, "'."));
}

absl::Status ApplyFlag(const std::string& name, const std::string& value,
                       R2tToolOptions* o) {
  uint64_t u = 0;
  double d = 0;
  if (name == "--data") {
    o->data_path = value;
  } else if (name == "--dcs") {
    o->dcs_path = value;
  } else if (name == "--csv") {
    o->csv_path = value;
  } else if (name == "--label") {
    o->label = value;
  } else if (name == "--solver") {
    o->solver = value;
  } else if (name == "--method") {
    o->methods = absl::StrSplit(value, ',', absl::SkipEmpty());
    if (o->methods.empty()) return Invalid(name, "a method list", value);
    for (const std::string& method : o->methods) {
      if (!pm::ParseSelectionMethod(method).ok()) {
        return Invalid(name,
                       "methods among gem, optimized, hierarchical, basic, "
                       "baseline",
                       value);
      }
    }
  } else if (name == "--thresholds") {
    if (value != "cover" && value != "authors") {
      return Invalid(name, "'cover' or 'authors'", value);
    }
    o->authors_thresholds = value == "authors";
  } else if (name == "--epsilon" || name == "--beta" || name == "--base") {
    if (!absl::SimpleAtod(value, &d)) return Invalid(name, "a number", value);
    (name == "--epsilon" ? o->epsilon
     : name == "--beta"  ? o->beta
                         : o->base) = d;
  } else if (name == "--runs" || name == "--threads") {
    if (!absl::SimpleAtoi(value, &u) || u > 1'000'000) {
      return Invalid(name, "an integer in [0, 1000000]", value);
    }
    (name == "--runs" ? o->runs : o->threads) = static_cast<int>(u);
  } else if (name == "--seed" || name == "--public-max-rows") {
    if (!absl::SimpleAtoi(value, &u)) {
      return Invalid(name, "a non-negative integer", value);
    }
    (name == "--seed" ? o->seed : o->public_max_rows) = u;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("Unknown flag ", name, "."));
  }
  return absl::OkStatus();
}

double RelativeError(double truth, double estimate) {
  if (truth == 0) return std::numeric_limits<double>::quiet_NaN();
  return std::abs(truth - estimate) / truth;
}

struct MeanStd {
  double mean = 0, std = 0;
};

// Population standard deviation, as numpy.std in the paper's artifact.
MeanStd Summarize(const std::vector<double>& xs) {
  MeanStd m;
  if (xs.empty()) return m;
  for (double x : xs) m.mean += x;
  m.mean /= static_cast<double>(xs.size());
  for (double x : xs) m.std += (x - m.mean) * (x - m.mean);
  m.std = std::sqrt(m.std / static_cast<double>(xs.size()));
  return m;
}

std::unique_ptr<core::dp::SecureUrbg> MakeUrbg(std::optional<uint64_t> seed,
                                               uint64_t offset) {
  if (seed.has_value()) {
    return std::make_unique<core::dp::HashDrbg>(*seed + offset);
  }
  return std::make_unique<core::dp::OpenSslUrbg>();
}

struct Loaded {
  core::table::Table table;
  std::vector<core::constraints::DenialConstraint> dcs;
  core::graph::ConflictGraph graph;
  double load_seconds = 0;
};

absl::StatusOr<Loaded> Load(const R2tToolOptions& o) {
  Loaded d;
  const absl::Time start = absl::Now();
  ASSIGN_OR_RETURN(d.table, core::table::ReadCsvFile(o.data_path));
  ASSIGN_OR_RETURN(d.dcs, core::constraints::ReadDenialConstraintsFile(
                              o.dcs_path, d.table.schema()));
  d.load_seconds = absl::ToDoubleSeconds(absl::Now() - start);
  core::graph::ConflictGraphOptions graph_options;
  graph_options.num_threads = o.threads;
  ASSIGN_OR_RETURN(
      d.graph, core::graph::BuildConflictGraph(d.table, d.dcs, graph_options));
  return d;
}

void PrintCurve(const TruncatedCurve& curve, std::ostream& out) {
  out << "R2T truncated counts Q(I, tau) (noise-free, computed once):\n";
  out << absl::StrFormat("  %12s %14s %8s %10s %6s %12s %9s\n", "tau", "Q",
                         "heavy", "lp_edges", "lps", "largest_lp", "seconds");
  for (size_t j = 0; j < curve.taus.size(); ++j) {
    const TruncatedCountStats& s = curve.counts[j].stats;
    out << absl::StrFormat("  %12.6g %14.2f %8d %10d %6d %12d %9.3f\n",
                           curve.taus[j], curve.counts[j].value, s.heavy_nodes,
                           s.lp_edges, s.lp_components, s.largest_lp_edges,
                           s.seconds);
  }
}

}  // namespace

std::string R2tToolUsage() {
  return "Usage: dpq-r2t --data X.csv --dcs Y.dc [--epsilon 1] [--runs 10]\n"
         "         [--seed S] [--public-max-rows N] [--beta 0.1] [--base 2]\n"
         "         [--solver flow|glpk] [--thresholds cover|authors]\n"
         "         [--method optimized,gem (comma-separated: gem, optimized,\n"
         "          hierarchical, basic, baseline; the first fills dpq_*)]\n"
         "         [--csv out.csv] [--label NAME] [--threads T]\n"
         "Compares the R2T baseline (Dong et al., SIGMOD 2022) with dpq's\n"
         "private I_MI. N defaults to the row count (treated as public).\n"
         "Without --seed the noise comes from OpenSSL's CSPRNG.\n";
}

absl::StatusOr<R2tToolOptions> ParseR2tToolArgs(
    const std::vector<std::string>& args) {
  R2tToolOptions o;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string name = args[i], value;
    if (!absl::StartsWith(name, "--")) {
      return absl::InvalidArgumentError(
          absl::StrCat("Unexpected argument '", name, "'."));
    }
    if (const size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("Flag ", name, " needs a value."));
    }
    RETURN_IF_ERROR(ApplyFlag(name, value, &o));
  }
  if (o.data_path.empty() || o.dcs_path.empty()) {
    return absl::InvalidArgumentError("--data and --dcs are required.");
  }
  if (o.runs < 1) {
    return absl::InvalidArgumentError("--runs must be at least 1.");
  }
  if (o.label.empty()) o.label = o.data_path;
  return o;
}

absl::Status RunR2tTool(const R2tToolOptions& o, std::ostream& out) {
  ASSIGN_OR_RETURN(const LpSolver solver, ParseLpSolver(o.solver));
  if (o.methods.empty()) {
    return absl::InvalidArgumentError("--method needs at least one method.");
  }
  std::vector<pm::SelectionMethod> methods;
  for (const std::string& name : o.methods) {
    ASSIGN_OR_RETURN(const pm::SelectionMethod method,
                     pm::ParseSelectionMethod(name));
    methods.push_back(method);
  }
  ASSIGN_OR_RETURN(Loaded d, Load(o));
  const core::graph::Graph& g = d.graph.graph;
  const uint64_t n_public = o.public_max_rows.value_or(d.table.num_rows());
  const double truth = static_cast<double>(g.num_edges());
  out << absl::StrFormat(
      "dataset %s: %d rows, %d DCs, I_MI = %d edges, max degree %d, "
      "load %.3f s, graph %.3f s\n",
      o.label, d.table.num_rows(), d.dcs.size(), g.num_edges(), g.max_degree(),
      d.load_seconds, d.graph.stats.build_seconds);
  out << absl::StrFormat(
      "N = %d, epsilon = %g, beta = %g, base = %g, thresholds %s, %s\n",
      n_public, o.epsilon, o.beta, o.base,
      o.authors_thresholds ? "authors" : "cover", LpSolverName(solver));

  R2tOptions r2t_options{.epsilon = o.epsilon,
                         .global_sensitivity = n_public,
                         .beta = o.beta,
                         .base = o.base,
                         .solver = solver,
                         .rule = o.authors_thresholds
                                     ? ThresholdRule::kAuthorsCode
                                     : ThresholdRule::kCoverGs};
  ASSIGN_OR_RETURN(const TruncatedCurve curve,
                   ComputeTruncatedCurve(g, r2t_options));
  PrintCurve(curve, out);

  // One request and one noise stream per dpq method. The degree bounds
  // serve optimized (Algorithm 4's bound) and gem (pruning its candidates
  // when every DC is keyed), as in the service.
  ASSIGN_OR_RETURN(const std::vector<pm::DcDegreeBound> degree_bounds,
                   pm::ComputeDegreeBounds(d.table, d.dcs));
  std::vector<pm::PrivateMeasureRequest> requests(methods.size());
  std::vector<std::unique_ptr<core::dp::SecureUrbg>> dpq_urbgs;
  for (size_t k = 0; k < methods.size(); ++k) {
    pm::PrivateMeasureRequest& request = requests[k];
    request.measure = core::measures::Measure::kMinimalInconsistency;
    request.method = methods[k];
    request.epsilon = o.epsilon;
    request.public_max_rows = n_public;
    if (methods[k] == pm::SelectionMethod::kOptimized ||
        methods[k] == pm::SelectionMethod::kGem) {
      request.degree_bounds = degree_bounds;
    }
    dpq_urbgs.push_back(MakeUrbg(o.seed, (k + 1) * kDpqSeedOffset));
  }

  std::unique_ptr<core::dp::SecureUrbg> r2t_urbg = MakeUrbg(o.seed, 0);
  std::vector<double> r2t_est, r2t_err;
  // Per dpq method: estimates, errors, total seconds.
  std::vector<std::vector<double>> dpq_est(methods.size()),
      dpq_err(methods.size());
  std::vector<double> dpq_seconds(methods.size(), 0);
  std::string header =
      absl::StrFormat("%4s %12s %14s %10s", "run", "true", "r2t", "r2t_err");
  for (const std::string& name : o.methods) {
    absl::StrAppendFormat(&header, " %12s %10s %8s", name,
                          absl::StrCat(name.substr(0, 6), "_err"), "theta");
  }
  out << header << "\n";
  for (int run = 0; run < o.runs; ++run) {
    ASSIGN_OR_RETURN(const R2tResult r,
                     RaceToTheTop(*r2t_urbg, curve, r2t_options));
    r2t_est.push_back(r.estimate);
    r2t_err.push_back(RelativeError(truth, r.estimate));
    std::string line = absl::StrFormat("%4d %12.0f %14.2f %10.4f", run, truth,
                                       r.estimate, r2t_err.back());
    for (size_t k = 0; k < methods.size(); ++k) {
      const absl::Time start = absl::Now();
      ASSIGN_OR_RETURN(
          const pm::PrivateMeasureResult p,
          pm::ComputePrivateMeasure(*dpq_urbgs[k], g, requests[k]));
      dpq_seconds[k] += absl::ToDoubleSeconds(absl::Now() - start);
      dpq_est[k].push_back(static_cast<double>(p.value));
      dpq_err[k].push_back(RelativeError(truth, dpq_est[k].back()));
      absl::StrAppendFormat(&line, " %12d %10.4f %8d", p.value,
                            dpq_err[k].back(), p.theta.value_or(0));
    }
    out << line << "\n";
  }
  const MeanStd re = Summarize(r2t_err);
  std::string means =
      absl::StrFormat("mean rel. error: R2T %.4f +- %.4f", re.mean, re.std);
  for (size_t k = 0; k < methods.size(); ++k) {
    const MeanStd de = Summarize(dpq_err[k]);
    absl::StrAppendFormat(&means, "   dpq (%s) %.4f +- %.4f", o.methods[k],
                          de.mean, de.std);
  }
  out << means << "\n";
  std::string times = absl::StrFormat(
      "time: R2T LPs %.3f s once (+ noise per run)", curve.seconds);
  for (size_t k = 0; k < methods.size(); ++k) {
    absl::StrAppendFormat(&times, ", dpq (%s) %.4f s per run", o.methods[k],
                          dpq_seconds[k] / o.runs);
  }
  out << times << "\n";

  if (!o.csv_path.has_value()) return absl::OkStatus();
  std::ofstream csv(*o.csv_path);
  if (!csv) {
    return absl::NotFoundError(
        absl::StrCat("Cannot write '", *o.csv_path, "'."));
  }
  // Columns 1-12 as before this tool compared several methods (the first
  // method in dpq_*); then three per further method.
  csv << "dataset,run,rows,n_public,epsilon,true_imi,r2t_estimate,"
         "r2t_rel_error,dpq_estimate,dpq_rel_error,r2t_lp_seconds,"
         "dpq_seconds";
  for (size_t k = 1; k < methods.size(); ++k) {
    const std::string& name = o.methods[k];
    csv << absl::StrFormat(",dpq_%s_estimate,dpq_%s_rel_error,dpq_%s_seconds",
                           name, name, name);
  }
  csv << "\n";
  // One CSV line: the R2T and first-method cells, then the other methods'.
  auto write_line = [&](const std::string& run, double r2t_value,
                        double r2t_error,
                        const std::vector<std::pair<double, double>>& dpq) {
    csv << absl::StrFormat(
        "%s,%s,%d,%d,%g,%.0f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", o.label, run,
        d.table.num_rows(), n_public, o.epsilon, truth, r2t_value, r2t_error,
        dpq[0].first, dpq[0].second, curve.seconds, dpq_seconds[0] / o.runs);
    for (size_t k = 1; k < methods.size(); ++k) {
      csv << absl::StrFormat(",%.6f,%.6f,%.6f", dpq[k].first, dpq[k].second,
                             dpq_seconds[k] / o.runs);
    }
    csv << "\n";
  };
  for (int run = 0; run < o.runs; ++run) {
    std::vector<std::pair<double, double>> dpq;
    for (size_t k = 0; k < methods.size(); ++k) {
      dpq.emplace_back(dpq_est[k][run], dpq_err[k][run]);
    }
    write_line(absl::StrCat(run), r2t_est[run], r2t_err[run], dpq);
  }
  const MeanStd r2 = Summarize(r2t_est);
  std::vector<std::pair<double, double>> dpq_mean, dpq_std;
  for (size_t k = 0; k < methods.size(); ++k) {
    const MeanStd est = Summarize(dpq_est[k]), err = Summarize(dpq_err[k]);
    dpq_mean.emplace_back(est.mean, err.mean);
    dpq_std.emplace_back(est.std, err.std);
  }
  write_line("mean", r2.mean, re.mean, dpq_mean);
  write_line("std", r2.std, re.std, dpq_std);
  if (!csv) {
    return absl::DataLossError(
        absl::StrCat("Writing '", *o.csv_path, "' failed."));
  }
  return absl::OkStatus();
}

}  // namespace dpq::bench::r2t

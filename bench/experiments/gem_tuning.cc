#include "bench/experiments/gem_tuning.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/experiments/measure_evaluation.h"
#include "core/private/flow_extensions.h"
#include "core/private/theta_candidates.h"
#include "core/util/status_macros.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::bench::experiments {

using core::measures::Measure;
namespace pm = core::private_measures;

std::vector<uint32_t> PowersOfTwoCandidates(uint32_t max_rows) {
  std::vector<uint32_t> out;
  for (uint64_t theta = 1; theta < max_rows; theta *= 2) {
    out.push_back(static_cast<uint32_t>(theta));
  }
  out.push_back(max_rows);
  return out;
}

absl::StatusOr<std::vector<uint32_t>> GemTuneCandidates(const std::string& grid,
                                                        uint32_t max_rows) {
  if (grid == kGrid125) return pm::DefaultThetaCandidates(max_rows);
  if (grid == kGridPow2) return PowersOfTwoCandidates(max_rows);
  return absl::InvalidArgumentError(absl::StrCat("Unknown theta grid '", grid,
                                                 "'; use ", kGrid125, " or ",
                                                 kGridPow2, "."));
}

std::vector<GemTuneSetting> DefaultGemTuneGrid() {
  std::vector<GemTuneSetting> out;
  for (bool prune : {false, true}) {
    for (const char* grid : {kGrid125, kGridPow2}) {
      for (double share : {0.2, 0.3, 0.4}) {
        for (double beta : {0.1, 0.3, 0.6}) {
          for (double cost : {1.0, 2.0}) {
            GemTuneSetting s;
            s.params.selection_share = share;
            s.params.beta = beta;
            s.params.beta_unpruned = beta;
            s.params.noise_cost = cost;
            s.params.prune_by_degree_bound = prune;
            s.grid = grid;
            out.push_back(s);
          }
        }
      }
    }
  }
  return out;
}

absl::StatusOr<GemTuneResult> RunGemTuning(
    const ExperimentOptions& o, const std::vector<GemTuneSetting>& settings,
    double epsilon) {
  if (o.runs == 0) return absl::InvalidArgumentError("runs must be positive.");
  ASSIGN_OR_RETURN(std::vector<NamedGraph> graphs, BuildAccuracyGraphs(o));
  GemTuneResult result;
  result.settings = settings;
  result.epsilon = epsilon;
  result.runs = o.runs;
  for (const NamedGraph& g : graphs) {
    result.graphs.push_back(absl::StrCat(g.dataset, " ", g.noise));
  }
  for (size_t gi = 0; gi < graphs.size(); ++gi) {
    const GraphCase& c = graphs[gi].graph_case;
    ASSIGN_OR_RETURN(const uint32_t max_rows,
                     pm::ValidatePublicMaxRows(c.public_max_rows));
    for (Measure measure :
         {Measure::kMinimalInconsistency, Measure::kProblematic}) {
      const double truth = static_cast<double>(
          measure == Measure::kMinimalInconsistency ? c.i_mi : c.i_p);
      GemTuneProfile profile;
      profile.graph = gi;
      profile.measure = measure;
      profile.max_degree = c.graph.max_degree();
      profile.true_value = truth;
      profile.thetas = pm::DefaultThetaCandidates(max_rows);
      ASSIGN_OR_RETURN(profile.values, pm::FlowExtensionValues(c.graph, measure,
                                                               profile.thetas));
      result.profiles.push_back(std::move(profile));
      // The same stream for every setting (common random numbers).
      const uint64_t stream =
          o.seed * 1'000'003 + std::hash<std::string>{}(absl::StrCat(
                                   "gem-tune", result.graphs[gi],
                                   core::measures::MeasureName(measure)));
      for (size_t si = 0; si < settings.size(); ++si) {
        ASSIGN_OR_RETURN(const std::vector<uint32_t> candidates,
                         GemTuneCandidates(settings[si].grid, max_rows));
        testing::SeededUrbg urbg(stream);
        std::vector<double> errors;
        std::map<uint32_t, size_t> thetas;
        for (size_t r = 0; r < o.runs; ++r) {
          ASSIGN_OR_RETURN(
              const pm::GemRelease release,
              pm::ReleaseWithGem(urbg, c.graph, measure, candidates, epsilon,
                                 c.degree_bounds, settings[si].params));
          errors.push_back(
              truth > 0
                  ? std::abs(static_cast<double>(release.value) - truth) / truth
                  : std::numeric_limits<double>::quiet_NaN());
          ++thetas[release.theta];
        }
        GemTuneCell cell;
        cell.setting = si;
        cell.graph = gi;
        cell.measure = measure;
        cell.true_value = truth;
        cell.error_median = Median(errors);
        cell.runs_over_one = static_cast<size_t>(std::count_if(
            errors.begin(), errors.end(), [](double e) { return e > 1; }));
        cell.error_mean = std::accumulate(errors.begin(), errors.end(), 0.0) /
                          static_cast<double>(errors.size());
        size_t best = 0;
        for (const auto& [theta, count] : thetas) {  // ascending theta
          if (count > best) {
            best = count;
            cell.theta_mode = theta;
          }
        }
        result.cells.push_back(cell);
      }
      if (o.progress != nullptr) {
        *o.progress << "gem-tune " << result.graphs[gi] << " "
                    << core::measures::MeasureName(measure) << ": "
                    << settings.size() << " settings x " << o.runs << " runs"
                    << std::endl;
      }
    }
  }
  return result;
}

namespace {

std::string SettingColumns(const GemTuneSetting& s) {
  return absl::StrFormat("%g,%g,%g,%s%s", s.params.selection_share,
                         s.params.beta, s.params.noise_cost, s.grid,
                         s.params.prune_by_degree_bound ? "+bound" : "");
}

}  // namespace

std::string GemTuneCsv(const GemTuneResult& result) {
  std::string out =
      "selection_share,beta,noise_cost,grid,graph,measure,epsilon,runs,"
      "true_value,rel_error_median,rel_error_mean,runs_over_one,theta_mode\n";
  for (const GemTuneCell& c : result.cells) {
    absl::StrAppendFormat(
        &out, "%s,%s,%s,%g,%d,%.6g,%.6g,%.6g,%d\n",
        SettingColumns(result.settings[c.setting]), result.graphs[c.graph],
        core::measures::MeasureName(c.measure), result.epsilon, result.runs,
        c.true_value, c.error_median, c.error_mean, c.theta_mode);
  }
  return out;
}

std::string GemTuneTable(const GemTuneResult& result) {
  const size_t num_graphs = result.graphs.size();
  // [setting][graph][0 = MI, 1 = P]
  std::vector<std::vector<std::array<double, 2>>> medians(
      result.settings.size(),
      std::vector<std::array<double, 2>>(
          num_graphs, {std::numeric_limits<double>::quiet_NaN(),
                       std::numeric_limits<double>::quiet_NaN()}));
  std::vector<double> worst_mean(result.settings.size(), 0);
  std::vector<size_t> over_one(result.settings.size(), 0);
  for (const GemTuneCell& c : result.cells) {
    medians[c.setting][c.graph]
           [c.measure == Measure::kMinimalInconsistency ? 0 : 1] =
               c.error_median;
    worst_mean[c.setting] = std::max(worst_mean[c.setting], c.error_mean);
    over_one[c.setting] += c.runs_over_one;
  }
  struct Line {
    size_t setting;
    double worst_mi, worst_p, worst, mean;
  };
  std::vector<Line> lines;
  for (size_t s = 0; s < result.settings.size(); ++s) {
    Line l{s, 0, 0, 0, 0};
    for (const auto& mp : medians[s]) {
      l.worst_mi = std::max(l.worst_mi, mp[0]);
      l.worst_p = std::max(l.worst_p, mp[1]);
      l.mean += (mp[0] + mp[1]) / static_cast<double>(2 * num_graphs);
    }
    l.worst = std::max(l.worst_mi, l.worst_p);
    lines.push_back(l);
  }
  std::stable_sort(
      lines.begin(), lines.end(), [](const Line& a, const Line& b) {
        return a.worst != b.worst ? a.worst < b.worst : a.mean < b.mean;
      });
  std::string out = absl::StrFormat(
      "gem-tune: median relative error over %d runs, epsilon %g; per graph "
      "I_MI / I_P; sorted by worst = max over graphs of both. Tail: the "
      "largest mean error over graphs and measures, and the runs (of %d) "
      "with an error above 1.\n\n",
      result.runs, result.epsilon, 2 * num_graphs * result.runs);
  out += "| rank | selection_share | beta | noise_cost | grid |";
  for (const std::string& g : result.graphs)
    absl::StrAppend(&out, " ", g, " |");
  out +=
      " worst MI | worst P | worst | mean | worst mean error | runs > 1 "
      "|\n|---|---|---|---|---|";
  for (size_t g = 0; g < num_graphs; ++g) out += "---|";
  out += "---|---|---|---|---|---|\n";
  for (size_t rank = 0; rank < lines.size(); ++rank) {
    const Line& l = lines[rank];
    const GemTuneSetting& s = result.settings[l.setting];
    absl::StrAppendFormat(&out, "| %d | %g | %g | %g | %s%s |", rank + 1,
                          s.params.selection_share, s.params.beta,
                          s.params.noise_cost, s.grid,
                          s.params.prune_by_degree_bound ? "+bound" : "");
    for (const auto& mp : medians[l.setting]) {
      absl::StrAppendFormat(&out, " %.3g / %.3g |", mp[0], mp[1]);
    }
    absl::StrAppendFormat(
        &out, " %.3g | %.3g | **%.3g** | %.3g | %.3g | %d |\n", l.worst_mi,
        l.worst_p, l.worst, l.mean, worst_mean[l.setting], over_one[l.setting]);
  }
  return out;
}

std::string GemTuneProfiles(const GemTuneResult& result) {
  const double eps2 =
      result.epsilon * (1 - pm::GemParameters{}.selection_share);
  std::string out = absl::StrFormat(
      "Flow extension on the 1-2-5 grid, relative to f: theta: truncation "
      "(f - f_theta) / f, expected noise Delta_theta / (eps2 f) at eps2 = "
      "%g.\n\n",
      eps2);
  for (const GemTuneProfile& p : result.profiles) {
    absl::StrAppendFormat(
        &out, "- %s %s (f = %.0f, max degree %d):", result.graphs[p.graph],
        core::measures::MeasureName(p.measure), p.true_value, p.max_degree);
    for (size_t i = 0; i < p.thetas.size(); ++i) {
      const double delta = p.measure == Measure::kMinimalInconsistency
                               ? p.thetas[i]
                               : p.thetas[i] + 1.0;
      absl::StrAppendFormat(
          &out, " %d: %.3g/%.3g", p.thetas[i],
          (p.true_value - static_cast<double>(p.values[i])) / p.true_value,
          delta / (eps2 * p.true_value));
    }
    out += "\n";
  }
  return out;
}

}  // namespace dpq::bench::experiments

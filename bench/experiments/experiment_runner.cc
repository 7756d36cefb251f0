#include "bench/experiments/experiment_runner.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/experiments/experiment_data.h"
#include "core/graph/graph.h"
#include "core/util/status_macros.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::bench::experiments {

using core::measures::Measure;

namespace {

// What to evaluate on one graph.
struct Evaluation {
  std::string figure;
  std::vector<double> epsilons;
  // The I_R methods (IsRepairMethod) release I_R, the others I_MI and I_P.
  std::vector<Method> methods;
};

// One graph: a dataset after `iterations` iterations of `noise`.
struct GraphPoint {
  std::string noise;
  size_t iterations = 0;
  std::vector<Evaluation> evaluations;
};

const std::set<std::string>& KnownFigures() {
  static const auto* f = new std::set<std::string>{
      "fig3",     "fig4",  "fig5",    "grid",    "fig7",
      "accuracy", "small", "general", "gem-tune"};
  return *f;
}

std::vector<size_t> Checkpoints(size_t total, size_t count) {
  std::vector<size_t> out;
  count = std::max<size_t>(1, std::min(count, total));
  for (size_t i = 1; i <= count; ++i) out.push_back(total * i / count);
  return out;
}

// The graph points of one dataset for the requested figures, merged so that
// each graph is built once.
absl::StatusOr<std::vector<GraphPoint>> PlanDataset(
    const ExperimentOptions& o, const Dataset& d,
    std::map<std::string, generators::NoiseLog>& logs) {
  std::map<std::pair<std::string, size_t>, GraphPoint> points;
  auto add = [&](const std::string& noise, size_t iterations, Evaluation e) {
    GraphPoint& p = points[{noise, iterations}];
    p.noise = noise;
    p.iterations = iterations;
    p.evaluations.push_back(std::move(e));
  };
  auto log_of = [&](const std::string& label) -> absl::StatusOr<size_t> {
    ASSIGN_OR_RETURN(NoiseSpec spec, ParseNoiseLabel(label));
    if (spec.kind == NoiseSpec::Kind::kDirty) return 0;
    if (!logs.count(label)) {
      ASSIGN_OR_RETURN(logs[label], GenerateNoise(d, spec, o.seed));
    }
    return logs[label].iterations.size();
  };
  const std::set<std::string> figs(o.figures.begin(), o.figures.end());
  for (const auto& [fig, noise] :
       std::vector<std::pair<std::string, std::string>>{
           {"fig3", "rnoise-0.01"},
           {"fig4", "conoise-200"},
           {"fig5", "rnoise-0.01"}}) {
    if (!figs.count(fig)) continue;
    ASSIGN_OR_RETURN(size_t total, log_of(noise));
    for (size_t it : Checkpoints(total, o.checkpoints)) {
      add(noise, it, {fig, {1.0}, FigureMethods(fig)});
    }
  }
  if (figs.count("grid")) {
    for (const std::string& noise : o.grid_noises) {
      if (noise == "dirty" && !d.has_dirty) continue;
      ASSIGN_OR_RETURN(size_t total, log_of(noise));
      add(noise, total, {"grid", o.epsilons, FigureMethods("grid")});
    }
  }
  if (figs.count("accuracy")) {
    ASSIGN_OR_RETURN(size_t total, log_of(kAccuracyNoise));
    const std::vector<double> eps = {o.accuracy_epsilon};
    add(kAccuracyNoise, total, {"accuracy", eps, AccuracyMethods()});
    if (d.has_dirty) add("dirty", 0, {"accuracy", eps, AccuracyMethods()});
  }
  std::vector<GraphPoint> out;
  for (auto& [key, p] : points) out.push_back(std::move(p));
  return out;
}

absl::Status EvaluatePoint(const ExperimentOptions& o, const Dataset& d,
                           const GraphPoint& p,
                           const generators::CellTable& cells,
                           std::vector<ResultRow>& rows) {
  ASSIGN_OR_RETURN(core::table::Table table, generators::ToTable(cells));
  ASSIGN_OR_RETURN(GraphCase c, BuildGraphCase(table, d.dcs, o.n_factor,
                                               o.vertex_cover_seconds));
  const size_t changed = generators::CountChangedCells(d.clean, cells);
  if (o.progress != nullptr) {
    *o.progress << d.name << " " << p.noise << " it=" << p.iterations
                << " n=" << c.graph.num_nodes() << " m=" << c.graph.num_edges()
                << " dmax=" << c.graph.max_degree() << " I_R("
                << c.i_r_reference << ")=" << c.i_r
                << " build=" << c.build_seconds << "s" << std::endl;
  }
  for (const Evaluation& e : p.evaluations) {
    for (double eps : e.epsilons) {
      for (Method m : e.methods) {
        if (m == Method::kExact && !c.exact_repair.has_value()) {
          if (o.progress != nullptr) {
            *o.progress << "  skipping method exact: no proved cover"
                        << std::endl;
          }
          continue;
        }
        // One seeded stream per graph, figure, epsilon and method: results
        // do not depend on which other figures or methods were requested in
        // the same run (adding a method leaves the others' draws alone).
        testing::SeededUrbg urbg(
            o.seed * 1'000'003 +
            std::hash<std::string>{}(
                absl::StrCat(d.name, "/", p.noise, "/", p.iterations, "/",
                             e.figure, "/", eps, "/", MethodName(m))));
        std::vector<Measure> measures = {Measure::kMinimalInconsistency,
                                         Measure::kProblematic};
        if (IsRepairMethod(m)) measures = {Measure::kRepair};
        for (Measure measure : measures) {
          // Figure 7 times each measure from scratch: a rebuilt graph has
          // an empty memo (core/graph/graph.h), so no release reuses the
          // projections another one computed.
          GraphCase fresh;
          if (e.figure == "fig7") {
            fresh = c;
            fresh.graph = core::graph::Graph::FromSortedUniqueEdges(
                c.graph.num_nodes(), c.graph.Edges());
          }
          ASSIGN_OR_RETURN(RunStats s,
                           EvaluateMethod(urbg, e.figure == "fig7" ? fresh : c,
                                          measure, m, eps, o.runs));
          ResultRow r;
          r.figure = e.figure;
          r.dataset = d.name;
          r.noise = p.noise;
          r.iterations = p.iterations;
          r.changed_cells = changed;
          r.num_dcs = d.dcs.size();
          r.nodes = c.graph.num_nodes();
          r.edges = c.graph.num_edges();
          r.max_degree = c.graph.max_degree();
          r.public_max_rows = c.public_max_rows;
          r.epsilon = eps;
          r.method = MethodName(m);
          r.measure = std::string(core::measures::MeasureName(measure));
          r.reference = measure == Measure::kRepair ? c.i_r_reference : "count";
          r.stats = s;
          r.greedy_cover = measure == Measure::kRepair ? c.i_r_greedy : 0;
          r.build_seconds = c.build_seconds;
          rows.push_back(std::move(r));
        }
      }
    }
  }
  return absl::OkStatus();
}

// Figure 7: runtime against graph size (Tax, RNoise 0.005 and 0.01) and
// against the number of DCs (Flights, RNoise 0.005), at epsilon 1.
absl::Status RunRuntime(const ExperimentOptions& o,
                        std::vector<ResultRow>& rows) {
  const Evaluation e{"fig7", {1.0}, FigureMethods("fig7")};
  for (size_t size : o.runtime_sizes) {
    ASSIGN_OR_RETURN(Dataset d, LoadDataset(size > 10'000 ? "tax50k" : "tax",
                                            o.data_dir, size, o.seed));
    d.name = "tax";
    for (const std::string noise : {"rnoise-0.005", "rnoise-0.01"}) {
      ASSIGN_OR_RETURN(NoiseSpec spec, ParseNoiseLabel(noise));
      ASSIGN_OR_RETURN(generators::NoiseLog log,
                       GenerateNoise(d, spec, o.seed));
      GraphPoint p{noise, log.iterations.size(), {e}};
      RETURN_IF_ERROR(EvaluatePoint(
          o, d, p, generators::ApplyNoise(d.clean, log, p.iterations), rows));
    }
  }
  ASSIGN_OR_RETURN(Dataset flights,
                   LoadDataset("flights", o.data_dir, o.rows, o.seed));
  const auto all_dcs = flights.dcs;
  for (size_t k = 1; k <= all_dcs.size(); ++k) {
    flights.dcs.assign(all_dcs.begin(), all_dcs.begin() + static_cast<long>(k));
    ASSIGN_OR_RETURN(NoiseSpec spec, ParseNoiseLabel("rnoise-0.005"));
    ASSIGN_OR_RETURN(generators::NoiseLog log,
                     GenerateNoise(flights, spec, o.seed));
    GraphPoint p{"rnoise-0.005", log.iterations.size(), {e}};
    RETURN_IF_ERROR(EvaluatePoint(
        o, flights, p, generators::ApplyNoise(flights.clean, log, p.iterations),
        rows));
  }
  return absl::OkStatus();
}

}  // namespace

const std::vector<Method>& PaperMethods() {
  static const auto* m = new std::vector<Method>{
      Method::kBaseline1,    Method::kBaseline2, Method::kBasic,
      Method::kHierarchical, Method::kOptimized, Method::kVertexCover};
  return *m;
}

const std::vector<Method>& DefaultMethods() {
  static const auto* m = new std::vector<Method>{
      Method::kGem, Method::kCoverBound, Method::kExact};
  return *m;
}

std::vector<Method> FigureMethods(const std::string& figure) {
  std::vector<Method> out;
  if (figure == "fig3" || figure == "fig4") {
    out = {Method::kOptimized, Method::kVertexCover};
    out.insert(out.end(), DefaultMethods().begin(), DefaultMethods().end());
  } else if (figure == "fig5") {
    out = PaperMethods();
    out.push_back(Method::kGem);
  } else if (figure == "grid") {
    out = PaperMethods();
    out.insert(out.end(), DefaultMethods().begin(), DefaultMethods().end());
  } else if (figure == "fig7") {
    out = {Method::kOptimized, Method::kVertexCover, Method::kGem,
           Method::kCoverBound};
  }
  return out;
}

const std::vector<Method>& AccuracyMethods() {
  static const auto* m = new std::vector<Method>{
      Method::kGroupBound, Method::kGem,   Method::kOptimized,
      Method::kCoverBound, Method::kExact, Method::kVertexCover};
  return *m;
}

absl::StatusOr<std::vector<NamedGraph>> BuildAccuracyGraphs(
    const ExperimentOptions& o) {
  std::vector<NamedGraph> out;
  for (const std::string& name : o.datasets) {
    ASSIGN_OR_RETURN(Dataset d, LoadDataset(name, o.data_dir, o.rows, o.seed));
    ASSIGN_OR_RETURN(NoiseSpec spec, ParseNoiseLabel(kAccuracyNoise));
    ASSIGN_OR_RETURN(generators::NoiseLog log, GenerateNoise(d, spec, o.seed));
    std::vector<std::pair<std::string, generators::CellTable>> tables;
    tables.emplace_back(
        kAccuracyNoise,
        generators::ApplyNoise(d.clean, log, log.iterations.size()));
    if (d.has_dirty) tables.emplace_back("dirty", d.dirty);
    for (const auto& [noise, cells] : tables) {
      ASSIGN_OR_RETURN(core::table::Table table, generators::ToTable(cells));
      ASSIGN_OR_RETURN(GraphCase c, BuildGraphCase(table, d.dcs, o.n_factor,
                                                   o.vertex_cover_seconds));
      if (o.progress != nullptr) {
        *o.progress << name << " " << noise << " n=" << c.graph.num_nodes()
                    << " m=" << c.graph.num_edges()
                    << " dmax=" << c.graph.max_degree() << std::endl;
      }
      out.push_back({name, noise, std::move(c)});
    }
  }
  return out;
}

absl::StatusOr<std::vector<ResultRow>> RunExperiments(
    const ExperimentOptions& o) {
  for (const std::string& f : o.figures) {
    if (!KnownFigures().count(f)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Unknown figure '", f,
          "'; use fig3, fig4, fig5, grid, fig7, accuracy, small, general "
          "or gem-tune."));
    }
  }
  for (const std::string& n : o.grid_noises) {
    RETURN_IF_ERROR(ParseNoiseLabel(n).status());
  }
  std::vector<ResultRow> rows;
  for (const std::string& name : o.datasets) {
    ASSIGN_OR_RETURN(Dataset d, LoadDataset(name, o.data_dir, o.rows, o.seed));
    std::map<std::string, generators::NoiseLog> logs;
    ASSIGN_OR_RETURN(std::vector<GraphPoint> points, PlanDataset(o, d, logs));
    for (const GraphPoint& p : points) {
      const generators::CellTable cells =
          p.noise == "dirty"
              ? d.dirty
              : generators::ApplyNoise(d.clean, logs[p.noise], p.iterations);
      RETURN_IF_ERROR(EvaluatePoint(o, d, p, cells, rows));
    }
  }
  if (std::find(o.figures.begin(), o.figures.end(), "fig7") !=
      o.figures.end()) {
    RETURN_IF_ERROR(RunRuntime(o, rows));
  }
  return rows;
}

std::string ResultsCsv(const std::vector<ResultRow>& rows) {
  std::string out =
      "figure,dataset,noise,iterations,changed_cells,num_dcs,nodes,edges,"
      "max_degree,public_max_rows,epsilon,method,measure,estimate,true_value,"
      "reference,runs,"
      "private_mean,private_std,rel_error_mean,rel_error_std,"
      "rel_error_median,greedy_cover,rel_error_vs_greedy_mean,"
      "rel_error_vs_greedy_std,theta_mean,theta_mode,"
      "release_seconds,first_release_seconds,build_seconds,rel_error_p90,"
      "coverage,upper_proved\n";
  for (const ResultRow& r : rows) {
    absl::StrAppendFormat(
        &out,
        "%s,%s,%s,%d,%d,%d,%d,%d,%d,%d,%g,%s,%s,%s,%.6g,%s,%d,%.6g,%.6g,%.6g,%."
        "6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n",
        r.figure, r.dataset, r.noise, r.iterations, r.changed_cells, r.num_dcs,
        r.nodes, r.edges, r.max_degree, r.public_max_rows, r.epsilon, r.method,
        r.measure, r.stats.estimate, r.stats.true_value, r.reference,
        r.stats.runs, r.stats.private_mean, r.stats.private_std,
        r.stats.error_mean, r.stats.error_std, r.stats.error_median,
        r.greedy_cover, r.stats.greedy_error_mean, r.stats.greedy_error_std,
        r.stats.theta_mean, r.stats.theta_mode, r.stats.seconds_mean,
        r.stats.first_seconds, r.build_seconds, r.stats.error_p90,
        r.stats.coverage, r.stats.upper_proved);
  }
  return out;
}

std::string AccuracyMarkdown(const std::vector<ResultRow>& rows) {
  struct Column {
    std::string measure, method;
  };
  const std::vector<Column> columns = {
      {"MI", "group_bound"}, {"MI", "gem"},  {"MI", "optimized"},
      {"P", "group_bound"},  {"P", "gem"},   {"P", "optimized"},
      {"R", "cover_bound"},  {"R", "exact"}, {"R", "vertex_cover"}};
  // Graphs in the order of `rows`.
  std::vector<std::pair<std::string, std::string>> graphs;
  std::map<std::pair<std::string, std::string>, std::vector<const ResultRow*>>
      by_graph;
  for (const ResultRow& r : rows) {
    if (r.figure != "accuracy") continue;
    const auto key = std::make_pair(r.dataset, r.noise);
    if (!by_graph.count(key)) graphs.push_back(key);
    by_graph[key].push_back(&r);
  }
  // Per dataset (in the order of `rows`) kAccuracyNoise first, then dirty.
  std::map<std::string, size_t> dataset_order;
  for (const auto& g : graphs) {
    dataset_order.emplace(g.first, dataset_order.size());
  }
  std::stable_sort(
      graphs.begin(), graphs.end(), [&](const auto& a, const auto& b) {
        const size_t ra = dataset_order[a.first];
        const size_t rb = dataset_order[b.first];
        if (ra != rb) return ra < rb;
        return (a.second == kAccuracyNoise) > (b.second == kAccuracyNoise);
      });
  std::string out;
  if (graphs.empty()) return out;
  const ResultRow& first = *by_graph[graphs[0]][0];
  absl::StrAppendFormat(
      &out,
      "Median relative error |released - exact| / exact over %d runs, "
      "epsilon %g, N = public_max_rows (column N). I_R against the exact "
      "minimum cover where proved, else its LP bound (column 'I_R ref').\n\n",
      first.stats.runs, first.epsilon);
  out +=
      "| dataset | noise | rows | N | edges | max degree | I_MI group_bound "
      "| I_MI gem | I_MI optimized | I_P group_bound | I_P gem | I_P "
      "optimized | I_R cover_bound | I_R exact | I_R vertex_cover | I_R ref "
      "| group_bound theta (MI / P) | defaults' p90 (MI / P) | defaults' "
      "coverage (MI / P / R) |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---"
      "|---|\n";
  for (const auto& key : graphs) {
    const std::vector<const ResultRow*>& cells = by_graph[key];
    const ResultRow& any = *cells[0];
    std::string reference = "n/a", theta_mi = "n/a", theta_p = "n/a";
    std::string p90_mi = "n/a", p90_p = "n/a";
    std::string cov_mi = "n/a", cov_p = "n/a", cov_r = "n/a";
    std::vector<std::string> values;
    for (const Column& col : columns) {
      std::string value = "n/a";
      for (const ResultRow* r : cells) {
        if (r->measure != col.measure || r->method != col.method) continue;
        value = absl::StrFormat("%.3g", r->stats.error_median);
        if (col.measure == "R") reference = r->reference;
        const std::string cov = absl::StrFormat("%.2f", r->stats.coverage);
        if (col.method == "group_bound") {
          (col.measure == "MI" ? theta_mi : theta_p) =
              absl::StrCat(r->stats.theta_mode);
          (col.measure == "MI" ? p90_mi : p90_p) =
              absl::StrFormat("%.3g", r->stats.error_p90);
          (col.measure == "MI" ? cov_mi : cov_p) = cov;
        }
        if (col.method == "cover_bound") cov_r = cov;
      }
      values.push_back(value);
    }
    absl::StrAppend(&out, "| ", key.first, " | ", key.second, " | ", any.nodes,
                    " | ", any.public_max_rows, " | ", any.edges, " | ",
                    any.max_degree, " | ", absl::StrJoin(values, " | "), " | ",
                    reference, " | ", theta_mi, " / ", theta_p, " | ", p90_mi,
                    " / ", p90_p, " | ", cov_mi, " / ", cov_p, " / ", cov_r,
                    " |\n");
  }
  // The median hides rare far misses (e.g. GEM picking a huge theta with
  // probability below its beta); name every cell whose mean is above 1.
  std::vector<std::string> tails;
  for (const auto& key : graphs) {
    for (const ResultRow* r : by_graph[key]) {
      if (r->stats.error_mean > 1) {
        tails.push_back(absl::StrFormat(
            "%s %s I_%s %s: mean %.3g, std %.3g, median %.3g", r->dataset,
            r->noise, r->measure, r->method, r->stats.error_mean,
            r->stats.error_std, r->stats.error_median));
      }
    }
  }
  if (!tails.empty()) {
    absl::StrAppend(&out, "\nMean relative error above 1 (the median hides ",
                    "these far misses): ", absl::StrJoin(tails, "; "), ".\n");
  }
  return out;
}

}  // namespace dpq::bench::experiments

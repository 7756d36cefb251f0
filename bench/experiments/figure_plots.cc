#include "bench/experiments/figure_plots.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/generators/cell_table.h"
#include "core/util/status_macros.h"

namespace dpq::bench::experiments {

namespace {

using RowFilter = std::function<bool(const ResultRow&)>;

std::vector<const ResultRow*> Select(const std::vector<ResultRow>& rows,
                                     const RowFilter& keep) {
  std::vector<const ResultRow*> out;
  for (const ResultRow& r : rows) {
    if (keep(r)) out.push_back(&r);
  }
  return out;
}

// A datablock named `name` with the given lines.
std::string Block(const std::string& name,
                  const std::vector<std::string>& lines) {
  std::string out = absl::StrCat("$", name, " << EOD\n");
  for (const auto& l : lines) absl::StrAppend(&out, l, "\n");
  absl::StrAppend(&out, "EOD\n");
  return out;
}

// pngcairo, not libgd's png: only cairo draws the dash types that tell the
// paper's methods from dpq's defaults.
std::string Header(const std::string& file, int width, int height) {
  return absl::StrFormat(
      "set terminal pngcairo size %d,%d font 'DejaVu Sans,8'\n"
      "set output '%s.png'\n"
      "set termoption noenhanced\nset key font ',7' samplen 3\nset grid\n"
      "set xtics rotate by 30 right\nset format y '%%g'\n",
      width, height, file);
}

// How a method is drawn: the paper's methods solid, dpq's defaults dashed
// (exact dotted) and thicker, so that each figure tells them apart.
struct LineStyle {
  std::string color;
  int dash = 1;
  int point = 7;
  double width = 1;
};

LineStyle StyleOf(const std::string& method) {
  static const auto* styles = new std::map<std::string, LineStyle>{
      {"baseline1", {"#8c564b", 1, 4, 1}},
      {"baseline2", {"#7f7f7f", 1, 6, 1}},
      {"basic", {"#bcbd22", 1, 8, 1}},
      {"hierarchical", {"#17becf", 1, 10, 1}},
      {"optimized", {"#1f77b4", 1, 7, 1}},
      {"vertex_cover", {"#1f77b4", 1, 7, 1}},
      {"gem", {"#d62728", 2, 9, 2}},
      {"cover_bound", {"#d62728", 2, 9, 2}},
      {"exact", {"#9467bd", 3, 11, 2}}};
  const auto it = styles->find(method);
  return it == styles->end() ? LineStyle{"#000000", 1, 1, 1} : it->second;
}

// gnuplot line options for `method`, with the colour `color` if given.
std::string LineOptions(const std::string& method,
                        const std::string& color = "") {
  const LineStyle s = StyleOf(method);
  return absl::StrFormat("pt %d ps 0.5 dt %d lw %g lc rgb '%s'", s.point,
                         s.dash, s.width, color.empty() ? s.color : color);
}

// The methods drawn for one measure in Figures 3, 4 and 6: the paper's first.
std::vector<std::string> MeasureMethods(const std::string& measure) {
  if (measure == "R") return {"vertex_cover", "cover_bound", "exact"};
  return {"optimized", "gem"};
}

std::string MeasureLabel(const std::string& measure) {
  return measure == "R" ? "I_R" : (measure == "MI" ? "I_MI" : "I_P");
}

// `n` space-separated NaNs.
std::string NaNs(size_t n) {
  return absl::StrJoin(std::vector<std::string>(n, "NaN"), " ");
}

// Figures 3 and 4: true vs private value against the noise iterations,
// one row of panels per measure, one column per dataset; the paper's
// method with its +-std band, dpq's defaults as dashed lines.
std::string TrueVsPrivate(const std::vector<ResultRow>& rows,
                          const std::vector<std::string>& datasets,
                          const std::string& fig, const std::string& title) {
  std::string data, plots;
  const std::vector<std::string> measures = {"P", "MI", "R"};
  for (const auto& m : measures) {
    const std::vector<std::string> methods = MeasureMethods(m);
    for (const auto& ds : datasets) {
      // iterations -> true, greedy cover, then mean and std per method.
      std::map<size_t, std::vector<std::string>> by_iteration;
      for (const ResultRow* r : Select(rows, [&](const ResultRow& x) {
             return x.figure == fig && x.dataset == ds && x.measure == m;
           })) {
        const size_t k = static_cast<size_t>(
            std::find(methods.begin(), methods.end(), r->method) -
            methods.begin());
        if (k == methods.size()) continue;
        auto& v = by_iteration[r->iterations];
        v.resize(2 + 2 * methods.size(), "NaN");
        v[0] = absl::StrFormat("%.6g", r->stats.true_value);
        if (m == "R") v[1] = absl::StrFormat("%.6g", r->greedy_cover);
        v[2 + 2 * k] = absl::StrFormat("%.6g", r->stats.private_mean);
        v[3 + 2 * k] = absl::StrFormat("%.6g", r->stats.private_std);
      }
      std::vector<std::string> lines;
      for (const auto& [it, v] : by_iteration) {
        lines.push_back(absl::StrCat(it, " ", absl::StrJoin(v, " ")));
      }
      if (lines.empty()) lines.push_back(NaNs(3 + 2 * methods.size()));
      const std::string name = absl::StrCat(ds, "_", m);
      data += Block(name, lines);
      // Columns: 1 iterations, 2 true, 3 greedy, then 4 + 2k mean and
      // 5 + 2k std of methods[k].
      std::string plot = absl::StrFormat(
          "set title '%s: %s' noenhanced\nset xlabel 'iterations'\n"
          "plot $%s u 1:($4-$5):($4+$5) w filledcurves lc rgb '#bcd4f0' "
          "notitle",
          ds, MeasureLabel(m), name);
      // The references first, so that a method on top of one (exact on
      // the true I_R, vertex_cover on the greedy cover) stays visible.
      absl::StrAppendFormat(
          &plot, ", $%s u 1:2 w lp pt 5 ps 0.5 lc rgb '#ff7f0e' t 'true'",
          name);
      if (m == "R") {
        absl::StrAppendFormat(&plot,
                              ", $%s u 1:3 w l dt 4 lc rgb '#2ca02c' t "
                              "'greedy cover (non-private)'",
                              name);
      }
      for (size_t k = 0; k < methods.size(); ++k) {
        absl::StrAppendFormat(&plot, ", $%s u 1:%d w lp %s t '%s'", name,
                              4 + 2 * k, LineOptions(methods[k]),
                              MethodLegend(methods[k]));
      }
      plots += plot + "\n";
    }
  }
  return absl::StrCat(
      Header(fig, 300 * static_cast<int>(datasets.size()), 900), data,
      absl::StrFormat("set multiplot layout 3,%d title '%s' noenhanced\n",
                      datasets.size(), title),
      plots, "unset multiplot\n");
}

// Figure 5: relative error (log) of every theta strategy against the true
// value, gem next to the paper's.
std::string Methods(const std::vector<ResultRow>& rows,
                    const std::vector<std::string>& datasets) {
  const std::vector<std::string> methods = {
      "baseline1", "baseline2", "basic", "hierarchical", "optimized", "gem"};
  std::string data, plots;
  for (const std::string m : {"P", "MI"}) {
    for (const auto& ds : datasets) {
      std::map<size_t, std::vector<std::string>> by_iteration;
      std::map<size_t, double> truth;
      for (const ResultRow* r : Select(rows, [&](const ResultRow& x) {
             return x.figure == "fig5" && x.dataset == ds && x.measure == m;
           })) {
        truth[r->iterations] = r->stats.true_value;
        auto& v = by_iteration[r->iterations];
        v.resize(methods.size(), "NaN");
        const size_t k = static_cast<size_t>(
            std::find(methods.begin(), methods.end(), r->method) -
            methods.begin());
        // log scale: a zero error is drawn at the floor 1e-4
        if (k < methods.size())
          v[k] = absl::StrFormat("%.6g", std::max(1e-4, r->stats.error_mean));
      }
      std::vector<std::string> lines;
      for (const auto& [it, v] : by_iteration) {
        lines.push_back(absl::StrCat(absl::StrFormat("%.6g", truth[it]), " ",
                                     absl::StrJoin(v, " ")));
      }
      if (lines.empty()) lines.push_back(NaNs(1 + methods.size()));
      const std::string name = absl::StrCat(ds, "_", m);
      data += Block(name, lines);
      std::string plot = absl::StrFormat(
          "set title '%s: %s' noenhanced\nset xlabel 'true value'\nset "
          "logscale y\nplot ",
          ds, MeasureLabel(m));
      for (size_t k = 0; k < methods.size(); ++k) {
        absl::StrAppendFormat(
            &plot, "%s$%s u 1:%d w lp %s t '%s'", k ? ", " : "", name, k + 2,
            LineOptions(methods[k]), MethodLegend(methods[k]));
      }
      plots += plot + "\n";
    }
  }
  return absl::StrCat(
      Header("fig5", 300 * static_cast<int>(datasets.size()), 800), data,
      // Six curves per panel: the key below the plot, not over it.
      "set key below maxrows 3\n",
      absl::StrFormat("set multiplot layout 2,%d title 'Figure 5: relative "
                      "error of the theta strategies and gem, RNoise 0.01, "
                      "eps 1 (log y)'\n",
                      datasets.size()),
      plots, "unset multiplot\n");
}

// Figure 6: relative error against epsilon (grid, RNoise 0.005), one
// colour per dataset, one dash type per method (the paper's solid).
std::string Epsilons(const std::vector<ResultRow>& rows,
                     const std::vector<std::string>& datasets) {
  static const std::vector<std::string> kColors = {
      "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};
  struct Panel {
    std::string measure, title;
    bool vs_greedy;  // I_R against the greedy cover Algorithm 5 perturbs
    std::vector<std::string> methods;
  };
  const std::vector<Panel> panels = {
      {"MI", "I_MI (log y)", false, MeasureMethods("MI")},
      {"P", "I_P (log y)", false, MeasureMethods("P")},
      {"R",
       "I_R vs the non-private greedy cover (log y)",
       true,
       {"vertex_cover"}},
      {"R", "I_R vs the exact minimum cover (log y)", false,
       MeasureMethods("R")}};
  std::string data, plots;
  for (size_t i = 0; i < panels.size(); ++i) {
    const Panel& panel = panels[i];
    std::string plot = absl::StrFormat(
        "set title '%s' noenhanced\nset xlabel 'epsilon'\nset logscale x\n"
        "set logscale y\nset yrange [*:*]\nplot ",
        panel.title);
    size_t curves = 0;
    for (size_t d = 0; d < datasets.size(); ++d) {
      for (size_t k = 0; k < panel.methods.size(); ++k) {
        std::vector<std::string> lines;
        for (const ResultRow* r : Select(rows, [&](const ResultRow& x) {
               return x.figure == "grid" && x.noise == "rnoise-0.005" &&
                      x.dataset == datasets[d] && x.measure == panel.measure &&
                      x.method == panel.methods[k];
             })) {
          // I_R vs greedy: the error against the greedy cover Algorithm 5
          // perturbs (the paper's reference is an approximation too); the
          // error against the exact cover adds the approximation factor.
          const double mean = panel.vs_greedy ? r->stats.greedy_error_mean
                                              : r->stats.error_mean;
          const double spread =
              panel.vs_greedy ? r->stats.greedy_error_std : r->stats.error_std;
          // log scale: zeros at the floor 1e-4. The std is in the data
          // (and results.csv) but not drawn: ten error bars per panel hide
          // the curves.
          lines.push_back(absl::StrFormat("%g %.6g %.6g", r->epsilon,
                                          std::max(1e-4, mean), spread));
        }
        if (lines.empty()) continue;
        const std::string name =
            absl::StrCat("e", i, "_", datasets[d], "_", panel.methods[k]);
        data += Block(name, lines);
        absl::StrAppendFormat(
            &plot, "%s$%s u 1:2 w lp %s %s", curves ? ", " : "", name,
            LineOptions(panel.methods[k], kColors[d % kColors.size()]),
            k == 0 ? absl::StrCat("t '", datasets[d], "'")
                   : std::string("notitle"));
        ++curves;
      }
    }
    if (curves == 0) {
      plots += "plot NaN notitle\n";
      continue;
    }
    // One black key entry per method: the line type that names it.
    for (const std::string& method : panel.methods) {
      const LineStyle style = StyleOf(method);
      absl::StrAppendFormat(&plot,
                            ", NaN w l dt %d lw %g lc rgb '#000000' t '%s'",
                            style.dash, style.width, MethodLegend(method));
    }
    plots += plot + "\n";
  }
  return absl::StrCat(
      Header("fig6", 1400, 520), data,
      // Up to eight key entries per panel: below the plot, not over it.
      "set key below maxrows 4\n",
      "set multiplot layout 1,4 title 'Figure 6: relative error vs epsilon, "
      "RNoise 0.005: paper methods solid, dpq defaults dashed ("
      "exact dotted)'\n",
      plots, "unset multiplot\n");
}

// Figure 7: runtime of the graph build and each release, the paper's
// methods next to dpq's defaults.
std::string Runtime(const std::vector<ResultRow>& rows) {
  std::string data, plots;
  struct Panel {
    std::string title, xlabel;
    RowFilter keep;
    std::function<double(const ResultRow&)> x;
  };
  const std::vector<Panel> panels = {
      {"Tax, RNoise 0.005", "rows (nodes)",
       [](const ResultRow& r) {
         return r.dataset == "tax" && r.noise == "rnoise-0.005";
       },
       [](const ResultRow& r) { return static_cast<double>(r.nodes); }},
      {"Tax, RNoise 0.01", "rows (nodes)",
       [](const ResultRow& r) {
         return r.dataset == "tax" && r.noise == "rnoise-0.01";
       },
       [](const ResultRow& r) { return static_cast<double>(r.nodes); }},
      {"Flights, RNoise 0.005", "number of DCs",
       [](const ResultRow& r) { return r.dataset == "flights"; },
       [](const ResultRow& r) { return static_cast<double>(r.num_dcs); }}};
  // The release curves: (measure, method), drawn in the measure's colour.
  struct Curve {
    std::string measure, method, color;
  };
  const std::vector<Curve> curves = {
      {"MI", "optimized", "#1f77b4"},   {"P", "optimized", "#ff7f0e"},
      {"R", "vertex_cover", "#2ca02c"}, {"MI", "gem", "#1f77b4"},
      {"P", "gem", "#ff7f0e"},          {"R", "cover_bound", "#2ca02c"}};
  for (size_t i = 0; i < panels.size(); ++i) {
    // x -> build, then one first-release time per curve.
    std::map<double, std::vector<std::string>> by_x;
    for (const ResultRow* r : Select(rows, [&](const ResultRow& x) {
           return x.figure == "fig7" && panels[i].keep(x);
         })) {
      auto& v = by_x[panels[i].x(*r)];
      v.resize(1 + curves.size(), "NaN");
      v[0] = absl::StrFormat("%.6g", std::max(r->build_seconds, 1e-6));
      for (size_t k = 0; k < curves.size(); ++k) {
        if (curves[k].measure == r->measure && curves[k].method == r->method) {
          // from scratch, see RunRuntime
          v[1 + k] =
              absl::StrFormat("%.6g", std::max(r->stats.first_seconds, 1e-6));
        }
      }
    }
    std::vector<std::string> lines;
    for (const auto& [x, v] : by_x) {
      lines.push_back(
          absl::StrCat(absl::StrFormat("%g", x), " ", absl::StrJoin(v, " ")));
    }
    if (lines.empty()) lines.push_back(NaNs(2 + curves.size()));
    const std::string name = absl::StrCat("rt", i);
    data += Block(name, lines);
    std::string plot = absl::StrFormat(
        "set title '%s'\nset xlabel '%s'\n%sset logscale y\nset ylabel "
        "'seconds'\nplot $%s u 1:2 w lp pt 5 ps 0.5 lc rgb '#000000' t "
        "'graph build'",
        panels[i].title, panels[i].xlabel,
        i < 2 ? "set logscale x\n" : "unset logscale x\n", name);
    for (size_t k = 0; k < curves.size(); ++k) {
      absl::StrAppendFormat(
          &plot, ", $%s u 1:%d w lp %s t '%s %s'", name, 3 + k,
          LineOptions(curves[k].method, curves[k].color),
          MeasureLabel(curves[k].measure), MethodLegend(curves[k].method));
    }
    plots += plot + "\n";
  }
  return absl::StrCat(Header("fig7", 1400, 520), data,
                      // Seven curves per panel: the key below the plot.
                      "set key below maxrows 4\n",
                      "set multiplot layout 1,3 title 'Figure 7: runtime at "
                      "eps 1, first release on a fresh graph (2 threads for "
                      "the build); paper methods solid, dpq defaults "
                      "dashed'\n",
                      plots, "unset multiplot\n");
}

}  // namespace

std::string MethodLegend(const std::string& method) {
  if (method == "gem" || method == "cover_bound") {
    return absl::StrCat(method, " (dpq default)");
  }
  if (method == "exact") return "exact (dpq default with exact_repair)";
  return absl::StrCat(method, " (paper)");
}

absl::Status WritePlots(const std::vector<ResultRow>& rows,
                        const std::vector<std::string>& datasets,
                        const std::string& out_dir, bool render) {
  auto has = [&](const RowFilter& f) { return !Select(rows, f).empty(); };
  std::vector<std::pair<std::string, std::string>> scripts;
  if (has([](const ResultRow& r) { return r.figure == "fig3"; })) {
    scripts.emplace_back("fig3",
                         TrueVsPrivate(rows, datasets, "fig3",
                                       "Figure 3: true vs private, RNoise "
                                       "alpha 0.01, eps 1 (mean +- std)"));
  }
  if (has([](const ResultRow& r) { return r.figure == "fig4"; })) {
    scripts.emplace_back("fig4",
                         TrueVsPrivate(rows, datasets, "fig4",
                                       "Figure 4: true vs private, CONoise 200 "
                                       "iterations, eps 1 (mean +- std)"));
  }
  if (has([](const ResultRow& r) { return r.figure == "fig5"; })) {
    scripts.emplace_back("fig5", Methods(rows, datasets));
  }
  if (has([](const ResultRow& r) {
        return r.figure == "grid" && r.noise == "rnoise-0.005";
      })) {
    scripts.emplace_back("fig6", Epsilons(rows, datasets));
  }
  if (has([](const ResultRow& r) { return r.figure == "fig7"; })) {
    scripts.emplace_back("fig7", Runtime(rows));
  }
  for (const auto& [name, text] : scripts) {
    const std::string path = absl::StrCat(out_dir, "/", name, ".gp");
    RETURN_IF_ERROR(generators::WriteTextFile(text, path));
    if (!render) continue;
    const std::string command =
        absl::StrCat("cd '", out_dir, "' && gnuplot '", name, ".gp'");
    if (std::system(command.c_str()) != 0) {
      return absl::InternalError(absl::StrCat("gnuplot failed on ", path));
    }
  }
  return absl::OkStatus();
}

}  // namespace dpq::bench::experiments

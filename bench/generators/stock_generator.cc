#include "bench/generators/stock_generator.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "bench/generators/cell_values.h"

namespace dpq::bench::generators {

namespace {

std::vector<std::string> TradingDays(size_t count) {
  std::vector<std::string> days;
  for (absl::CivilDay d(2015, 1, 2); days.size() < count; ++d) {
    const absl::Weekday w = absl::GetWeekday(d);
    if (w == absl::Weekday::saturday || w == absl::Weekday::sunday) continue;
    days.push_back(absl::FormatCivilTime(d));
  }
  return days;
}

// Distinct 2-4 letter symbols.
std::string NewTicker(GeneratorRng& rng,
                      absl::flat_hash_set<std::string>& used) {
  while (true) {
    std::string t;
    const size_t len = 2 + UniformIndex(rng, 3);
    for (size_t i = 0; i < len; ++i)
      t += static_cast<char>('A' + UniformIndex(rng, 26));
    if (used.insert(t).second) return t;
  }
}

std::string Cents(double price) {
  return absl::StrFormat("%.2f", std::max(0.01, price));
}

}  // namespace

absl::StatusOr<CellTable> GenerateStock(const StockOptions& options) {
  if (options.rows == 0 || options.days_per_ticker == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("rows and days_per_ticker must be positive, but are ",
                     options.rows, " and ", options.days_per_ticker, "."));
  }
  using core::table::ColumnType;
  CellTable out;
  auto schema = core::table::Schema::Create({{"ticker", ColumnType::kString},
                                             {"date", ColumnType::kString},
                                             {"open", ColumnType::kDouble},
                                             {"high", ColumnType::kDouble},
                                             {"low", ColumnType::kDouble},
                                             {"close", ColumnType::kDouble},
                                             {"volume", ColumnType::kInt64}});
  if (!schema.ok()) return schema.status();
  out.schema = *std::move(schema);
  GeneratorRng rng(options.seed);
  std::normal_distribution<double> daily(0.0003, 0.02);  // log return
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::vector<std::string> days = TradingDays(options.days_per_ticker);
  absl::flat_hash_set<std::string> used;
  while (out.rows.size() < options.rows) {
    const std::string ticker = NewTicker(rng, used);
    double close = std::exp(std::log(5.0) + unit(rng) * std::log(100.0));
    const double base_volume = 1e5 * std::exp(unit(rng) * std::log(500.0));
    for (size_t d = 0; d < days.size() && out.rows.size() < options.rows; ++d) {
      const double open = close * std::exp(daily(rng) / 4);
      close = open * std::exp(daily(rng));
      const double high = std::max(open, close) * (1 + 0.01 * unit(rng));
      const double low = std::min(open, close) * (1 - 0.01 * unit(rng));
      const auto volume = static_cast<int64_t>(base_volume * (0.5 + unit(rng)));
      out.rows.push_back({ticker, days[d], Cents(open), Cents(high), Cents(low),
                          Cents(close), absl::StrCat(volume)});
    }
  }
  return out;
}

std::string StockConstraints() {
  return "# Synthetic Stock-like quotes (bench/generators).\n"
         "ticker,date -> open,high,low,close,volume\n"
         "not(t1.ticker=t2.ticker&t1.date=t2.date&t1.high<t2.low)\n";
}

}  // namespace dpq::bench::generators

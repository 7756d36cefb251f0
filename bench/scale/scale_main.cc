// dpq-scale: writes a tax-like benchmark table of any size (see
// scale_generator.h).
//
//   dpq-scale --rows 1000000 --out /tmp/tax-1m.csv [--template F.csv]
//             [--seed S] [--density D] [--distinct-columns a,b,c]
//
// The default template is ../shared/data/tax/dirty-50k.csv: its clean twin
// has no conflicts at all under the tax DCs, so replicating it would
// benchmark empty graphs.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "bench/scale/scale_generator.h"

namespace {

constexpr char kUsage[] =
    "usage: dpq-scale --rows N --out F.csv [--template F.csv] [--seed S]\n"
    "                 [--density D] [--distinct-columns a,b,c]\n";

struct Flags {
  std::string template_path =
      std::string(DPQ_SHARED_DATA_DIR) + "/tax/dirty-50k.csv";
  std::string out;
  dpq::bench::scale::ScaleOptions options;
};

bool ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i];
    const std::string value = argv[i + 1];
    bool ok = true;
    if (name == "--rows") {
      ok = absl::SimpleAtoi(value, &flags->options.rows);
    } else if (name == "--out") {
      flags->out = value;
    } else if (name == "--template") {
      flags->template_path = value;
    } else if (name == "--seed") {
      ok = absl::SimpleAtoi(value, &flags->options.seed);
    } else if (name == "--density") {
      ok = absl::SimpleAtoi(value, &flags->options.density);
    } else if (name == "--distinct-columns") {
      flags->options.distinct_columns =
          absl::StrSplit(value, ',', absl::SkipEmpty());
    } else {
      ok = false;
    }
    if (!ok) {
      std::cerr << "dpq-scale: bad flag or value: " << name << " " << value
                << "\n";
      return false;
    }
  }
  return argc % 2 == 1 && !flags->out.empty() && flags->options.rows > 0;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) {
    std::cerr << kUsage;
    return 2;
  }
  std::ifstream in(flags.template_path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << "dpq-scale: cannot read " << flags.template_path << "\n";
    return 1;
  }
  auto templ = dpq::bench::scale::ReadTemplateCsv(text.str());
  if (!templ.ok()) {
    std::cerr << "dpq-scale: " << templ.status().message() << "\n";
    return 1;
  }
  std::ofstream out(flags.out, std::ios::binary | std::ios::trunc);
  if (!out) {
    std::cerr << "dpq-scale: cannot open " << flags.out << " for writing\n";
    return 1;
  }
  // A large stream buffer: the output is written sequentially, line by line.
  std::vector<char> buffer(1 << 20);
  out.rdbuf()->pubsetbuf(buffer.data(),
                         static_cast<std::streamsize>(buffer.size()));
  absl::Status status =
      dpq::bench::scale::WriteScaledTable(*templ, flags.options, out);
  if (!status.ok()) {
    std::cerr << "dpq-scale: " << status.message() << "\n";
    return 1;
  }
  std::cerr << "dpq-scale: wrote " << flags.options.rows << " rows to "
            << flags.out << "\n";
  return 0;
}

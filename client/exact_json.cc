#include "client/exact_json.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/ledger/epsilon_units.h"

namespace dpq::client {
namespace {

// A recursive rewriter over well-formed JSON. It copies the text as it is
// and rewrites only number members that have a "...Units" sibling, so it
// needs no number or escape semantics beyond finding where tokens end.
class Rewriter {
 public:
  explicit Rewriter(absl::string_view json) : json_(json) {}

  absl::StatusOr<std::string> Run() {
    std::string out;
    if (!Value(&out) || (SkipSpace(&out), pos_ != json_.size())) {
      return absl::InternalError(
          absl::StrCat("Cannot rewrite the JSON output at byte ", pos_, "."));
    }
    return out;
  }

 private:
  // One object member: its key (as written, quotes included), the text
  // between the key and the value (':' and spaces), its value as
  // rewritten, and whether the value is a number or a string.
  struct Member {
    std::string key;
    std::string separator;
    std::string value;
    bool number = false;
  };

  bool AtEnd() const { return pos_ >= json_.size(); }
  char Peek() const { return json_[pos_]; }

  void SkipSpace(std::string* out) {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\n' || Peek() == '\t' ||
                        Peek() == '\r')) {
      out->push_back(json_[pos_++]);
    }
  }

  bool String(std::string* out) {
    if (AtEnd() || Peek() != '"') return false;
    out->push_back(json_[pos_++]);
    while (!AtEnd()) {
      const char c = json_[pos_++];
      out->push_back(c);
      if (c == '\\') {
        if (AtEnd()) return false;
        out->push_back(json_[pos_++]);
      } else if (c == '"') {
        return true;
      }
    }
    return false;
  }

  // A number or true/false/null: up to the next delimiter.
  bool Literal(std::string* out) {
    const size_t start = pos_;
    while (!AtEnd() && Peek() != ',' && Peek() != '}' && Peek() != ']' &&
           Peek() != ' ' && Peek() != '\n' && Peek() != '\t' &&
           Peek() != '\r') {
      ++pos_;
    }
    absl::StrAppend(out, json_.substr(start, pos_ - start));
    return pos_ > start;
  }

  bool Array(std::string* out) {
    out->push_back(json_[pos_++]);  // '['
    SkipSpace(out);
    if (!AtEnd() && Peek() == ']') {
      out->push_back(json_[pos_++]);
      return true;
    }
    while (true) {
      if (!Value(out)) return false;
      SkipSpace(out);
      if (AtEnd()) return false;
      const char c = json_[pos_++];
      out->push_back(c);
      if (c == ']') return true;
      if (c != ',') return false;
      SkipSpace(out);
    }
  }

  bool Object(std::string* out) {
    out->push_back(json_[pos_++]);  // '{'
    std::string leading;
    SkipSpace(&leading);
    std::vector<Member> members;
    std::vector<std::string> gaps;  // text after each member (',' and spaces)
    if (!AtEnd() && Peek() == '}') {
      absl::StrAppend(out, leading, "}");
      ++pos_;
      return true;
    }
    while (true) {
      Member m;
      if (!String(&m.key)) return false;
      SkipSpace(&m.separator);
      if (AtEnd() || Peek() != ':') return false;
      m.separator.push_back(json_[pos_++]);
      SkipSpace(&m.separator);
      if (AtEnd()) return false;
      const char first = Peek();
      m.number = first == '-' || (first >= '0' && first <= '9');
      if (!Value(&m.value)) return false;
      std::string gap;
      SkipSpace(&gap);
      if (AtEnd()) return false;
      const char c = json_[pos_++];
      gap.push_back(c);
      if (c == ',') SkipSpace(&gap);
      members.push_back(std::move(m));
      gaps.push_back(std::move(gap));
      if (c == '}') break;
      if (c != ',') return false;
    }
    Exact(members);
    out->append(leading);
    for (size_t i = 0; i < members.size(); ++i) {
      absl::StrAppend(out, members[i].key, members[i].separator,
                      members[i].value, gaps[i]);
    }
    return true;
  }

  // Rewrites each number member "x" that has a "xUnits" sibling.
  static void Exact(std::vector<Member>& members) {
    for (Member& m : members) {
      if (!m.number) continue;
      const std::string units_key = absl::StrCat(
          absl::string_view(m.key).substr(0, m.key.size() - 1), "Units\"");
      for (const Member& u : members) {
        if (u.key != units_key) continue;
        absl::string_view text = u.value;
        if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
          text = text.substr(1, text.size() - 2);
        }
        int64_t units = 0;
        if (!absl::SimpleAtoi(text, &units)) break;
        // A server before the units fields sends none (0): keep the double.
        if (units == 0 && m.value != "0") break;
        m.value = core::ledger::UnitsDecimal(units);
        break;
      }
    }
  }

  bool Value(std::string* out) {
    SkipSpace(out);
    if (AtEnd()) return false;
    switch (Peek()) {
      case '{':
        return Object(out);
      case '[':
        return Array(out);
      case '"':
        return String(out);
      default:
        return Literal(out);
    }
  }

  absl::string_view json_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<std::string> WithExactAmounts(absl::string_view json) {
  return Rewriter(json).Run();
}

}  // namespace dpq::client

#include "server/proto_text.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "core/util/text_check.h"
#include "google/protobuf/descriptor.h"

namespace dpq::server {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// Where a string sits, as a chain up to the root message; turned into text
// ("cube_dimensions[0].labels[2]") only when a problem is reported, so a
// clean walk allocates no paths.
struct FieldPath {
  const FieldPath* parent = nullptr;
  const FieldDescriptor* field = nullptr;
  int index = -1;  // -1 for a singular field

  std::string ToString() const {
    std::string path = parent != nullptr && parent->field != nullptr
                           ? absl::StrCat(parent->ToString(), ".")
                           : std::string();
    absl::StrAppend(&path, field->name());
    if (index >= 0) absl::StrAppend(&path, "[", index, "]");
    return path;
  }
};

std::optional<std::string> ProblemOf(const std::string& value) {
  if (std::optional<size_t> bad = core::util::FindInvalidUtf8(value)) {
    return absl::StrCat("character ",
                        core::util::PositionOf(value, *bad).character,
                        " is not valid UTF-8");
  }
  if (std::optional<core::util::ControlCharacter> c =
          core::util::FindControlCharacter(value)) {
    return absl::StrCat(
        "character ", core::util::PositionOf(value, c->offset).character,
        " is the control character ", core::util::CodePointName(c->code_point));
  }
  return std::nullopt;
}

// Calls visit(value, path) for every set string field of `message`, depth
// first in field-number order, until it returns true; returns whether one
// did.
template <typename Visit>
bool VisitStrings(const Message& message, const FieldPath& at,
                  const Visit& visit) {
  const Reflection* reflection = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    const bool repeated = field->is_repeated();
    const int n = repeated ? reflection->FieldSize(message, field) : 1;
    for (int i = 0; i < n; ++i) {
      const FieldPath path{&at, field, repeated ? i : -1};
      if (field->type() == FieldDescriptor::TYPE_STRING) {
        std::string scratch;
        const std::string& value =
            repeated ? reflection->GetRepeatedStringReference(message, field, i,
                                                              &scratch)
                     : reflection->GetStringReference(message, field, &scratch);
        if (visit(value, path)) return true;
      } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        const Message& child =
            repeated ? reflection->GetRepeatedMessage(message, field, i)
                     : reflection->GetMessage(message, field);
        if (VisitStrings(child, path, visit)) return true;
      }
    }
  }
  return false;
}

}  // namespace

std::optional<UnprintableText> FindUnprintableText(const Message& message) {
  std::optional<UnprintableText> found;
  VisitStrings(
      message, FieldPath{},
      [&](const std::string& value, const FieldPath& path) {
        std::optional<std::string> problem = ProblemOf(value);
        if (problem.has_value()) {
          found = UnprintableText{path.ToString(), *std::move(problem)};
        }
        return found.has_value();
      });
  return found;
}

bool HasInvalidUtf8(const Message& message) {
  return VisitStrings(message, FieldPath{},
                      [](const std::string& value, const FieldPath&) {
                        return core::util::FindInvalidUtf8(value).has_value();
                      });
}

int RepairInvalidUtf8(Message* message) {
  const Reflection* reflection = message->GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(*message, &fields);
  int repaired = 0;
  for (const FieldDescriptor* field : fields) {
    const bool repeated = field->is_repeated();
    const int n = repeated ? reflection->FieldSize(*message, field) : 1;
    for (int i = 0; i < n; ++i) {
      if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        repaired += RepairInvalidUtf8(
            repeated ? reflection->MutableRepeatedMessage(message, field, i)
                     : reflection->MutableMessage(message, field));
        continue;
      }
      if (field->type() != FieldDescriptor::TYPE_STRING) continue;
      const std::string value =
          repeated ? reflection->GetRepeatedString(*message, field, i)
                   : reflection->GetString(*message, field);
      if (!core::util::FindInvalidUtf8(value).has_value()) continue;
      std::string fixed = core::util::ReplaceInvalidUtf8(value);
      if (repeated) {
        reflection->SetRepeatedString(message, field, i, std::move(fixed));
      } else {
        reflection->SetString(message, field, std::move(fixed));
      }
      ++repaired;
    }
  }
  return repaired;
}

}  // namespace dpq::server

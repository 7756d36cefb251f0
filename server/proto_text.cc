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

std::optional<std::string> ProblemOf(const std::string& value) {
  if (std::optional<size_t> bad = core::util::FindInvalidUtf8(value)) {
    return absl::StrCat("character ",
                        core::util::PositionOf(value, *bad).character,
                        " is not valid UTF-8");
  }
  if (std::optional<core::util::ControlCharacter> c =
          core::util::FindControlCharacter(value)) {
    return absl::StrCat("character ",
                        core::util::PositionOf(value, c->offset).character,
                        " is the control character ",
                        core::util::CodePointName(c->code_point));
  }
  return std::nullopt;
}

std::string FieldPath(const std::string& prefix, const FieldDescriptor* field,
                      int index) {
  std::string path = prefix.empty() ? field->name()
                                    : absl::StrCat(prefix, ".", field->name());
  if (index >= 0) absl::StrAppend(&path, "[", index, "]");
  return path;
}

std::optional<UnprintableText> Find(const Message& message,
                                    const std::string& prefix) {
  const Reflection* reflection = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    const bool repeated = field->is_repeated();
    const int n = repeated ? reflection->FieldSize(message, field) : 1;
    for (int i = 0; i < n; ++i) {
      const int index = repeated ? i : -1;
      if (field->type() == FieldDescriptor::TYPE_STRING) {
        std::string scratch;
        const std::string& value =
            repeated ? reflection->GetRepeatedStringReference(message, field,
                                                              i, &scratch)
                     : reflection->GetStringReference(message, field,
                                                      &scratch);
        if (std::optional<std::string> problem = ProblemOf(value)) {
          return UnprintableText{FieldPath(prefix, field, index),
                                 *std::move(problem)};
        }
      } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        const Message& child =
            repeated ? reflection->GetRepeatedMessage(message, field, i)
                     : reflection->GetMessage(message, field);
        if (auto found = Find(child, FieldPath(prefix, field, index))) {
          return found;
        }
      }
    }
  }
  return std::nullopt;
}

// Calls visit(value) for every string field value until it returns true.
template <typename Visit>
bool AnyString(const Message& message, const Visit& visit) {
  const Reflection* reflection = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    const bool repeated = field->is_repeated();
    const int n = repeated ? reflection->FieldSize(message, field) : 1;
    for (int i = 0; i < n; ++i) {
      if (field->type() == FieldDescriptor::TYPE_STRING) {
        std::string scratch;
        const std::string& value =
            repeated ? reflection->GetRepeatedStringReference(message, field,
                                                              i, &scratch)
                     : reflection->GetStringReference(message, field,
                                                      &scratch);
        if (visit(value)) return true;
      } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        if (AnyString(repeated ? reflection->GetRepeatedMessage(message, field, i)
                               : reflection->GetMessage(message, field),
                      visit)) {
          return true;
        }
      }
    }
  }
  return false;
}

}  // namespace

bool HasInvalidUtf8(const Message& message) {
  return AnyString(message, [](const std::string& value) {
    return core::util::FindInvalidUtf8(value).has_value();
  });
}

std::optional<UnprintableText> FindUnprintableText(const Message& message) {
  return Find(message, "");
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
      if (field->type() == FieldDescriptor::TYPE_STRING) {
        std::string scratch;
        const std::string& value =
            repeated ? reflection->GetRepeatedStringReference(*message, field,
                                                              i, &scratch)
                     : reflection->GetStringReference(*message, field,
                                                      &scratch);
        if (!core::util::FindInvalidUtf8(value).has_value()) continue;
        std::string fixed = core::util::ReplaceInvalidUtf8(value);
        if (repeated) {
          reflection->SetRepeatedString(message, field, i, std::move(fixed));
        } else {
          reflection->SetString(message, field, std::move(fixed));
        }
        ++repaired;
      } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        repaired += RepairInvalidUtf8(
            repeated ? reflection->MutableRepeatedMessage(message, field, i)
                     : reflection->MutableMessage(message, field));
      }
    }
  }
  return repaired;
}

}  // namespace dpq::server

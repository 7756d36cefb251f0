#include "server/http/json_transcoder.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/util/status_macros.h"
#include "core/util/text_check.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"

namespace dpq::server::http {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// A field by its proto name or its JSON (lowerCamelCase) name.
const FieldDescriptor* FindField(const Descriptor* type,
                                 absl::string_view name) {
  const std::string key(name);
  if (const FieldDescriptor* f = type->FindFieldByName(key)) return f;
  for (int i = 0; i < type->field_count(); ++i) {
    if (type->field(i)->json_name() == key) return type->field(i);
  }
  return nullptr;
}

std::string FieldNames(const Descriptor* type) {
  std::vector<std::string> names;
  for (int i = 0; i < type->field_count(); ++i) {
    names.push_back(type->field(i)->name());
  }
  return names.empty() ? "none" : absl::StrJoin(names, ", ");
}

absl::Status BadParameter(absl::string_view path, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("Parameter '", path, "': ", why, "."));
}

// The JSON value of `text` for a scalar field: a bool for bools (which
// protobuf's parser takes only unquoted), a string otherwise (its parser
// takes numbers and enum names quoted), so protobuf itself checks the
// value.
absl::StatusOr<google::protobuf::Value> ScalarValue(const FieldDescriptor* f,
                                                    absl::string_view path,
                                                    absl::string_view text) {
  google::protobuf::Value value;
  if (f->type() == FieldDescriptor::TYPE_BOOL) {
    const std::string lower = absl::AsciiStrToLower(text);
    if (lower == "true" || lower == "1") {
      value.set_bool_value(true);
    } else if (lower == "false" || lower == "0") {
      value.set_bool_value(false);
    } else {
      return BadParameter(path, "expected true or false");
    }
    return value;
  }
  value.set_string_value(std::string(text));
  return value;
}

// Sets `path` = `text` in `root` (the JSON object of a message of `type`).
absl::Status SetInStruct(const Descriptor* type, absl::string_view path,
                         absl::string_view text,
                         google::protobuf::Struct* root) {
  const std::vector<absl::string_view> parts = absl::StrSplit(path, '.');
  google::protobuf::Struct* object = root;
  for (size_t i = 0; i < parts.size(); ++i) {
    const FieldDescriptor* f = FindField(type, parts[i]);
    if (f == nullptr) {
      return BadParameter(path, absl::StrCat(type->full_name(),
                                             " has no such field (its fields: ",
                                             FieldNames(type), ")"));
    }
    google::protobuf::Value& slot = (*object->mutable_fields())[f->name()];
    if (i + 1 < parts.size()) {
      if (f->type() != FieldDescriptor::TYPE_MESSAGE || f->is_repeated()) {
        return BadParameter(
            path, absl::StrCat("'", parts[i], "' is not a message field"));
      }
      type = f->message_type();
      object = slot.mutable_struct_value();
      continue;
    }
    if (f->type() == FieldDescriptor::TYPE_MESSAGE) {
      return BadParameter(path, "a message field cannot be set from text");
    }
    ASSIGN_OR_RETURN(google::protobuf::Value value, ScalarValue(f, path, text));
    if (f->is_repeated()) {
      *slot.mutable_list_value()->add_values() = std::move(value);
    } else {
      slot = std::move(value);
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::unique_ptr<Message> NewMessage(const Descriptor* type) {
  return std::unique_ptr<Message>(
      google::protobuf::MessageFactory::generated_factory()
          ->GetPrototype(type)
          ->New());
}

absl::Status MessageFromJson(absl::string_view json, Message* message) {
  if (absl::StripAsciiWhitespace(json).empty()) return absl::OkStatus();
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status = google::protobuf::util::JsonStringToMessage(
      std::string(json), message, options);
  if (status.ok()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "The body is not a ", message->GetDescriptor()->full_name(),
      " in JSON (protobuf's JSON mapping): ", status.message().ToString()));
}

absl::Status SetFields(const std::vector<QueryParameter>& fields,
                       Message* message) {
  if (fields.empty()) return absl::OkStatus();
  google::protobuf::Struct object;
  for (const auto& [path, value] : fields) {
    // Percent-decoding can make any bytes; a JSON string holds UTF-8 only.
    if (core::util::FindInvalidUtf8(path).has_value() ||
        core::util::FindInvalidUtf8(value).has_value()) {
      return absl::InvalidArgumentError(
          "A query parameter or path segment is not valid UTF-8.");
    }
    RETURN_IF_ERROR(
        SetInStruct(message->GetDescriptor(), path, value, &object));
  }
  std::string json;
  if (!google::protobuf::util::MessageToJsonString(object, &json).ok()) {
    return absl::InternalError("Cannot print the parameters as JSON.");
  }
  std::unique_ptr<Message> fields_only = NewMessage(message->GetDescriptor());
  const auto status =
      google::protobuf::util::JsonStringToMessage(json, fields_only.get());
  if (!status.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("A parameter has a value of the wrong type for ",
                     message->GetDescriptor()->full_name(), ": ",
                     status.message().ToString()));
  }
  message->MergeFrom(*fields_only);
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Message>> RequestFromHttp(
    const RouteMatch& match, const std::vector<QueryParameter>& query,
    absl::string_view body) {
  const Route& route = *match.route;
  std::unique_ptr<Message> request = NewMessage(route.method->input_type());
  if (route.body == "*") {
    if (!query.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          route.http_method, " ", route.path.text(),
          " takes its request as a JSON body, not as query parameters (got '",
          query.front().first, "')."));
    }
    RETURN_IF_ERROR(MessageFromJson(body, request.get()));
  } else {
    if (!absl::StripAsciiWhitespace(body).empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(route.http_method, " ", route.path.text(),
                       " takes no body: send its fields as query parameters."));
    }
    RETURN_IF_ERROR(SetFields(query, request.get()));
  }
  // The path's variables win over the body's copy of the same field.
  RETURN_IF_ERROR(SetFields(match.bindings, request.get()));
  return request;
}

absl::StatusOr<std::string> JsonFromMessage(const Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string json;
  const auto status =
      google::protobuf::util::MessageToJsonString(message, &json, options);
  if (!status.ok()) {
    return absl::InternalError(
        absl::StrCat("Cannot print the ", message.GetDescriptor()->full_name(),
                     " as JSON: ", status.message().ToString()));
  }
  return json;
}

}  // namespace dpq::server::http

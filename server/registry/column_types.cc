#include "server/registry/column_types.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dpq::server::registry {

v1::ColumnType ToProtoType(core::table::ColumnType type) {
  switch (type) {
    case core::table::ColumnType::kInt64:
      return v1::COLUMN_TYPE_INT64;
    case core::table::ColumnType::kDouble:
      return v1::COLUMN_TYPE_DOUBLE;
    case core::table::ColumnType::kString:
      return v1::COLUMN_TYPE_STRING;
  }
  return v1::COLUMN_TYPE_UNSPECIFIED;
}

void AppendColumns(const core::table::Schema& schema,
                   google::protobuf::RepeatedPtrField<v1::Column>* out) {
  for (const core::table::ColumnSpec& spec : schema.columns()) {
    v1::Column* column = out->Add();
    column->set_name(spec.name);
    column->set_type(ToProtoType(spec.type));
  }
}

absl::StatusOr<core::table::ColumnType> FromProtoType(v1::ColumnType type,
                                                      const std::string& name) {
  switch (type) {
    case v1::COLUMN_TYPE_INT64:
      return core::table::ColumnType::kInt64;
    case v1::COLUMN_TYPE_DOUBLE:
      return core::table::ColumnType::kDouble;
    case v1::COLUMN_TYPE_STRING:
      return core::table::ColumnType::kString;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "column_types: column '", name, "' has type ", static_cast<int>(type),
          ", which is not INT64, DOUBLE or STRING."));
  }
}

}  // namespace dpq::server::registry

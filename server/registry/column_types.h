// Column types between the API (v1::ColumnType, v1::Column) and core.
#ifndef DPQ_SERVER_REGISTRY_COLUMN_TYPES_H_
#define DPQ_SERVER_REGISTRY_COLUMN_TYPES_H_

#include <string>

#include "absl/status/statusor.h"
#include "core/table/schema.h"
#include "dpq/v1/dataset.pb.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace dpq::server::registry {

v1::ColumnType ToProtoType(core::table::ColumnType type);

// Appends every column of `schema`, in header order, with its name and
// type: the frozen column_types of a manifest and DatasetInfo.columns.
void AppendColumns(const core::table::Schema& schema,
                   google::protobuf::RepeatedPtrField<v1::Column>* out);

// kInvalidArgument naming the column for COLUMN_TYPE_UNSPECIFIED or an
// unknown value (callers treat UNSPECIFIED as "untyped" before calling).
absl::StatusOr<core::table::ColumnType> FromProtoType(v1::ColumnType type,
                                                      const std::string& name);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_COLUMN_TYPES_H_

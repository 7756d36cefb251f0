#include "tests/integration/small_datasets.h"

#include "absl/strings/str_cat.h"

namespace dpq::integration {

std::string PeopleCsv() {
  std::string csv = "Sex,Age,Label\n";
  for (int i = 0; i < 40; ++i) {
    absl::StrAppend(&csv, i % 2 == 0 ? "F" : "M", ",", 20 + i, ",",
                    20 + i >= 40 ? "yes" : "no", "\n");
  }
  return csv;
}

v1::DatasetManifest PeopleManifest() {
  v1::DatasetManifest m;
  m.set_dataset_id("people");
  m.set_constraints("Sex -> Label\n");
  m.set_public_max_rows(100);
  m.set_infer_column_types(true);
  for (const char* column : {"Sex", "Age", "Label"}) {
    v1::CubeDimension* dim = m.add_cube_dimensions();
    dim->set_column(column);
    dim->set_infer_domain(true);  // the owner publishes the value sets
  }
  m.add_public_cuboids()->add_dimensions("Sex");
  return m;
}

v1::DatasetManifest NetManifest() {
  v1::DatasetManifest m;
  m.set_dataset_id("net");
  m.set_description("a small network");
  m.set_kind(v1::DATASET_KIND_GRAPH);
  for (const char* node : {"a", "b", "c", "d", "e", "f"}) {
    m.add_node_labels(node);
  }
  return m;
}

}  // namespace dpq::integration

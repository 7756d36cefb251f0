// Two tiny datasets the release tests register through a real server: a
// 40-row "people" table (cube dimensions on every column, Sex published
// exactly) and a 6-node "net" graph.
#ifndef DPQ_TESTS_INTEGRATION_SMALL_DATASETS_H_
#define DPQ_TESTS_INTEGRATION_SMALL_DATASETS_H_

#include <string>

#include "dpq/v1/dataset.pb.h"

namespace dpq::integration {

// 40 people: Sex alternates F/M, Age 20..59, Label "yes" for Age >= 40.
std::string PeopleCsv();

// "people": DC Sex -> Label, public_max_rows 100, inferred column types,
// every column a cube dimension with an inferred (owner-published) domain,
// and the Sex cuboid public exactly (so other releases are charged 2x).
v1::DatasetManifest PeopleManifest();

// A triangle a-b-c with a pendant d, and e-f; header included.
inline constexpr char kEdges[] = "source,target\na,b\nb,c\nc,a\nc,d\ne,f\n";

// "net": the graph of kEdges with its declared node universe a..f.
v1::DatasetManifest NetManifest();

}  // namespace dpq::integration

#endif  // DPQ_TESTS_INTEGRATION_SMALL_DATASETS_H_

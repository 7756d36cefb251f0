// The fuzz targets (docs/fuzzing.md): one function per parser of untrusted
// input, bytes in, invariants checked (FUZZ_CHECK aborts), always 0 out.
// Each is libFuzzer's LLVMFuzzerTestOneInput in its own fuzzer binary and
// is called directly by the regression test on the kept inputs.
#ifndef DPQ_TESTS_FUZZ_FUZZ_TARGETS_H_
#define DPQ_TESTS_FUZZ_FUZZ_TARGETS_H_

#include <cstddef>
#include <cstdint>

namespace dpq::fuzz {

// core/table/csv_reader.h: ReadCsv under the options the first byte picks.
int FuzzCsvReader(const uint8_t* data, size_t size);
// core/constraints/dc_parser.h, one syntax each: the first line declares
// the schema, every other line is one DC of that syntax.
int FuzzDcNative(const uint8_t* data, size_t size);
int FuzzDcFd(const uint8_t* data, size_t size);
int FuzzDcBenchmark(const uint8_t* data, size_t size);
// server/registry/manifest.h: a stored manifest.json.
int FuzzManifest(const uint8_t* data, size_t size);
// server/config.h: a --config file.
int FuzzConfig(const uint8_t* data, size_t size);
// core/selection/nodes/edge_list.h: a graph dataset's edge list.
int FuzzEdgeList(const uint8_t* data, size_t size);
// client/flag_values.h: --cube-dimension and the cuboid name lists.
int FuzzCubeDimension(const uint8_t* data, size_t size);
// server/buyer/<rpc>_impl.h (Prepare<Rpc>): the first byte picks the release
// request type, the rest is its wire encoding.
int FuzzReleaseRequest(const uint8_t* data, size_t size);
// server/http: an HTTP request's route, query and JSON body, and a
// streamed body's lines ("METHOD PATH?QUERY", then the body).
int FuzzHttpRequest(const uint8_t* data, size_t size);

}  // namespace dpq::fuzz

#endif  // DPQ_TESTS_FUZZ_FUZZ_TARGETS_H_

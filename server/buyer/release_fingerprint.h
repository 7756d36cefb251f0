// The parameter fingerprint of a charged release (release_pipeline.h, step
// 5): what makes a retry with the same request_id the same request. Each
// RPC's ReleaseIdentity lists its parameters with these spellings; they are
// frozen, since a retry of a request recorded by an earlier server must give
// the same fingerprint to replay its answer
// (ReleaseRpcsTest.FingerprintsOfEarlierReleasesAreUnchanged): a new field is
// appended, never inserted, and no value changes its spelling.
#ifndef DPQ_SERVER_BUYER_RELEASE_FINGERPRINT_H_
#define DPQ_SERVER_BUYER_RELEASE_FINGERPRINT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace dpq::server::buyer {

// A double as 16 hex digits of its bits: 0.1 and 0.1000000000000001 are
// different requests.
std::string DoubleBits(double value);

// Weights as their bits (DoubleBits), comma-separated.
std::string WeightBits(const std::vector<double>& weights);

// Lowercase hex SHA-256 of the canonical text of a request's parameters
// (everything but request_id; core::util::Sha256Hex):
// "dpq.v1.BuyerService/<rpc>\n" then one
// "key=value\n" line per parameter, in the given order, each value
// C-escaped (so a value cannot forge a line; ids, enum names and hex
// numbers are unchanged by the escaping, which keeps the fingerprints of
// earlier releases).
std::string FingerprintOf(
    absl::string_view rpc,
    const std::vector<std::pair<std::string, std::string>>& parameters);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_RELEASE_FINGERPRINT_H_

// A slot of a bounded resource held for one principal until destroyed (or
// moved from): the heavy-job limiter's and the heavy-release queue's.
// `Owner` gives it back in Owner::Release(principal), which must be
// accessible to PrincipalSlot<Owner> (a friend).
#ifndef DPQ_SERVER_BUYER_PRINCIPAL_SLOT_H_
#define DPQ_SERVER_BUYER_PRINCIPAL_SLOT_H_

#include <string>
#include <utility>

namespace dpq::server::buyer {

template <typename Owner>
class PrincipalSlot {
 public:
  PrincipalSlot(Owner* owner, std::string principal)
      : owner_(owner), principal_(std::move(principal)) {}
  PrincipalSlot(PrincipalSlot&& other) noexcept
      : owner_(other.owner_), principal_(std::move(other.principal_)) {
    other.owner_ = nullptr;
  }
  PrincipalSlot(const PrincipalSlot&) = delete;
  PrincipalSlot& operator=(const PrincipalSlot&) = delete;
  PrincipalSlot& operator=(PrincipalSlot&&) = delete;
  ~PrincipalSlot() {
    if (owner_ != nullptr) owner_->Release(principal_);
  }

 private:
  Owner* owner_;
  std::string principal_;
};

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_PRINCIPAL_SLOT_H_

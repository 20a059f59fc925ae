// What simple_line and simple_formation share: agents matched to target
// slots (scipy's linear_sum_assignment) and scored by the matched distances.
#ifndef ENVPOOL_MPE2_SCENARIOS_SLOT_MATCHING_H_
#define ENVPOOL_MPE2_SCENARIOS_SLOT_MATCHING_H_

#include <array>
#include <cstddef>
#include <vector>

#include "envpool/mpe2/assignment.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/sum.h"

namespace envpool::mpe2 {

// The mean of the matched distances (clipped to 2) as the shared reward, and
// success when every matched distance is under kDistThreshold.
class SlotMatching {
 public:
  static constexpr double kDistThreshold = 0.05;
  // Only the shared reward counts (SimpleEnv's local_ratio=0).
  static constexpr double kLocalRatio = 0.0;

  // -mean(clip(matched distances, 0, 2)) for the agents and `slots`.
  double Match(const World& world, const std::vector<Vec2>& slots) {
    const std::size_t n = world.num_agents;
    std::vector<double> dists(n * n);
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t s = 0; s < n; ++s) {
        const std::array<double, 2> d{world.agent(a).pos[0] - slots[s][0],
                                      world.agent(a).pos[1] - slots[s][1]};
        dists[a * n + s] = NpNorm(d);
      }
    }
    const std::vector<std::size_t> column = MinCostAssignment(dists, n);
    matched_.resize(n);
    std::vector<double> clipped(n);
    for (std::size_t a = 0; a < n; ++a) {
      matched_[a] = dists[a * n + column[a]];
      clipped[a] = matched_[a] < 2.0 ? matched_[a] : 2.0;
    }
    return -NpMean(clipped);
  }

  void Forget() { matched_.clear(); }

  [[nodiscard]] bool AllWithinThreshold() const {
    if (matched_.empty()) {
      return false;
    }
    for (double d : matched_) {
      if (!(d < kDistThreshold)) {
        return false;
      }
    }
    return true;
  }

 private:
  std::vector<double> matched_;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SLOT_MATCHING_H_

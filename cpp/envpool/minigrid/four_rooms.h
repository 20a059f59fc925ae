// minigrid's FourRoomsEnv (MiniGrid-FourRooms-v0): four rooms joined by
// gaps at random places in the 19x19 grid; the agent and the goal start at
// agent_pos and goal_pos, or at random where those are empty (None).
#ifndef ENVPOOL_MINIGRID_FOUR_ROOMS_H_
#define ENVPOOL_MINIGRID_FOUR_ROOMS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "envpool/minigrid/minigrid_env.h"
#include "envpool/minigrid/options.h"

namespace envpool::minigrid {

class FourRooms : public MiniGridEnv {
 public:
  static constexpr std::int64_t kSize = 19;

  static Config DefaultConfig() {
    Config config = WithCommonOptions({{"agent_pos", std::vector<double>{}},
                                       {"goal_pos", std::vector<double>{}}},
                                      true);
    config.Set("max_steps", std::int64_t{100});
    return config;
  }
  static EnvSpec Spec(const Config& config) {
    for (const char* name : {"agent_pos", "goal_pos"}) {
      const auto pos = OptionalPos(config, name);
      if (pos && !InsideWalls(*pos, kSize, kSize)) {
        throw std::invalid_argument(std::string(name) +
                                    " must be a cell inside the 19x19 grid's "
                                    "outer walls");
      }
    }
    return MiniGridEnv::Spec(config);
  }
  explicit FourRooms(const Config& config)
      : MiniGridEnv(config, kSize, kSize, 100, false),
        start_pos_(OptionalPos(config, "agent_pos")),
        goal_pos_(OptionalPos(config, "goal_pos")) {}

 protected:
  void GenGrid() override {
    WalledGrid();
    SplitIntoRooms(2, 0, [this](Pos gap) { grid_.Clear(gap); });
    if (start_pos_) {
      agent_pos_ = *start_pos_;
      grid_.Clear(agent_pos_);
      agent_dir_ = RandInt(0, 4);
    } else {
      PlaceAgent();
    }
    if (goal_pos_) {
      grid_.Set(*goal_pos_, Goal());
    } else {
      PlaceObj(Goal());
    }
    mission_ = "reach the goal";
  }

 private:
  std::optional<Pos> start_pos_;
  std::optional<Pos> goal_pos_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_FOUR_ROOMS_H_

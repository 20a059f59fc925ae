// minigrid's LavaGapEnv (MiniGrid-LavaGapS*) and CrossingEnv
// (MiniGrid-LavaCrossing*, MiniGrid-SimpleCrossing*): rivers of lava (or
// walls, obstacle_type="wall") between the agent in the top-left corner and
// the goal in the bottom-right one, each crossable at one gap.
#ifndef ENVPOOL_MINIGRID_LAVA_H_
#define ENVPOOL_MINIGRID_LAVA_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/minigrid_env.h"
#include "envpool/minigrid/options.h"

namespace envpool::minigrid {

inline std::string CrossingMission(const WorldObj& obstacle) {
  return obstacle.type == ObjType::kLava
             ? "avoid the lava and get to the green goal square"
             : "find the opening and get to the green goal square";
}

// What LavaGap and Crossing share: a square room, obstacle_type's obstacle,
// the agent in the top-left corner facing right and the goal in the
// bottom-right one.
class ObstacleRoom : public MiniGridEnv {
 protected:
  explicit ObstacleRoom(const Config& config)
      : MiniGridEnv(config, 4, false), obstacle_(ObstacleType(config)) {}

  // The walled grid with the agent and the goal in their corners; returns
  // {width, height}.
  Pos WalledGridWithCorners() {
    const auto [w, h] = WalledGrid();
    agent_pos_ = {1, 1};
    agent_dir_ = 0;
    grid_.Set({w - 2, h - 2}, Goal());
    return {w, h};
  }

  WorldObj obstacle_;
};

class LavaGap : public ObstacleRoom {
 public:
  static Config DefaultConfig() {
    return WithCommonOptions(
        {{"size", std::int64_t{5}}, {"obstacle_type", std::string("lava")}},
        false);
  }
  static EnvSpec Spec(const Config& config) {
    CheckAtLeast("size", config.Get<std::int64_t>("size"), 5,
                 "room for the gap between the agent and the goal");
    ObstacleType(config);
    return MiniGridEnv::Spec(config);
  }
  explicit LavaGap(const Config& config) : ObstacleRoom(config) {}

 protected:
  void GenGrid() override {
    const auto [w, h] = WalledGridWithCorners();
    const std::int64_t gap_x = RandInt(2, w - 2);
    const std::int64_t gap_y = RandInt(1, h - 1);
    grid_.VertWall(gap_x, 1, h - 2, obstacle_);
    grid_.Clear({gap_x, gap_y});
    mission_ = CrossingMission(obstacle_);
  }
};

class Crossing : public ObstacleRoom {
 public:
  static Config DefaultConfig() {
    return WithCommonOptions({{"size", std::int64_t{9}},
                              {"num_crossings", std::int64_t{1}},
                              {"obstacle_type", std::string("lava")}},
                             false);
  }
  static EnvSpec Spec(const Config& config) {
    const auto size = config.Get<std::int64_t>("size");
    CheckAtLeast("size", size, 5, "room for a river between the walls");
    CheckOdd("size", size, "rivers run on even rows and columns");
    CheckAtLeast("num_crossings", config.Get<std::int64_t>("num_crossings"), 0);
    ObstacleType(config);
    return MiniGridEnv::Spec(config);
  }
  explicit Crossing(const Config& config)
      : ObstacleRoom(config),
        num_crossings_(config.Get<std::int64_t>("num_crossings")) {}

 protected:
  void GenGrid() override {
    const auto [w, h] = WalledGridWithCorners();
    // (vertical?, position) of each candidate river, shuffled as minigrid
    // shuffles its list.
    std::vector<std::pair<bool, std::int64_t>> rivers;
    for (std::int64_t i = 2; i < h - 2; i += 2) {
      rivers.emplace_back(true, i);
    }
    for (std::int64_t j = 2; j < w - 2; j += 2) {
      rivers.emplace_back(false, j);
    }
    np_random_.Shuffle(std::span(rivers));
    rivers.resize(std::min<std::size_t>(
        rivers.size(), static_cast<std::size_t>(num_crossings_)));
    std::vector<std::int64_t> rivers_v;
    std::vector<std::int64_t> rivers_h;
    for (const auto& [vertical, pos] : rivers) {
      (vertical ? rivers_v : rivers_h).push_back(pos);
    }
    std::sort(rivers_v.begin(), rivers_v.end());
    std::sort(rivers_h.begin(), rivers_h.end());
    for (std::int64_t i = 1; i < w - 1; ++i) {
      for (const std::int64_t j : rivers_h) {
        grid_.Set({i, j}, obstacle_);
      }
    }
    for (const std::int64_t i : rivers_v) {
      for (std::int64_t j = 1; j < h - 1; ++j) {
        grid_.Set({i, j}, obstacle_);
      }
    }
    // The path's moves: 1 crosses a vertical river (rightwards).
    std::vector<std::uint8_t> moves(rivers_v.size(), 1);
    moves.insert(moves.end(), rivers_h.size(), 0);
    np_random_.Shuffle(std::span(moves));
    std::vector<std::int64_t> limits_v{0};
    limits_v.insert(limits_v.end(), rivers_v.begin(), rivers_v.end());
    limits_v.push_back(h - 1);
    std::vector<std::int64_t> limits_h{0};
    limits_h.insert(limits_h.end(), rivers_h.begin(), rivers_h.end());
    limits_h.push_back(w - 1);
    std::size_t room_i = 0;
    std::size_t room_j = 0;
    for (const std::uint8_t rightwards : moves) {
      Pos gap;
      if (rightwards != 0) {
        gap.x = limits_v[room_i + 1];
        gap.y = RandInt(limits_h[room_j] + 1, limits_h[room_j + 1]);
        ++room_i;
      } else {
        gap.x = RandInt(limits_v[room_i] + 1, limits_v[room_i + 1]);
        gap.y = limits_h[room_j + 1];
        ++room_j;
      }
      grid_.Clear(gap);
    }
    // minigrid's CrossingEnv keeps the mission its MissionSpace gave.
    mission_ = CrossingMission(obstacle_);
  }

 private:
  std::int64_t num_crossings_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_LAVA_H_

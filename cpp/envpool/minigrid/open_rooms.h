// minigrid's remaining single-grid tasks: MemoryEnv (MiniGrid-Memory*: see
// an object in the start room, go down the hallway to its twin),
// DistShiftEnv (MiniGrid-DistShift*: two strips of lava between the agent
// and the goal), PlaygroundEnv (MiniGrid-Playground-v0: nine rooms with
// doors and objects, no task) and DynamicObstaclesEnv
// (MiniGrid-Dynamic-Obstacles-*: reach the goal while balls move at random;
// three actions).
#ifndef ENVPOOL_MINIGRID_OPEN_ROOMS_H_
#define ENVPOOL_MINIGRID_OPEN_ROOMS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/minigrid_env.h"
#include "envpool/minigrid/options.h"

namespace envpool::minigrid {

class Memory : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return WithCommonOptions(
        {{"size", std::int64_t{8}}, {"random_length", false}}, false);
  }
  static EnvSpec Spec(const Config& config) {
    const auto size = config.Get<std::int64_t>("size");
    CheckAtLeast("size", size, 7, "the start room and the hallway");
    CheckOdd("size", size, "the hallway runs along the middle row");
    return MiniGridEnv::Spec(config);
  }
  explicit Memory(const Config& config)
      : MiniGridEnv(config, 5, false),
        random_length_(config.Get<bool>("random_length")) {}

 protected:
  void GenGrid() override {
    const auto [w, h] = WalledGrid();
    const std::int64_t upper = h / 2 - 2;
    const std::int64_t lower = h / 2 + 2;
    const std::int64_t hallway_end = random_length_ ? RandInt(4, w - 2) : w - 3;
    for (std::int64_t i = 1; i < 5; ++i) {
      grid_.Set({i, upper}, Wall());
      grid_.Set({i, lower}, Wall());
    }
    grid_.Set({4, upper + 1}, Wall());
    grid_.Set({4, lower - 1}, Wall());
    for (std::int64_t i = 5; i < hallway_end; ++i) {
      grid_.Set({i, upper + 1}, Wall());
      grid_.Set({i, lower - 1}, Wall());
    }
    for (std::int64_t j = 0; j < h; ++j) {
      if (j != h / 2) {
        grid_.Set({hallway_end, j}, Wall());
      }
      grid_.Set({hallway_end + 2, j}, Wall());
    }
    agent_pos_ = {RandInt(1, hallway_end + 1), h / 2};
    agent_dir_ = 0;
    static constexpr std::array<ObjType, 2> kKeyBall = {ObjType::kKey,
                                                        ObjType::kBall};
    const ObjType seen = RandElem(std::span<const ObjType>(kKeyBall));
    grid_.Set({1, h / 2 - 1}, MakeObj(seen, Color::kGreen));
    // minigrid picks [Ball, Key] or [Key, Ball] for the two ends
    const bool ball_first = RandInt(0, 2) == 0;
    const ObjType first = ball_first ? ObjType::kBall : ObjType::kKey;
    const ObjType second = ball_first ? ObjType::kKey : ObjType::kBall;
    const Pos pos0{hallway_end + 1, h / 2 - 2};
    const Pos pos1{hallway_end + 1, h / 2 + 2};
    grid_.Set(pos0, MakeObj(first, Color::kGreen));
    grid_.Set(pos1, MakeObj(second, Color::kGreen));
    const Pos below0{pos0.x, pos0.y + 1};
    const Pos above1{pos1.x, pos1.y - 1};
    success_ = seen == first ? below0 : above1;
    failure_ = seen == first ? above1 : below0;
    mission_ = "go to the matching object at the end of the hallway";
  }

  StepResult StepTask(Action action) override {
    StepResult result = BaseStep(action == kPickup ? kToggle : action);
    if (agent_pos_ == success_) {
      result = {Reward(), true};
    }
    if (agent_pos_ == failure_) {
      result = {0.0, true};
    }
    return result;
  }

 private:
  bool random_length_;
  Pos success_;
  Pos failure_;
};

class DistShift : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    Config own = WithAgentStartOptions(
        {{"width", std::int64_t{9}}, {"height", std::int64_t{7}}});
    own.Set("strip2_row", std::int64_t{2});
    return WithCommonOptions(std::move(own), false);
  }
  static EnvSpec Spec(const Config& config) {
    const auto w = config.Get<std::int64_t>("width");
    const auto h = config.Get<std::int64_t>("height");
    CheckAtLeast("width", w, 4, "walls around the goal");
    CheckAtLeast("height", h, 3);
    const auto row = config.Get<std::int64_t>("strip2_row");
    if (row < 1 || row > h - 2) {
      throw std::invalid_argument(
          "strip2_row must be a row inside the walls "
          "(1 to height - 2), got " +
          std::to_string(row));
    }
    CheckAgentStart(config, w, h);
    return MiniGridEnv::Spec(config);
  }
  explicit DistShift(const Config& config)
      : MiniGridEnv(config, config.Get<std::int64_t>("width"),
                    config.Get<std::int64_t>("height"),
                    4 * config.Get<std::int64_t>("width") *
                        config.Get<std::int64_t>("height"),
                    true),
        start_(AgentStartOptions(config)),
        strip2_row_(config.Get<std::int64_t>("strip2_row")) {}

 protected:
  void GenGrid() override {
    const auto [w, h] = WalledGrid();
    grid_.Set({w - 2, 1}, Goal());
    for (std::int64_t i = 0; i < w - 6; ++i) {
      grid_.Set({3 + i, 1}, Lava());
      grid_.Set({3 + i, strip2_row_}, Lava());
    }
    StartAgent(start_.pos, start_.dir);
    mission_ = "get to the green goal square";
  }

 private:
  AgentStart start_;
  std::int64_t strip2_row_;
};

class Playground : public MiniGridEnv {
 public:
  static constexpr std::int64_t kSize = 19;

  static Config DefaultConfig() {
    Config config = WithCommonOptions({}, true);
    config.Set("max_steps", std::int64_t{100});
    return config;
  }
  static EnvSpec Spec(const Config& config) {
    return MiniGridEnv::Spec(config);
  }
  explicit Playground(const Config& config)
      : MiniGridEnv(config, kSize, kSize, 100, false) {}

 protected:
  void GenGrid() override {
    WalledGrid();
    SplitIntoRooms(3, 1,
                   [this](Pos door) { grid_.Set(door, Door(RandColor())); });
    PlaceAgent();
    static constexpr std::array<ObjType, 3> kKinds = {
        ObjType::kKey, ObjType::kBall, ObjType::kBox};
    for (int k = 0; k < 12; ++k) {
      const ObjType kind = RandElem(std::span<const ObjType>(kKinds));
      const Color color = RandColor();
      PlaceObj(MakeObj(kind, color));
    }
    mission_ = "";
  }
};

class DynamicObstacles : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    Config own = WithAgentStartOptions({{"size", std::int64_t{8}}});
    own.Set("n_obstacles", std::int64_t{4});
    return WithCommonOptions(std::move(own), false);
  }
  static EnvSpec Spec(const Config& config) {
    const auto size = config.Get<std::int64_t>("size");
    CheckAtLeast("size", size, 4, "walls around the agent and the goal");
    CheckAgentStart(config, size, size);
    CheckAtLeast("n_obstacles", config.Get<std::int64_t>("n_obstacles"), 0);
    return MiniGridEnv::Spec(config, kForward + 1);
  }
  explicit DynamicObstacles(const Config& config)
      : MiniGridEnv(config, 4, true),
        start_(AgentStartOptions(config)),
        num_obstacles_(NumObstacles(config)) {}

 protected:
  // minigrid keeps n_obstacles up to size / 2 + 1, else takes int(size / 2).
  static std::int64_t NumObstacles(const Config& config) {
    const auto n = config.Get<std::int64_t>("n_obstacles");
    const double size = static_cast<double>(config.Get<std::int64_t>("size"));
    return static_cast<double>(n) <= size / 2 + 1
               ? n
               : static_cast<std::int64_t>(size / 2);
  }

  void GenGrid() override {
    const auto [w, h] = WalledGrid();
    grid_.Set({w - 2, h - 2}, Goal());
    StartAgent(start_.pos, start_.dir);
    obstacles_.clear();
    for (std::int64_t k = 0; k < num_obstacles_; ++k) {
      obstacles_.push_back(PlaceObj(MakeObj(ObjType::kBall, Color::kBlue),
                                    {0, 0}, {-1, -1}, nullptr, 100));
    }
    mission_ = "get to the green goal square";
  }

  StepResult StepTask(Action action) override {
    const WorldObj& front = grid_.Get(FrontPos());
    const bool not_clear = !front.IsEmpty() && front.type != ObjType::kGoal;
    for (Pos& obstacle : obstacles_) {
      // minigrid leaves an obstacle with no free cell around where it is
      const std::optional<Pos> moved =
          TryPlaceObj(grid_.Get(obstacle), {obstacle.x - 1, obstacle.y - 1},
                      {3, 3}, nullptr, 100);
      if (moved) {
        grid_.Clear(obstacle);
        obstacle = *moved;
      }
    }
    StepResult result = BaseStep(action);
    if (action == kForward && not_clear) {
      result = {-1.0, true};
    }
    return result;
  }

 private:
  AgentStart start_;
  std::int64_t num_obstacles_;
  std::vector<Pos> obstacles_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_OPEN_ROOMS_H_

// minigrid's single-room tasks about objects and doors: FetchEnv
// (MiniGrid-Fetch-*: pick up the named object), GoToObjectEnv
// (MiniGrid-GoToObject-*: stand next to it and say done), PutNearEnv
// (MiniGrid-PutNear-*: put one object next to another) and GoToDoorEnv
// (MiniGrid-GoToDoor-*: stand next to the named door and say done).
#ifndef ENVPOOL_MINIGRID_OBJECT_TASKS_H_
#define ENVPOOL_MINIGRID_OBJECT_TASKS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/minigrid_env.h"

namespace envpool::minigrid {

inline constexpr std::array<ObjType, 3> kKeyBallBox = {
    ObjType::kKey, ObjType::kBall, ObjType::kBox};

inline std::string Describe(Color color, ObjType type) {
  return std::string(ColorName(color)) + " " + std::string(TypeName(type));
}

// A square room of `size` cells with numObjs objects (Fetch, GoToObject,
// PutNear): the options, checks and members they share.
inline Config ObjectRoomConfig(std::int64_t size, std::int64_t num_objs) {
  return WithCommonOptions({{"size", size}, {"numObjs", num_objs}}, false);
}
inline void CheckObjectRoom(const Config& config, std::int64_t max_kinds) {
  const auto size = config.Get<std::int64_t>("size");
  CheckAtLeast("size", size, 4, "walls around room for the objects");
  const auto num_objs = config.Get<std::int64_t>("numObjs");
  CheckAtLeast("numObjs", num_objs, 1);
  const std::int64_t cells = (size - 2) * (size - 2) - 1;
  if (num_objs > std::min(max_kinds, cells)) {
    throw std::invalid_argument(
        "numObjs must be at most " +
        std::to_string(std::min(max_kinds, cells)) +
        " (distinct objects that fit in the room beside the agent), got " +
        std::to_string(num_objs));
  }
}

class ObjectRoom : public MiniGridEnv {
 protected:
  ObjectRoom(const Config& config, std::int64_t default_max_steps)
      : MiniGridEnv(config, SizeOption(config), SizeOption(config),
                    default_max_steps, true),
        num_objs_(config.Get<std::int64_t>("numObjs")) {}

  static EnvSpec ObjectRoomSpec(const Config& config, std::int64_t max_kinds) {
    CheckObjectRoom(config, max_kinds);
    return Spec(config);
  }

  // Objects and the cells they were placed at.
  struct PlacedObjs {
    std::vector<std::pair<ObjType, Color>> kinds;
    std::vector<Pos> cells;
  };

  // num_objs_ distinct objects (keys, balls, boxes of any color) added to
  // `placed` where `reject` allows, drawn as GoToObject and PutNear draw
  // them (a repeat is drawn again).
  void PlaceDistinctObjs(PlacedObjs& placed, const RejectFn& reject) {
    while (static_cast<std::int64_t>(placed.kinds.size()) < num_objs_) {
      const ObjType kind = RandElem(std::span<const ObjType>(kKeyBallBox));
      const Color color = RandColor();
      if (std::find(placed.kinds.begin(), placed.kinds.end(),
                    std::pair{kind, color}) != placed.kinds.end()) {
        continue;
      }
      placed.cells.push_back(
          PlaceObj(MakeObj(kind, color), {0, 0}, {-1, -1}, reject));
      placed.kinds.emplace_back(kind, color);
    }
  }

  std::int64_t num_objs_;
};

class Fetch : public ObjectRoom {
 public:
  static Config DefaultConfig() { return ObjectRoomConfig(8, 3); }
  static EnvSpec Spec(const Config& config) {
    // objects may repeat: any number that fits beside the agent
    return ObjectRoomSpec(config, std::numeric_limits<std::int64_t>::max());
  }
  explicit Fetch(const Config& config)
      : ObjectRoom(config, 5 * SizeOption(config) * SizeOption(config)) {}

 protected:
  void GenGrid() override {
    static constexpr std::array<ObjType, 2> kKinds = {ObjType::kKey,
                                                      ObjType::kBall};
    static constexpr std::array<const char*, 5> kSyntax = {
        "get a", "go get a", "fetch a", "go fetch a", "you must fetch a"};
    WalledGrid();
    objs_.clear();
    while (static_cast<std::int64_t>(objs_.size()) < num_objs_) {
      const ObjType kind = RandElem(std::span<const ObjType>(kKinds));
      const Color color = RandColor();
      PlaceObj(MakeObj(kind, color));
      objs_.emplace_back(kind, color);
    }
    PlaceAgent();
    const auto [kind, color] =
        objs_[static_cast<std::size_t>(RandInt(0, num_objs_))];
    target_ = MakeObj(kind, color);
    const auto syntax = static_cast<std::size_t>(RandInt(0, 5));
    mission_ = std::string(kSyntax[syntax]) + " " + Describe(color, kind);
  }

  StepResult StepTask(Action action) override {
    StepResult result = BaseStep(action);
    if (!carrying_.IsEmpty()) {
      result.reward =
          carrying_.Is(target_.type, target_.color) ? Reward() : 0.0;
      result.terminated = true;
    }
    return result;
  }

 private:
  std::vector<std::pair<ObjType, Color>> objs_;
  WorldObj target_;
};

class GoToObject : public ObjectRoom {
 public:
  static Config DefaultConfig() { return ObjectRoomConfig(6, 2); }
  static EnvSpec Spec(const Config& config) {
    return ObjectRoomSpec(config, 18);
  }
  explicit GoToObject(const Config& config)
      : ObjectRoom(config, 5 * SizeOption(config) * SizeOption(config)) {}

 protected:
  void GenGrid() override {
    WalledGrid();
    PlacedObjs placed;
    PlaceDistinctObjs(placed, nullptr);
    PlaceAgent();
    const auto idx = static_cast<std::size_t>(
        RandInt(0, static_cast<std::int64_t>(placed.kinds.size())));
    target_pos_ = placed.cells[idx];
    mission_ = "go to the " +
               Describe(placed.kinds[idx].second, placed.kinds[idx].first);
  }

  StepResult StepTask(Action action) override {
    return GoToStep(action, target_pos_);
  }

 private:
  Pos target_pos_;
};

class PutNear : public ObjectRoom {
 public:
  static Config DefaultConfig() { return ObjectRoomConfig(6, 2); }
  static EnvSpec Spec(const Config& config) {
    CheckObjectRoom(config, 18);
    CheckAtLeast("numObjs", config.Get<std::int64_t>("numObjs"), 2,
                 "one to move, one to put it near");
    return MiniGridEnv::Spec(config);
  }
  explicit PutNear(const Config& config)
      : ObjectRoom(config, 5 * SizeOption(config)) {}

 protected:
  void GenGrid() override {
    WalledGrid();
    PlacedObjs placed;
    auto near_an_object = [&placed](Pos p) {
      return std::any_of(placed.cells.begin(), placed.cells.end(), [p](Pos q) {
        return std::abs(p.x - q.x) <= 1 && std::abs(p.y - q.y) <= 1;
      });
    };
    PlaceDistinctObjs(placed, near_an_object);
    PlaceAgent();
    const auto count = static_cast<std::int64_t>(placed.kinds.size());
    const std::int64_t move = RandInt(0, count);
    std::int64_t target = 0;
    do {
      target = RandInt(0, count);
    } while (target == move);
    move_ = placed.kinds[static_cast<std::size_t>(move)];
    target_pos_ = placed.cells[static_cast<std::size_t>(target)];
    const auto& [target_kind, target_color] =
        placed.kinds[static_cast<std::size_t>(target)];
    mission_ = "put the " + Describe(move_.second, move_.first) + " near the " +
               Describe(target_color, target_kind);
  }

  StepResult StepTask(Action action) override {
    const bool was_carrying = !carrying_.IsEmpty();
    StepResult result = BaseStep(action);
    const Pos front = FrontPos();
    if (action == kPickup && !carrying_.IsEmpty() &&
        !carrying_.Is(move_.first, move_.second)) {
      result.terminated = true;
    }
    if (action == kDrop && was_carrying) {
      // minigrid: `grid.get(front) is preCarrying`, true when the drop
      // happened
      if (carrying_.IsEmpty() && std::abs(front.x - target_pos_.x) <= 1 &&
          std::abs(front.y - target_pos_.y) <= 1) {
        result.reward = Reward();
      }
      result.terminated = true;
    }
    return result;
  }

 private:
  std::pair<ObjType, Color> move_;
  Pos target_pos_;
};

class GoToDoor : public SizedTask<GoToDoor> {
 public:
  static constexpr SizeRule kSizeRule{.default_size = 5, .least = 5};
  explicit GoToDoor(const Config& config) : SizedTask(config, 4, true) {}

 protected:
  void GenGrid() override {
    grid_.Reset();
    const std::int64_t w = RandInt(5, grid_.width() + 1);
    const std::int64_t h = RandInt(5, grid_.height() + 1);
    grid_.WallRect(0, 0, w, h);
    std::array<Pos, 4> doors;
    doors[0] = {RandInt(2, w - 2), 0};
    doors[1] = {RandInt(2, w - 2), h - 1};
    doors[2] = {0, RandInt(2, h - 2)};
    doors[3] = {w - 1, RandInt(2, h - 2)};
    std::vector<Color> colors;
    while (colors.size() < doors.size()) {
      const Color color = RandColor();
      if (std::find(colors.begin(), colors.end(), color) == colors.end()) {
        colors.push_back(color);
      }
    }
    for (std::size_t k = 0; k < doors.size(); ++k) {
      grid_.Set(doors[k], Door(colors[k]));
    }
    PlaceAgent({0, 0}, {w, h});
    const auto idx = static_cast<std::size_t>(RandInt(0, 4));
    target_pos_ = doors[idx];
    mission_ = "go to the " + std::string(ColorName(colors[idx])) + " door";
  }

  StepResult StepTask(Action action) override {
    return GoToStep(action, target_pos_);
  }

 private:
  Pos target_pos_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_OBJECT_TASKS_H_

// BabyAI's Pickup and PutNext levels (minigrid/envs/babyai/pickup.py,
// putnext.py, other.py's MoveTwoAcross): pick an object up, or put one next
// to another. PickupLoc is a LevelGen (level_gen.h).
#ifndef ENVPOOL_MINIGRID_BABYAI_PICKUP_LEVELS_H_
#define ENVPOOL_MINIGRID_BABYAI_PICKUP_LEVELS_H_

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/babyai/goto_levels.h"
#include "envpool/minigrid/babyai/level.h"

namespace envpool::minigrid::babyai {

// 0, 1, ..., n - 1: what a random subset of distinct objects is drawn as.
inline std::vector<std::size_t> Indices(std::size_t n) {
  std::vector<std::size_t> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    out[k] = k;
  }
  return out;
}

// Pickup (UnblockPickup when `blocked`): pick up one of num_dists objects in
// a maze; UnblockPickup wants some object blocked from the agent's reach.
template <bool kBlocked>
class MazePickup : public RuledLevel<MazePickup<kBlocked>, RoomRule{}> {
 public:
  using RuledLevel<MazePickup<kBlocked>, RoomRule{}>::RuledLevel;

 protected:
  void GenMission() override {
    this->PlaceAgentInRoom();
    this->ConnectAll();
    const std::vector<Placed> objs =
        this->AddDistractors(kBlocked ? 20 : 18, false);
    if (kBlocked) {
      if (this->CheckObjsReachable(false)) {
        throw RejectSampling("all objects reachable");
      }
    } else {
      this->CheckObjsReachable();
    }
    this->instr_ = Level::MakeAction(Instr::Kind::kPickup,
                                     Level::DescOf(this->RandElem(objs).obj));
  }
};
using Pickup = MazePickup<false>;
using UnblockPickup = MazePickup<true>;

// PickupDist (Debug): pick up an object named by type, color or both; in
// debug mode picking up another fails.
class PickupDist : public RuledLevel<PickupDist, FixedRooms(7, 1, 1)> {
 public:
  static Config OwnOptions() { return {{"debug", false}}; }
  explicit PickupDist(const Config& config)
      : RuledLevel(config), debug_(config.Get<bool>("debug")) {}

 protected:
  void GenMission() override {
    const std::vector<Placed> objs = AddDistractors(5, true);
    PlaceAgentInRoom(0, 0);
    const WorldObj obj = RandElem(objs).obj;
    std::optional<ObjType> type = obj.type;
    std::optional<Color> color = obj.color;
    const std::int64_t select_by = RandInt(0, 3);  // type, color, both
    if (select_by == 1) {
      type.reset();
    } else if (select_by == 0) {
      color.reset();
    }
    instr_ = MakeAction(Instr::Kind::kPickup, Desc(type, color), debug_);
  }

 private:
  bool debug_;
};

// PickupAbove: pick up the object in the room above the agent's.
class PickupAbove
    : public RuledLevel<PickupAbove, RoomRule{.room_size = 6,
                                              .room_size_option = false,
                                              .least_rows = 2,
                                              .least_cols = 2}> {
 public:
  explicit PickupAbove(const Config& config)
      : RuledLevel(config, std::int64_t{8} * 6 * 6) {}

 protected:
  void GenMission() override {
    const WorldObj obj = grid_.Get(AddObject(1, 0));
    AddDoor(1, 1, 3, std::nullopt, false);
    PlaceAgentInRoom(1, 1);
    ConnectAll();
    instr_ = MakeAction(Instr::Kind::kPickup, DescOf(obj));
  }
};

// PutNextLocal: put one of num_objs distinct objects next to another.
class PutNextLocal : public RuledLevel<PutNextLocal, kOneRoom> {
 public:
  static Config OwnOptions() { return {{"num_objs", std::int64_t{8}}}; }
  static void CheckOptions(const Config& config) {
    const auto num = config.Get<std::int64_t>("num_objs");
    if (num < 2 || num > 18) {
      throw std::invalid_argument(
          "num_objs must be between 2 (one to move, one to put it next to) "
          "and 18 (the distinct kinds of object), got " +
          std::to_string(num));
    }
  }
  explicit PutNextLocal(const Config& config)
      : RuledLevel(config), num_objs_(config.Get<std::int64_t>("num_objs")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    const std::vector<Placed> objs =
        AddDistractors(static_cast<std::size_t>(num_objs_), true);
    CheckObjsReachable();
    const std::vector<std::size_t> pair = RandSubset(Indices(objs.size()), 2);
    instr_ = PutNext(DescOf(objs[pair[0]].obj), DescOf(objs[pair[1]].obj));
  }

 private:
  std::int64_t num_objs_;
};

// Two rooms joined by an opening, objs_per_room distinct objects in each.
inline constexpr RoomRule kTwoRooms{.num_rows = 1,
                                    .num_cols = 2,
                                    .rows_option = false,
                                    .cols_option = false,
                                    .least_room_size = 4};

inline void CheckObjsPerRoom(const Config& config, std::int64_t least) {
  const auto num = config.Get<std::int64_t>("objs_per_room");
  if (num < least || num > 9) {
    throw std::invalid_argument("objs_per_room must be between " +
                                std::to_string(least) + " and 9, got " +
                                std::to_string(num));
  }
}

// PutNext (Carrying): put an object of one room next to one of the other;
// with start_carrying the agent holds the first from the start.
class PutNextLevel : public RuledLevel<PutNextLevel, kTwoRooms> {
 public:
  static Config OwnOptions() {
    return {{"objs_per_room", std::int64_t{2}}, {"start_carrying", false}};
  }
  static void CheckOptions(const Config& config) {
    CheckObjsPerRoom(config, 1);
  }
  explicit PutNextLevel(const Config& config)
      : RuledLevel(config, 8 * config.Get<std::int64_t>("room_size") *
                               config.Get<std::int64_t>("room_size")),
        objs_per_room_(config.Get<std::int64_t>("objs_per_room")),
        start_carrying_(config.Get<bool>("start_carrying")) {}

 protected:
  void GenMission() override {
    const auto n = static_cast<std::size_t>(objs_per_room_);
    const auto [left, right] = ObjectsInTwoRooms(n);
    Placed a = RandElem(left);
    Placed b = RandElem(right);
    if (RandBool()) {
      std::swap(a, b);
    }
    moved_pos_ = a.pos;
    instr_ = PutNext(DescOf(a.obj), DescOf(b.obj));
  }

  bool AfterReset() override {
    if (start_carrying_) {
      carrying_ = grid_.Get(moved_pos_);
      grid_.Clear(moved_pos_);
    }
    return start_carrying_;
  }

 private:
  std::int64_t objs_per_room_;
  bool start_carrying_;
  Pos moved_pos_;
};

// MoveTwoAcross: put an object next to one across the opening, then one of
// there next to another here.
class MoveTwoAcross : public RuledLevel<MoveTwoAcross, kTwoRooms> {
 public:
  static Config OwnOptions() { return {{"objs_per_room", std::int64_t{2}}}; }
  static void CheckOptions(const Config& config) {
    CheckObjsPerRoom(config, 2);
  }
  explicit MoveTwoAcross(const Config& config)
      : RuledLevel(config, 16 * config.Get<std::int64_t>("room_size") *
                               config.Get<std::int64_t>("room_size")),
        objs_per_room_(config.Get<std::int64_t>("objs_per_room")) {}

 protected:
  void GenMission() override {
    const auto n = static_cast<std::size_t>(objs_per_room_);
    const auto [left, right] = ObjectsInTwoRooms(n);
    const std::vector<std::size_t> l = RandSubset(Indices(n), 2);
    const std::vector<std::size_t> r = RandSubset(Indices(n), 2);
    instr_ = Join(Instr::Kind::kBefore,
                  PutNext(DescOf(left[l[0]].obj), DescOf(right[r[0]].obj)),
                  PutNext(DescOf(right[r[1]].obj), DescOf(left[l[1]].obj)));
  }

 private:
  std::int64_t objs_per_room_;
};

}  // namespace envpool::minigrid::babyai

#endif  // ENVPOOL_MINIGRID_BABYAI_PICKUP_LEVELS_H_

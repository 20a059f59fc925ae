// BabyAI's Unlock levels (minigrid/envs/babyai/unlock.py) and the rest of
// other.py: open locked doors with their keys, find an object, act on an
// object or a door.
#ifndef ENVPOOL_MINIGRID_BABYAI_UNLOCK_LEVELS_H_
#define ENVPOOL_MINIGRID_BABYAI_UNLOCK_LEVELS_H_

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/minigrid/babyai/goto_levels.h"
#include "envpool/minigrid/babyai/level.h"
#include "envpool/minigrid/babyai/pickup_levels.h"

namespace envpool::minigrid::babyai {

// Unlock: open a locked door of a maze; its key lies in some room.
class Unlock : public RuledLevel<Unlock, RoomRule{.least_cols = 2}> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    const LockedRoom locked = AddLockedRoomAndKey();
    const Color color = locked.color;
    if (RandBool()) {
      std::vector<Color> others;
      for (const Color c : kColorNames) {
        if (c != color) {
          others.push_back(c);
        }
      }
      ConnectAll(others);
    } else {
      ConnectAll();
    }
    AddDistractorsInEachRoom(3);
    PlaceAgentOutside(&GetRoom(locked.i, locked.j));
    CheckObjsReachable();
    instr_ = MakeAction(Instr::Kind::kOpen, Desc(ObjType::kDoor, color));
  }
};

// The levels around the middle room (1, 1) with a door on some side.
inline constexpr RoomRule kAroundMiddle{.least_rows = 2, .least_cols = 2};

// UnlockLocal (Dist): open the locked door; its key is in the room.
class UnlockLocal : public RuledLevel<UnlockLocal, kAroundMiddle> {
 public:
  static Config OwnOptions() { return {{"distractors", false}}; }
  explicit UnlockLocal(const Config& config)
      : RuledLevel(config), distractors_(config.Get<bool>("distractors")) {}

 protected:
  void GenMission() override {
    const Color color = grid_.Get(AddDoor(1, 1, -1, std::nullopt, true)).color;
    AddObject(1, 1, ObjType::kKey, color);
    if (distractors_) {
      AddDistractors(1, 1, 3, true);
    }
    PlaceAgentInRoom(1, 1);
    instr_ = MakeAction(Instr::Kind::kOpen, Desc(ObjType::kDoor));
  }

 private:
  bool distractors_;
};

// KeyInBox: open the locked door; its key is in a box.
class KeyInBox : public RuledLevel<KeyInBox, kAroundMiddle> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    const Color color = grid_.Get(AddDoor(1, 1, -1, std::nullopt, true)).color;
    WorldObj box = MakeObj(ObjType::kBox, RandColor());
    box.contains_type = ObjType::kKey;
    box.contains_color = color;
    PlaceInRoom(1, 1, box);
    PlaceAgentInRoom(1, 1);
    instr_ = MakeAction(Instr::Kind::kOpen, Desc(ObjType::kDoor));
  }
};

inline constexpr RoomRule kSixRoomsInARow(std::int64_t cols) {
  return FixedRooms(6, 1, cols);
}

// UnlockPickup (Dist): pick up the box behind the locked door, whose key is
// in the agent's room. (minigrid's default time limit for it is the
// instruction's, not the 8 room areas its code means to set.)
class UnlockPickup : public RuledLevel<UnlockPickup, kSixRoomsInARow(2)> {
 public:
  static Config OwnOptions() { return {{"distractors", false}}; }
  explicit UnlockPickup(const Config& config)
      : RuledLevel(config), distractors_(config.Get<bool>("distractors")) {}

 protected:
  void GenMission() override {
    const WorldObj obj = grid_.Get(AddObject(1, 0, ObjType::kBox));
    const Color color = grid_.Get(AddDoor(0, 0, 0, std::nullopt, true)).color;
    AddObject(0, 0, ObjType::kKey, color);
    if (distractors_) {
      AddDistractors(4, true);
    }
    PlaceAgentInRoom(0, 0);
    instr_ = MakeAction(Instr::Kind::kPickup, DescOf(obj));
  }

 private:
  bool distractors_;
};

// BlockedUnlockPickup: as UnlockPickup, a ball in front of the door.
class BlockedUnlockPickup
    : public RuledLevel<BlockedUnlockPickup, kSixRoomsInARow(2)> {
 public:
  explicit BlockedUnlockPickup(const Config& config)
      : RuledLevel(config, std::int64_t{16} * 6 * 6) {}

 protected:
  void GenMission() override {
    AddObject(1, 0, ObjType::kBox);
    const Pos pos = AddDoor(0, 0, 0, std::nullopt, true);
    const Color color = grid_.Get(pos).color;
    grid_.Set({pos.x - 1, pos.y}, MakeObj(ObjType::kBall, RandColor()));
    AddObject(0, 0, ObjType::kKey, color);
    PlaceAgentInRoom(0, 0);
    instr_ = MakeAction(Instr::Kind::kPickup, Desc(ObjType::kBox));
  }
};

// UnlockToUnlock: get the key behind one locked door to open the other, and
// pick up the ball behind it.
class UnlockToUnlock : public RuledLevel<UnlockToUnlock, kSixRoomsInARow(3)> {
 public:
  explicit UnlockToUnlock(const Config& config)
      : RuledLevel(config, std::int64_t{30} * 6 * 6) {}

 protected:
  void GenMission() override {
    const std::vector<Color> colors = RandSubset(
        std::vector<Color>(kColorNames.begin(), kColorNames.end()), 2);
    AddDoor(0, 0, 0, colors[0], true);
    AddObject(2, 0, ObjType::kKey, colors[0]);
    AddDoor(1, 0, 0, colors[1], true);
    AddObject(1, 0, ObjType::kKey, colors[1]);
    AddObject(0, 0, ObjType::kBall);
    PlaceAgentInRoom(1, 0);
    instr_ = MakeAction(Instr::Kind::kPickup, Desc(ObjType::kBall));
  }
};

// ActionObjDoor: go to, pick up or open an object or door of the middle
// room.
class ActionObjDoor : public RuledLevel<ActionObjDoor, kMiddleRoomOf7> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    std::vector<WorldObj> objs;
    for (const Placed& dist : AddDistractors(1, 1, 5, true)) {
      objs.push_back(dist.obj);
    }
    for (int k = 0; k < 4; ++k) {
      objs.push_back(grid_.Get(AddDoor(1, 1, -1, std::nullopt, false)));
    }
    PlaceAgentInRoom(1, 1);
    const WorldObj obj = RandElem(objs);
    const bool go_to = RandBool();
    const Instr::Kind other =
        obj.type == ObjType::kDoor ? Instr::Kind::kOpen : Instr::Kind::kPickup;
    instr_ = MakeAction(go_to ? Instr::Kind::kGoTo : other, DescOf(obj));
  }
};

// FindObjS5 (S6, S7): pick up the object somewhere in a maze of small rooms.
class FindObj
    : public RuledLevel<
          FindObj, RoomRule{.room_size = 5, .least_rows = 2, .least_cols = 2}> {
 public:
  static void CheckOptions(const Config& config) {
    // minigrid draws the object's room column among the rows and its row
    // among the columns
    if (config.Get<std::int64_t>("num_rows") !=
        config.Get<std::int64_t>("num_cols")) {
      throw std::invalid_argument(
          "num_rows and num_cols must be equal for FindObj, got " +
          std::to_string(config.Get<std::int64_t>("num_rows")) + " and " +
          std::to_string(config.Get<std::int64_t>("num_cols")));
    }
  }
  explicit FindObj(const Config& config)
      : RuledLevel(config, 20 * config.Get<std::int64_t>("room_size") *
                               config.Get<std::int64_t>("room_size")) {}

 protected:
  void GenMission() override {
    const std::int64_t i = RandInt(0, num_rows_);
    const std::int64_t j = RandInt(0, num_cols_);
    const WorldObj obj = grid_.Get(AddObject(i, j));
    PlaceAgentInRoom(1, 1);
    ConnectAll();
    instr_ = MakeAction(Instr::Kind::kPickup, Desc(obj.type));
  }
};

// KeyCorridor: pick up the object behind a locked door off a corridor; the
// key is in a room on the other side.
class BabyKeyCorridor
    : public RuledLevel<BabyKeyCorridor,
                        RoomRule{.room_size = 6, .least_cols = 3}> {
 public:
  static Config OwnOptions() { return {{"obj_type", std::string("ball")}}; }
  static void CheckOptions(const Config& config) { ObjTypeOption(config); }
  explicit BabyKeyCorridor(const Config& config)
      : RuledLevel(config, 30 * config.Get<std::int64_t>("room_size") *
                               config.Get<std::int64_t>("room_size")),
        obj_type_(ObjTypeOption(config)) {}

 protected:
  void GenMission() override {
    for (std::int64_t j = 1; j < num_rows_; ++j) {
      RemoveWall(1, j, 3);
    }
    const std::int64_t room = RandInt(0, num_rows_);
    const Color color =
        grid_.Get(AddDoor(2, room, 2, std::nullopt, true)).color;
    const WorldObj obj = grid_.Get(AddObject(2, room, obj_type_));
    const std::int64_t key_room = RandInt(0, num_rows_);
    AddObject(0, key_room, ObjType::kKey, color);
    PlaceAgentInRoom(1, num_rows_ / 2);
    ConnectAll();
    instr_ = MakeAction(Instr::Kind::kPickup, Desc(obj.type));
  }

 private:
  static ObjType ObjTypeOption(const Config& config) {
    const auto name = config.Get<std::string>("obj_type");
    for (const ObjType type : kObjTypesNotDoor) {
      if (TypeName(type) == name) {
        return type;
      }
    }
    throw std::invalid_argument(
        "obj_type must be 'key', 'ball' or 'box', got '" + name + "'");
  }

  ObjType obj_type_;
};

// OneRoomS8 (S12, S16, S20): pick up the ball in a room.
class OneRoom : public RuledLevel<OneRoom, kOneRoom> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    AddObject(0, 0, ObjType::kBall);
    PlaceAgentInRoom();
    instr_ = MakeAction(Instr::Kind::kPickup, Desc(ObjType::kBall));
  }
};

}  // namespace envpool::minigrid::babyai

#endif  // ENVPOOL_MINIGRID_BABYAI_UNLOCK_LEVELS_H_

// minigrid's world objects (minigrid/core/world_object.py) as plain values:
// a cell of the grid holds one WorldObj, kEmpty for minigrid's None. An
// object encodes as minigrid's (type, color, state) triple.
#ifndef ENVPOOL_MINIGRID_WORLD_OBJECT_H_
#define ENVPOOL_MINIGRID_WORLD_OBJECT_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace envpool::minigrid {

// minigrid's OBJECT_TO_IDX.
enum class ObjType : std::uint8_t {
  kUnseen = 0,
  kEmpty = 1,
  kWall = 2,
  kFloor = 3,
  kDoor = 4,
  kKey = 5,
  kBall = 6,
  kBox = 7,
  kGoal = 8,
  kLava = 9,
  kAgent = 10,
};

// minigrid's COLOR_TO_IDX: red 0 to grey 5.
enum class Color : std::uint8_t {
  kRed,
  kGreen,
  kBlue,
  kPurple,
  kYellow,
  kGrey
};

// minigrid's COLOR_NAMES: the names sorted, the order _rand_color draws from.
inline constexpr std::array<Color, 6> kColorNames = {
    Color::kBlue,   Color::kGreen, Color::kGrey,
    Color::kPurple, Color::kRed,   Color::kYellow};

inline std::string_view ColorName(Color color) {
  static constexpr std::array<std::string_view, 6> kNames = {
      "red", "green", "blue", "purple", "yellow", "grey"};
  return kNames[static_cast<std::size_t>(color)];
}

inline std::string_view TypeName(ObjType type) {
  static constexpr std::array<std::string_view, 11> kNames = {
      "unseen", "empty", "wall", "floor", "door", "key",
      "ball",   "box",   "goal", "lava",  "agent"};
  return kNames[static_cast<std::size_t>(type)];
}

// minigrid's STATE_TO_IDX, a door's state.
enum class DoorState : std::uint8_t { kOpen = 0, kClosed = 1, kLocked = 2 };

struct WorldObj {
  ObjType type = ObjType::kEmpty;
  Color color = Color::kRed;
  DoorState door = DoorState::kOpen;  // doors only
  // A box's content (minigrid's Box.contains): its type and color, kEmpty
  // for none.
  ObjType contains_type = ObjType::kEmpty;
  Color contains_color = Color::kRed;
  // Tells apart objects an env follows by identity (minigrid compares them
  // with `is`/`==`, which is identity for world objects); 0 for the rest.
  std::uint8_t tag = 0;

  [[nodiscard]] bool IsEmpty() const { return type == ObjType::kEmpty; }
  [[nodiscard]] bool Is(ObjType t, Color c) const {
    return type == t && color == c;
  }

  [[nodiscard]] bool CanOverlap() const {
    switch (type) {
      case ObjType::kGoal:
      case ObjType::kFloor:
      case ObjType::kLava:
        return true;
      case ObjType::kDoor:
        return door == DoorState::kOpen;
      default:
        return false;
    }
  }
  [[nodiscard]] bool CanPickup() const {
    return type == ObjType::kKey || type == ObjType::kBall ||
           type == ObjType::kBox;
  }
  [[nodiscard]] bool SeeBehind() const {
    if (type == ObjType::kWall) {
      return false;
    }
    return type != ObjType::kDoor || door == DoorState::kOpen;
  }

  // The (type, color, state) triple of minigrid's encode(); (1, 0, 0) for an
  // empty cell.
  [[nodiscard]] std::array<std::uint8_t, 3> Encode() const {
    if (IsEmpty()) {
      return {static_cast<std::uint8_t>(ObjType::kEmpty), 0, 0};
    }
    return {
        static_cast<std::uint8_t>(type), static_cast<std::uint8_t>(color),
        static_cast<std::uint8_t>(type == ObjType::kDoor ? door : DoorState{})};
  }

  bool operator==(const WorldObj&) const = default;
};

inline WorldObj MakeObj(ObjType type, Color color, std::uint8_t tag = 0) {
  return WorldObj{type,        color, DoorState::kOpen, ObjType::kEmpty,
                  Color::kRed, tag};
}
inline WorldObj Wall() { return MakeObj(ObjType::kWall, Color::kGrey); }
inline WorldObj Goal() { return MakeObj(ObjType::kGoal, Color::kGreen); }
inline WorldObj Lava() { return MakeObj(ObjType::kLava, Color::kRed); }
inline WorldObj Door(Color color, bool locked = false, bool open = false) {
  WorldObj door = MakeObj(ObjType::kDoor, color);
  door.door = open     ? DoorState::kOpen
              : locked ? DoorState::kLocked
                       : DoorState::kClosed;
  return door;
}

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_WORLD_OBJECT_H_

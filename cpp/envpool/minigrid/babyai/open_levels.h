// BabyAI's Open levels (minigrid/envs/babyai/open.py): open a door, two
// doors in order, or the doors of a sequence.
#ifndef ENVPOOL_MINIGRID_BABYAI_OPEN_LEVELS_H_
#define ENVPOOL_MINIGRID_BABYAI_OPEN_LEVELS_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "envpool/minigrid/babyai/goto_levels.h"
#include "envpool/minigrid/babyai/level.h"

namespace envpool::minigrid::babyai {

// Open: open one of the doors of a maze of rooms.
class Open : public RuledLevel<Open, RoomRule{.least_cols = 2}> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    ConnectAll();
    AddDistractors(18, false);
    CheckObjsReachable();
    const WorldObj door = RandElem(RoomDoors());
    instr_ = MakeAction(Instr::Kind::kOpen, DescOf(door));
  }
};

// OpenRedDoor: open the red door between two small rooms.
class OpenRedDoor : public RuledLevel<OpenRedDoor, FixedRooms(5, 1, 2)> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    AddDoor(0, 0, 0, Color::kRed, false);
    PlaceAgentInRoom(0, 0);
    instr_ = MakeAction(Instr::Kind::kOpen, Desc(ObjType::kDoor, Color::kRed));
  }
};

// OpenDoor (Color, Loc, Debug): open the door of the middle room named by
// color or by place; in debug mode opening another door fails.
class OpenDoor
    : public RuledLevel<OpenDoor, RoomRule{.least_rows = 3, .least_cols = 3}> {
 public:
  static Config OwnOptions() {
    return {{"debug", false}, {"select_by", std::string()}};
  }
  static void CheckOptions(const Config& config) { SelectBy(config); }
  explicit OpenDoor(const Config& config)
      : RuledLevel(config),
        debug_(config.Get<bool>("debug")),
        select_by_(SelectBy(config)) {}

 protected:
  void GenMission() override {
    const std::vector<Color> colors = RandSubset(
        std::vector<Color>(kColorNames.begin(), kColorNames.end()), 4);
    for (std::int64_t k = 0; k < 4; ++k) {
      AddDoor(1, 1, k, colors[static_cast<std::size_t>(k)], false);
    }
    std::string select_by = select_by_;
    if (select_by.empty()) {
      select_by = RandInt(0, 2) == 0 ? "color" : "loc";
    }
    ObjDesc desc = select_by == "color"
                       ? Desc(ObjType::kDoor, colors[0])
                       : Desc(ObjType::kDoor, std::nullopt,
                              RandElem(std::span<const Loc>(kLocNames)));
    PlaceAgentInRoom(1, 1);
    instr_ = MakeAction(Instr::Kind::kOpen, std::move(desc), debug_);
  }

 private:
  static std::string SelectBy(const Config& config) {
    auto value = config.Get<std::string>("select_by");
    if (!value.empty() && value != "color" && value != "loc") {
      throw std::invalid_argument(
          "select_by must be 'color', 'loc' or None, got '" + value + "'");
    }
    return value;
  }

  bool debug_;
  std::string select_by_;
};

// The levels of the middle room of size 6 whose time limit is 20 room
// areas.
inline constexpr RoomRule kDoorsRoom{.room_size = 6,
                                     .room_size_option = false,
                                     .least_rows = 3,
                                     .least_cols = 3};
inline constexpr std::int64_t kDoorsMaxSteps = std::int64_t{20} * 6 * 6;

// OpenTwoDoors (OpenRedBlueDoors): open the door on the left, then the one
// on the right.
class OpenTwoDoors : public RuledLevel<OpenTwoDoors, kDoorsRoom> {
 public:
  static Config OwnOptions() {
    return {{"first_color", std::string()},
            {"second_color", std::string()},
            {"strict", false}};
  }
  static void CheckOptions(const Config& config) {
    ColorOption(config, "first_color");
    ColorOption(config, "second_color");
  }
  explicit OpenTwoDoors(const Config& config)
      : RuledLevel(config, kDoorsMaxSteps),
        first_(ColorOption(config, "first_color")),
        second_(ColorOption(config, "second_color")),
        strict_(config.Get<bool>("strict")) {}

 protected:
  void GenMission() override {
    const std::vector<Color> colors = RandSubset(
        std::vector<Color>(kColorNames.begin(), kColorNames.end()), 2);
    const Color first = first_.value_or(colors[0]);
    const Color second = second_.value_or(colors[1]);
    AddDoor(1, 1, 2, first, false);
    AddDoor(1, 1, 0, second, false);
    PlaceAgentInRoom(1, 1);
    instr_ = Join(
        Instr::Kind::kBefore,
        MakeAction(Instr::Kind::kOpen, Desc(ObjType::kDoor, first), strict_),
        MakeAction(Instr::Kind::kOpen, Desc(ObjType::kDoor, second)));
  }

 private:
  std::optional<Color> first_;
  std::optional<Color> second_;
  bool strict_;
};

// OpenDoorsOrder: open one door, or two in the order said, of num_doors.
class OpenDoorsOrder : public RuledLevel<OpenDoorsOrder, kDoorsRoom> {
 public:
  static Config OwnOptions() {
    return {{"num_doors", std::int64_t{2}}, {"debug", false}};
  }
  static void CheckOptions(const Config& config) {
    const auto doors = config.Get<std::int64_t>("num_doors");
    if (doors < 2 || doors > 4) {
      throw std::invalid_argument(
          "num_doors must be 2, 3 or 4 (the doors of the middle room), got " +
          std::to_string(doors));
    }
  }
  explicit OpenDoorsOrder(const Config& config)
      : RuledLevel(config, kDoorsMaxSteps),
        num_doors_(config.Get<std::int64_t>("num_doors")),
        debug_(config.Get<bool>("debug")) {}

 protected:
  void GenMission() override {
    const std::vector<Color> colors =
        RandSubset(std::vector<Color>(kColorNames.begin(), kColorNames.end()),
                   static_cast<std::size_t>(num_doors_));
    for (const Color color : colors) {
      AddDoor(1, 1, -1, color, false);
    }
    PlaceAgentInRoom(1, 1);
    // the doors' colors differ, so a subset of colors is one of doors
    const std::vector<Color> pair = RandSubset(colors, 2);
    auto open = [&](Color color) {
      return MakeAction(Instr::Kind::kOpen, Desc(ObjType::kDoor, color),
                        debug_);
    };
    switch (RandInt(0, 3)) {
      case 0:
        instr_ = open(pair[0]);
        break;
      case 1:
        instr_ = Join(Instr::Kind::kBefore, open(pair[0]), open(pair[1]));
        break;
      default:
        instr_ = Join(Instr::Kind::kAfter, open(pair[0]), open(pair[1]));
        break;
    }
  }

 private:
  std::int64_t num_doors_;
  bool debug_;
};

}  // namespace envpool::minigrid::babyai

#endif  // ENVPOOL_MINIGRID_BABYAI_OPEN_LEVELS_H_

// BabyAI's GoTo levels (minigrid/envs/babyai/goto.py): go to an object or a
// door, in one room or a maze of rooms. GoToSeq is a LevelGen
// (level_gen.h).
#ifndef ENVPOOL_MINIGRID_BABYAI_GOTO_LEVELS_H_
#define ENVPOOL_MINIGRID_BABYAI_GOTO_LEVELS_H_

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "envpool/minigrid/babyai/level.h"

namespace envpool::minigrid::babyai {

inline constexpr RoomRule kOneRoom{
    .num_rows = 1, .num_cols = 1, .rows_option = false, .cols_option = false};

// GoToRedBall, GoToRedBallGrey, GoToRedBallNoDists: go to the red ball
// among num_dists distractors (grey ones for GoToRedBallGrey).
class GoToRedBall : public RuledLevel<GoToRedBall, kOneRoom> {
 public:
  static Config OwnOptions() {
    return {{"num_dists", std::int64_t{7}}, {"grey_distractors", false}};
  }
  static void CheckOptions(const Config& config) {
    CheckAtLeast("num_dists", config.Get<std::int64_t>("num_dists"), 0);
  }
  explicit GoToRedBall(const Config& config)
      : RuledLevel(config),
        num_dists_(config.Get<std::int64_t>("num_dists")),
        grey_(config.Get<bool>("grey_distractors")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    const WorldObj ball = MakeObj(ObjType::kBall, Color::kRed);
    AddObject(0, 0, ball.type, ball.color);
    for (const Placed& dist :
         AddDistractors(static_cast<std::size_t>(num_dists_), false)) {
      if (grey_) {
        grid_.At(dist.pos).color = Color::kGrey;
      }
    }
    CheckObjsReachable();
    instr_ = MakeAction(Instr::Kind::kGoTo, DescOf(ball));
  }

 private:
  std::int64_t num_dists_;
  bool grey_;
};

// GoToObj: go to the one object in the room.
class GoToObj : public RuledLevel<GoToObj, kOneRoom> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    const Placed obj = AddDistractors(1, true)[0];
    instr_ = MakeAction(Instr::Kind::kGoTo, DescOf(obj.obj));
  }
};

// GoToLocal: go to one of num_dists objects in the room.
class GoToLocal : public RuledLevel<GoToLocal, kOneRoom> {
 public:
  static Config OwnOptions() { return {{"num_dists", std::int64_t{8}}}; }
  static void CheckOptions(const Config& config) {
    CheckAtLeast("num_dists", config.Get<std::int64_t>("num_dists"), 1,
                 "the object to go to is one of them");
  }
  explicit GoToLocal(const Config& config)
      : RuledLevel(config), num_dists_(config.Get<std::int64_t>("num_dists")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    const std::vector<Placed> objs =
        AddDistractors(static_cast<std::size_t>(num_dists_), false);
    CheckObjsReachable();
    instr_ = MakeAction(Instr::Kind::kGoTo, DescOf(RandElem(objs).obj));
  }

 private:
  std::int64_t num_dists_;
};

// GoTo (and GoToObjMaze*, GoToOpen): go to one of num_dists objects in a
// maze of rooms, its doors open when doors_open.
class GoTo : public RuledLevel<GoTo, RoomRule{}> {
 public:
  static Config OwnOptions() {
    return {{"num_dists", std::int64_t{18}}, {"doors_open", false}};
  }
  static void CheckOptions(const Config& config) {
    CheckAtLeast("num_dists", config.Get<std::int64_t>("num_dists"), 1,
                 "the object to go to is one of them");
  }
  explicit GoTo(const Config& config)
      : RuledLevel(config),
        num_dists_(config.Get<std::int64_t>("num_dists")),
        doors_open_(config.Get<bool>("doors_open")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    ConnectAll();
    const std::vector<Placed> objs =
        AddDistractors(static_cast<std::size_t>(num_dists_), false);
    CheckObjsReachable();
    instr_ = MakeAction(Instr::Kind::kGoTo, DescOf(RandElem(objs).obj));
    if (doors_open_) {
      OpenAllDoors();
    }
  }

 private:
  std::int64_t num_dists_;
  bool doors_open_;
};

// GoToImpUnlock: go to an object in a locked room; its key is somewhere.
class GoToImpUnlock
    : public RuledLevel<GoToImpUnlock, RoomRule{.least_cols = 2}> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    const LockedRoom locked = AddLockedRoomAndKey();
    ConnectAll();
    AddDistractorsInEachRoom(2);
    PlaceAgentOutside(&GetRoom(locked.i, locked.j));
    CheckObjsReachable();
    const Placed obj = AddDistractors(locked.i, locked.j, 1, false)[0];
    instr_ = MakeAction(Instr::Kind::kGoTo, DescOf(obj.obj));
  }
};

// GoToRedBlueBall: go to the one red or blue ball among distractors.
class GoToRedBlueBall : public RuledLevel<GoToRedBlueBall, kOneRoom> {
 public:
  static Config OwnOptions() { return {{"num_dists", std::int64_t{7}}}; }
  static void CheckOptions(const Config& config) {
    CheckAtLeast("num_dists", config.Get<std::int64_t>("num_dists"), 0);
  }
  explicit GoToRedBlueBall(const Config& config)
      : RuledLevel(config), num_dists_(config.Get<std::int64_t>("num_dists")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    for (const Placed& dist :
         AddDistractors(static_cast<std::size_t>(num_dists_), false)) {
      if (dist.obj.type == ObjType::kBall &&
          (dist.obj.color == Color::kBlue || dist.obj.color == Color::kRed)) {
        throw RejectSampling("can only have one blue or red ball");
      }
    }
    static constexpr std::array<Color, 2> kRedBlue = {Color::kRed,
                                                      Color::kBlue};
    const Color color = RandElem(std::span<const Color>(kRedBlue));
    AddObject(0, 0, ObjType::kBall, color);
    CheckObjsReachable();
    instr_ = MakeAction(Instr::Kind::kGoTo, Desc(ObjType::kBall, color));
  }

 private:
  std::int64_t num_dists_;
};

// Levels with a door on each side of the middle room (1, 1), whose size they
// fix.
inline constexpr RoomRule kMiddleRoom{
    .room_size_option = false, .least_rows = 3, .least_cols = 3};
inline constexpr RoomRule kMiddleRoomOf7{.room_size = 7,
                                         .room_size_option = false,
                                         .least_rows = 3,
                                         .least_cols = 3};

// GoToDoor: go to one of the four doors of the middle room.
class GoToDoor : public RuledLevel<GoToDoor, kMiddleRoomOf7> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    std::array<Color, 4> colors{};
    for (Color& color : colors) {
      color = grid_.Get(AddDoor(1, 1)).color;
    }
    PlaceAgentInRoom(1, 1);
    instr_ = MakeAction(
        Instr::Kind::kGoTo,
        Desc(ObjType::kDoor, RandElem(std::span<const Color>(colors))));
  }
};

// GoToObjDoor: go to an object or a door of the middle room.
class GoToObjDoor : public RuledLevel<GoToObjDoor, kMiddleRoom> {
 public:
  using RuledLevel::RuledLevel;

 protected:
  void GenMission() override {
    PlaceAgentInRoom(1, 1);
    std::vector<WorldObj> objs;
    for (const Placed& dist : AddDistractors(1, 1, 8, false)) {
      objs.push_back(dist.obj);
    }
    for (int k = 0; k < 4; ++k) {
      objs.push_back(grid_.Get(AddDoor(1, 1)));
    }
    CheckObjsReachable();
    instr_ = MakeAction(Instr::Kind::kGoTo, DescOf(RandElem(objs)));
  }
};

}  // namespace envpool::minigrid::babyai

#endif  // ENVPOOL_MINIGRID_BABYAI_GOTO_LEVELS_H_

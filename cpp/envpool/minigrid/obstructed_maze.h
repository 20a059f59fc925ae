// minigrid's ObstructedMaze tasks (MiniGrid-ObstructedMaze-*): pick up the
// blue ball in a maze of rooms behind locked doors, their keys hidden in
// boxes (key_in_box) and the doors blocked by green balls (blocked).
// ObstructedMaze_1Dlhb has two rooms; ObstructedMaze_Full (and its v1,
// which places each side room's keys after both of its doors) has 3x3 rooms
// around the middle one, num_quarters of them in use.
#ifndef ENVPOOL_MINIGRID_OBSTRUCTED_MAZE_H_
#define ENVPOOL_MINIGRID_OBSTRUCTED_MAZE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "envpool/minigrid/options.h"
#include "envpool/minigrid/room_grid.h"

namespace envpool::minigrid {

class ObstructedMazeBase : public RoomGridEnv {
 public:
  static constexpr std::int64_t kRoomSize = 6;
  // COLOR_NAMES[0], [1] and [2]: the ball to find, the blocking balls and
  // the boxes.
  static constexpr Color kBallColor = kColorNames[0];
  static constexpr Color kBlockingColor = kColorNames[1];
  static constexpr Color kBoxColor = kColorNames[2];

 protected:
  ObstructedMazeBase(const Config& config, std::int64_t num_rows,
                     std::int64_t num_cols, std::int64_t num_rooms_visited)
      : RoomGridEnv(config, kRoomSize, num_rows, num_cols,
                    4 * num_rooms_visited * kRoomSize * kRoomSize),
        key_in_box_(config.Get<bool>("key_in_box")),
        blocked_(config.Get<bool>("blocked")) {}

  // ObstructedMazeEnv._gen_grid: the rooms and a shuffled list of colors.
  void GenMaze() {
    GenRooms();
    door_colors_ =
        RandSubset(std::vector<Color>(kColorNames.begin(), kColorNames.end()),
                   kColorNames.size());
    mission_ = "pick up the blue ball";
  }

  // ObstructedMazeEnv.add_door: a door on side `side` of room (i, j); a
  // green ball in front of it inside the room when `blocked`; for a locked
  // door, its key (in a box when key_in_box) placed in the room.
  void AddMazeDoor(std::int64_t i, std::int64_t j, std::int64_t side,
                   Color color, bool locked, bool key_in_box, bool blocked) {
    AddLockedDoor(i, j, side, color, locked, blocked);
    if (locked) {
      AddKey(i, j, color, key_in_box);
    }
  }

  void AddLockedDoor(std::int64_t i, std::int64_t j, std::int64_t side,
                     Color color, bool locked, bool blocked) {
    const Pos pos = AddDoor(i, j, side, color, locked);
    if (blocked) {
      const Pos d = DirVec(side);
      grid_.Set({pos.x - d.x, pos.y - d.y},
                MakeObj(ObjType::kBall, kBlockingColor));
    }
  }

  void AddKey(std::int64_t i, std::int64_t j, Color color, bool key_in_box) {
    WorldObj obj = MakeObj(ObjType::kKey, color);
    if (key_in_box) {
      obj = MakeObj(ObjType::kBox, kBoxColor);
      obj.contains_type = ObjType::kKey;
      obj.contains_color = color;
    }
    PlaceInRoom(i, j, obj);
  }

  StepResult StepTask(Action action) override {
    return PickUpTargetStep(action);
  }

  bool key_in_box_;
  bool blocked_;
  std::vector<Color> door_colors_;
};

class ObstructedMaze1Dlhb : public ObstructedMazeBase {
 public:
  static Config DefaultConfig() {
    return WithCommonOptions({{"key_in_box", true}, {"blocked", true}}, false);
  }
  static EnvSpec Spec(const Config& config) {
    return MiniGridEnv::Spec(config);
  }
  explicit ObstructedMaze1Dlhb(const Config& config)
      : ObstructedMazeBase(config, 1, 2, 2) {}

 protected:
  void GenGrid() override {
    GenMaze();
    AddMazeDoor(0, 0, 0, door_colors_[0], true, key_in_box_, blocked_);
    AddObject(1, 0, ObjType::kBall, kBallColor, kTargetTag);
    PlaceAgentInRoom(0, 0);
  }
};

// kV1: minigrid's ObstructedMaze_Full_V1.
template <bool kV1>
class ObstructedMazeFullT : public ObstructedMazeBase {
 public:
  static Config DefaultConfig() {
    return WithCommonOptions({{"agent_room", std::vector<double>{1, 1}},
                              {"key_in_box", true},
                              {"blocked", true},
                              {"num_quarters", std::int64_t{4}},
                              {"num_rooms_visited", std::int64_t{25}}},
                             false);
  }
  // The agent_room option: a room (i, j) of the 3x3 maze.
  static Pos AgentRoom(const Config& config) {
    const auto room = OptionalPos(config, "agent_room");
    if (room && room->x >= 0 && room->x <= 2 && room->y >= 0 && room->y <= 2) {
      return *room;
    }
    throw std::invalid_argument(
        "agent_room must be a room (i, j) of the 3x3 maze, 0 <= i, j <= 2");
  }
  static EnvSpec Spec(const Config& config) {
    AgentRoom(config);
    const auto quarters = config.Get<std::int64_t>("num_quarters");
    if (quarters < 1 || quarters > 4) {
      throw std::invalid_argument("num_quarters must be 1 to 4, got " +
                                  std::to_string(quarters));
    }
    CheckAtLeast("num_rooms_visited",
                 config.Get<std::int64_t>("num_rooms_visited"), 1);
    return MiniGridEnv::Spec(config);
  }
  explicit ObstructedMazeFullT(const Config& config)
      : ObstructedMazeBase(config, 3, 3,
                           config.Get<std::int64_t>("num_rooms_visited")),
        agent_room_(AgentRoom(config)),
        num_quarters_(config.Get<std::int64_t>("num_quarters")) {}

 protected:
  void GenGrid() override {
    static constexpr std::array<Pos, 4> kSideRooms = {Pos{2, 1}, Pos{1, 2},
                                                      Pos{0, 1}, Pos{1, 0}};
    static constexpr std::array<Pos, 4> kCorners = {Pos{2, 0}, Pos{2, 2},
                                                    Pos{0, 2}, Pos{0, 0}};
    GenMaze();
    const auto num_colors = static_cast<std::int64_t>(door_colors_.size());
    for (std::int64_t i = 0; i < num_quarters_; ++i) {
      const Pos side = kSideRooms[static_cast<std::size_t>(i)];
      AddMazeDoor(1, 1, i, door_colors_[static_cast<std::size_t>(i)], false,
                  false, false);
      for (const std::int64_t k : {-1, 1}) {
        const std::int64_t side_idx = (i + k + 4) % 4;
        const Color color = door_colors_[static_cast<std::size_t>(
            (i + k + num_colors) % num_colors)];
        if constexpr (kV1) {
          AddLockedDoor(side.x, side.y, side_idx, color, true, blocked_);
        } else {
          AddMazeDoor(side.x, side.y, side_idx, color, true, key_in_box_,
                      blocked_);
        }
      }
      if constexpr (kV1) {
        for (const std::int64_t k : {-1, 1}) {
          const Color color = door_colors_[static_cast<std::size_t>(
              (i + k + num_colors) % num_colors)];
          AddKey(side.x, side.y, color, key_in_box_);
        }
      }
    }
    const std::vector<Pos> corners(kCorners.begin(),
                                   kCorners.begin() + num_quarters_);
    const Pos ball_room = RandElem(corners);
    AddObject(ball_room.x, ball_room.y, ObjType::kBall, kBallColor, kTargetTag);
    PlaceAgentInRoom(agent_room_.x, agent_room_.y);
  }

 private:
  Pos agent_room_;
  std::int64_t num_quarters_;
};

using ObstructedMazeFull = ObstructedMazeFullT<false>;
using ObstructedMazeFullV1 = ObstructedMazeFullT<true>;

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_OBSTRUCTED_MAZE_H_

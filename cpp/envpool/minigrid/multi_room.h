// minigrid's MultiRoomEnv (MiniGrid-MultiRoom-*): a chain of
// minNumRooms..maxNumRooms rooms of 4..maxRoomSize cells joined by closed
// doors of changing colors, laid out at random in a width x height grid;
// the goal is in the last room.
#ifndef ENVPOOL_MINIGRID_MULTI_ROOM_H_
#define ENVPOOL_MINIGRID_MULTI_ROOM_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "envpool/minigrid/minigrid_env.h"

namespace envpool::minigrid {

class MultiRoom : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return WithCommonOptions({{"minNumRooms", std::int64_t{1}},
                              {"maxNumRooms", std::int64_t{1}},
                              {"maxRoomSize", std::int64_t{10}},
                              {"width", std::int64_t{25}},
                              {"height", std::int64_t{25}}},
                             true);
  }
  static EnvSpec Spec(const Config& config) {
    const auto min_rooms = config.Get<std::int64_t>("minNumRooms");
    CheckAtLeast("minNumRooms", min_rooms, 1);
    CheckAtLeast("maxNumRooms", config.Get<std::int64_t>("maxNumRooms"),
                 min_rooms, "minNumRooms");
    CheckAtLeast("maxRoomSize", config.Get<std::int64_t>("maxRoomSize"), 4);
    CheckAtLeast("width", config.Get<std::int64_t>("width"), 6,
                 "room for a room of 4 cells");
    CheckAtLeast("height", config.Get<std::int64_t>("height"), 6,
                 "room for a room of 4 cells");
    return MiniGridEnv::Spec(config);
  }
  explicit MultiRoom(const Config& config)
      : MiniGridEnv(config, config.Get<std::int64_t>("width"),
                    config.Get<std::int64_t>("height"),
                    config.Get<std::int64_t>("maxNumRooms") * 20, false),
        min_rooms_(config.Get<std::int64_t>("minNumRooms")),
        max_rooms_(config.Get<std::int64_t>("maxNumRooms")),
        max_room_size_(config.Get<std::int64_t>("maxRoomSize")) {}

 protected:
  void GenGrid() override {
    const std::int64_t w = grid_.width();
    std::vector<PlacedRoom> rooms;
    const std::int64_t num_rooms = RandInt(min_rooms_, max_rooms_ + 1);
    while (static_cast<std::int64_t>(rooms.size()) < num_rooms) {
      std::vector<PlacedRoom> attempt;
      // minigrid draws both coordinates below width - 2.
      const std::int64_t x = RandInt(0, w - 2);
      const Pos entry{x, RandInt(0, w - 2)};
      PlaceRoom(num_rooms, attempt, 4, max_room_size_, 2, entry);
      if (attempt.size() > rooms.size()) {
        rooms = std::move(attempt);
      }
    }
    grid_.Reset();
    std::optional<Color> prev_color;
    for (std::size_t idx = 0; idx < rooms.size(); ++idx) {
      const PlacedRoom& room = rooms[idx];
      for (std::int64_t i = 0; i < room.size.x; ++i) {
        grid_.Set({room.top.x + i, room.top.y}, Wall());
        grid_.Set({room.top.x + i, room.top.y + room.size.y - 1}, Wall());
      }
      for (std::int64_t j = 0; j < room.size.y; ++j) {
        grid_.Set({room.top.x, room.top.y + j}, Wall());
        grid_.Set({room.top.x + room.size.x - 1, room.top.y + j}, Wall());
      }
      if (idx > 0) {
        std::vector<Color> colors;
        for (const Color c : kColorNames) {
          if (c != prev_color) {
            colors.push_back(c);
          }
        }
        const Color color = RandElem(colors);
        grid_.Set(room.entry, Door(color));
        prev_color = color;
      }
    }
    PlaceAgent(rooms.front().top, rooms.front().size);
    PlaceObj(Goal(), rooms.back().top, rooms.back().size);
    mission_ = "traverse the rooms to get to the goal";
  }

 private:
  struct PlacedRoom {
    Pos top;
    Pos size;
    Pos entry;
  };

  // MultiRoomEnv._placeRoom: a room entered through `entry` on its side
  // `entry_wall`, then up to 8 tries at the next rooms from a door on
  // another side. False if this room does not fit.
  bool PlaceRoom(std::int64_t num_left, std::vector<PlacedRoom>& rooms,
                 std::int64_t min_size, std::int64_t max_size,
                 std::int64_t entry_wall, Pos entry) {
    const std::int64_t size_x = RandInt(min_size, max_size + 1);
    const std::int64_t size_y = RandInt(min_size, max_size + 1);
    Pos top;
    if (rooms.empty()) {
      top = entry;
    } else if (entry_wall == 0) {
      top.x = entry.x - size_x + 1;
      top.y = RandInt(entry.y - size_y + 2, entry.y);
    } else if (entry_wall == 1) {
      top.x = RandInt(entry.x - size_x + 2, entry.x);
      top.y = entry.y - size_y + 1;
    } else if (entry_wall == 2) {
      top.x = entry.x;
      top.y = RandInt(entry.y - size_y + 2, entry.y);
    } else {
      top.x = RandInt(entry.x - size_x + 2, entry.x);
      top.y = entry.y;
    }
    if (top.x < 0 || top.y < 0) {
      return false;
    }
    // minigrid's bounds: the room may touch the right edge, not the bottom.
    if (top.x + size_x > grid_.width() || top.y + size_y >= grid_.height()) {
      return false;
    }
    for (std::size_t k = 0; k + 1 < rooms.size(); ++k) {
      const PlacedRoom& room = rooms[k];
      const bool apart =
          top.x + size_x < room.top.x || room.top.x + room.size.x <= top.x ||
          top.y + size_y < room.top.y || room.top.y + room.size.y <= top.y;
      if (!apart) {
        return false;
      }
    }
    rooms.push_back({top, {size_x, size_y}, entry});
    if (num_left == 1) {
      return true;
    }
    for (int attempt = 0; attempt < 8; ++attempt) {
      std::vector<std::int64_t> walls;
      for (std::int64_t k = 0; k < 4; ++k) {
        if (k != entry_wall) {
          walls.push_back(k);
        }
      }
      const std::int64_t exit_wall = RandElem(walls);
      Pos exit;
      if (exit_wall == 0) {
        exit = {top.x + size_x - 1, top.y + RandInt(1, size_y - 1)};
      } else if (exit_wall == 1) {
        exit = {top.x + RandInt(1, size_x - 1), top.y + size_y - 1};
      } else if (exit_wall == 2) {
        exit = {top.x, top.y + RandInt(1, size_y - 1)};
      } else {
        exit = {top.x + RandInt(1, size_x - 1), top.y};
      }
      if (PlaceRoom(num_left - 1, rooms, min_size, max_size,
                    (exit_wall + 2) % 4, exit)) {
        break;
      }
    }
    return true;
  }

  std::int64_t min_rooms_;
  std::int64_t max_rooms_;
  std::int64_t max_room_size_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_MULTI_ROOM_H_

// minigrid's RoomGrid (minigrid/core/roomgrid.py): a num_rows x num_cols
// grid of square rooms of room_size cells (walls shared), with the helpers
// its tasks build on: doors between rooms (AddDoor, ConnectAll), walls
// removed (RemoveWall), objects dropped in a room away from the agent
// (AddObject), the agent placed in a room not facing an object
// (PlaceAgentInRoom). BabyAI's levels build on it too.
#ifndef ENVPOOL_MINIGRID_ROOM_GRID_H_
#define ENVPOOL_MINIGRID_ROOM_GRID_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/minigrid/minigrid_env.h"

namespace envpool::minigrid {

// What a room has on each side (0 right, 1 down, 2 left, 3 up): minigrid's
// Room.doors entry None, True (the wall removed) or a Door.
enum class Side : std::uint8_t { kWall, kOpening, kDoor };

struct Room {
  Pos top;
  Pos size;
  std::array<Side, 4> sides{Side::kWall, Side::kWall, Side::kWall, Side::kWall};
  std::array<std::optional<Pos>, 4> door_pos{};
  std::array<int, 4> neighbors{-1, -1, -1, -1};  // room index, -1: none
  bool locked = false;
  std::vector<WorldObj> objs;  // what AddObject put here, in order
};

class RoomGridEnv : public MiniGridEnv {
 protected:
  RoomGridEnv(const Config& config, std::int64_t room_size,
              std::int64_t num_rows, std::int64_t num_cols,
              std::int64_t default_max_steps)
      : MiniGridEnv(config, (room_size - 1) * num_cols + 1,
                    (room_size - 1) * num_rows + 1, default_max_steps, false),
        room_size_(room_size),
        num_rows_(num_rows),
        num_cols_(num_cols) {}

  static void CheckRooms(std::int64_t room_size, std::int64_t num_rows,
                         std::int64_t num_cols) {
    CheckAtLeast("room_size", room_size, 3, "walls around a free cell");
    CheckAtLeast("num_rows", num_rows, 1);
    CheckAtLeast("num_cols", num_cols, 1);
  }

  Room& GetRoom(std::int64_t i, std::int64_t j) {
    return rooms_[static_cast<std::size_t>(j * num_cols_ + i)];
  }
  Room& RoomFromPos(Pos p) {
    return GetRoom(p.x / (room_size_ - 1), p.y / (room_size_ - 1));
  }

  // RoomGrid._gen_grid: the rooms' walls, a random door place on each
  // inner wall, the agent in the middle room facing right.
  void GenRooms() {
    grid_.Reset();
    rooms_.assign(static_cast<std::size_t>(num_rows_ * num_cols_), Room{});
    for (std::int64_t j = 0; j < num_rows_; ++j) {
      for (std::int64_t i = 0; i < num_cols_; ++i) {
        Room& room = GetRoom(i, j);
        room.top = {i * (room_size_ - 1), j * (room_size_ - 1)};
        room.size = {room_size_, room_size_};
        grid_.WallRect(room.top.x, room.top.y, room.size.x, room.size.y);
      }
    }
    for (std::int64_t j = 0; j < num_rows_; ++j) {
      for (std::int64_t i = 0; i < num_cols_; ++i) {
        Room& room = GetRoom(i, j);
        const std::int64_t x_l = room.top.x + 1;
        const std::int64_t y_l = room.top.y + 1;
        const std::int64_t x_m = room.top.x + room.size.x - 1;
        const std::int64_t y_m = room.top.y + room.size.y - 1;
        if (i < num_cols_ - 1) {
          room.neighbors[0] = static_cast<int>(j * num_cols_ + i + 1);
          room.door_pos[0] = Pos{x_m, RandInt(y_l, y_m)};
        }
        if (j < num_rows_ - 1) {
          room.neighbors[1] = static_cast<int>((j + 1) * num_cols_ + i);
          room.door_pos[1] = Pos{RandInt(x_l, x_m), y_m};
        }
        if (i > 0) {
          room.neighbors[2] = static_cast<int>(j * num_cols_ + i - 1);
          room.door_pos[2] = GetRoom(i - 1, j).door_pos[0];
        }
        if (j > 0) {
          room.neighbors[3] = static_cast<int>((j - 1) * num_cols_ + i);
          room.door_pos[3] = GetRoom(i, j - 1).door_pos[1];
        }
      }
    }
    agent_pos_ = {(num_cols_ / 2) * (room_size_ - 1) + room_size_ / 2,
                  (num_rows_ / 2) * (room_size_ - 1) + room_size_ / 2};
    agent_dir_ = 0;
  }

  // RoomGrid.add_object: an object of `kind` (random among key, ball, box
  // when kEmpty) and `color` (random when empty) on a free cell of room
  // (i, j) not next to the agent.
  Pos AddObject(std::int64_t i, std::int64_t j, ObjType kind = ObjType::kEmpty,
                std::optional<Color> color = std::nullopt,
                std::uint8_t tag = 0) {
    if (kind == ObjType::kEmpty) {
      static constexpr std::array<ObjType, 3> kKinds = {
          ObjType::kKey, ObjType::kBall, ObjType::kBox};
      kind = RandElem(std::span<const ObjType>(kKinds));
    }
    if (!color) {
      color = RandColor();
    }
    return PlaceInRoom(i, j, MakeObj(kind, *color, tag));
  }

  // RoomGrid.place_in_room: `obj` on a free cell of room (i, j) not next to
  // the agent.
  Pos PlaceInRoom(std::int64_t i, std::int64_t j, const WorldObj& obj) {
    Room& room = GetRoom(i, j);
    const Pos pos = PlaceObj(
        obj, room.top, room.size,
        [this](Pos p) {
          return std::abs(agent_pos_.x - p.x) + std::abs(agent_pos_.y - p.y) <
                 2;
        },
        1000);
    room.objs.push_back(obj);
    return pos;
  }

  // RoomGrid.add_door: a door on side `side` of room (i, j) (random among
  // the sides with a neighbor and no door when -1), of `color` (random when
  // empty), locked when `locked` (a random choice when empty). Returns the
  // door's cell.
  Pos AddDoor(std::int64_t i, std::int64_t j, std::int64_t side = -1,
              std::optional<Color> color = std::nullopt,
              std::optional<bool> locked = std::nullopt) {
    Room& room = GetRoom(i, j);
    if (side < 0) {
      do {
        side = RandInt(0, 4);
      } while (room.neighbors[side] < 0 || room.sides[side] != Side::kWall);
    }
    if (!color) {
      color = RandColor();
    }
    if (!locked) {
      locked = RandBool();
    }
    if (room.sides[side] != Side::kWall) {
      throw std::logic_error("minigrid: door already exists");
    }
    room.locked = *locked;
    const std::optional<Pos> place = room.door_pos[side];
    if (!place) {
      throw std::logic_error("minigrid: room side without a door place");
    }
    const Pos pos = *place;
    grid_.Set(pos, Door(*color, *locked));
    room.sides[side] = Side::kDoor;
    rooms_[static_cast<std::size_t>(room.neighbors[side])]
        .sides[(side + 2) % 4] = Side::kDoor;
    return pos;
  }

  // RoomGrid.remove_wall: the inner cells of side `side` of room (i, j)
  // emptied.
  void RemoveWall(std::int64_t i, std::int64_t j, std::int64_t side) {
    Room& room = GetRoom(i, j);
    const Pos t = room.top;
    const Pos s = room.size;
    if (side == 0 || side == 2) {
      const std::int64_t x = side == 0 ? t.x + s.x - 1 : t.x;
      for (std::int64_t k = 1; k < s.y - 1; ++k) {
        grid_.Clear({x, t.y + k});
      }
    } else {
      const std::int64_t y = side == 1 ? t.y + s.y - 1 : t.y;
      for (std::int64_t k = 1; k < s.x - 1; ++k) {
        grid_.Clear({t.x + k, y});
      }
    }
    room.sides[side] = Side::kOpening;
    rooms_[static_cast<std::size_t>(room.neighbors[side])]
        .sides[(side + 2) % 4] = Side::kOpening;
  }

  // RoomGrid.place_agent: the agent in room (i, j) (random ones where -1),
  // placed again until it faces an empty cell or a wall.
  Pos PlaceAgentInRoom(std::int64_t i = -1, std::int64_t j = -1,
                       bool rand_dir = true) {
    if (i < 0) {
      i = RandInt(0, num_cols_);
    }
    if (j < 0) {
      j = RandInt(0, num_rows_);
    }
    const Room& room = GetRoom(i, j);
    if (!HasAgentSpot(room) && HasFreeCell(room)) {
      // minigrid loops here forever (every free cell faces an object);
      // BabyAI's levels lay the episode out again, other tasks report it
      throw RecursionError("place_agent: no free cell of room (" +
                           std::to_string(i) + ", " + std::to_string(j) +
                           ") faces an empty cell or a wall");
    }
    while (true) {
      PlaceAgent(room.top, room.size, rand_dir, 1000);
      const WorldObj& front = grid_.Get(FrontPos());
      if (front.IsEmpty() || front.type == ObjType::kWall) {
        return agent_pos_;
      }
    }
  }

  // RoomGrid.connect_all: doors (unlocked, colors drawn from
  // `door_colors`) added at random until every room can be reached from the
  // agent's.
  void ConnectAll(std::span<const Color> door_colors = kColorNames,
                  std::int64_t max_itrs = 5000) {
    const auto start = static_cast<int>(&RoomFromPos(agent_pos_) - &rooms_[0]);
    for (std::int64_t itrs = 0;; ++itrs) {
      if (itrs > max_itrs) {
        throw RecursionError("connect_all failed");
      }
      if (NumReachable(start) == rooms_.size()) {
        return;
      }
      const std::int64_t i = RandInt(0, num_cols_);
      const std::int64_t j = RandInt(0, num_rows_);
      const std::int64_t k = RandInt(0, 4);
      const Room& room = GetRoom(i, j);
      if (!room.door_pos[k] || room.sides[k] != Side::kWall) {
        continue;
      }
      if (room.locked ||
          rooms_[static_cast<std::size_t>(room.neighbors[k])].locked) {
        continue;
      }
      const Color color = RandElem(door_colors);
      AddDoor(i, j, k, color, false);
    }
  }

  std::int64_t room_size_;
  std::int64_t num_rows_;
  std::int64_t num_cols_;
  std::vector<Room> rooms_;

 private:
  // A free cell of `room` (where PlaceAgent may put the agent).
  [[nodiscard]] bool HasFreeCell(const Room& room) const {
    return AnyCell(room, [](Pos /*p*/) { return true; });
  }
  // A free cell of `room` facing, some way, an empty cell or a wall: where
  // PlaceAgentInRoom may end.
  [[nodiscard]] bool HasAgentSpot(const Room& room) const {
    return AnyCell(room, [this](Pos p) {
      for (std::int64_t dir = 0; dir < 4; ++dir) {
        const Pos d = DirVec(dir);
        const Pos q{p.x + d.x, p.y + d.y};
        if (!grid_.Contains(q)) {
          continue;
        }
        const WorldObj& front = grid_.Get(q);
        if (front.IsEmpty() || front.type == ObjType::kWall) {
          return true;
        }
      }
      return false;
    });
  }
  template <typename Accept>
  [[nodiscard]] bool AnyCell(const Room& room, const Accept& accept) const {
    for (std::int64_t y = room.top.y; y < room.top.y + room.size.y; ++y) {
      for (std::int64_t x = room.top.x; x < room.top.x + room.size.x; ++x) {
        const Pos p{x, y};
        if (grid_.Contains(p) && grid_.Get(p).IsEmpty() && accept(p)) {
          return true;
        }
      }
    }
    return false;
  }

  std::size_t NumReachable(int start) {
    reached_.assign(rooms_.size(), 0);
    stack_.assign(1, start);
    std::size_t count = 0;
    while (!stack_.empty()) {
      const int r = stack_.back();
      stack_.pop_back();
      if (reached_[r] != 0) {
        continue;
      }
      reached_[r] = 1;
      ++count;
      for (std::size_t k = 0; k < 4; ++k) {
        if (rooms_[r].sides[k] != Side::kWall) {
          stack_.push_back(rooms_[r].neighbors[k]);
        }
      }
    }
    return count;
  }

  std::vector<std::uint8_t> reached_;
  std::vector<int> stack_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_ROOM_GRID_H_

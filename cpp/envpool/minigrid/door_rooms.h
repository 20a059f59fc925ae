// minigrid's RedBlueDoorEnv (MiniGrid-RedBlueDoors-*: open the red door,
// then the blue one) and LockedRoomEnv (MiniGrid-LockedRoom-v0: six rooms
// off a corridor; fetch the key of the locked one from another room and
// reach the goal inside it).
#ifndef ENVPOOL_MINIGRID_DOOR_ROOMS_H_
#define ENVPOOL_MINIGRID_DOOR_ROOMS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envpool/minigrid/minigrid_env.h"

namespace envpool::minigrid {

class RedBlueDoors : public SizedTask<RedBlueDoors> {
 public:
  static constexpr SizeRule kSizeRule{
      .default_size = 8, .least = 3, .see_through_walls_option = true};
  explicit RedBlueDoors(const Config& config)
      : SizedTask(config, 2 * config.Get<std::int64_t>("size"),
                  config.Get<std::int64_t>("size"),
                  20 * config.Get<std::int64_t>("size") *
                      config.Get<std::int64_t>("size"),
                  false),
        size_(config.Get<std::int64_t>("size")) {}

 protected:
  void GenGrid() override {
    grid_.Reset();
    grid_.WallRect(0, 0, 2 * size_, size_);
    grid_.WallRect(size_ / 2, 0, size_, size_);
    PlaceAgent({size_ / 2, 0}, {size_, size_});
    red_ = {size_ / 2, RandInt(1, size_ - 1)};
    grid_.Set(red_, Door(Color::kRed));
    blue_ = {size_ / 2 + size_ - 1, RandInt(1, size_ - 1)};
    grid_.Set(blue_, Door(Color::kBlue));
    mission_ = "open the red door then the blue door";
  }

  StepResult StepTask(Action action) override {
    const bool red_was_open = IsOpen(red_);
    const bool blue_was_open = IsOpen(blue_);
    StepResult result = BaseStep(action);
    if (IsOpen(blue_)) {
      result = {red_was_open ? Reward() : 0.0, true};
    } else if (IsOpen(red_) && blue_was_open) {
      result = {0.0, true};
    }
    return result;
  }

 private:
  [[nodiscard]] bool IsOpen(Pos door) const {
    return grid_.Get(door).door == DoorState::kOpen;
  }

  std::int64_t size_;
  Pos red_;
  Pos blue_;
};

class LockedRoom : public SizedTask<LockedRoom> {
 public:
  static constexpr SizeRule kSizeRule{
      .default_size = 19,
      .least = 12,
      .why = "three rooms of at least 3 free cells on each side",
      .see_through_walls_option = true};
  explicit LockedRoom(const Config& config)
      : SizedTask(config, SizeOption(config), SizeOption(config),
                  10 * SizeOption(config), false) {}

 protected:
  void GenGrid() override {
    const auto [w, h] = WalledGrid();
    const std::int64_t left_wall = w / 2 - 2;
    const std::int64_t right_wall = w / 2 + 2;
    grid_.VertWall(left_wall, 0, h);
    grid_.VertWall(right_wall, 0, h);
    struct SideRoom {
      Pos top;
      Pos size;
      Pos door;
    };
    std::vector<SideRoom> rooms;
    for (std::int64_t n = 0; n < 3; ++n) {
      const std::int64_t j = n * (h / 3);
      grid_.HorzWall(0, j, left_wall);
      grid_.HorzWall(right_wall, j, w - right_wall);
      const Pos size{left_wall + 1, h / 3 + 1};
      rooms.push_back({{0, j}, size, {left_wall, j + 3}});
      rooms.push_back({{right_wall, j}, size, {right_wall, j + 3}});
    }
    auto rand_inside = [this](const SideRoom& room) {
      return RandPos(room.top.x + 1, room.top.x + room.size.x - 1,
                     room.top.y + 1, room.top.y + room.size.y - 1);
    };
    const auto count = static_cast<std::int64_t>(rooms.size());
    const auto locked = static_cast<std::size_t>(RandInt(0, count));
    grid_.Set(rand_inside(rooms[locked]), Goal());
    std::vector<Color> colors(kColorNames.begin(), kColorNames.end());
    std::vector<Color> room_colors;
    for (std::size_t k = 0; k < rooms.size(); ++k) {
      const Color color = RandElem(colors);
      colors.erase(std::find(colors.begin(), colors.end(), color));
      room_colors.push_back(color);
      grid_.Set(rooms[k].door, Door(color, k == locked));
    }
    std::size_t key_room = locked;
    while (key_room == locked) {
      key_room = static_cast<std::size_t>(RandInt(0, count));
    }
    grid_.Set(rand_inside(rooms[key_room]),
              MakeObj(ObjType::kKey, room_colors[locked]));
    PlaceAgent({left_wall, 0}, {right_wall - left_wall, h});
    const std::string locked_color(ColorName(room_colors[locked]));
    mission_ = "get the " + locked_color + " key from the " +
               std::string(ColorName(room_colors[key_room])) +
               " room, unlock the " + locked_color + " door and go to the goal";
  }
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_DOOR_ROOMS_H_

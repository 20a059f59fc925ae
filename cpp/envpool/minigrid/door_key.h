// minigrid's DoorKeyEnv (MiniGrid-DoorKey-*): a wall splits the room; the
// agent must pick up the yellow key on its side, open the locked door and
// reach the goal.
#ifndef ENVPOOL_MINIGRID_DOOR_KEY_H_
#define ENVPOOL_MINIGRID_DOOR_KEY_H_

#include <cstdint>

#include "envpool/minigrid/minigrid_env.h"

namespace envpool::minigrid {

class DoorKey : public SizedTask<DoorKey> {
 public:
  static constexpr SizeRule kSizeRule{
      .default_size = 8,
      .least = 5,
      .why = "room for the splitting wall between the walls",
      .see_through_walls_option = true};
  explicit DoorKey(const Config& config) : SizedTask(config, 10, false) {}

 protected:
  void GenGrid() override {
    const auto [w, h] = WalledGrid();
    grid_.Set({w - 2, h - 2}, Goal());
    const std::int64_t split = RandInt(2, w - 2);
    grid_.VertWall(split, 0);
    PlaceAgent({0, 0}, {split, h});
    const std::int64_t door = RandInt(1, h - 2);
    grid_.Set({split, door}, Door(Color::kYellow, true));
    PlaceObj(MakeObj(ObjType::kKey, Color::kYellow), {0, 0}, {split, h});
    mission_ = "use the key to open the door and then get to the goal";
  }
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_DOOR_KEY_H_

// minigrid's KeyCorridorEnv (MiniGrid-KeyCorridorS*R*): a corridor of
// num_rows rooms in the middle column; the object to pick up lies behind a
// locked door on the right, its key in a room on the left.
#ifndef ENVPOOL_MINIGRID_KEY_CORRIDOR_H_
#define ENVPOOL_MINIGRID_KEY_CORRIDOR_H_

#include <cstdint>
#include <string>

#include "envpool/minigrid/room_grid.h"

namespace envpool::minigrid {

inline ObjType PickableKind(const Config& config, const std::string& name) {
  const auto kind = config.Get<std::string>(name);
  if (kind == "ball") {
    return ObjType::kBall;
  }
  if (kind == "box") {
    return ObjType::kBox;
  }
  if (kind == "key") {
    return ObjType::kKey;
  }
  throw std::invalid_argument(name + " must be 'ball', 'box' or 'key', got '" +
                              kind + "'");
}

class KeyCorridor : public RoomGridEnv {
 public:
  static Config DefaultConfig() {
    return WithCommonOptions({{"num_rows", std::int64_t{3}},
                              {"obj_type", std::string("ball")},
                              {"room_size", std::int64_t{6}}},
                             false);
  }
  static EnvSpec Spec(const Config& config) {
    CheckRooms(config.Get<std::int64_t>("room_size"),
               config.Get<std::int64_t>("num_rows"), 3);
    PickableKind(config, "obj_type");
    return MiniGridEnv::Spec(config);
  }
  explicit KeyCorridor(const Config& config)
      : RoomGridEnv(config, config.Get<std::int64_t>("room_size"),
                    config.Get<std::int64_t>("num_rows"), 3,
                    30 * config.Get<std::int64_t>("room_size") *
                        config.Get<std::int64_t>("room_size")),
        obj_type_(PickableKind(config, "obj_type")) {}

 protected:
  void GenGrid() override {
    GenRooms();
    for (std::int64_t j = 1; j < num_rows_; ++j) {
      RemoveWall(1, j, 3);
    }
    const std::int64_t room = RandInt(0, num_rows_);
    const Pos door = AddDoor(2, room, 2, std::nullopt, true);
    const Color door_color = grid_.Get(door).color;
    const Pos obj = AddObject(2, room, obj_type_, std::nullopt, kTargetTag);
    const Color obj_color = grid_.Get(obj).color;
    AddObject(0, RandInt(0, num_rows_), ObjType::kKey, door_color);
    PlaceAgentInRoom(1, num_rows_ / 2);
    ConnectAll();
    mission_ = "pick up the " + std::string(ColorName(obj_color)) + " " +
               std::string(TypeName(obj_type_));
  }

  StepResult StepTask(Action action) override {
    return PickUpTargetStep(action);
  }

 private:
  ObjType obj_type_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_KEY_CORRIDOR_H_

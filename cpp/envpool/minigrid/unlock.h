// minigrid's two-room tasks behind a locked door: UnlockEnv
// (MiniGrid-Unlock-v0: open the door), UnlockPickupEnv
// (MiniGrid-UnlockPickup-v0: pick up the box behind it) and
// BlockedUnlockPickupEnv (MiniGrid-BlockedUnlockPickup-v0: the same, with a
// ball in front of the door). The key lies in the agent's room.
#ifndef ENVPOOL_MINIGRID_UNLOCK_H_
#define ENVPOOL_MINIGRID_UNLOCK_H_

#include <cstdint>
#include <string>

#include "envpool/minigrid/room_grid.h"

namespace envpool::minigrid {

enum class UnlockTask : std::uint8_t { kUnlock, kPickup, kBlockedPickup };

template <UnlockTask kTask>
class UnlockT : public RoomGridEnv {
 public:
  static constexpr std::int64_t kRoomSize = 6;

  static Config DefaultConfig() { return WithCommonOptions({}, false); }
  static EnvSpec Spec(const Config& config) {
    return MiniGridEnv::Spec(config);
  }
  explicit UnlockT(const Config& config)
      : RoomGridEnv(config, kRoomSize, 1, 2,
                    (kTask == UnlockTask::kBlockedPickup ? 16 : 8) * kRoomSize *
                        kRoomSize) {}

 protected:
  void GenGrid() override {
    GenRooms();
    Color target_color = Color::kRed;
    if constexpr (kTask != UnlockTask::kUnlock) {
      const Pos target =
          AddObject(1, 0, ObjType::kBox, std::nullopt, kTargetTag);
      target_color = grid_.Get(target).color;
    }
    door_ = AddDoor(0, 0, 0, std::nullopt, true);
    const Color door_color = grid_.Get(door_).color;
    if constexpr (kTask == UnlockTask::kBlockedPickup) {
      grid_.Set({door_.x - 1, door_.y}, MakeObj(ObjType::kBall, RandColor()));
    }
    AddObject(0, 0, ObjType::kKey, door_color);
    PlaceAgentInRoom(0, 0);
    if constexpr (kTask == UnlockTask::kUnlock) {
      mission_ = "open the door";
    } else {
      mission_ = "pick up the " + std::string(ColorName(target_color)) + " box";
    }
  }

  StepResult StepTask(Action action) override {
    if constexpr (kTask != UnlockTask::kUnlock) {
      return PickUpTargetStep(action);
    } else {
      StepResult result = BaseStep(action);
      if (action == kToggle && grid_.Get(door_).door == DoorState::kOpen) {
        result = {Reward(), true};
      }
      return result;
    }
  }

 private:
  Pos door_;
};

using Unlock = UnlockT<UnlockTask::kUnlock>;
using UnlockPickup = UnlockT<UnlockTask::kPickup>;
using BlockedUnlockPickup = UnlockT<UnlockTask::kBlockedPickup>;

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_UNLOCK_H_

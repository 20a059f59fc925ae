// BabyAI's levels (minigrid 3.2.0's BabyAI-* ids): the module
// envpool._babyai. The task table (envpool/families/minigrid/babyai.py) gives
// each id its class and options.
#include <pybind11/pybind11.h>

#include "envpool/minigrid/babyai/goto_levels.h"
#include "envpool/minigrid/babyai/level_gen.h"
#include "envpool/minigrid/babyai/open_levels.h"
#include "envpool/minigrid/babyai/pickup_levels.h"
#include "envpool/minigrid/babyai/unlock_levels.h"
#include "envpool/minigrid/minigrid_env.h"
#include "envpool/python/py_env_pool.h"

namespace {

template <typename... Levels, typename... Names>
void RegisterLevels(pybind11::module_& m, const Names&... names) {
  envpool::python::RegisterEnvs<envpool::minigrid::GridSized<Levels>...>(
      m, names...);
}

}  // namespace

PYBIND11_MODULE(_babyai, m) {
  namespace ba = envpool::minigrid::babyai;
  RegisterLevels<ba::GoToRedBall, ba::GoToObj, ba::GoToLocal, ba::GoTo,
                 ba::GoToImpUnlock, ba::GoToRedBlueBall, ba::GoToDoor,
                 ba::GoToObjDoor, ba::Open, ba::OpenRedDoor, ba::OpenDoor,
                 ba::OpenTwoDoors, ba::OpenDoorsOrder, ba::Pickup,
                 ba::UnblockPickup, ba::PickupDist, ba::PickupAbove,
                 ba::PutNextLocal, ba::PutNextLevel, ba::MoveTwoAcross,
                 ba::Unlock, ba::UnlockLocal, ba::KeyInBox, ba::UnlockPickup,
                 ba::BlockedUnlockPickup, ba::UnlockToUnlock, ba::ActionObjDoor,
                 ba::FindObj, ba::BabyKeyCorridor, ba::OneRoom, ba::LevelGen>(
      m, "GoToRedBall", "GoToObj", "GoToLocal", "GoTo", "GoToImpUnlock",
      "GoToRedBlueBall", "GoToDoor", "GoToObjDoor", "Open", "OpenRedDoor",
      "OpenDoor", "OpenTwoDoors", "OpenDoorsOrder", "Pickup", "UnblockPickup",
      "PickupDist", "PickupAbove", "PutNextLocal", "PutNext", "MoveTwoAcross",
      "Unlock", "UnlockLocal", "KeyInBox", "UnlockPickup",
      "BlockedUnlockPickup", "UnlockToUnlock", "ActionObjDoor", "FindObj",
      "KeyCorridor", "OneRoom", "LevelGen");
}

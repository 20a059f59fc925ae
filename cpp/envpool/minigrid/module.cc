// minigrid's MiniGrid-* tasks: the module envpool._minigrid.
#include <pybind11/pybind11.h>

#include "envpool/minigrid/door_key.h"
#include "envpool/minigrid/door_rooms.h"
#include "envpool/minigrid/empty.h"
#include "envpool/minigrid/four_rooms.h"
#include "envpool/minigrid/key_corridor.h"
#include "envpool/minigrid/lava.h"
#include "envpool/minigrid/multi_room.h"
#include "envpool/minigrid/object_tasks.h"
#include "envpool/minigrid/obstructed_maze.h"
#include "envpool/minigrid/open_rooms.h"
#include "envpool/minigrid/unlock.h"
#include "envpool/python/py_env_pool.h"

namespace {

// Each task as GridSized<Task> (minigrid_env.h), under its class name.
template <typename... Tasks, typename... Names>
void RegisterTasks(pybind11::module_& m, const Names&... names) {
  envpool::python::RegisterEnvs<envpool::minigrid::GridSized<Tasks>...>(
      m, names...);
}

}  // namespace

PYBIND11_MODULE(_minigrid, m) {
  namespace mg = envpool::minigrid;
  RegisterTasks<mg::Empty, mg::DoorKey, mg::FourRooms, mg::LavaGap,
                mg::Crossing, mg::Unlock, mg::UnlockPickup,
                mg::BlockedUnlockPickup, mg::KeyCorridor, mg::MultiRoom,
                mg::Fetch, mg::GoToObject, mg::PutNear, mg::GoToDoor,
                mg::RedBlueDoors, mg::LockedRoom, mg::Memory, mg::DistShift,
                mg::Playground, mg::DynamicObstacles, mg::ObstructedMaze1Dlhb,
                mg::ObstructedMazeFull, mg::ObstructedMazeFullV1>(
      m, "Empty", "DoorKey", "FourRooms", "LavaGap", "Crossing", "Unlock",
      "UnlockPickup", "BlockedUnlockPickup", "KeyCorridor", "MultiRoom",
      "Fetch", "GoToObject", "PutNear", "GoToDoor", "RedBlueDoors",
      "LockedRoom", "Memory", "DistShift", "Playground", "DynamicObstacles",
      "ObstructedMaze1Dlhb", "ObstructedMazeFull", "ObstructedMazeFullV1");
}

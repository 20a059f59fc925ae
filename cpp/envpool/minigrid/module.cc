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

PYBIND11_MODULE(_minigrid, m) {
  using envpool::python::RegisterEnv;
  namespace mg = envpool::minigrid;
  RegisterEnv<mg::Empty>(m, "Empty");
  RegisterEnv<mg::DoorKey>(m, "DoorKey");
  RegisterEnv<mg::FourRooms>(m, "FourRooms");
  RegisterEnv<mg::LavaGap>(m, "LavaGap");
  RegisterEnv<mg::Crossing>(m, "Crossing");
  RegisterEnv<mg::Unlock>(m, "Unlock");
  RegisterEnv<mg::UnlockPickup>(m, "UnlockPickup");
  RegisterEnv<mg::BlockedUnlockPickup>(m, "BlockedUnlockPickup");
  RegisterEnv<mg::KeyCorridor>(m, "KeyCorridor");
  RegisterEnv<mg::MultiRoom>(m, "MultiRoom");
  RegisterEnv<mg::Fetch>(m, "Fetch");
  RegisterEnv<mg::GoToObject>(m, "GoToObject");
  RegisterEnv<mg::PutNear>(m, "PutNear");
  RegisterEnv<mg::GoToDoor>(m, "GoToDoor");
  RegisterEnv<mg::RedBlueDoors>(m, "RedBlueDoors");
  RegisterEnv<mg::LockedRoom>(m, "LockedRoom");
  RegisterEnv<mg::Memory>(m, "Memory");
  RegisterEnv<mg::DistShift>(m, "DistShift");
  RegisterEnv<mg::Playground>(m, "Playground");
  RegisterEnv<mg::DynamicObstacles>(m, "DynamicObstacles");
  RegisterEnv<mg::ObstructedMaze1Dlhb>(m, "ObstructedMaze1Dlhb");
  RegisterEnv<mg::ObstructedMazeFull>(m, "ObstructedMazeFull");
  RegisterEnv<mg::ObstructedMazeFullV1>(m, "ObstructedMazeFullV1");
}

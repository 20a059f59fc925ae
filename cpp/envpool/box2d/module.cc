// The Box2D tasks, in their own extension module: only it links the Box2D
// engine (third_party/box2d).
#include <pybind11/pybind11.h>

#include "envpool/box2d/bipedal_walker.h"
#include "envpool/box2d/car_racing.h"
#include "envpool/box2d/lunar_lander.h"
#include "envpool/box2d/pygame_draw_binding.h"
#include "envpool/box2d/score_font_binding.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_box2d, m) {
  using envpool::python::RegisterEnv;
  envpool::box2d::RegisterPygameDrawForTests(m);
  envpool::box2d::RegisterScoreFont(m);
  RegisterEnv<envpool::box2d::BipedalWalker>(m, "BipedalWalker");
  RegisterEnv<envpool::box2d::CarRacing>(m, "CarRacing");
  RegisterEnv<envpool::box2d::CarRacingDiscrete>(m, "CarRacingDiscrete");
  RegisterEnv<envpool::box2d::LunarLander>(m, "LunarLander");
  RegisterEnv<envpool::box2d::LunarLanderContinuous>(m,
                                                     "LunarLanderContinuous");
}

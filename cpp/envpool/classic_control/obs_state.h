// The classic-control tasks return a float32 observation and, as
// info["state"], the float64 state it comes from, which the tests use to
// replay gymnasium from the same point.
#ifndef ENVPOOL_CLASSIC_CONTROL_OBS_STATE_H_
#define ENVPOOL_CLASSIC_CONTROL_OBS_STATE_H_

#include <algorithm>
#include <initializer_list>

#include "envpool/core/output.h"

namespace envpool::classic_control {

// obs = the values of `obs` rounded to float32; info["state"] = `state`.
inline void WriteObsAndState(Output& out, std::initializer_list<double> obs,
                             std::initializer_list<double> state) {
  std::ranges::transform(obs, out.Obs<float>().begin(),
                         [](double v) { return static_cast<float>(v); });
  std::ranges::copy(state, out.Info<double>(0).begin());
}

// For a task whose observation is its state.
inline void WriteObsAndState(Output& out, std::initializer_list<double> state) {
  WriteObsAndState(out, state, state);
}

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_OBS_STATE_H_

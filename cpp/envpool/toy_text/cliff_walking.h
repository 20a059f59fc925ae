// CliffWalking-v1 / CliffWalkingSlippery-v1: walk along a 4x12 grid from the
// bottom-left corner to the bottom-right one without stepping off the cliff
// between them. A port of gymnasium 1.4's toy_text/cliffwalking.py.
#ifndef ENVPOOL_TOY_TEXT_CLIFF_WALKING_H_
#define ENVPOOL_TOY_TEXT_CLIFF_WALKING_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/render_scene.h"
#include "envpool/core/rng.h"
#include "envpool/numpy/random.h"
#include "envpool/toy_text/tabular.h"

namespace envpool::toy_text {

class CliffWalking {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() { return {{"is_slippery", false}}; }

  static EnvSpec Spec(const Config& /*config*/) {
    return {MakeDiscrete<std::int64_t>("obs", kNumStates),
            MakeDiscrete<std::int64_t>("action", kNumActions),
            {MakeArray<double>("prob", {})}};
  }

  explicit CliffWalking(const Config& config)
      : transitions_(kNumStates, kNumActions),
        initial_state_probs_(kNumStates, 0.0) {
    initial_state_probs_[kStartState] = 1.0;
    const bool is_slippery = config.Get<bool>("is_slippery");
    for (std::int64_t s = 0; s < kNumStates; ++s) {
      for (std::int64_t a = 0; a < kNumActions; ++a) {
        if (is_slippery) {
          for (const std::int64_t move : {(a + 3) % 4, a, (a + 1) % 4}) {
            transitions_.Add(s, a, Move(s, move, 1.0 / 3.0));
          }
        } else {
          transitions_.Add(s, a, Move(s, a, 1.0));
        }
      }
    }
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    // Always the start state, but gymnasium still draws for it.
    state_ =
        static_cast<std::int64_t>(np_random_.Categorical(initial_state_probs_));
    out.Obs<std::int64_t>()[0] = state_;
    out.Info<double>(0)[0] = 1.0;
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const Transition& t = transitions_.Sample(state_, action, np_random_);
    state_ = t.next_state;
    out.reward = t.reward;
    out.terminated = t.terminated;
    out.Obs<std::int64_t>()[0] = state_;
    out.Info<double>(0)[0] = t.prob;
  }

  // What gymnasium's rgb_array frame shows: the player's tile. Drawn by
  // envpool/families/toy_text/frames.py.
  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return SceneShape(1);
  }
  void Render(std::span<std::uint8_t> scene) const {
    WriteScene(scene, {static_cast<double>(state_)});
  }

  // gymnasium's render() in render_mode="ansi": x for the player, C for the
  // cliff, T for the goal, o elsewhere, then a blank line.
  std::string RenderAnsi() const {
    std::string text;
    for (std::int64_t s = 0; s < kNumStates; ++s) {
      const std::int64_t row = s / kNumCols;
      const std::int64_t col = s % kNumCols;
      char mark = 'o';
      if (s == state_) {
        mark = 'x';
      } else if (s == kGoalState) {
        mark = 'T';
      } else if (IsCliff(row, col)) {
        mark = 'C';
      }
      if (col > 0) {
        text += ' ';
      }
      text += mark;
      text += col == kNumCols - 1 ? '\n' : ' ';
    }
    text += '\n';
    return text;
  }

 private:
  static constexpr std::int64_t kNumRows = 4;
  static constexpr std::int64_t kNumCols = 12;
  static constexpr std::int64_t kNumStates = kNumRows * kNumCols;
  static constexpr std::int64_t kNumActions = 4;
  static constexpr std::int64_t kStartState = (kNumRows - 1) * kNumCols;
  static constexpr std::int64_t kGoalState = kNumStates - 1;
  // Row and column steps of up, right, down and left.
  static constexpr std::array<std::array<std::int64_t, 2>, kNumActions> kMoves =
      {{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}};

  static bool IsCliff(std::int64_t row, std::int64_t col) {
    return row == kNumRows - 1 && col >= 1 && col <= kNumCols - 2;
  }

  // Stepping into the cliff sends the player back to the start (-100, the
  // episode goes on); every other move costs 1.
  static Transition Move(std::int64_t state, std::int64_t move, double prob) {
    const std::int64_t row = std::clamp<std::int64_t>(
        state / kNumCols + kMoves[move][0], 0, kNumRows - 1);
    const std::int64_t col = std::clamp<std::int64_t>(
        state % kNumCols + kMoves[move][1], 0, kNumCols - 1);
    if (IsCliff(row, col)) {
      return {prob, kStartState, -100.0, false};
    }
    const std::int64_t next = row * kNumCols + col;
    return {prob, next, -1.0, next == kGoalState};
  }

  TransitionTable transitions_;
  std::vector<double> initial_state_probs_;
  NumpyRandom np_random_;
  std::int64_t state_ = kStartState;
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_CLIFF_WALKING_H_

// FrozenLake-v1 / FrozenLake8x8-v1: walk from S to G over frozen tiles
// without falling into a hole, possibly slipping sideways.
// A port of gymnasium 1.4's toy_text/frozen_lake.py.
//
// The map comes from `desc` (rows joined by '\n'; the Python front end turns
// gymnasium's list of rows into this form) or, when desc is empty, from
// `map_name` ("4x4" or "8x8").
#ifndef ENVPOOL_TOY_TEXT_FROZEN_LAKE_H_
#define ENVPOOL_TOY_TEXT_FROZEN_LAKE_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/render_scene.h"
#include "envpool/core/rng.h"
#include "envpool/numpy/random.h"
#include "envpool/toy_text/tabular.h"

namespace envpool::toy_text {

class FrozenLake {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() {
    return {{"desc", std::string()},
            {"map_name", std::string("4x4")},
            {"is_slippery", true},
            {"success_rate", 1.0 / 3.0},
            {"reward_schedule", std::vector<double>{1.0, 0.0, 0.0}}};
  }

  static EnvSpec Spec(const Config& config) {
    const std::vector<std::string> rows = LoadMap(config);
    CheckOptions(config);
    const auto num_states =
        static_cast<std::int64_t>(rows.size() * rows[0].size());
    return {MakeDiscrete<std::int64_t>("obs", num_states),
            MakeDiscrete<std::int64_t>("action", kNumActions),
            {MakeArray<double>("prob", {})}};
  }

  explicit FrozenLake(const Config& config)
      : rows_(LoadMap(config)),
        num_rows_(static_cast<std::int64_t>(rows_.size())),
        num_cols_(static_cast<std::int64_t>(rows_[0].size())),
        transitions_(num_rows_ * num_cols_, kNumActions),
        initial_state_probs_(static_cast<std::size_t>(num_rows_ * num_cols_)) {
    CheckOptions(config);
    const bool is_slippery = config.Get<bool>("is_slippery");
    const auto success_rate = config.Get<double>("success_rate");
    const auto reward_schedule =
        config.Get<std::vector<double>>("reward_schedule");
    const double fail_rate = (1.0 - success_rate) / 2.0;

    // Uniform over the start tiles, as a float64 array divided by its sum.
    double num_starts = 0.0;
    for (std::int64_t s = 0; s < num_rows_ * num_cols_; ++s) {
      if (Letter(s) == 'S') {
        initial_state_probs_[static_cast<std::size_t>(s)] = 1.0;
        num_starts += 1.0;
      }
    }
    for (double& p : initial_state_probs_) {
      p /= num_starts;
    }

    for (std::int64_t row = 0; row < num_rows_; ++row) {
      for (std::int64_t col = 0; col < num_cols_; ++col) {
        const std::int64_t s = row * num_cols_ + col;
        for (std::int64_t a = 0; a < kNumActions; ++a) {
          if (IsTerminalLetter(Letter(s))) {
            transitions_.Add(s, a, {1.0, s, 0.0, true});
          } else if (is_slippery) {
            for (const std::int64_t b : {(a + 3) % 4, a, (a + 1) % 4}) {
              Transition t = Move(row, col, b, reward_schedule);
              t.prob = b == a ? success_rate : fail_rate;
              transitions_.Add(s, a, t);
            }
          } else {
            Transition t = Move(row, col, a, reward_schedule);
            t.prob = 1.0;
            transitions_.Add(s, a, t);
          }
        }
      }
    }
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    state_ =
        static_cast<std::int64_t>(np_random_.Categorical(initial_state_probs_));
    last_action_ = kNoAction;
    out.Obs<std::int64_t>()[0] = state_;
    out.Info<double>(0)[0] = 1.0;
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const Transition& t = transitions_.Sample(state_, action, np_random_);
    state_ = t.next_state;
    last_action_ = action;
    out.reward = t.reward;
    out.terminated = t.terminated;
    out.Obs<std::int64_t>()[0] = state_;
    out.Info<double>(0)[0] = t.prob;
  }

  // What gymnasium's rgb_array frame shows (the map is the task's desc):
  // the player's tile. Drawn by envpool/families/toy_text/frames.py.
  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return SceneShape(1);
  }
  void Render(std::span<std::uint8_t> scene) const {
    WriteScene(scene, {static_cast<double>(state_)});
  }

  // gymnasium's render() in render_mode="ansi": the last move (a blank line
  // right after reset), then the map with the player's tile highlighted.
  std::string RenderAnsi() const {
    static constexpr std::array<std::string_view, kNumActions> kMoveNames = {
        "Left", "Down", "Right", "Up"};
    std::string text;
    AppendLastAction(text, last_action_, kMoveNames);
    const std::int64_t agent_row = state_ / num_cols_;
    const std::int64_t agent_col = state_ % num_cols_;
    for (std::int64_t row = 0; row < num_rows_; ++row) {
      for (std::int64_t col = 0; col < num_cols_; ++col) {
        const char letter =
            rows_[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)];
        if (row == agent_row && col == agent_col) {
          text += Colorize(std::string(1, letter), AnsiColor::kRed,
                           /*bold=*/false, /*highlight=*/true);
        } else {
          text += letter;
        }
      }
      text += '\n';
    }
    return text;
  }

 private:
  static constexpr std::int64_t kNumActions = 4;
  static constexpr std::int64_t kNoAction = -1;
  static constexpr std::int64_t kLeft = 0;
  static constexpr std::int64_t kDown = 1;
  static constexpr std::int64_t kRight = 2;
  static constexpr std::int64_t kUp = 3;

  static bool IsTerminalLetter(char letter) {
    return letter == 'G' || letter == 'H';
  }

  // The map's rows, checked: a rectangle of S, F, H and G with at least one
  // S and one G.
  static std::vector<std::string> LoadMap(const Config& config) {
    const auto desc = config.Get<std::string>("desc");
    if (desc.empty()) {
      const auto map_name = config.Get<std::string>("map_name");
      if (map_name == "4x4") {
        return {"SFFF", "FHFH", "FFFH", "HFFG"};
      }
      if (map_name == "8x8") {
        return {"SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF",
                "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"};
      }
      throw std::invalid_argument(
          "map_name must be '4x4' or '8x8', got '" + map_name +
          "'; pass desc=[...] (rows of S, F, H, G) for a map of your own, or "
          "map_name=None for a random 8x8 map");
    }
    std::vector<std::string> rows;
    std::size_t begin = 0;
    while (true) {
      const std::size_t end = desc.find('\n', begin);
      rows.push_back(desc.substr(begin, end - begin));
      if (end == std::string::npos) {
        break;
      }
      begin = end + 1;
    }
    bool has_start = false;
    bool has_goal = false;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (rows[r].empty() || rows[r].size() != rows[0].size()) {
        throw std::invalid_argument(
            "desc must be a rectangle of letters, rows of equal length: row " +
            std::to_string(r) + " has " + std::to_string(rows[r].size()) +
            " letters, row 0 has " + std::to_string(rows[0].size()));
      }
      for (const char letter : rows[r]) {
        if (letter != 'S' && letter != 'F' && letter != 'H' && letter != 'G') {
          throw std::invalid_argument(
              "desc may hold only the letters S (start), F (frozen), H (hole) "
              "and G (goal), but row " +
              std::to_string(r) + " is '" + rows[r] + "'");
        }
        has_start |= letter == 'S';
        has_goal |= letter == 'G';
      }
    }
    if (!has_start) {
      throw std::invalid_argument(
          "desc has no start tile: put an 'S' where the player starts");
    }
    if (!has_goal) {
      throw std::invalid_argument(
          "desc has no goal tile: put a 'G' where the player should get to");
    }
    return rows;
  }

  static void CheckOptions(const Config& config) {
    const auto success_rate = config.Get<double>("success_rate");
    if (!(success_rate >= 0.0 && success_rate <= 1.0)) {
      throw std::invalid_argument(
          "success_rate must be a probability in [0, 1], got " +
          FormatNumber(success_rate));
    }
    const auto reward_schedule =
        config.Get<std::vector<double>>("reward_schedule");
    if (reward_schedule.size() != 3) {
      throw std::invalid_argument(
          "reward_schedule must hold 3 rewards, (goal, hole, frozen), got " +
          std::to_string(reward_schedule.size()) + " values");
    }
  }

  char Letter(std::int64_t state) const {
    return rows_[static_cast<std::size_t>(state / num_cols_)]
                [static_cast<std::size_t>(state % num_cols_)];
  }

  // Where moving `action` from (row, col) leads, its reward and whether it
  // ends the episode (prob left for the caller).
  Transition Move(std::int64_t row, std::int64_t col, std::int64_t action,
                  const std::vector<double>& reward_schedule) const {
    if (action == kLeft) {
      col = std::max<std::int64_t>(col - 1, 0);
    } else if (action == kDown) {
      row = std::min(row + 1, num_rows_ - 1);
    } else if (action == kRight) {
      col = std::min(col + 1, num_cols_ - 1);
    } else if (action == kUp) {
      row = std::max<std::int64_t>(row - 1, 0);
    }
    const std::int64_t next = row * num_cols_ + col;
    const char letter = Letter(next);
    // reward_schedule is (goal, hole, frozen); a start tile counts as frozen.
    const double reward = letter == 'G'   ? reward_schedule[0]
                          : letter == 'H' ? reward_schedule[1]
                                          : reward_schedule[2];
    return {0.0, next, reward, IsTerminalLetter(letter)};
  }

  std::vector<std::string> rows_;
  std::int64_t num_rows_;
  std::int64_t num_cols_;
  TransitionTable transitions_;
  std::vector<double> initial_state_probs_;
  NumpyRandom np_random_;
  std::int64_t state_ = 0;
  std::int64_t last_action_ = kNoAction;
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_FROZEN_LAKE_H_

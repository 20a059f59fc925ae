// Taxi-v4: drive a taxi around a 5x5 grid with walls, pick a passenger up at
// one of four stands and drop them off at another. A port of gymnasium 1.4's
// toy_text/taxi.py, with its rainy (the taxi may skid sideways) and fickle
// passenger (who may change their destination once) variants.
#ifndef ENVPOOL_TOY_TEXT_TAXI_H_
#define ENVPOOL_TOY_TEXT_TAXI_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/render_scene.h"
#include "envpool/core/rng.h"
#include "envpool/numpy/random.h"
#include "envpool/toy_text/tabular.h"

namespace envpool::toy_text {

class Taxi {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() {
    return {{"is_rainy", false},
            {"fickle_passenger", false},
            {"rainy_probability", 0.8},
            {"fickle_probability", 0.3}};
  }

  static EnvSpec Spec(const Config& config) {
    CheckOptions(config);
    return {MakeDiscrete<std::int64_t>("obs", kNumStates),
            MakeDiscrete<std::int64_t>("action", kNumActions),
            {MakeArray<double>("prob", {}),
             MakeArray<std::int8_t>("action_mask", {kNumActions})}};
  }

  explicit Taxi(const Config& config)
      : is_rainy_(config.Get<bool>("is_rainy")),
        fickle_passenger_(config.Get<bool>("fickle_passenger")),
        rainy_probability_(config.Get<double>("rainy_probability")),
        fickle_probability_(config.Get<double>("fickle_probability")),
        transitions_(kNumStates, kNumActions),
        initial_state_probs_(kNumStates, 0.0) {
    CheckOptions(config);
    // Every taxi position, with the passenger waiting at a stand that is not
    // their destination, equally likely.
    double num_initial = 0.0;
    for (std::int64_t row = 0; row < kNumRows; ++row) {
      for (std::int64_t col = 0; col < kNumCols; ++col) {
        for (std::int64_t pass = 0; pass <= kInTaxi; ++pass) {
          for (std::int64_t dest = 0; dest < kNumStands; ++dest) {
            const std::int64_t state = Encode({row, col, pass, dest});
            if (pass < kInTaxi && pass != dest) {
              initial_state_probs_[state] += 1.0;
              num_initial += 1.0;
            }
            for (std::int64_t action = 0; action < kNumActions; ++action) {
              if (is_rainy_) {
                AddRainyTransitions({row, col, pass, dest}, action);
              } else {
                AddDryTransition({row, col, pass, dest}, action);
              }
            }
          }
        }
      }
    }
    for (double& p : initial_state_probs_) {
      p /= num_initial;
    }
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    state_ =
        static_cast<std::int64_t>(np_random_.Categorical(initial_state_probs_));
    last_action_ = kNoAction;
    taxi_orientation_ = 0;
    fickle_step_ =
        fickle_passenger_ && np_random_.Random() < fickle_probability_;
    Write(out, 1.0);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const Transition& t = transitions_.Sample(state_, action, np_random_);
    const TaxiState before = Decode(state_);
    TaxiState after = Decode(t.next_state);
    std::int64_t next = t.next_state;
    // A fickle passenger may pick a new destination once, on the first move
    // the taxi makes with them aboard.
    if (fickle_passenger_ && fickle_step_ && before.passenger == kInTaxi &&
        (after.row != before.row || after.col != before.col)) {
      fickle_step_ = false;
      std::array<std::int64_t, kNumStands - 1> other_stands{};
      std::size_t n = 0;
      for (std::int64_t stand = 0; stand < kNumStands; ++stand) {
        if (stand != before.destination) {
          other_stands[n++] = stand;
        }
      }
      after.destination = other_stands[static_cast<std::size_t>(
          np_random_.Integers(0, kNumStands - 1))];
      next = Encode(after);
    }
    state_ = next;
    last_action_ = action;
    out.reward = t.reward;
    out.terminated = t.terminated;
    Write(out, t.prob);
  }

  // What gymnasium's rgb_array frame shows: the state and the taxi's
  // heading. Like gymnasium's render(), each render turns the taxi to face
  // its last move (if it was one), so the heading depends on which steps were
  // rendered. Drawn by envpool/families/toy_text/frames.py.
  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return SceneShape(3);
  }
  void Render(std::span<std::uint8_t> scene) {
    if (last_action_ >= 0 && last_action_ < 4) {  // South, North, East, West
      taxi_orientation_ = last_action_;
    }
    WriteScene(scene,
               {static_cast<double>(state_), static_cast<double>(last_action_),
                static_cast<double>(taxi_orientation_)});
  }

  // gymnasium's render() in render_mode="ansi": the map with the taxi
  // (yellow, green with the passenger aboard), the waiting passenger (blue)
  // and the destination (magenta), then the last action (a blank line right
  // after reset).
  std::string RenderAnsi() const {
    static constexpr std::array<std::string_view, kNumActions> kActionNames = {
        "South", "North", "East", "West", "Pickup", "Dropoff"};
    std::vector<std::vector<std::string>> cells;
    for (const std::string_view line : kMap) {
      std::vector<std::string> row;
      for (const char c : line) {
        row.emplace_back(1, c);
      }
      cells.push_back(std::move(row));
    }
    const TaxiState s = Decode(state_);
    auto cell = [&](std::int64_t row, std::int64_t col) -> std::string& {
      return cells[static_cast<std::size_t>(1 + row)]
                  [static_cast<std::size_t>(2 * col + 1)];
    };
    std::string& taxi = cell(s.row, s.col);
    if (s.passenger < kInTaxi) {
      taxi = Colorize(taxi, AnsiColor::kYellow, /*bold=*/false,
                      /*highlight=*/true);
      const auto& [row, col] = kStands[static_cast<std::size_t>(s.passenger)];
      std::string& waiting = cell(row, col);
      waiting = Colorize(waiting, AnsiColor::kBlue, /*bold=*/true);
    } else {
      taxi = Colorize(taxi == " " ? "_" : taxi, AnsiColor::kGreen,
                      /*bold=*/false, /*highlight=*/true);
    }
    const auto& [dest_row, dest_col] =
        kStands[static_cast<std::size_t>(s.destination)];
    std::string& destination = cell(dest_row, dest_col);
    destination = Colorize(destination, AnsiColor::kMagenta);

    std::string text;
    for (const auto& row : cells) {
      for (const std::string& c : row) {
        text += c;
      }
      text += '\n';
    }
    AppendLastAction(text, last_action_, kActionNames);
    return text;
  }

 private:
  static constexpr std::int64_t kNumRows = 5;
  static constexpr std::int64_t kNumCols = 5;
  static constexpr std::int64_t kNumStands = 4;
  static constexpr std::int64_t kInTaxi = kNumStands;  // passenger index
  static constexpr std::int64_t kNumStates =
      kNumRows * kNumCols * (kNumStands + 1) * kNumStands;
  static constexpr std::int64_t kNumActions = 6;
  static constexpr std::int64_t kNoAction = -1;
  static constexpr std::int64_t kSouth = 0;
  static constexpr std::int64_t kNorth = 1;
  static constexpr std::int64_t kEast = 2;
  static constexpr std::int64_t kWest = 3;
  static constexpr std::int64_t kPickup = 4;
  static constexpr std::int64_t kDropoff = 5;
  // ':' between two cells lets the taxi pass; '|' is a wall.
  static constexpr std::array<std::string_view, 7> kMap = {
      "+---------+", "|R: | : :G|", "| : | : : |", "| : : : : |",
      "| | : | : |", "|Y| : |B: |", "+---------+"};
  // R, G, Y, B.
  static constexpr std::array<std::pair<std::int64_t, std::int64_t>, kNumStands>
      kStands = {{{0, 0}, {0, 4}, {4, 0}, {4, 3}}};

  struct TaxiState {
    std::int64_t row;
    std::int64_t col;
    std::int64_t passenger;  // a stand, or kInTaxi
    std::int64_t destination;
  };

  static std::int64_t Encode(const TaxiState& s) {
    return ((s.row * kNumCols + s.col) * (kNumStands + 1) + s.passenger) *
               kNumStands +
           s.destination;
  }

  static TaxiState Decode(std::int64_t state) {
    TaxiState s{};
    s.destination = state % kNumStands;
    state /= kNumStands;
    s.passenger = state % (kNumStands + 1);
    state /= kNumStands + 1;
    s.col = state % kNumCols;
    s.row = state / kNumCols;
    return s;
  }

  static void CheckOptions(const Config& config) {
    for (const char* name : {"rainy_probability", "fickle_probability"}) {
      const auto p = config.Get<double>(name);
      if (!(p >= 0.0 && p <= 1.0)) {
        throw std::invalid_argument(std::string(name) +
                                    " must be a probability in [0, 1], got " +
                                    FormatNumber(p));
      }
    }
  }

  // Whether the map has no wall between (row, col) and the cell east of it
  // (west of it with east=false).
  static bool Open(std::int64_t row, std::int64_t col, bool east) {
    return kMap[static_cast<std::size_t>(1 + row)]
               [static_cast<std::size_t>(2 * col + (east ? 2 : 0))] == ':';
  }

  static int StandAt(std::int64_t row, std::int64_t col) {
    for (std::size_t i = 0; i < kStands.size(); ++i) {
      if (kStands[i].first == row && kStands[i].second == col) {
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  // Pickup: the passenger boards if the taxi is at their stand; -10 if not.
  static std::pair<std::int64_t, double> Pickup(const TaxiState& s,
                                                double reward) {
    if (s.passenger < kInTaxi &&
        StandAt(s.row, s.col) == static_cast<int>(s.passenger)) {
      return {kInTaxi, reward};
    }
    return {s.passenger, -10.0};
  }

  struct DropoffResult {
    std::int64_t passenger;
    double reward;
    bool terminated;
  };

  // Dropoff: +20 and the end at the destination; at another stand the
  // passenger just gets out; -10 anywhere else or with no passenger aboard.
  static DropoffResult Dropoff(const TaxiState& s, double reward) {
    const int stand = StandAt(s.row, s.col);
    if (stand == static_cast<int>(s.destination) && s.passenger == kInTaxi) {
      return {s.destination, 20.0, true};
    }
    if (stand >= 0 && s.passenger == kInTaxi) {
      return {stand, reward, false};
    }
    return {s.passenger, -10.0, false};
  }

  // Pickup and Dropoff act on the passenger only: `next` gets the passenger's
  // new place, `reward` and `terminated` their new values. Other actions
  // leave all three alone.
  static void ServePassenger(const TaxiState& s, std::int64_t action,
                             TaxiState& next, double& reward,
                             bool& terminated) {
    if (action == kPickup) {
      std::tie(next.passenger, reward) = Pickup(s, reward);
    } else if (action == kDropoff) {
      const DropoffResult result = Dropoff(s, reward);
      next.passenger = result.passenger;
      reward = result.reward;
      terminated = result.terminated;
    }
  }

  void AddDryTransition(const TaxiState& s, std::int64_t action) {
    TaxiState next = s;
    double reward = -1.0;
    bool terminated = false;
    if (action == kSouth) {
      next.row = std::min(s.row + 1, kNumRows - 1);
    } else if (action == kNorth) {
      next.row = std::max<std::int64_t>(s.row - 1, 0);
    }
    if (action == kEast && Open(s.row, s.col, /*east=*/true)) {
      next.col = std::min(s.col + 1, kNumCols - 1);
    } else if (action == kWest && Open(s.row, s.col, /*east=*/false)) {
      next.col = std::max<std::int64_t>(s.col - 1, 0);
    } else {
      ServePassenger(s, action, next, reward, terminated);
    }
    transitions_.Add(Encode(s), action,
                     {1.0, Encode(next), reward, terminated});
  }

  // Where a sideways skid of (dr, dc) from (row, col) ends: nowhere new if a
  // wall is in the way.
  static std::pair<std::int64_t, std::int64_t> Skid(std::int64_t row,
                                                    std::int64_t col,
                                                    std::int64_t dr,
                                                    std::int64_t dc) {
    const std::int64_t new_row =
        std::clamp<std::int64_t>(row + dr, 0, kNumRows - 1);
    const std::int64_t new_col =
        std::clamp<std::int64_t>(col + dc, 0, kNumCols - 1);
    if (dc == 1 && kMap[static_cast<std::size_t>(1 + new_row)]
                       [static_cast<std::size_t>(2 * new_col)] != ':') {
      return {row, col};
    }
    if (dc == -1 && kMap[static_cast<std::size_t>(1 + new_row)]
                        [static_cast<std::size_t>(2 * new_col + 2)] != ':') {
      return {row, col};
    }
    return {new_row, new_col};
  }

  // In the rain a move goes where intended with rainy_probability, else
  // skids to either side of it with half the rest each.
  void AddRainyTransitions(const TaxiState& s, std::int64_t action) {
    // The intended step, then the two sideways ones, for each move.
    static constexpr std::array<std::array<std::array<std::int64_t, 2>, 3>, 4>
        kRainyMoves = {{{{{1, 0}, {0, 1}, {0, -1}}},
                        {{{-1, 0}, {0, -1}, {0, 1}}},
                        {{{0, 1}, {-1, 0}, {1, 0}}},
                        {{{0, -1}, {1, 0}, {-1, 0}}}}};
    TaxiState intended = s;
    std::pair<std::int64_t, std::int64_t> left = {s.row, s.col};
    std::pair<std::int64_t, std::int64_t> right = {s.row, s.col};
    double reward = -1.0;
    bool terminated = false;
    const bool can_move =
        (action == kSouth && s.row < kNumRows - 1) ||
        (action == kNorth && s.row > 0) ||
        (action == kEast && Open(s.row, s.col, /*east=*/true)) ||
        (action == kWest && Open(s.row, s.col, /*east=*/false));
    if (can_move) {
      const auto& moves = kRainyMoves[static_cast<std::size_t>(action)];
      intended.row =
          std::clamp<std::int64_t>(s.row + moves[0][0], 0, kNumRows - 1);
      intended.col =
          std::clamp<std::int64_t>(s.col + moves[0][1], 0, kNumCols - 1);
      left = Skid(s.row, s.col, moves[1][0], moves[1][1]);
      right = Skid(s.row, s.col, moves[2][0], moves[2][1]);
    } else {
      ServePassenger(s, action, intended, reward, terminated);
    }
    const std::int64_t state = Encode(s);
    if (action <= kWest) {
      const double lateral = (1.0 - rainy_probability_) / 2.0;
      TaxiState left_state = intended;
      left_state.row = left.first;
      left_state.col = left.second;
      TaxiState right_state = intended;
      right_state.row = right.first;
      right_state.col = right.second;
      transitions_.Add(
          state, action,
          {rainy_probability_, Encode(intended), -1.0, terminated});
      transitions_.Add(state, action,
                       {lateral, Encode(left_state), -1.0, terminated});
      transitions_.Add(state, action,
                       {lateral, Encode(right_state), -1.0, terminated});
    } else {
      transitions_.Add(state, action,
                       {1.0, Encode(intended), reward, terminated});
    }
  }

  void Write(Output& out, double prob) const {
    out.Obs<std::int64_t>()[0] = state_;
    out.Info<double>(0)[0] = prob;
    const TaxiState s = Decode(state_);
    std::span<std::int8_t> mask = out.Info<std::int8_t>(1);
    mask[kSouth] = s.row < kNumRows - 1 ? 1 : 0;
    mask[kNorth] = s.row > 0 ? 1 : 0;
    mask[kEast] = s.col < kNumCols - 1 && Open(s.row, s.col, true) ? 1 : 0;
    mask[kWest] = s.col > 0 && Open(s.row, s.col, false) ? 1 : 0;
    const int stand = StandAt(s.row, s.col);
    mask[kPickup] =
        s.passenger < kInTaxi && stand == static_cast<int>(s.passenger) ? 1 : 0;
    // (gymnasium also tests the destination, which is always a stand)
    mask[kDropoff] = s.passenger == kInTaxi && stand >= 0 ? 1 : 0;
  }

  bool is_rainy_;
  bool fickle_passenger_;
  double rainy_probability_;
  double fickle_probability_;
  TransitionTable transitions_;
  std::vector<double> initial_state_probs_;
  NumpyRandom np_random_;
  std::int64_t state_ = 0;
  std::int64_t last_action_ = kNoAction;
  std::int64_t taxi_orientation_ = 0;  // the frame's heading
  bool fickle_step_ = false;
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_TAXI_H_

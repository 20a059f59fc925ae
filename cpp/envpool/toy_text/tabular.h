// Pieces the tabular toy-text envs share: gymnasium's transition table P
// (a short list of (prob, next state, reward, terminated) outcomes for each
// state and action, one of them picked by categorical_sample), and the
// terminal colour codes of gymnasium.utils.colorize for their text rendering.
#ifndef ENVPOOL_TOY_TEXT_TABULAR_H_
#define ENVPOOL_TOY_TEXT_TABULAR_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envpool/numpy/random.h"

namespace envpool::toy_text {

struct Transition {
  double prob = 0.0;
  std::int64_t next_state = 0;
  double reward = 0.0;
  bool terminated = false;
};

class TransitionTable {
 public:
  static constexpr std::size_t kMaxOutcomes = 3;

  TransitionTable(std::int64_t num_states, std::int64_t num_actions)
      : num_actions_(num_actions),
        entries_(static_cast<std::size_t>(num_states * num_actions)) {}

  // Appends an outcome to P[state][action].
  void Add(std::int64_t state, std::int64_t action,
           const Transition& transition) {
    Entry& entry = At(state, action);
    if (entry.count == kMaxOutcomes) {
      throw std::logic_error("TransitionTable: too many outcomes");
    }
    entry.probs[entry.count] = transition.prob;
    entry.outcomes[entry.count] = transition;
    ++entry.count;
  }

  // gymnasium's categorical_sample over P[state][action]: one random() draw,
  // even where there is a single outcome.
  const Transition& Sample(std::int64_t state, std::int64_t action,
                           NumpyRandom& np_random) const {
    const Entry& entry = At(state, action);
    const std::size_t index = np_random.Categorical(
        std::span<const double>(entry.probs.data(), entry.count));
    return entry.outcomes[index];
  }

 private:
  struct Entry {
    std::array<double, kMaxOutcomes> probs{};
    std::array<Transition, kMaxOutcomes> outcomes{};
    std::size_t count = 0;
  };

  Entry& At(std::int64_t state, std::int64_t action) {
    return entries_[static_cast<std::size_t>(state * num_actions_ + action)];
  }
  const Entry& At(std::int64_t state, std::int64_t action) const {
    return entries_[static_cast<std::size_t>(state * num_actions_ + action)];
  }

  std::int64_t num_actions_;
  std::vector<Entry> entries_;
};

// A number as Python's str() prints it in most cases (1.5, not 1.500000),
// for error messages.
inline std::string FormatNumber(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

// The foreground colour codes gymnasium.utils.colorize knows by name.
enum class AnsiColor : int {
  kRed = 31,
  kGreen = 32,
  kYellow = 33,
  kBlue = 34,
  kMagenta = 35,
};

// gymnasium.utils.colorize: `text` wrapped in an SGR escape sequence
// (highlight turns the foreground code into the matching background one).
inline std::string Colorize(std::string_view text, AnsiColor color,
                            bool bold = false, bool highlight = false) {
  const int code = static_cast<int>(color) + (highlight ? 10 : 0);
  std::string out = "\x1b[" + std::to_string(code);
  if (bold) {
    out += ";1";
  }
  out += 'm';
  out += text;
  out += "\x1b[0m";
  return out;
}

// The line gymnasium's ansi rendering ends with: the last action's name in
// parentheses, or a blank line when the episode has just started (action < 0).
inline void AppendLastAction(std::string& text, std::int64_t action,
                             std::span<const std::string_view> names) {
  if (action >= 0) {
    text += "  (";
    text += names[static_cast<std::size_t>(action)];
    text += ")\n";
  } else {
    text += '\n';
  }
}

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_TABULAR_H_

// What procgen 0.10.7 defines per game: its distribution modes, its time
// limit and, for the games that have one, the level of its "exploration" mode.
// envpool checks every option against this before procgen sees it, because
// procgen's library ends the process on an option it does not accept.
#ifndef ENVPOOL_PROCGEN_GAMES_H_
#define ENVPOOL_PROCGEN_GAMES_H_

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace envpool::procgen {

// procgen's DistributionMode values, and the names its Python takes.
enum class Mode : std::int32_t {
  kEasy = 0,
  kHard = 1,
  kExtreme = 2,
  kMemory = 10,
  kExploration = 20,  // procgen's Python: hard mode on one fixed level
};

struct ModeName {
  std::string_view name;
  Mode mode;
};

inline constexpr std::array<ModeName, 5> kModeNames{{
    {"easy", Mode::kEasy},
    {"hard", Mode::kHard},
    {"extreme", Mode::kExtreme},
    {"memory", Mode::kMemory},
    {"exploration", Mode::kExploration},
}};

inline std::string_view NameOf(Mode mode) {
  for (const ModeName& m : kModeNames) {
    if (m.mode == mode) {
      return m.name;
    }
  }
  return "unknown";
}

struct Game {
  std::string_view name;
  int timeout;                     // steps per level
  bool extreme;                    // has "extreme" mode
  bool memory;                     // has "memory" mode
  int memory_timeout;              // steps per level in memory mode
  std::int32_t exploration_level;  // 0: no exploration mode
};

inline constexpr std::array<Game, 16> kGames{{
    {"bigfish", 6000, false, false, 0, 0},
    {"bossfight", 4000, false, false, 0, 0},
    {"caveflyer", 1000, false, true, 1000, 1259048185},
    {"chaser", 1000, true, false, 0, 0},
    {"climber", 1000, false, false, 0, 1561126160},
    {"coinrun", 1000, false, false, 0, 1949448038},
    {"dodgeball", 1000, true, true, 1000, 0},
    {"fruitbot", 1000, false, false, 0, 0},
    {"heist", 1000, false, true, 1000, 876640971},
    {"jumper", 1000, false, true, 2000, 1434825276},
    {"leaper", 500, true, false, 0, 1318677581},
    {"maze", 500, false, true, 500, 158988835},
    {"miner", 1000, false, true, 1000, 0},
    {"ninja", 1000, false, false, 0, 1123500215},
    {"plunder", 4000, false, false, 0, 0},
    {"starpilot", 1000, true, false, 0, 0},
}};

inline std::string GameNames() {
  std::string names;
  for (const Game& game : kGames) {
    names += (names.empty() ? "" : ", ") + std::string(game.name);
  }
  return names;
}

inline const Game& FindGame(std::string_view name) {
  for (const Game& game : kGames) {
    if (game.name == name) {
      return game;
    }
  }
  throw std::invalid_argument("procgen has no game '" + std::string(name) +
                              "'; its games are " + GameNames());
}

inline bool HasMode(const Game& game, Mode mode) {
  switch (mode) {
    case Mode::kEasy:
    case Mode::kHard:
      return true;
    case Mode::kExtreme:
      return game.extreme;
    case Mode::kMemory:
      return game.memory;
    case Mode::kExploration:
      return game.exploration_level != 0;
  }
  return false;
}

inline std::string ModesOf(const Game& game) {
  std::string names;
  for (const ModeName& m : kModeNames) {
    if (HasMode(game, m.mode)) {
      names += (names.empty() ? "" : ", ") + std::string(m.name);
    }
  }
  return names;
}

// The mode named `name` for `game`, or invalid_argument naming its modes.
inline Mode FindMode(const Game& game, std::string_view name) {
  for (const ModeName& m : kModeNames) {
    if (m.name == name) {
      if (!HasMode(game, m.mode)) {
        throw std::invalid_argument("procgen's " + std::string(game.name) +
                                    " has no " + std::string(name) +
                                    " mode; its distribution modes are " +
                                    ModesOf(game));
      }
      return m.mode;
    }
  }
  throw std::invalid_argument("distribution_mode '" + std::string(name) +
                              "' is not one of procgen's (" + ModesOf(game) +
                              " for " + std::string(game.name) + ")");
}

}  // namespace envpool::procgen

#endif  // ENVPOOL_PROCGEN_GAMES_H_

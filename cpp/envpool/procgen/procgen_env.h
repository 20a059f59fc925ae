// One procgen game instance per env: procgen's own library (libenv.so from
// its published wheel), made with num=1 and no threads of its own, stepped
// by envpool's worker threads.
//
// Episode ends follow procgen's gym env: procgen starts the next level inside
// the step that ends one, so that step shows the frame before it (with the
// final reward), and the reset after it shows the next level's first frame
// without stepping.
#ifndef ENVPOOL_PROCGEN_PROCGEN_ENV_H_
#define ENVPOOL_PROCGEN_PROCGEN_ENV_H_

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/procgen/game_library.h"
#include "envpool/procgen/games.h"
#include "envpool/procgen/saved_state.h"

namespace envpool::procgen {

inline constexpr int kObsSide = 64;
inline constexpr int kRenderSide = 512;
inline constexpr std::int64_t kNumActions = 15;
inline constexpr std::size_t kObsBytes = std::size_t{kObsSide} * kObsSide * 3;
inline constexpr std::size_t kRenderBytes =
    std::size_t{kRenderSide} * kRenderSide * 3;

// The options of one env, checked: what procgen would otherwise end the
// process over is an std::invalid_argument here.
struct GameOptions {
  const Game* game = nullptr;
  Mode mode = Mode::kHard;
  std::int32_t num_levels = 0;
  std::int32_t start_level = 0;
  bool use_sequential_levels = false;
  bool center_agent = true;
  bool use_backgrounds = true;
  bool restrict_themes = false;
  bool use_monochrome_assets = false;
  bool paint_vel_info = false;
  bool use_generated_assets = false;
  bool render_human = false;
  std::string library;
  std::string resource_root;

  explicit GameOptions(const Config& config)
      : game(&FindGame(config.Get<std::string>("env_name"))),
        mode(FindMode(*game, config.Get<std::string>("distribution_mode"))),
        num_levels(Int32(config, "num_levels")),
        start_level(Int32(config, "start_level")),
        use_sequential_levels(config.Get<bool>("use_sequential_levels")),
        center_agent(config.Get<bool>("center_agent")),
        use_backgrounds(config.Get<bool>("use_backgrounds")),
        restrict_themes(config.Get<bool>("restrict_themes")),
        use_monochrome_assets(config.Get<bool>("use_monochrome_assets")),
        paint_vel_info(config.Get<bool>("paint_vel_info")),
        use_generated_assets(config.Get<bool>("use_generated_assets")),
        render_human(config.Get<bool>("render_human")),
        library(config.Get<std::string>("library")),
        resource_root(config.Get<std::string>("resource_root")) {
    if (mode == Mode::kExploration) {
      if (num_levels != 0 || start_level != 0) {
        throw std::invalid_argument(
            "distribution_mode='exploration' plays one fixed level of " +
            std::string(game->name) +
            " and sets num_levels and start_level itself; leave them at 0");
      }
      mode = Mode::kHard;
      num_levels = 1;
      start_level = game->exploration_level;
    }
    if (static_cast<std::int64_t>(start_level) + num_levels > INT32_MAX) {
      throw std::invalid_argument(
          "start_level + num_levels must be at most 2**31 - 1 (procgen's "
          "level seeds are int32), got " +
          std::to_string(start_level) + " + " + std::to_string(num_levels));
    }
  }

  // procgen's library ends the process when it cannot read its images.
  void CheckResourceRoot() const {
    if (resource_root.empty() || resource_root.back() != '/' ||
        !std::filesystem::is_directory(resource_root)) {
      throw std::invalid_argument(
          "the option 'resource_root' must be procgen's assets folder ending "
          "in '/', as envpool.procgen_runtime.resource_root() gives it; got '" +
          resource_root + "'");
    }
  }

  // Steps per level: procgen's time limit for this game and mode.
  [[nodiscard]] int timeout() const {
    return mode == Mode::kMemory ? game->memory_timeout : game->timeout;
  }

  // What a saved state must have been saved with to be loaded here, as text.
  [[nodiscard]] std::string Identity() const {
    std::string id = "env_name=" + std::string(game->name) +
                     " distribution_mode=" + std::string(NameOf(mode)) +
                     " num_levels=" + std::to_string(num_levels) +
                     " start_level=" + std::to_string(start_level);
    const std::pair<const char*, bool> flags[] = {
        {"use_sequential_levels", use_sequential_levels},
        {"center_agent", center_agent},
        {"use_backgrounds", use_backgrounds},
        {"restrict_themes", restrict_themes},
        {"use_monochrome_assets", use_monochrome_assets},
        {"paint_vel_info", paint_vel_info},
        {"use_generated_assets", use_generated_assets}};
    for (const auto& [name, value] : flags) {
      id += std::string(" ") + name + (value ? "=True" : "=False");
    }
    return id;
  }

 private:
  static std::int32_t Int32(const Config& config, const char* name) {
    const auto value = config.Get<std::int64_t>(name);
    if (value < 0 || value > INT32_MAX) {
      throw std::invalid_argument(std::string(name) +
                                  " must be in [0, 2**31 - 1], got " +
                                  std::to_string(value));
    }
    return static_cast<std::int32_t>(value);
  }
};

class ProcgenEnv {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() {
    return {{"env_name", std::string("coinrun")},
            {"distribution_mode", std::string("hard")},
            {"num_levels", std::int64_t{0}},
            {"start_level", std::int64_t{0}},
            {"use_sequential_levels", false},
            {"center_agent", true},
            {"use_backgrounds", true},
            {"restrict_themes", false},
            {"use_monochrome_assets", false},
            {"paint_vel_info", false},
            {"use_generated_assets", false},
            {"render_human", false},
            {"library", std::string()},
            {"resource_root", std::string()}};
  }

  static EnvSpec Spec(const Config& config) {
    // refuses bad options at make(), before any env is built
    [[maybe_unused]] const GameOptions checked(config);
    return {
        MakeArray<std::uint8_t>("obs", {kObsSide, kObsSide, 3}, {0.0}, {255.0}),
        MakeDiscrete<std::int64_t>("action", kNumActions),
        {MakeArray<std::int32_t>("prev_level_seed", {}),
         MakeArray<std::uint8_t>("prev_level_complete", {}, {0.0}, {1.0}),
         MakeArray<std::int32_t>("level_seed", {})}};
  }

  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return {kRenderSide, kRenderSide, 3};
  }

  explicit ProcgenEnv(const Config& config)
      : options_(config), library_(LoadLibrary(options_)) {
    if (options_.render_human) {
      render_.resize(kRenderBytes);
    }
  }

  ~ProcgenEnv() { CloseGame(); }
  ProcgenEnv(const ProcgenEnv&) = delete;
  ProcgenEnv& operator=(const ProcgenEnv&) = delete;

  // procgen's rand_seed is an int32: seed s plays as s mod 2**31, which is s
  // itself for every seed below 2**31.
  void Seed(std::uint64_t seed) {
    rand_seed_ = static_cast<std::int32_t>(seed % (std::uint64_t{1} << 31));
    remake_ = true;
  }

  void Reset(Rng& /*rng*/, Output& out) {
    if (remake_ || game_ == nullptr) {
      MakeGame();
    } else if (mid_level_) {
      // procgen's own forced reset: one step with its default action that
      // ends the level, drawing the next level as an episode end does.
      action_ = -1;
      library_->act(game_);
    }
    mid_level_ = false;
    steps_in_level_ = 0;
    Write(obs_.data(), out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    std::memcpy(previous_obs_.data(), obs_.data(), kObsBytes);
    action_ = static_cast<std::int32_t>(action);
    library_->act(game_);
    ++steps_in_level_;
    out.reward = reward_;
    if (first_ != 0) {
      out.truncated =
          steps_in_level_ >= options_.timeout() && prev_level_complete_ == 0;
      out.terminated = !out.truncated;
      mid_level_ = false;
      steps_in_level_ = 0;
      Write(previous_obs_.data(), out);
      return;
    }
    mid_level_ = true;
    if (options_.use_sequential_levels && prev_level_complete_ != 0) {
      steps_in_level_ = 0;  // procgen went on to the next level
    }
    Write(obs_.data(), out);
  }

  void Render(std::span<std::uint8_t> frame) {
    if (render_.empty()) {
      throw std::logic_error("make the pool with render_mode='rgb_array'");
    }
    RequireGame("render()");
    library_->observe(game_);
    std::memcpy(frame.data(), render_.data(),
                std::min(frame.size(), render_.size()));
  }

  std::string SaveState() {
    RequireGame("get_state()");
    thread_local std::vector<char> buffer(kMaxGameState);
    const int length = library_->get_state(game_, 0, buffer.data(),
                                           static_cast<int>(buffer.size()));
    SavedState state{
        options_.Identity(), steps_in_level_, mid_level_,
        std::string(buffer.data(), static_cast<std::size_t>(length))};
    return state.Encode();
  }

  void LoadState(std::string_view bytes, std::span<std::byte> obs) {
    RequireGame("set_state()");
    const SavedState state = SavedState::Decode(bytes, options_.Identity());
    std::vector<char> game(state.game.begin(), state.game.end());
    library_->set_state(game_, 0, game.data(), static_cast<int>(game.size()));
    steps_in_level_ = state.steps_in_level;
    mid_level_ = state.mid_level;
    std::memcpy(obs.data(), obs_.data(), std::min(obs.size(), kObsBytes));
  }

 private:
  static const GameLibrary* LoadLibrary(const GameOptions& options) {
    options.CheckResourceRoot();
    return &GameLibrary::At(options.library);
  }

  // procgen's Python reads a state into 2**20 bytes; a game needs far fewer.
  static constexpr std::size_t kMaxGameState = std::size_t{1} << 22;

  void RequireGame(const char* call) const {
    if (game_ == nullptr) {
      throw std::logic_error(std::string("reset() the env before ") + call);
    }
  }

  void Write(const std::uint8_t* frame, Output& out) {
    std::memcpy(out.Obs<std::uint8_t>().data(), frame, kObsBytes);
    out.Info<std::int32_t>(0)[0] = prev_level_seed_;
    out.Info<std::uint8_t>(1)[0] = prev_level_complete_;
    out.Info<std::int32_t>(2)[0] = level_seed_;
  }

  void MakeGame() {
    CloseGame();
    const std::int32_t mode = static_cast<std::int32_t>(options_.mode);
    const std::int32_t num_actions = static_cast<std::int32_t>(kNumActions);
    const std::int32_t no_threads = 0;
    const std::uint8_t flags[] = {
        options_.center_agent,          options_.use_generated_assets,
        options_.use_monochrome_assets, options_.restrict_themes,
        options_.use_backgrounds,       options_.paint_vel_info,
        options_.use_sequential_levels, options_.render_human};
    const std::string_view name = options_.game->name;
    std::vector<abi::Option> items;
    auto add = [&](const char* key, int dtype, int count, const void* data) {
      abi::Option option{};
      std::strncpy(option.name, key, abi::kMaxNameLength - 1);
      option.dtype = dtype;
      option.count = count;
      option.data = const_cast<void*>(data);  // NOLINT: procgen only reads it
      items.push_back(option);
    };
    add("env_name", abi::kUint8, static_cast<int>(name.size()), name.data());
    add("num_levels", abi::kInt32, 1, &options_.num_levels);
    add("start_level", abi::kInt32, 1, &options_.start_level);
    add("num_actions", abi::kInt32, 1, &num_actions);
    add("rand_seed", abi::kInt32, 1, &rand_seed_);
    add("num_threads", abi::kInt32, 1, &no_threads);
    add("resource_root", abi::kUint8,
        static_cast<int>(options_.resource_root.size()),
        options_.resource_root.data());
    add("distribution_mode", abi::kInt32, 1, &mode);
    const char* flag_names[] = {"center_agent",          "use_generated_assets",
                                "use_monochrome_assets", "restrict_themes",
                                "use_backgrounds",       "paint_vel_info",
                                "use_sequential_levels", "render_human"};
    for (std::size_t i = 0; i < std::size(flags); ++i) {
      add(flag_names[i], abi::kUint8, 1, &flags[i]);
    }
    game_ = library_->make(1, {items.data(), static_cast<int>(items.size())});
    CheckSpaces();
    void* ob[] = {obs_.data()};
    void* info[] = {&prev_level_seed_, &prev_level_complete_, &level_seed_,
                    render_.data()};
    void* ac[] = {&action_};
    abi::Buffers buffers{ob, &reward_, &first_, info, ac};
    library_->set_buffers(game_, &buffers);  // resets: the first frame
    remake_ = false;
  }

  // The library's spaces must be the ones this env writes from.
  void CheckSpaces() {
    std::array<abi::TensorType, 8> types{};
    const int num_obs =
        library_->get_tensortypes(game_, abi::kObservation, nullptr);
    const int num_info = library_->get_tensortypes(game_, abi::kInfo, nullptr);
    const int expected_info = options_.render_human ? 4 : 3;
    bool fits = num_obs == 1 && num_info == expected_info;
    if (fits) {
      library_->get_tensortypes(game_, abi::kObservation, types.data());
      fits = types[0].ndim == 3 && types[0].shape[0] == kObsSide &&
             types[0].shape[1] == kObsSide && types[0].shape[2] == 3;
    }
    if (!fits) {
      CloseGame();
      throw std::runtime_error(
          "procgen's library made a game whose observation or info arrays "
          "are not procgen 0.10.7's; it is not the pinned library");
    }
  }

  void CloseGame() {
    if (game_ != nullptr) {
      library_->close(game_);
      game_ = nullptr;
    }
  }

  GameOptions options_;
  const GameLibrary* library_;
  void* game_ = nullptr;
  std::int32_t rand_seed_ = 0;
  bool remake_ = true;
  bool mid_level_ = false;  // stepped since the level began
  int steps_in_level_ = 0;

  // The buffers procgen writes into (set once per game made).
  std::array<std::uint8_t, kObsBytes> obs_{};
  std::array<std::uint8_t, kObsBytes> previous_obs_{};
  std::vector<std::uint8_t> render_;
  float reward_ = 0.0F;
  std::uint8_t first_ = 0;
  std::int32_t prev_level_seed_ = 0;
  std::uint8_t prev_level_complete_ = 0;
  std::int32_t level_seed_ = 0;
  std::int32_t action_ = 0;
};

}  // namespace envpool::procgen

#endif  // ENVPOOL_PROCGEN_PROCGEN_ENV_H_

// Atari 2600 games through the Arcade Learning Environment (ALE), with the
// usual deep-RL preprocessing done in C++: frame skipping with a max over the
// last two frames, grey or RGB frames resized by area averaging, a stack of
// the last frames, no-op and FIRE starts, episodic lives, reward clipping and
// sticky actions.
//
// With noop_max=0, use_fire_reset=false and repeat_action_probability=0 a
// step reproduces, byte for byte, gymnasium 1.4's
//   FrameStackObservation(AtariPreprocessing(
//       gymnasium.make("ALE/<Game>-v5", frameskip=1,
//                      repeat_action_probability=0),
//       noop_max=0, frame_skip=4, screen_size=84), 4)
// including its choice of frames: the max is taken over the screens after
// the last two frames of the skip; when the game ends inside the skip, the
// remaining frames are not emulated and the observation is built from the
// frames captured so far in the (in-place pooled) buffers, as there. At a
// new game the stack holds the first frame stack_num times.
//
// The other options, all drawing on the engine's per-env generator:
//   noop_max          a new game starts with 1..noop_max (uniform) no-op
//                     frames; 0: none.
//   use_fire_reset    after a reset, in games whose action set has FIRE:
//                     one step (frame_skip frames) of FIRE, then one of the
//                     set's third action if it has three or more.
//   repeat_action_probability
//                     sticky actions, drawn per emulated frame: with this
//                     probability the previous frame's action is repeated.
//   episodic_life     a lost life ends the episode (out.terminated) and the
//                     step, like a game over; the next Reset goes on with the
//                     same game (no reset_game, no no-ops, FIRE if enabled)
//                     unless the game is over.
//   zero_lives_ends_episode
//                     with episodic_life, whether the life lost to reach 0
//                     lives ends the episode. true (gymnasium's
//                     terminal_on_life_loss): every lost life does. false
//                     (the original EnvPool): only losses that leave lives;
//                     the last episode then ends at game over, which in some
//                     games (Atlantis, WizardOfWor) comes well after the
//                     lives counter reaches 0.
// Info arrays: lives, reward (the unclipped sum over the skip), terminated
// (game over), discount (0 at game over, and at a lost life with
// zero_discount_on_life_loss), game_return and game_length (the unclipped
// reward and the steps summed over the running game, across the episodes
// episodic_life cuts it into), and ram (include_ram).
//
// Caveats:
//   * ALE's reset_game keeps the console's RAM and the emulator's own
//     generator running from the previous game, so in a few games (Seaquest,
//     ...) later episodes depend on earlier ones, as in gymnasium's pipeline.
//     reset(seed=...) starts a fresh emulator (Seed), so a seeded reset
//     replays exactly like a new env with that seed.
//   * With episodic_life, a lost life on the step the engine truncates at
//     max_episode_steps still lets the next Reset continue the game: the
//     env does not see the truncation.
#ifndef ENVPOOL_ATARI_ATARI_ENV_H_
#define ENVPOOL_ATARI_ATARI_ENV_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ale/ale_interface.hpp"
#include "ale/common/ColourPalette.hpp"
#include "ale/common/Log.hpp"
#include "ale/emucore/MD5.hxx"
#include "ale/games/Roms.hpp"
#include "envpool/atari/preprocess.h"
#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"

namespace envpool::atari {

class AtariEnv {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() {
    return {
        {"rom_path", std::string()},
        {"img_height", std::int64_t{84}},
        {"img_width", std::int64_t{84}},
        {"stack_num", std::int64_t{4}},
        {"gray_scale", true},
        {"frame_skip", std::int64_t{4}},
        {"noop_max", std::int64_t{30}},
        {"use_fire_reset", true},
        {"episodic_life", false},
        {"zero_lives_ends_episode", true},
        {"zero_discount_on_life_loss", false},
        {"reward_clip", false},
        {"repeat_action_probability", 0.0},
        {"full_action_space", false},
        {"mode", std::int64_t{-1}},
        {"difficulty", std::int64_t{-1}},
        {"include_ram", false},
    };
  }

  static EnvSpec Spec(const Config& config) {
    const Options o = ReadOptions(config);
    const RomInfo rom = InspectRom(o);
    const std::int64_t channels = o.gray_scale ? 1 : 3;
    EnvSpec spec{
        MakeArray<std::uint8_t>(
            "obs", {o.stack_num * channels, o.img_height, o.img_width}, {0.0},
            {255.0}),
        MakeDiscrete<std::int64_t>(
            "action", static_cast<std::int64_t>(rom.actions.size())),
        {MakeArray<std::int32_t>("lives", {}), MakeArray<double>("reward", {}),
         MakeArray<bool>("terminated", {}),
         MakeArray<float>("discount", {}, {0.0}, {1.0}),
         MakeArray<double>("game_return", {}),
         MakeArray<std::int32_t>("game_length", {})}};
    if (o.include_ram) {
      spec.info.push_back(
          MakeArray<std::uint8_t>("ram", {kRamBytes}, {0.0}, {255.0}));
    }
    return spec;
  }

  // The shape of Render's RGB frame: the ROM's screen, {210, 160, 3} for
  // most games (a few are taller, e.g. 250 rows).
  static std::vector<std::int64_t> RenderShape(const Config& config) {
    const Options o = ReadOptions(config);
    InspectRom(o);
    const auto [height, width] = ScreenSize(o.rom_path);
    return {height, width, 3};
  }

  explicit AtariEnv(const Config& config)
      : options_(ReadOptions(config)),
        action_set_(InspectRom(options_).actions),
        ale_(StartEmulator(options_)),
        screen_height_(static_cast<int>(ale_->getScreen().height())),
        screen_width_(static_cast<int>(ale_->getScreen().width())),
        channels_(options_.gray_scale ? 1 : 3),
        resize_(screen_height_, screen_width_,
                static_cast<int>(options_.img_height),
                static_cast<int>(options_.img_width), channels_),
        stack_(static_cast<int>(options_.stack_num), resize_.out_size()),
        last_frame_(screen_height_, screen_width_, channels_),
        second_last_frame_(screen_height_, screen_width_, channels_),
        pooled_(resize_.in_size(), 0) {
    RecordScreenSize(options_.rom_path, screen_height_, screen_width_);
    if (std::find(action_set_.begin(), action_set_.end(), ale::PLAYER_A_FIRE) !=
        action_set_.end()) {
      fire_sequence_.push_back(ale::PLAYER_A_FIRE);
      if (action_set_.size() >= 3) {
        fire_sequence_.push_back(action_set_[2]);
      }
    }
    BuildPaletteTable();
  }

  // reset(seed=...): a fresh emulator, since ALE's reset_game keeps the
  // console's RAM and generator from the previous game (costs a ROM load;
  // none while the emulator has not run yet).
  void Seed(std::uint64_t /*seed*/) {
    if (!emulator_fresh_) {
      ale_ = StartEmulator(options_);
      emulator_fresh_ = true;
    }
    continue_game_ = false;
  }

  void Reset(Rng& rng, Output& out) {
    emulator_fresh_ = false;
    const bool new_game = !continue_game_;
    continue_game_ = false;
    if (new_game) {
      ale_->environment->getEnvironmentRNG().seed(
          static_cast<std::uint32_t>(rng() >> 32));
      ale_->reset_game();
      game_return_ = 0.0;
      game_length_ = 0;
      const std::int64_t noops =
          options_.noop_max > 0
              ? 1 + static_cast<std::int64_t>(rng.Below(
                        static_cast<std::uint64_t>(options_.noop_max)))
              : 0;
      for (std::int64_t i = 0; i < noops; ++i) {
        ale_->act(ale::PLAYER_A_NOOP);
        if (ale_->game_over(false)) {
          ale_->reset_game();
        }
      }
    }
    if (options_.use_fire_reset) {
      for (const ale::Action action : fire_sequence_) {
        for (std::int64_t t = 0; t < options_.frame_skip; ++t) {
          ale_->act(action);
        }
        if (ale_->game_over(false)) {
          ale_->reset_game();
        }
      }
    }
    last_action_ = ale::PLAYER_A_NOOP;
    lives_ = ale_->lives();
    Grab(last_frame_);
    std::memcpy(pooled_.data(), last_frame_.data(), pooled_.size());
    second_last_frame_.Fill(0);
    resize_.Run(pooled_.data(), stack_.NextSlot());
    stack_.Push();
    if (new_game) {
      stack_.FillWithNewest();
    }
    Write(out, 0.0, false, false, false);
  }

  void Step(Action action, Rng& rng, Output& out) {
    const ale::Action chosen = action_set_[static_cast<std::size_t>(action)];
    const std::int64_t skip = options_.frame_skip;
    const double sticky = options_.repeat_action_probability;
    double reward = 0.0;
    bool game_over = false;
    bool life_lost = false;
    bool life_ends_episode = false;
    bool grabbed_last = false;
    for (std::int64_t t = 0; t < skip; ++t) {
      // Sticky actions: with probability p the previous frame's action is
      // repeated instead of the chosen one.
      if (sticky == 0.0 || rng.Uniform() >= sticky) {
        last_action_ = chosen;
      }
      reward += ale_->act(last_action_);
      game_over = ale_->game_over(false);
      const int lives = ale_->lives();
      if (lives < lives_) {
        life_lost = true;
        life_ends_episode = options_.episodic_life &&
                            (options_.zero_lives_ends_episode || lives > 0);
      }
      lives_ = lives;
      if (game_over || life_ends_episode) {
        break;
      }
      if (t == skip - 2) {
        Grab(second_last_frame_);
      } else if (t == skip - 1) {
        Grab(last_frame_);
        grabbed_last = true;
      }
    }
    // pooled_ plays the part of the reference's first buffer: it receives
    // the last frame and is then pooled in place with the second buffer;
    // when the skip ended early it keeps its old contents, still pooled with
    // the second buffer as it stands.
    if (skip == 1) {
      if (grabbed_last) {
        std::memcpy(pooled_.data(), last_frame_.data(), pooled_.size());
      }
    } else {
      MaxPool(grabbed_last ? last_frame_.data() : pooled_.data(),
              second_last_frame_.data(), pooled_.data(), pooled_.size());
    }
    resize_.Run(pooled_.data(), stack_.NextSlot());
    stack_.Push();
    continue_game_ = life_ends_episode && !game_over;
    game_return_ += reward;
    ++game_length_;
    Write(out, reward, game_over, life_lost, life_ends_episode);
  }

  // The current screen as RGB, RenderShape() bytes.
  void Render(std::span<std::uint8_t> rgb) {
    const std::size_t bytes =
        static_cast<std::size_t>(screen_height_) * screen_width_ * 3;
    if (rgb.size() != bytes) {
      throw std::invalid_argument("Render needs " + std::to_string(bytes) +
                                  " bytes, got " + std::to_string(rgb.size()));
    }
    render_frame_.resize(bytes);
    ale_->getScreenRGB(render_frame_);
    std::memcpy(rgb.data(), render_frame_.data(), bytes);
  }

 private:
  static constexpr std::int64_t kRamBytes = 128;
  // Option bounds that keep every size computation far from overflow.
  static constexpr std::int64_t kMaxImageSide = 4096;
  static constexpr std::int64_t kMaxStack = 1024;

  struct Options {
    std::string rom_path;
    std::int64_t img_height;
    std::int64_t img_width;
    std::int64_t stack_num;
    bool gray_scale;
    std::int64_t frame_skip;
    std::int64_t noop_max;
    bool use_fire_reset;
    bool episodic_life;
    bool zero_lives_ends_episode;
    bool zero_discount_on_life_loss;
    bool reward_clip;
    double repeat_action_probability;
    bool full_action_space;
    std::int64_t mode;
    std::int64_t difficulty;
    bool include_ram;
  };

  struct RomInfo {
    ale::ActionVect actions;
  };

  static Options ReadOptions(const Config& config) {
    Options o{
        config.Get<std::string>("rom_path"),
        config.Get<std::int64_t>("img_height"),
        config.Get<std::int64_t>("img_width"),
        config.Get<std::int64_t>("stack_num"),
        config.Get<bool>("gray_scale"),
        config.Get<std::int64_t>("frame_skip"),
        config.Get<std::int64_t>("noop_max"),
        config.Get<bool>("use_fire_reset"),
        config.Get<bool>("episodic_life"),
        config.Get<bool>("zero_lives_ends_episode"),
        config.Get<bool>("zero_discount_on_life_loss"),
        config.Get<bool>("reward_clip"),
        config.Get<double>("repeat_action_probability"),
        config.Get<bool>("full_action_space"),
        config.Get<std::int64_t>("mode"),
        config.Get<std::int64_t>("difficulty"),
        config.Get<bool>("include_ram"),
    };
    CheckRange("img_height", o.img_height, 1, kMaxImageSide,
               "the observation height in pixels, e.g. 84");
    CheckRange("img_width", o.img_width, 1, kMaxImageSide,
               "the observation width in pixels, e.g. 84");
    CheckRange("stack_num", o.stack_num, 1, kMaxStack,
               "the number of frames stacked per observation, e.g. 4 (1 for "
               "no stacking)");
    CheckRange("frame_skip", o.frame_skip, 1,
               std::numeric_limits<std::int32_t>::max(),
               "the number of emulator frames per step, e.g. 4 (1 for no "
               "skipping)");
    CheckRange("noop_max", o.noop_max, 0,
               std::numeric_limits<std::int32_t>::max(),
               "the most no-op frames after a reset, e.g. 30 (0 for none)");
    const double p = o.repeat_action_probability;
    if (!(p >= 0.0 && p <= 1.0)) {
      throw std::invalid_argument(
          "repeat_action_probability must be in [0, 1], got " +
          std::to_string(p) +
          "; use 0 for deterministic actions or 0.25 for the sticky actions "
          "of Machado et al. (2018)");
    }
    return o;
  }

  static void CheckRange(const char* name, std::int64_t value, std::int64_t low,
                         std::int64_t high, const char* meaning) {
    if (value < low || value > high) {
      throw std::invalid_argument(
          std::string(name) + " must be in [" + std::to_string(low) + ", " +
          std::to_string(high) + "], got " + std::to_string(value) +
          "; set it to " + meaning);
    }
  }

  // Checks the ROM file, mode and difficulty without starting an emulator,
  // since ALE ends the process on a ROM it cannot load.
  static RomInfo InspectRom(const Options& o) {
    constexpr const char* kHint =
        "; the Atari task ids set it to a ROM shipped with ale-py (install "
        "ale-py==0.12.1, which ships the ROMs)";
    if (o.rom_path.empty()) {
      throw std::invalid_argument(
          std::string("rom_path is empty: it must name an Atari ROM file") +
          kHint);
    }
    std::error_code error;
    if (!std::filesystem::is_regular_file(o.rom_path, error)) {
      throw std::invalid_argument("rom_path '" + o.rom_path +
                                  "' is not a readable file" + kHint);
    }
    std::ifstream file(o.rom_path, std::ios::binary);
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                    std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) {
      throw std::invalid_argument("rom_path '" + o.rom_path +
                                  "' could not be read" + kHint);
    }
    if (bytes.empty()) {
      throw std::invalid_argument("rom_path '" + o.rom_path +
                                  "' is an empty file" + kHint);
    }
    const std::string md5 = ale::stella::MD5(
        bytes.data(), static_cast<std::uint32_t>(bytes.size()));
    std::unique_ptr<ale::RomSettings> settings(
        ale::buildRomRLWrapper(o.rom_path, md5));
    if (!settings) {
      if (const char* game = MultiPlayerOnlyGame(md5)) {
        throw std::invalid_argument(
            "rom_path '" + o.rom_path + "' is the " + game +
            " ROM, which ale-py ships for multi-player use only: ALE's "
            "single-player interface, which envpool runs, has no settings "
            "(score, lives, game over) for it, and ale-py registers no ALE/" +
            game + "-v5 either");
      }
      throw std::invalid_argument("rom_path '" + o.rom_path +
                                  "' is not a ROM that ALE supports (md5 " +
                                  md5 + ")" + kHint);
    }
    if (o.mode != -1) {
      const ale::ModeVect modes = settings->getAvailableModes();
      if (o.mode < 0 ||
          std::find(modes.begin(), modes.end(),
                    static_cast<ale::game_mode_t>(o.mode)) == modes.end()) {
        throw std::invalid_argument("mode " + std::to_string(o.mode) +
                                    " is not available for " + settings->rom() +
                                    "; available modes: " + JoinList(modes) +
                                    " (or -1 for the ROM's default)");
      }
    }
    if (o.difficulty != -1) {
      const ale::DifficultyVect levels = settings->getAvailableDifficulties();
      if (o.difficulty < 0 || std::find(levels.begin(), levels.end(),
                                        static_cast<ale::difficulty_t>(
                                            o.difficulty)) == levels.end()) {
        throw std::invalid_argument(
            "difficulty " + std::to_string(o.difficulty) +
            " is not available for " + settings->rom() +
            "; available difficulties: " + JoinList(levels) +
            " (or -1 for the ROM's default)");
      }
    }
    return {o.full_action_space ? settings->getAllActions()
                                : settings->getMinimalActionSet()};
  }

  // The game of a ROM that ale-py ships for multi-player use only (ALE has
  // no single-player settings for it), by the md5 of ale-py 0.12.1's file;
  // nullptr for any other ROM.
  static const char* MultiPlayerOnlyGame(const std::string& md5) {
    static const std::map<std::string, const char*> kGames = {
        {"0ef64cdbecccb7049752a3de0b7ade14", "Combat"},
        {"3276c777cbe97cdd2b4a63ffc16b7151", "Joust"},
        {"ed2218b3075d15eaa34e3356025ccca3", "MazeCraze"},
        {"cbe5a166550a8129a5e6d374901dffad", "Warlords"},
    };
    const auto it = kGames.find(md5);
    return it == kGames.end() ? nullptr : it->second;
  }

  template <typename T>
  static std::string JoinList(const std::vector<T>& values) {
    std::string text;
    for (const T& value : values) {
      if (!text.empty()) {
        text += ", ";
      }
      text += std::to_string(value);
    }
    return text;
  }

  // A new emulator with the ROM loaded, its mode and difficulty set.
  // Stickiness is applied by the env, per frame, with the engine's
  // generator, so ALE's own stays off; ALE's generator (used by a few ROMs'
  // mode selection) is reseeded from the engine's at every new game.
  static std::unique_ptr<ale::ALEInterface> StartEmulator(const Options& o) {
    QuietAleLogger();
    auto ale = std::make_unique<ale::ALEInterface>();
    ale->setFloat("repeat_action_probability", 0.0F);
    ale->setInt("random_seed", 0);
    ale->setInt("max_num_frames_per_episode", 0);
    ale->loadROM(o.rom_path);
    if (o.mode >= 0) {
      ale->setMode(static_cast<ale::game_mode_t>(o.mode));
    }
    if (o.difficulty >= 0) {
      ale->setDifficulty(static_cast<ale::difficulty_t>(o.difficulty));
    }
    return ale;
  }

  // Screen sizes by ROM file, learnt from the first emulator that loads it
  // (loading takes tens of milliseconds).
  struct ScreenSizes {
    std::mutex mutex;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> sizes;
  };
  static ScreenSizes& KnownScreenSizes() {
    static ScreenSizes known;
    return known;
  }
  static void RecordScreenSize(const std::string& rom_path, int height,
                               int width) {
    ScreenSizes& known = KnownScreenSizes();
    std::lock_guard lock(known.mutex);
    known.sizes[rom_path] = {height, width};
  }
  static std::pair<std::int64_t, std::int64_t> ScreenSize(
      const std::string& rom_path) {
    {
      ScreenSizes& known = KnownScreenSizes();
      std::lock_guard lock(known.mutex);
      const auto it = known.sizes.find(rom_path);
      if (it != known.sizes.end()) {
        return it->second;
      }
    }
    QuietAleLogger();
    ale::ALEInterface ale;
    ale.loadROM(rom_path);
    const auto height = static_cast<int>(ale.getScreen().height());
    const auto width = static_cast<int>(ale.getScreen().width());
    RecordScreenSize(rom_path, height, width);
    return {height, width};
  }

  // ALE reports at Info level by default (a banner per emulator); keep only
  // errors. The level is process-wide.
  static void QuietAleLogger() {
    static std::once_flag once;
    std::call_once(once, [] { ale::Logger::setMode(ale::Logger::Error); });
  }

  // ALE's own palette conversion, run once over every palette index: the
  // grey or R, G, B bytes that getScreenGrayscale / getScreenRGB give for
  // it, one 256-entry table per channel.
  void BuildPaletteTable() {
    std::uint8_t indices[256];
    for (int i = 0; i < 256; ++i) {
      indices[i] = static_cast<std::uint8_t>(i);
    }
    ale::ColourPalette& palette = ale_->theOSystem->colourPalette();
    palette_table_.assign(256 * static_cast<std::size_t>(channels_), 0);
    if (channels_ == 1) {
      // ALE reads the grey of index i from palette entry i + 1. Most screens
      // hold even indices only, but some games (e.g. AirRaid) also show odd
      // ones, 255 included, for which ALE reads one entry past its 256-entry
      // palette: the first entry of the next palette array, black (0) in
      // every layout of ALE's tables, and 0 in ale-py's own build. Rather
      // than make that out-of-bounds read, use 0.
      palette.applyPaletteGrayscale(palette_table_.data(), indices, 255);
      palette_table_[255] = 0;
    } else {
      std::uint8_t rgb[256 * 3];
      palette.applyPaletteRGB(rgb, indices, 256);
      for (int i = 0; i < 256; ++i) {
        for (int c = 0; c < 3; ++c) {
          palette_table_[c * 256 + i] = rgb[i * 3 + c];
        }
      }
    }
  }

  // The current screen, as getScreenGrayscale / getScreenRGB would give it
  // but in channel planes.
  void Grab(PaletteFrame& frame) const {
    frame.Convert(ale_->getScreen().getArray(), palette_table_.data());
  }

  // Positions of the info arrays in Spec's list.
  enum InfoIndex : std::size_t {
    kLivesInfo,
    kRewardInfo,
    kGameOverInfo,
    kDiscountInfo,
    kGameReturnInfo,
    kGameLengthInfo,
    kRamInfo,
  };

  void Write(Output& out, double reward, bool game_over, bool life_lost,
             bool life_ends_episode) {
    stack_.CopyTo(out.Obs<std::uint8_t>().data());
    out.reward = options_.reward_clip
                     ? static_cast<double>((reward > 0.0) - (reward < 0.0))
                     : reward;
    out.terminated = game_over || life_ends_episode;
    out.Info<std::int32_t>(kLivesInfo)[0] = lives_;
    out.Info<double>(kRewardInfo)[0] = reward;
    out.Info<bool>(kGameOverInfo)[0] = game_over;
    out.Info<float>(kDiscountInfo)[0] =
        game_over || (options_.zero_discount_on_life_loss && life_lost) ? 0.0F
                                                                        : 1.0F;
    out.Info<double>(kGameReturnInfo)[0] = game_return_;
    out.Info<std::int32_t>(kGameLengthInfo)[0] = game_length_;
    if (options_.include_ram) {
      std::memcpy(out.Info<std::uint8_t>(kRamInfo).data(),
                  ale_->getRAM().array(), kRamBytes);
    }
  }

  Options options_;
  ale::ActionVect action_set_;
  std::unique_ptr<ale::ALEInterface> ale_;
  int screen_height_;
  int screen_width_;
  int channels_;
  AreaResize resize_;
  FrameStack stack_;
  std::vector<ale::Action> fire_sequence_;
  // The screens after the last and second-to-last frame of a skip, and
  // their max.
  PaletteFrame last_frame_;
  PaletteFrame second_last_frame_;
  std::vector<std::uint8_t> pooled_;
  std::vector<unsigned char> render_frame_;
  std::vector<std::uint8_t> palette_table_;
  ale::Action last_action_ = ale::PLAYER_A_NOOP;
  int lives_ = 0;
  // The running game's unclipped reward and steps, over all its episodes.
  double game_return_ = 0.0;
  std::int32_t game_length_ = 0;
  // The last step lost a life (episodic_life) without ending the game: the
  // next Reset goes on with the running game.
  bool continue_game_ = false;
  bool emulator_fresh_ = true;
};

}  // namespace envpool::atari

#endif  // ENVPOOL_ATARI_ATARI_ENV_H_

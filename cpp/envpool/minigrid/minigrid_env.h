// The core of the minigrid family: what minigrid's MiniGridEnv
// (minigrid/minigrid_env.py) gives every task, for env classes to build on.
//
// - MiniGridEnv: the base class. A task derives from it, lays out its world
//   in GenGrid() (grid_, agent_pos_, agent_dir_, mission_), and may wrap the
//   seven actions' common step (BaseStep) in its own StepTask(). The base
//   class does the rest: options (max_steps, agent_view_size,
//   see_through_walls), reset, the step counter and time limit, the reward
//   1 - 0.9 * step_count / max_steps (Reward()), and the observation
//   Dict(direction, image, mission) with an "agent_pos" info array.
// - minigrid's random helpers, drawing from numpy's Generator in minigrid's
//   order (RandInt, RandBool, RandElem, RandSubset, RandColor, RandPos,
//   PlaceObj's rejection loop, PlaceAgent); np_random_ is seeded as
//   gymnasium seeds env.np_random, so env i of a pool replays minigrid's env
//   reset with seed + i, autoresets included.
// - what several tasks lay out or check alike: WalledGrid() (a fresh grid
//   walled all around), SplitIntoRooms() (the walls of FourRooms and
//   Playground), the constructor for a square grid of the `size` option,
//   SizedTask: the options and spec of a task whose one option is `size`.
// - world_object.h (objects and their encoding), grid.h (the grid and its
//   walls), view.h (the partial view and its visibility), room_grid.h
//   (minigrid's RoomGrid: rooms, doors, objects placed in rooms).
#ifndef ENVPOOL_MINIGRID_MINIGRID_ENV_H_
#define ENVPOOL_MINIGRID_MINIGRID_ENV_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/minigrid/grid.h"
#include "envpool/minigrid/obs_modes.h"
#include "envpool/minigrid/render.h"
#include "envpool/minigrid/view.h"
#include "envpool/minigrid/world_object.h"
#include "envpool/numpy/random.h"

namespace envpool::minigrid {

// minigrid's Actions.
enum Act : std::int64_t {
  kLeft = 0,
  kRight = 1,
  kForward = 2,
  kPickup = 3,
  kDrop = 4,
  kToggle = 5,
  kDone = 6,
};
inline constexpr std::int64_t kNumActions = 7;

// The most bytes a mission may take: BabyAI's longest missions take about
// 200; a longer one is an error, never cut.
inline constexpr std::int64_t kMaxMissionBytes = 512;

// The options every task has, after the task's own: `max_steps` (0: the
// task's default, which minigrid computes from its size), `agent_view_size`,
// `obs_mode` (obs_modes.h) with the `tile_size` of its RGB forms and, where
// minigrid lets it be passed,
// `see_through_walls`.
inline Config WithCommonOptions(Config own, bool see_through_walls_option,
                                bool see_through_walls = false) {
  own.Set("max_steps", std::int64_t{0});
  own.Set("agent_view_size", std::int64_t{7});
  own.Set("obs_mode", std::string("dict"));
  own.Set("tile_size", std::int64_t{8});
  if (see_through_walls_option) {
    own.Set("see_through_walls", see_through_walls);
  }
  return own;
}

inline std::int64_t SizeOption(const Config& config) {
  return config.Get<std::int64_t>("size");
}

inline std::int64_t ViewSize(const Config& config) {
  const auto size = config.Get<std::int64_t>("agent_view_size");
  if (size < 3 || size % 2 == 0) {
    throw std::invalid_argument(
        "agent_view_size must be odd and at least 3 (the agent sits in the "
        "middle of the view's bottom row), got " +
        std::to_string(size));
  }
  return size;
}

// What minigrid raises as RecursionError: a rejection-sampling loop (place_obj,
// connect_all, BabyAI's rand_obj) ran out of tries. BabyAI's levels catch it
// and lay out the episode again.
struct RecursionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void CheckAtLeast(std::string_view name, std::int64_t value,
                         std::int64_t least, std::string_view why = "") {
  if (value < least) {
    throw std::invalid_argument(
        std::string(name) + " must be at least " + std::to_string(least) +
        (why.empty() ? "" : " (" + std::string(why) + ")") + ", got " +
        std::to_string(value));
  }
}

inline void CheckOdd(std::string_view name, std::int64_t value,
                     std::string_view why) {
  if (value % 2 == 0) {
    throw std::invalid_argument(std::string(name) + " must be odd (" +
                                std::string(why) + "), got " +
                                std::to_string(value));
  }
}

class MiniGridEnv {
 public:
  using Action = std::int64_t;

  // Dict(direction, image, mission), in the order of minigrid's sorted
  // observation space, or the obs_mode's form of it, and the agent's position
  // as info. A mission may be empty (Playground's is). Dynamic-Obstacles has
  // 3 actions, the rest 7.
  static EnvSpec Spec(const Config& config,
                      std::int64_t num_actions = kNumActions) {
    const std::int64_t view = ViewSize(config);
    CheckAtLeast("max_steps", config.Get<std::int64_t>("max_steps"), 0);
    // obs_mode "full" and "rgb": the grid's size comes from
    // GridSized<Task>::Spec.
    return {ObsModeSpec(ObsModeOption(config), view, kMaxMissionBytes, {0, 0},
                        TileSize(config)),
            MakeDiscrete<std::int64_t>("action", num_actions),
            {MakeArray<std::int32_t>("agent_pos", {2})}};
  }

  virtual ~MiniGridEnv() = default;
  MiniGridEnv(const MiniGridEnv&) = delete;
  MiniGridEnv& operator=(const MiniGridEnv&) = delete;

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    agent_pos_ = {-1, -1};
    agent_dir_ = -1;
    GenGrid();
    carrying_ = WorldObj{};
    step_count_ = 0;
    WriteObs(out);
    // minigrid's wrappers that draw the whole grid or the frame read the env
    // after its reset returns, the others its returned observation
    if (AfterReset() &&
        (obs_mode_ == ObsMode::kFull || obs_mode_ == ObsMode::kRgb ||
         obs_mode_ == ObsMode::kRgbPartial)) {
      WriteObs(out);
    }
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    ++step_count_;
    const StepResult result = StepTask(action);
    out.reward = result.reward;
    out.terminated = result.terminated;
    out.truncated = step_count_ >= max_steps_;
    WriteObs(out);
  }

  // render_mode="rgb_array": minigrid's env.render(), the whole grid at 32
  // pixels a cell with the agent's view lightened.
  void Render(std::span<std::uint8_t> frame) {
    RenderFull(kRenderTilePixels, frame);
  }

 protected:
  struct StepResult {
    double reward = 0.0;
    bool terminated = false;
  };
  using RejectFn = std::function<bool(Pos)>;
  // Tags the object whose pickup is a task's success.
  static constexpr std::uint8_t kTargetTag = 1;

  // `default_max_steps` is the task's, used when the option is 0.
  MiniGridEnv(const Config& config, std::int64_t width, std::int64_t height,
              std::int64_t default_max_steps, bool see_through_walls)
      : grid_(width, height),
        max_steps_(config.Get<std::int64_t>("max_steps") > 0
                       ? config.Get<std::int64_t>("max_steps")
                       : default_max_steps),
        see_through_walls_(config.Contains("see_through_walls")
                               ? config.Get<bool>("see_through_walls")
                               : see_through_walls),
        obs_mode_(ObsModeOption(config)),
        tile_size_(TileSize(config)),
        view_(ViewSize(config)),
        image_(obs_mode_ == ObsMode::kOneHot || obs_mode_ == ObsMode::kFlat
                   ? static_cast<std::size_t>(view_.size() * view_.size() * 3)
                   : 0) {}
  // A size x size grid (the "size" option) whose default max_steps is
  // steps_per_cell * size * size, as most tasks count it.
  MiniGridEnv(const Config& config, std::int64_t steps_per_cell,
              bool see_through_walls)
      : MiniGridEnv(config, SizeOption(config), SizeOption(config),
                    steps_per_cell * SizeOption(config) * SizeOption(config),
                    see_through_walls) {}

  // Lays out a new episode's world: grid_, agent_pos_, agent_dir_, mission_.
  virtual void GenGrid() = 0;
  // One step of the task after step_count_ has grown; by default minigrid's
  // common step.
  virtual StepResult StepTask(Action action) { return BaseStep(action); }
  // What a task changes after reset's observation is made (BabyAI's PutNext
  // hands the agent an object only then); true when it changed the world.
  virtual bool AfterReset() { return false; }

  // MiniGridEnv.step without the counter and the time limit.
  StepResult BaseStep(Action action) {
    StepResult result;
    const Pos front = FrontPos();
    WorldObj& cell = grid_.At(front);
    switch (action) {
      case kLeft:
        agent_dir_ = (agent_dir_ + 3) % 4;
        break;
      case kRight:
        agent_dir_ = (agent_dir_ + 1) % 4;
        break;
      case kForward:
        if (cell.IsEmpty() || cell.CanOverlap()) {
          agent_pos_ = front;
        }
        if (cell.type == ObjType::kGoal) {
          result.terminated = true;
          result.reward = Reward();
        } else if (cell.type == ObjType::kLava) {
          result.terminated = true;
        }
        break;
      case kPickup:
        if (cell.CanPickup() && carrying_.IsEmpty()) {
          carrying_ = cell;
          grid_.Clear(front);
        }
        break;
      case kDrop:
        if (cell.IsEmpty() && !carrying_.IsEmpty()) {
          cell = carrying_;
          carrying_ = WorldObj{};
        }
        break;
      case kToggle:
        Toggle(front);
        break;
      default:  // kDone
        break;
    }
    return result;
  }

  // WorldObj.toggle of the object at `pos`: a door opens or closes (a locked
  // one opens only for a key of its color), a box gives way to its content.
  bool Toggle(Pos pos) {
    WorldObj& cell = grid_.At(pos);
    if (cell.type == ObjType::kDoor) {
      if (cell.door == DoorState::kLocked) {
        if (carrying_.Is(ObjType::kKey, cell.color)) {
          cell.door = DoorState::kOpen;
          return true;
        }
        return false;
      }
      cell.door =
          cell.door == DoorState::kOpen ? DoorState::kClosed : DoorState::kOpen;
      return true;
    }
    if (cell.type == ObjType::kBox) {
      const WorldObj box = cell;
      if (box.contains_type == ObjType::kEmpty) {
        grid_.Clear(pos);
      } else {
        grid_.Set(pos, MakeObj(box.contains_type, box.contains_color));
      }
      return true;
    }
    return false;
  }

  // A fresh grid_ with walls all around (minigrid's Grid(width, height)
  // and wall_rect(0, 0, width, height)); returns {width, height}.
  Pos WalledGrid() {
    grid_.Reset();
    grid_.WallRect(0, 0, grid_.width(), grid_.height());
    return {grid_.width(), grid_.height()};
  }

  // Walls splitting the grid into rooms x rooms rooms (FourRooms,
  // Playground), in minigrid's order: for each room, row by row, the wall on
  // its right, then the one below it, each opened by `open(cell)` at a cell
  // drawn strictly inside the wall's span, `end_margin` more cells short of
  // its far end.
  template <typename OpenFn>
  void SplitIntoRooms(std::int64_t rooms, std::int64_t end_margin,
                      const OpenFn& open) {
    const std::int64_t room_w = grid_.width() / rooms;
    const std::int64_t room_h = grid_.height() / rooms;
    for (std::int64_t j = 0; j < rooms; ++j) {
      for (std::int64_t i = 0; i < rooms; ++i) {
        const std::int64_t left = i * room_w;
        const std::int64_t top = j * room_h;
        const std::int64_t right = left + room_w;
        const std::int64_t bottom = top + room_h;
        if (i + 1 < rooms) {
          grid_.VertWall(right, top, room_h);
          open(Pos{right, RandInt(top + 1, bottom - end_margin)});
        }
        if (j + 1 < rooms) {
          grid_.HorzWall(left, bottom, room_w);
          open(Pos{RandInt(left + 1, right - end_margin), bottom});
        }
      }
    }
  }

  [[nodiscard]] double Reward() const {
    return 1.0 - 0.9 * (static_cast<double>(step_count_) /
                        static_cast<double>(max_steps_));
  }

  [[nodiscard]] Pos FrontPos() const {
    const Pos d = DirVec(agent_dir_);
    return {agent_pos_.x + d.x, agent_pos_.y + d.y};
  }

  // minigrid's random helpers, each the same numpy draws.
  std::int64_t RandInt(std::int64_t low, std::int64_t high) {
    return np_random_.Integers(low, high);
  }
  bool RandBool() { return np_random_.Integers(0, 2) == 0; }
  template <typename T>
  T RandElem(std::span<const T> items) {
    return items[static_cast<std::size_t>(
        RandInt(0, static_cast<std::int64_t>(items.size())))];
  }
  template <typename T>
  T RandElem(const std::vector<T>& items) {
    return RandElem(std::span<const T>(items));
  }
  template <typename T>
  std::vector<T> RandSubset(std::vector<T> items, std::size_t num) {
    std::vector<T> out;
    while (out.size() < num) {
      const T elem = RandElem(items);
      items.erase(std::find(items.begin(), items.end(), elem));
      out.push_back(elem);
    }
    return out;
  }
  Color RandColor() { return RandElem(std::span<const Color>(kColorNames)); }
  Pos RandPos(std::int64_t x_low, std::int64_t x_high, std::int64_t y_low,
              std::int64_t y_high) {
    const std::int64_t x = RandInt(x_low, x_high);
    return {x, RandInt(y_low, y_high)};
  }

  // minigrid's place_obj: rejection-samples an empty cell of the rectangle
  // at `top` of `size` ({-1, -1}: the grid), not the agent's and not
  // rejected, and puts `obj` there (nothing for an empty obj). Past
  // max_tries (-1: no limit) it throws, as minigrid raises RecursionError.
  Pos PlaceObj(const WorldObj& obj, Pos top = {0, 0}, Pos size = {-1, -1},
               const RejectFn& reject = nullptr, std::int64_t max_tries = -1) {
    const std::optional<Pos> pos =
        TryPlaceObj(obj, top, size, reject, max_tries);
    if (!pos) {
      throw RecursionError("rejection sampling failed in place_obj");
    }
    return *pos;
  }

  // PlaceObj, empty past max_tries (after the same draws).
  std::optional<Pos> TryPlaceObj(const WorldObj& obj, Pos top, Pos size,
                                 const RejectFn& reject,
                                 std::int64_t max_tries) {
    top = {std::max<std::int64_t>(top.x, 0), std::max<std::int64_t>(top.y, 0)};
    if (size.x < 0) {
      size = {grid_.width(), grid_.height()};
    }
    const std::int64_t x_high = std::min(top.x + size.x, grid_.width());
    const std::int64_t y_high = std::min(top.y + size.y, grid_.height());
    for (std::int64_t tries = 0; max_tries < 0 || tries <= max_tries; ++tries) {
      const Pos pos = RandPos(top.x, x_high, top.y, y_high);
      if (!grid_.Get(pos).IsEmpty() || pos == agent_pos_ ||
          (reject && reject(pos))) {
        continue;
      }
      grid_.Set(pos, obj);
      return pos;
    }
    return std::nullopt;
  }

  // The agent at `start` facing `dir`, or placed anywhere facing anywhere
  // when `start` is empty (minigrid's agent_start_pos=None).
  void StartAgent(const std::optional<Pos>& start, std::int64_t dir) {
    if (start) {
      agent_pos_ = *start;
      agent_dir_ = dir;
    } else {
      PlaceAgent();
    }
  }

  // BaseStep, then success when the agent picks up the object tagged
  // kTargetTag (minigrid's `self.carrying == self.obj`).
  StepResult PickUpTargetStep(Action action) {
    StepResult result = BaseStep(action);
    if (action == kPickup && carrying_.tag == kTargetTag) {
      result = {Reward(), true};
    }
    return result;
  }

  // BaseStep, then the end of the episode on toggle or done; done next to
  // `target` (not diagonally) succeeds (GoToObject, GoToDoor).
  StepResult GoToStep(Action action, Pos target) {
    StepResult result = BaseStep(action);
    if (action == kToggle) {
      result.terminated = true;
    }
    if (action == kDone) {
      const bool next_to =
          (agent_pos_.x == target.x &&
           std::abs(agent_pos_.y - target.y) == 1) ||
          (agent_pos_.y == target.y && std::abs(agent_pos_.x - target.x) == 1);
      if (next_to) {
        result.reward = Reward();
      }
      result.terminated = true;
    }
    return result;
  }

  // minigrid's place_agent: the agent on a cell PlaceObj picks, facing a
  // random direction when rand_dir.
  Pos PlaceAgent(Pos top = {0, 0}, Pos size = {-1, -1}, bool rand_dir = true,
                 std::int64_t max_tries = -1) {
    agent_pos_ = {-1, -1};
    agent_pos_ = PlaceObj(WorldObj{}, top, size, nullptr, max_tries);
    if (rand_dir) {
      agent_dir_ = RandInt(0, 4);
    }
    return agent_pos_;
  }

  Grid grid_;
  Pos agent_pos_{-1, -1};
  std::int64_t agent_dir_ = -1;
  WorldObj carrying_;
  std::int64_t step_count_ = 0;
  std::int64_t max_steps_;
  bool see_through_walls_;
  std::string mission_;
  NumpyRandom np_random_;

 private:
  // The observation in obs_mode_'s form: the dict forms write direction and
  // mission around their image; "image" encodes the view straight into the
  // batch, "one_hot" and "flat" encode it into image_ first.
  void WriteObs(Output& out) {
    const bool dict =
        obs_mode_ != ObsMode::kImage && obs_mode_ != ObsMode::kFlat;
    if (dict) {
      out.Obs<std::int64_t>(0)[0] = agent_dir_;
    }
    switch (obs_mode_) {
      case ObsMode::kDict:
        EncodeView(out.Obs<std::uint8_t>(1));
        break;
      case ObsMode::kImage:
        EncodeView(out.Obs<std::uint8_t>());
        break;
      case ObsMode::kOneHot:
        EncodeView(image_);
        WriteOneHot(image_, out.Obs<std::uint8_t>(1));
        break;
      case ObsMode::kFlat:
        EncodeView(image_);
        WriteFlat(image_, mission_, out.Obs<std::uint8_t>());
        break;
      case ObsMode::kFull:
        WriteFullGrid(grid_, agent_pos_, agent_dir_, out.Obs<std::uint8_t>(1));
        break;
      case ObsMode::kRgb:
        RenderFull(tile_size_, out.Obs<std::uint8_t>(1));
        break;
      case ObsMode::kRgbPartial:
        RenderPov(tile_size_, out.Obs<std::uint8_t>(1));
        break;
    }
    if (dict) {
      out.Text(2, mission_);
    }
    auto pos = out.Info<std::int32_t>(0);
    pos[0] = static_cast<std::int32_t>(agent_pos_.x);
    pos[1] = static_cast<std::int32_t>(agent_pos_.y);
  }

  void EncodeView(std::span<std::uint8_t> image) {
    view_.Encode(grid_, agent_pos_, agent_dir_, see_through_walls_, carrying_,
                 image);
  }

  // minigrid's get_full_render with highlight: the grid, the cells the agent
  // sees lightened.
  void RenderFull(std::int64_t tile, std::span<std::uint8_t> out) {
    view_.Gather(grid_, agent_pos_, agent_dir_, see_through_walls_, carrying_);
    seen_.assign(static_cast<std::size_t>(grid_.width() * grid_.height()), 0);
    for (std::int64_t vy = 0; vy < view_.size(); ++vy) {
      for (std::int64_t vx = 0; vx < view_.size(); ++vx) {
        const Pos p = view_.WorldPos(agent_pos_, agent_dir_, vx, vy);
        if (view_.Visible(vx, vy) && grid_.Contains(p)) {
          seen_[static_cast<std::size_t>(p.y * grid_.width() + p.x)] = 1;
        }
      }
    }
    RenderCells(
        tiles_, grid_.width(), grid_.height(),
        [&](std::int64_t i, std::int64_t j) { return grid_.Get({i, j}); },
        agent_pos_, agent_dir_,
        [&](std::int64_t i, std::int64_t j) {
          return seen_[static_cast<std::size_t>(j * grid_.width() + i)] != 0;
        },
        tile, out);
  }

  // minigrid's get_pov_render: the agent's view, the agent at the middle of
  // the bottom row facing up, the cells it sees lightened and the others
  // drawn empty.
  void RenderPov(std::int64_t tile, std::span<std::uint8_t> out) {
    view_.Gather(grid_, agent_pos_, agent_dir_, see_through_walls_, carrying_);
    const std::int64_t size = view_.size();
    RenderCells(
        tiles_, size, size,
        [&](std::int64_t i, std::int64_t j) {
          // minigrid's process_vis empties the cells the agent does not see
          return view_.Visible(i, j) ? view_.ViewCell(i, j) : WorldObj{};
        },
        Pos{size / 2, size - 1}, 3,
        [&](std::int64_t i, std::int64_t j) { return view_.Visible(i, j); },
        tile, out);
  }

  ObsMode obs_mode_;
  std::int64_t tile_size_;
  AgentView view_;
  TileRenderer tiles_;
  std::vector<std::uint8_t> seen_;   // RenderFull's highlight, cell by cell
  std::vector<std::uint8_t> image_;  // the encoded view for one_hot and flat
};

// What a task whose one own option is its square grid's `size` declares:
// the default size, the least size it accepts (and why), and whether
// minigrid lets see_through_walls be passed.
struct SizeRule {
  std::int64_t default_size;
  std::int64_t least;
  std::string_view why{};
  bool see_through_walls_option = false;
};

// The base of such a task: DefaultConfig and Spec follow Task::kSizeRule.
template <typename Task>
class SizedTask : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return WithCommonOptions({{"size", Task::kSizeRule.default_size}},
                             Task::kSizeRule.see_through_walls_option);
  }
  static EnvSpec Spec(const Config& config) {
    CheckAtLeast("size", SizeOption(config), Task::kSizeRule.least,
                 Task::kSizeRule.why);
    return MiniGridEnv::Spec(config);
  }

 private:
  // Only Task derives from it, with MiniGridEnv's constructors.
  friend Task;
  SizedTask() = delete;
  using MiniGridEnv::MiniGridEnv;
};

// A task as the module registers it: its spec knows the grid's size, which
// obs_mode "full" (the whole grid as the image) needs; a throwaway env of the
// config tells it.
template <typename Task>
class GridSized : public Task {
 public:
  using Task::Task;
  static EnvSpec Spec(const Config& config) {
    EnvSpec spec = Task::Spec(config);
    const ObsMode mode = ObsModeOption(config);
    if (mode == ObsMode::kFull || mode == ObsMode::kRgb) {
      const GridSized probe(config);
      spec.obs = ObsModeSpec(mode, ViewSize(config), kMaxMissionBytes,
                             {probe.grid_.width(), probe.grid_.height()},
                             TileSize(config));
    }
    return spec;
  }
  static std::vector<std::int64_t> RenderShape(const Config& config) {
    const GridSized probe(config);
    return {probe.grid_.height() * kRenderTilePixels,
            probe.grid_.width() * kRenderTilePixels, 3};
  }
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_MINIGRID_ENV_H_

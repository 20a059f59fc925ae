// BabyAI's RoomGridLevel (minigrid/envs/babyai/core/roomgrid_level.py): a
// RoomGrid whose levels lay out rooms and objects and pick an instruction
// (GenMission), laid out again from scratch while a placement runs out of
// tries or the instruction is rejected; the mission is the instruction's
// English; each step is judged by the instruction's verifier (success: the
// reward and the end; failure: the end, no reward). Its time limit, unless
// the level or the max_steps option fixes one, depends on the instruction:
// room_size^2 * rooms steps per navigation it needs.
#ifndef ENVPOOL_MINIGRID_BABYAI_LEVEL_H_
#define ENVPOOL_MINIGRID_BABYAI_LEVEL_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/minigrid/babyai/instructions.h"
#include "envpool/minigrid/room_grid.h"

namespace envpool::minigrid::babyai {

// roomgrid_level.py's RejectSampling: the layout or the instruction does not
// make a valid episode; the level is laid out again.
struct RejectSampling : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A level's room layout and which of room_size, num_rows, num_cols its
// constructor lets the user set (0: fixed by the level), with the least of
// each its layout needs.
struct RoomRule {
  std::int64_t room_size = 8;
  std::int64_t num_rows = 3;
  std::int64_t num_cols = 3;
  bool room_size_option = true;
  bool rows_option = true;
  bool cols_option = true;
  std::int64_t least_room_size = 3;
  std::int64_t least_rows = 1;
  std::int64_t least_cols = 1;
};

// A layout the user cannot change: num_rows x num_cols rooms of room_size.
inline constexpr RoomRule FixedRooms(std::int64_t room_size,
                                     std::int64_t num_rows,
                                     std::int64_t num_cols) {
  return {.room_size = room_size,
          .num_rows = num_rows,
          .num_cols = num_cols,
          .room_size_option = false,
          .rows_option = false,
          .cols_option = false};
}

// What add_distractors placed: the object (its type and color) and where.
struct Placed {
  WorldObj obj;
  Pos pos;
};

inline Config WithRoomOptions(Config own, const RoomRule& rule) {
  if (rule.room_size_option) {
    own.Set("room_size", rule.room_size);
  }
  if (rule.rows_option) {
    own.Set("num_rows", rule.num_rows);
  }
  if (rule.cols_option) {
    own.Set("num_cols", rule.num_cols);
  }
  return WithCommonOptions(std::move(own), false);
}

inline std::int64_t RoomOption(const Config& config, std::string_view name,
                               bool is_option, std::int64_t fixed) {
  return is_option ? config.Get<std::int64_t>(name) : fixed;
}

// An option naming a color (or "" for minigrid's None).
inline std::optional<Color> ColorOption(const Config& config,
                                        const std::string& name) {
  const auto value = config.Get<std::string>(name);
  if (value.empty()) {
    return std::nullopt;
  }
  for (const Color c : kColorNames) {
    if (ColorName(c) == value) {
      return c;
    }
  }
  throw std::invalid_argument(name +
                              " must be one of red, green, blue, purple, "
                              "yellow, grey or None, got '" +
                              value + "'");
}

class Level : public RoomGridEnv {
 public:
  static EnvSpec LevelSpec(const Config& config, const RoomRule& rule) {
    const std::int64_t room_size =
        RoomOption(config, "room_size", rule.room_size_option, rule.room_size);
    CheckAtLeast("room_size", room_size, rule.least_room_size,
                 "the level's layout");
    CheckAtLeast(
        "num_rows",
        RoomOption(config, "num_rows", rule.rows_option, rule.num_rows),
        rule.least_rows, "the rooms the level lays out");
    CheckAtLeast(
        "num_cols",
        RoomOption(config, "num_cols", rule.cols_option, rule.num_cols),
        rule.least_cols, "the rooms the level lays out");
    return MiniGridEnv::Spec(config);
  }

 protected:
  // `fixed_max_steps`: the level's own time limit, 0 for the one that
  // follows from each episode's instruction; a max_steps option fixes it too.
  Level(const Config& config, const RoomRule& rule,
        std::int64_t fixed_max_steps = 0)
      : RoomGridEnv(
            config,
            RoomOption(config, "room_size", rule.room_size_option,
                       rule.room_size),
            RoomOption(config, "num_rows", rule.rows_option, rule.num_rows),
            RoomOption(config, "num_cols", rule.cols_option, rule.num_cols),
            fixed_max_steps),
        fixed_max_steps_(config.Get<std::int64_t>("max_steps") > 0 ||
                         fixed_max_steps > 0) {}

  // Lays out one try of the level on fresh rooms and sets instr_.
  virtual void GenMission() = 0;

  // RoomGridLevel._gen_grid and reset: tries until a layout is accepted, the
  // mission is the instruction's English, the verifier starts afresh.
  void GenGrid() override {
    for (int tries = 0;; ++tries) {
      if (tries >= kMaxLayouts) {
        throw std::runtime_error(
            "babyai: no valid layout in " + std::to_string(kMaxLayouts) +
            " tries; the level's options leave no room for its objects");
      }
      try {
        GenRooms();
        GenMission();
        NameObjects();
        ValidateInstr(*instr_);
      } catch (const RecursionError&) {
        continue;
      } catch (const RejectSampling&) {
        continue;
      }
      break;
    }
    const Scene scene = MakeScene();
    mission_ = instr_->Surface(scene);
    instr_->ResetVerifier(scene);
    if (!fixed_max_steps_) {
      max_steps_ = NumNavsNeeded(*instr_) * room_size_ * room_size_ *
                   num_rows_ * num_cols_;
    }
  }

  // RoomGridLevel.step: the common step, the followed objects' places
  // updated after a drop, then the verifier's judgement.
  StepResult StepTask(Action action) override {
    StepResult result = BaseStep(action);
    if (action == kDrop) {
      instr_->UpdatePositions(grid_);
    }
    const Status status = instr_->Verify(action, MakeScene());
    if (status == Status::kSuccess) {
      result = {Reward(), true};
    } else if (status == Status::kFailure) {
      result = {0.0, true};
    }
    return result;
  }

  [[nodiscard]] Scene MakeScene() {
    const Room& room = RoomFromPos(agent_pos_);
    return {grid_, agent_pos_, agent_dir_, carrying_, room.top, room.size};
  }

  static std::unique_ptr<Instr> MakeAction(Instr::Kind kind, ObjDesc desc,
                                           bool strict = false) {
    auto instr = std::make_unique<Instr>();
    instr->kind = kind;
    instr->desc = std::move(desc);
    instr->strict = strict;
    return instr;
  }
  static std::unique_ptr<Instr> PutNext(ObjDesc move, ObjDesc fixed) {
    auto instr = MakeAction(Instr::Kind::kPutNext, std::move(move));
    instr->fixed = std::move(fixed);
    return instr;
  }
  static std::unique_ptr<Instr> Join(Instr::Kind kind, std::unique_ptr<Instr> a,
                                     std::unique_ptr<Instr> b) {
    auto instr = std::make_unique<Instr>();
    instr->kind = kind;
    instr->a = std::move(a);
    instr->b = std::move(b);
    return instr;
  }
  static ObjDesc Desc(std::optional<ObjType> type,
                      std::optional<Color> color = std::nullopt,
                      Loc loc = Loc::kAnywhere) {
    ObjDesc desc;
    desc.type = type;
    desc.color = color;
    desc.loc = loc;
    return desc;
  }
  static ObjDesc DescOf(const WorldObj& obj) {
    return Desc(obj.type, obj.color);
  }

  // RoomGrid.add_distractors: num objects of random kind and color (distinct
  // from every object in the rooms when all_unique), in room (i, j) or
  // random rooms where -1.
  std::vector<Placed> AddDistractors(std::int64_t i, std::int64_t j,
                                     std::size_t num, bool all_unique) {
    std::vector<std::pair<ObjType, Color>> kinds;
    for (const Room& room : rooms_) {
      for (const WorldObj& obj : room.objs) {
        kinds.emplace_back(obj.type, obj.color);
      }
    }
    static constexpr std::array<ObjType, 3> kKinds = {
        ObjType::kKey, ObjType::kBall, ObjType::kBox};
    std::vector<Placed> placed;
    while (placed.size() < num) {
      const Color color = RandColor();
      const ObjType type = RandElem(std::span<const ObjType>(kKinds));
      if (all_unique && std::find(kinds.begin(), kinds.end(),
                                  std::pair{type, color}) != kinds.end()) {
        continue;
      }
      const std::int64_t room_i = i >= 0 ? i : RandInt(0, num_cols_);
      const std::int64_t room_j = j >= 0 ? j : RandInt(0, num_rows_);
      const Pos pos = AddObject(room_i, room_j, type, color);
      kinds.emplace_back(type, color);
      placed.push_back({MakeObj(type, color), pos});
    }
    return placed;
  }
  std::vector<Placed> AddDistractors(std::size_t num, bool all_unique) {
    return AddDistractors(-1, -1, num, all_unique);
  }

  // GoToImpUnlock's and Unlock's start: a locked door on a random side of a
  // random room, its key in a random room. minigrid means to keep the key
  // (and the levels' distractors) out of the locked room, but compares its
  // numpy ints with `is`, which never holds: they go into any room, the
  // locked one too.
  struct LockedRoom {
    std::int64_t i;
    std::int64_t j;
    Color color;
  };
  LockedRoom AddLockedRoomAndKey() {
    const std::int64_t i = RandInt(0, num_cols_);
    const std::int64_t j = RandInt(0, num_rows_);
    const Color color = grid_.Get(AddDoor(i, j, -1, std::nullopt, true)).color;
    const std::int64_t key_i = RandInt(0, num_cols_);
    const std::int64_t key_j = RandInt(0, num_rows_);
    AddObject(key_i, key_j, ObjType::kKey, color);
    return {i, j, color};
  }

  // num distractors (not all unique) in each room, column by column.
  void AddDistractorsInEachRoom(std::size_t num) {
    for (std::int64_t i = 0; i < num_cols_; ++i) {
      for (std::int64_t j = 0; j < num_rows_; ++j) {
        AddDistractors(i, j, num, false);
      }
    }
  }

  // PutNext's and MoveTwoAcross's layout: the agent in the left room, num
  // distinct objects in each of the two rooms, the wall between them gone.
  std::pair<std::vector<Placed>, std::vector<Placed>> ObjectsInTwoRooms(
      std::size_t num) {
    PlaceAgentInRoom(0, 0);
    std::vector<Placed> left = AddDistractors(0, 0, num, true);
    std::vector<Placed> right = AddDistractors(1, 0, num, true);
    RemoveWall(0, 0, 0);
    return {std::move(left), std::move(right)};
  }

  // The doors of every room, column by column, each side in order: a door
  // between two rooms is there twice (RoomGridLevel's room.doors walk).
  std::vector<WorldObj> RoomDoors() {
    std::vector<WorldObj> doors;
    for (std::int64_t i = 0; i < num_cols_; ++i) {
      for (std::int64_t j = 0; j < num_rows_; ++j) {
        const Room& room = GetRoom(i, j);
        for (std::size_t k = 0; k < 4; ++k) {
          const std::optional<Pos>& pos = room.door_pos[k];
          if (room.sides[k] == Side::kDoor && pos.has_value()) {
            doors.push_back(grid_.Get(*pos));
          }
        }
      }
    }
    return doors;
  }

  // RoomGridLevel.open_all_doors (on the unlocked doors the levels that
  // call it have).
  void OpenAllDoors() {
    for (const Room& room : rooms_) {
      for (std::size_t k = 0; k < 4; ++k) {
        const std::optional<Pos>& pos = room.door_pos[k];
        if (room.sides[k] == Side::kDoor && pos.has_value()) {
          grid_.At(*pos).door = DoorState::kOpen;
        }
      }
    }
  }

  // RoomGridLevel.check_objs_reachable: every object but walls can be
  // reached from the agent through empty cells and doors (locked or not).
  bool CheckObjsReachable(bool raise = true) {
    reachable_.assign(static_cast<std::size_t>(grid_.width() * grid_.height()),
                      0);
    std::vector<Pos> stack{agent_pos_};
    while (!stack.empty()) {
      const Pos p = stack.back();
      stack.pop_back();
      if (!grid_.Contains(p) || reachable_[Index(p)] != 0) {
        continue;
      }
      reachable_[Index(p)] = 1;
      const WorldObj& cell = grid_.Get(p);
      if (!cell.IsEmpty() && cell.type != ObjType::kDoor) {
        continue;
      }
      stack.push_back({p.x + 1, p.y});
      stack.push_back({p.x - 1, p.y});
      stack.push_back({p.x, p.y + 1});
      stack.push_back({p.x, p.y - 1});
    }
    for (std::int64_t i = 0; i < grid_.width(); ++i) {
      for (std::int64_t j = 0; j < grid_.height(); ++j) {
        const WorldObj& cell = grid_.Get({i, j});
        if (cell.IsEmpty() || cell.type == ObjType::kWall ||
            reachable_[Index({i, j})] != 0) {
          continue;
        }
        if (!raise) {
          return false;
        }
        throw RejectSampling("unreachable object");
      }
    }
    return true;
  }

  // The agent placed in a random room other than `avoid` (the locked one).
  void PlaceAgentOutside(const Room* avoid) {
    while (true) {
      PlaceAgentInRoom();
      if (&RoomFromPos(agent_pos_) != avoid) {
        return;
      }
    }
  }

  std::unique_ptr<Instr> instr_;
  bool unblocking_ = false;  // LevelGen's option: keys of locked doors banned

 private:
  static constexpr int kMaxLayouts = 10000;

  [[nodiscard]] std::size_t Index(Pos p) const {
    return static_cast<std::size_t>(p.y * grid_.width() + p.x);
  }

  // Names every object but walls (tags 1, 2, ...), for the verifiers to
  // follow them.
  void NameObjects() {
    int next = 0;
    for (std::int64_t j = 0; j < grid_.height(); ++j) {
      for (std::int64_t i = 0; i < grid_.width(); ++i) {
        WorldObj& cell = grid_.At({i, j});
        if (cell.IsEmpty() || cell.type == ObjType::kWall) {
          continue;
        }
        if (++next > 255) {
          throw std::runtime_error(
              "babyai: more than 255 objects in one level; use fewer "
              "distractors");
        }
        cell.tag = static_cast<std::uint8_t>(next);
      }
    }
  }

  // RoomGridLevel.validate_instrs.
  void ValidateInstr(Instr& instr) {
    if (instr.kind == Instr::Kind::kPutNext) {
      instr.ResetVerifier(MakeScene());
      for (const std::uint8_t tag : instr.desc.objs) {
        if (instr.fixed.Follows(tag)) {
          throw RejectSampling(
              "there are objects that match both lhs and rhs of PutNext");
        }
      }
      if (instr.ObjsNext(MakeScene())) {
        throw RejectSampling("objs already next to each other");
      }
    }
    if (instr.IsAction()) {
      if (!unblocking_) {
        return;
      }
      const std::vector<Color> locked = LockedDoorColors();
      auto banned = [&](const ObjDesc& desc) {
        return desc.type == ObjType::kKey && desc.color &&
               std::find(locked.begin(), locked.end(), *desc.color) !=
                   locked.end();
      };
      if (banned(instr.desc) ||
          (instr.kind == Instr::Kind::kPutNext && banned(instr.fixed))) {
        throw RejectSampling(
            "cannot do anything with/to a key that can be used to open a "
            "door");
      }
      return;
    }
    ValidateInstr(*instr.a);
    ValidateInstr(*instr.b);
  }

  std::vector<Color> LockedDoorColors() {
    std::vector<Color> colors;
    for (const WorldObj& door : RoomDoors()) {
      if (door.door == DoorState::kLocked) {
        colors.push_back(door.color);
      }
    }
    return colors;
  }

  static std::int64_t NumNavsNeeded(const Instr& instr) {
    if (instr.kind == Instr::Kind::kPutNext) {
      return 2;
    }
    if (instr.IsAction()) {
      return 1;
    }
    return NumNavsNeeded(*instr.a) + NumNavsNeeded(*instr.b);
  }

  bool fixed_max_steps_;
  std::vector<std::uint8_t> reachable_;
};

// The base of a level laid out by `rule`, whose options are the rule's and
// its own: where it has them L::OwnOptions() (name and default) and
// L::CheckOptions(config). A level without state of its own takes the
// constructor: using RuledLevel::RuledLevel.
template <typename L, RoomRule kRule>
class RuledLevel : public Level {
 public:
  static Config OwnOptions() { return {}; }
  static void CheckOptions(const Config& /*config*/) {}
  static Config DefaultConfig() {
    return WithRoomOptions(L::OwnOptions(), kRule);
  }
  static EnvSpec Spec(const Config& config) {
    L::CheckOptions(config);
    return LevelSpec(config, kRule);
  }
  // `fixed_max_steps` as Level's. Public, as the levels inherit it (an
  // inherited constructor keeps the base's access, and a private one could
  // not be called by the pool).
  // NOLINTNEXTLINE(bugprone-crtp-constructor-accessibility)
  explicit RuledLevel(const Config& config, std::int64_t fixed_max_steps = 0)
      : Level(config, kRule, fixed_max_steps) {}
};

}  // namespace envpool::minigrid::babyai

#endif  // ENVPOOL_MINIGRID_BABYAI_LEVEL_H_

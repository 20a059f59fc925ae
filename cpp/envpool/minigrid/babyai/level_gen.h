// BabyAI's LevelGen (minigrid/envs/babyai/core/levelgen.py): rooms joined
// by doors, maybe one locked room with its key elsewhere, distractors, and an
// instruction drawn from the grammar (action | action and action |
// (action or and) then/after (action or and)) over the objects present.
// GoToSeq, PickupLoc, Synth*, MiniBossLevel and BossLevel* are LevelGen with
// other options, as minigrid defines them (the task table gives them).
#ifndef ENVPOOL_MINIGRID_BABYAI_LEVEL_GEN_H_
#define ENVPOOL_MINIGRID_BABYAI_LEVEL_GEN_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envpool/minigrid/babyai/level.h"

namespace envpool::minigrid::babyai {

class LevelGen : public Level {
 public:
  enum class ActionKind : std::uint8_t { kGoTo, kPickup, kOpen, kPutNext };
  enum class InstrKind : std::uint8_t { kAction, kAnd, kSeq };

  static constexpr RoomRule kRule{};

  static Config DefaultConfig() {
    return WithRoomOptions(
        {{"num_dists", std::int64_t{18}},
         {"locked_room_prob", 0.5},
         {"locations", true},
         {"unblocking", true},
         {"implicit_unlock", true},
         {"action_kinds", std::string("goto,pickup,open,putnext")},
         {"instr_kinds", std::string("action,and,seq")}},
        kRule);
  }
  static EnvSpec Spec(const Config& config) {
    CheckAtLeast("num_dists", config.Get<std::int64_t>("num_dists"), 0);
    ActionKinds(config);
    InstrKinds(config);
    return LevelSpec(config, kRule);
  }

  explicit LevelGen(const Config& config)
      : Level(config, kRule),
        num_dists_(config.Get<std::int64_t>("num_dists")),
        locked_room_prob_(config.Get<double>("locked_room_prob")),
        locations_(config.Get<bool>("locations")),
        implicit_unlock_(config.Get<bool>("implicit_unlock")),
        action_kinds_(ActionKinds(config)),
        instr_kinds_(InstrKinds(config)) {
    unblocking_ = config.Get<bool>("unblocking");
  }

 protected:
  void GenMission() override {
    locked_room_ = nullptr;
    if (np_random_.Uniform(0.0, 1.0) < locked_room_prob_) {
      AddLockedRoom();
    }
    ConnectAll();
    AddDistractors(static_cast<std::size_t>(num_dists_), false);
    PlaceAgentOutside(locked_room_);
    if (!unblocking_) {
      CheckObjsReachable();
    }
    instr_ = RandInstr(instr_kinds_);
  }

 private:
  static std::vector<std::string> Split(const std::string& list) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t end = std::min(list.find(',', start), list.size());
      items.push_back(list.substr(start, end - start));
      start = end + 1;
    }
    return items;
  }

  template <typename Kind, std::size_t N>
  static std::vector<Kind> ParseKinds(
      const Config& config, const std::string& name,
      const std::array<std::string_view, N>& names) {
    std::vector<Kind> kinds;
    for (const std::string& item : Split(config.Get<std::string>(name))) {
      const auto* it = std::find(names.begin(), names.end(), item);
      if (it == names.end()) {
        std::string message = name + " must list some of";
        for (std::size_t k = 0; k < N; ++k) {
          message += (k == 0 ? " " : ", ");
          message += names[k];
        }
        message += ", got '";
        message += item;
        message += '\'';
        throw std::invalid_argument(message);
      }
      kinds.push_back(static_cast<Kind>(it - names.begin()));
    }
    return kinds;
  }
  static std::vector<ActionKind> ActionKinds(const Config& config) {
    static constexpr std::array<std::string_view, 4> kNames = {
        "goto", "pickup", "open", "putnext"};
    return ParseKinds<ActionKind>(config, "action_kinds", kNames);
  }
  static std::vector<InstrKind> InstrKinds(const Config& config) {
    static constexpr std::array<std::string_view, 3> kNames = {"action", "and",
                                                               "seq"};
    return ParseKinds<InstrKind>(config, "instr_kinds", kNames);
  }

  // LevelGen.add_locked_room: a locked door on a random side of a random
  // room, its key in another room.
  void AddLockedRoom() {
    Color color{};
    while (true) {
      const std::int64_t i = RandInt(0, num_cols_);
      const std::int64_t j = RandInt(0, num_rows_);
      const std::int64_t side = RandInt(0, 4);
      locked_room_ = &GetRoom(i, j);
      if (locked_room_->neighbors[side] < 0) {
        continue;
      }
      color = grid_.Get(AddDoor(i, j, side, std::nullopt, true)).color;
      break;
    }
    while (true) {
      const std::int64_t i = RandInt(0, num_cols_);
      const std::int64_t j = RandInt(0, num_rows_);
      if (&GetRoom(i, j) == locked_room_) {
        continue;
      }
      AddObject(i, j, ObjType::kKey, color);
      break;
    }
  }

  // LevelGen.rand_obj: a description of types (and any or no color, and
  // maybe a place) that fits an object present.
  ObjDesc RandObj(std::span<const ObjType> types, int max_tries = 100) {
    const Scene scene = MakeScene();
    for (int tries = 0;; ++tries) {
      if (tries > max_tries) {
        throw RecursionError("failed to find suitable object");
      }
      const std::int64_t color =
          RandInt(0, static_cast<std::int64_t>(kColorNames.size()) + 1);
      const ObjType type = RandElem(types);
      Loc loc = Loc::kAnywhere;
      if (locations_ && RandBool()) {
        loc = RandElem(std::span<const Loc>(kLocNames));
      }
      ObjDesc desc =
          Desc(type,
               color == 0 ? std::nullopt
                          : std::optional<Color>(kColorNames[color - 1]),
               loc);
      desc.FindMatching(scene);
      if (desc.objs.empty()) {
        continue;
      }
      if (!implicit_unlock_ && locked_room_ != nullptr &&
          std::all_of(desc.poss.begin(), desc.poss.end(),
                      [&](Pos p) { return InRoom(*locked_room_, p); })) {
        continue;
      }
      return desc;
    }
  }

  static bool InRoom(const Room& room, Pos p) {
    return p.x >= room.top.x && p.y >= room.top.y &&
           p.x < room.top.x + room.size.x && p.y < room.top.y + room.size.y;
  }

  // LevelGen.rand_instr.
  std::unique_ptr<Instr> RandInstr(const std::vector<InstrKind>& kinds) {
    switch (RandElem(kinds)) {
      case InstrKind::kAction:
        return RandAction();
      case InstrKind::kAnd: {
        static const std::vector<InstrKind> kActions = {InstrKind::kAction};
        auto a = RandInstr(kActions);
        auto b = RandInstr(kActions);
        return Join(Instr::Kind::kAnd, std::move(a), std::move(b));
      }
      case InstrKind::kSeq: {
        static const std::vector<InstrKind> kParts = {InstrKind::kAction,
                                                      InstrKind::kAnd};
        auto a = RandInstr(kParts);
        auto b = RandInstr(kParts);
        const bool before = RandInt(0, 2) == 0;
        return Join(before ? Instr::Kind::kBefore : Instr::Kind::kAfter,
                    std::move(a), std::move(b));
      }
    }
    throw std::logic_error("babyai: unknown instruction kind");
  }

  std::unique_ptr<Instr> RandAction() {
    static constexpr std::array<ObjType, 1> kDoor = {ObjType::kDoor};
    switch (RandElem(action_kinds_)) {
      case ActionKind::kGoTo:
        return MakeAction(Instr::Kind::kGoTo, RandObj(kObjTypes));
      case ActionKind::kPickup:
        return MakeAction(Instr::Kind::kPickup, RandObj(kObjTypesNotDoor));
      case ActionKind::kOpen:
        return MakeAction(Instr::Kind::kOpen, RandObj(kDoor));
      case ActionKind::kPutNext: {
        ObjDesc move = RandObj(kObjTypesNotDoor);
        ObjDesc fixed = RandObj(kObjTypes);
        return PutNext(std::move(move), std::move(fixed));
      }
    }
    throw std::logic_error("babyai: unknown action kind");
  }

  std::int64_t num_dists_;
  double locked_room_prob_;
  bool locations_;
  bool implicit_unlock_;
  std::vector<ActionKind> action_kinds_;
  std::vector<InstrKind> instr_kinds_;
  const Room* locked_room_ = nullptr;
};

}  // namespace envpool::minigrid::babyai

#endif  // ENVPOOL_MINIGRID_BABYAI_LEVEL_GEN_H_

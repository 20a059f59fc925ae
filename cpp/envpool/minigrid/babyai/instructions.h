// BabyAI's instruction language (minigrid/envs/babyai/core/verifier.py):
// object descriptions (ObjDesc), the instructions built from them (open, go
// to, pick up, put next to; and, before, after), their English surface form
// and their verifiers, which judge each step as success, failure or neither.
//
// minigrid follows objects by identity; here every object a level lays out
// carries a nonzero WorldObj::tag that names it (Level numbers them), and an
// ObjDesc keeps the tags of the objects it matched. Walls keep tag 0: they
// count towards a description's matches ("a grey object") but are never
// followed.
#ifndef ENVPOOL_MINIGRID_BABYAI_INSTRUCTIONS_H_
#define ENVPOOL_MINIGRID_BABYAI_INSTRUCTIONS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/minigrid/grid.h"
#include "envpool/minigrid/view.h"
#include "envpool/minigrid/world_object.h"

namespace envpool::minigrid::babyai {

// verifier.py's LOC_NAMES, in its order; kAnywhere is its None.
enum class Loc : std::uint8_t { kAnywhere, kLeft, kRight, kFront, kBehind };
inline constexpr std::array<Loc, 4> kLocNames = {Loc::kLeft, Loc::kRight,
                                                 Loc::kFront, Loc::kBehind};
// verifier.py's OBJ_TYPES and OBJ_TYPES_NOT_DOOR, in their order.
inline constexpr std::array<ObjType, 4> kObjTypes = {
    ObjType::kBox, ObjType::kBall, ObjType::kKey, ObjType::kDoor};
inline constexpr std::array<ObjType, 3> kObjTypesNotDoor = {
    ObjType::kBox, ObjType::kBall, ObjType::kKey};

// What an instruction sees of the env: the grid, the agent and its room.
struct Scene {
  const Grid& grid;
  Pos agent_pos;
  std::int64_t agent_dir;
  const WorldObj& carrying;
  Pos room_top;  // the agent's room
  Pos room_size;

  [[nodiscard]] Pos FrontPos() const {
    const Pos d = DirVec(agent_dir);
    return {agent_pos.x + d.x, agent_pos.y + d.y};
  }
};

inline bool NextTo(Pos a, Pos b) {
  return std::abs(a.x - b.x) + std::abs(a.y - b.y) == 1;
}

// minigrid's ObjDesc: an object by type, color and place relative to the
// agent (each optional), with the objects that matched it (their tags, 0 for
// a wall) and where they are.
struct ObjDesc {
  std::optional<ObjType> type;
  std::optional<Color> color;
  Loc loc = Loc::kAnywhere;
  std::vector<std::uint8_t> objs;
  std::vector<Pos> poss;

  // find_matching_objs(env): every object of the grid that fits, column by
  // column, those outside the agent's room left out when a place is asked.
  void FindMatching(const Scene& scene) {
    objs.clear();
    poss.clear();
    const Grid& grid = scene.grid;
    for (std::int64_t i = 0; i < grid.width(); ++i) {
      for (std::int64_t j = 0; j < grid.height(); ++j) {
        const WorldObj& cell = grid.Get({i, j});
        if (cell.IsEmpty() || !Fits(cell)) {
          continue;
        }
        if (loc != Loc::kAnywhere && !AtPlace(scene, {i, j})) {
          continue;
        }
        objs.push_back(cell.tag);
        poss.push_back({i, j});
      }
    }
  }

  // find_matching_objs(env, use_location=False): where the objects matched
  // before are now.
  void UpdatePositions(const Grid& grid) {
    poss.clear();
    for (std::int64_t i = 0; i < grid.width(); ++i) {
      for (std::int64_t j = 0; j < grid.height(); ++j) {
        const WorldObj& cell = grid.Get({i, j});
        if (!cell.IsEmpty() && Follows(cell.tag) && Fits(cell)) {
          poss.push_back({i, j});
        }
      }
    }
  }

  [[nodiscard]] bool Follows(std::uint8_t tag) const {
    return tag != 0 && std::find(objs.begin(), objs.end(), tag) != objs.end();
  }

  // ObjDesc.surface, after FindMatching.
  [[nodiscard]] std::string Surface() const {
    if (objs.empty()) {
      throw std::logic_error("babyai: no object matching description");
    }
    std::string s = type ? std::string(TypeName(*type)) : "object";
    if (color) {
      s = std::string(ColorName(*color)) + " " + s;
    }
    switch (loc) {
      case Loc::kFront:
        s += " in front of you";
        break;
      case Loc::kBehind:
        s += " behind you";
        break;
      case Loc::kLeft:
        s += " on your left";
        break;
      case Loc::kRight:
        s += " on your right";
        break;
      case Loc::kAnywhere:
        break;
    }
    return (objs.size() > 1 ? "a " : "the ") + s;
  }

 private:
  [[nodiscard]] bool Fits(const WorldObj& cell) const {
    return (!type || cell.type == *type) && (!color || cell.color == *color);
  }

  [[nodiscard]] bool AtPlace(const Scene& scene, Pos p) const {
    const Pos top = scene.room_top;
    const Pos size = scene.room_size;
    if (p.x < top.x || p.y < top.y || p.x >= top.x + size.x ||
        p.y >= top.y + size.y) {
      return false;
    }
    const Pos v{p.x - scene.agent_pos.x, p.y - scene.agent_pos.y};
    const Pos d1 = DirVec(scene.agent_dir);
    const Pos d2{-d1.y, d1.x};
    const std::int64_t side = v.x * d2.x + v.y * d2.y;
    const std::int64_t ahead = v.x * d1.x + v.y * d1.y;
    switch (loc) {
      case Loc::kLeft:
        return side < 0;
      case Loc::kRight:
        return side > 0;
      case Loc::kFront:
        return ahead > 0;
      case Loc::kBehind:
        return ahead < 0;
      case Loc::kAnywhere:
        return true;
    }
    return true;
  }
};

enum class Status : std::uint8_t { kContinue, kSuccess, kFailure };

// minigrid's instruction classes as one tree node: an action (open, go to,
// pick up, put next to) on its descriptions, or two instructions joined by
// and, before or after.
struct Instr {
  enum class Kind : std::uint8_t {
    kOpen,
    kGoTo,
    kPickup,
    kPutNext,
    kAnd,
    kBefore,
    kAfter
  };
  Kind kind;
  ObjDesc desc;   // the object acted on (put next: the one moved)
  ObjDesc fixed;  // put next: the one it goes next to
  bool strict = false;
  std::unique_ptr<Instr> a;
  std::unique_ptr<Instr> b;
  // verifier state
  Status a_done = Status::kContinue;
  Status b_done = Status::kContinue;
  int pre_carrying = -1;  // tag of what was carried at the last step, -1: none

  [[nodiscard]] bool IsAction() const { return kind <= Kind::kPutNext; }

  // The English instruction (Instr.surface), matching the descriptions on
  // the way.
  std::string Surface(const Scene& scene) {
    switch (kind) {
      case Kind::kOpen:
        return "open " + Described(desc, scene);
      case Kind::kGoTo:
        return "go to " + Described(desc, scene);
      case Kind::kPickup:
        return "pick up " + Described(desc, scene);
      case Kind::kPutNext: {
        std::string s = "put " + Described(desc, scene);
        return s + " next to " + Described(fixed, scene);
      }
      case Kind::kAnd: {
        std::string s = a->Surface(scene);
        return s + " and " + b->Surface(scene);
      }
      case Kind::kBefore: {
        std::string s = a->Surface(scene);
        return s + ", then " + b->Surface(scene);
      }
      case Kind::kAfter: {
        std::string s = a->Surface(scene);
        return s + " after you " + b->Surface(scene);
      }
    }
    return {};
  }

  // reset_verifier: descriptions matched again, progress forgotten.
  void ResetVerifier(const Scene& scene) {
    a_done = b_done = Status::kContinue;
    pre_carrying = -1;
    if (IsAction()) {
      desc.FindMatching(scene);
      if (kind == Kind::kPutNext) {
        fixed.FindMatching(scene);
      }
      return;
    }
    a->ResetVerifier(scene);
    b->ResetVerifier(scene);
  }

  // RoomGridLevel.update_objs_poss: after a drop, where the followed objects
  // are now.
  void UpdatePositions(const Grid& grid) {
    if (IsAction()) {
      desc.UpdatePositions(grid);
      if (kind == Kind::kPutNext) {
        fixed.UpdatePositions(grid);
      }
      return;
    }
    a->UpdatePositions(grid);
    b->UpdatePositions(grid);
  }

  // PutNextInstr.objs_next: one of the moved objects next to a fixed one.
  [[nodiscard]] bool ObjsNext(const Scene& scene) const {
    for (std::size_t k = 0; k < desc.objs.size(); ++k) {
      const Pos pos_a = CurrentPos(scene, desc.objs[k], desc.poss[k]);
      for (const Pos& pos_b : fixed.poss) {
        if (NextTo(pos_a, pos_b)) {
          return true;
        }
      }
    }
    return false;
  }

  // Instr.verify after a step of `action` (minigrid's Actions).
  Status Verify(std::int64_t action, const Scene& scene) {
    switch (kind) {
      case Kind::kOpen:
        return VerifyOpen(action, scene);
      case Kind::kGoTo: {
        const Pos front = scene.FrontPos();
        return std::find(desc.poss.begin(), desc.poss.end(), front) !=
                       desc.poss.end()
                   ? Status::kSuccess
                   : Status::kContinue;
      }
      case Kind::kPickup:
        return VerifyPickup(action, scene);
      case Kind::kPutNext:
        return VerifyPutNext(action, scene);
      case Kind::kAnd:
        if (a_done != Status::kSuccess) {
          a_done = a->Verify(action, scene);
        }
        if (b_done != Status::kSuccess) {
          b_done = b->Verify(action, scene);
        }
        return a_done == Status::kSuccess && b_done == Status::kSuccess
                   ? Status::kSuccess
                   : Status::kContinue;
      case Kind::kBefore:
        return VerifyInOrder(action, scene, *a, a_done, *b, b_done);
      case Kind::kAfter:
        return VerifyInOrder(action, scene, *b, b_done, *a, a_done);
    }
    return Status::kContinue;
  }

 private:
  static constexpr std::int64_t kPickupAction = 3;
  static constexpr std::int64_t kDropAction = 4;
  static constexpr std::int64_t kToggleAction = 5;

  static std::string Described(ObjDesc& d, const Scene& scene) {
    d.FindMatching(scene);
    return d.Surface();
  }

  static int CarriedTag(const Scene& scene) {
    return scene.carrying.IsEmpty() ? -1 : scene.carrying.tag;
  }

  // An object's cur_pos: where it lies, (-1, -1) while carried. A wall (tag
  // 0) never moves.
  static Pos CurrentPos(const Scene& scene, std::uint8_t tag, Pos matched) {
    if (tag == 0) {
      return matched;
    }
    const Grid& grid = scene.grid;
    for (std::int64_t j = 0; j < grid.height(); ++j) {
      for (std::int64_t i = 0; i < grid.width(); ++i) {
        const WorldObj& cell = grid.Get({i, j});
        if (!cell.IsEmpty() && cell.tag == tag) {
          return {i, j};
        }
      }
    }
    return {-1, -1};
  }

  Status VerifyOpen(std::int64_t action, const Scene& scene) const {
    if (action != kToggleAction) {
      return Status::kContinue;
    }
    const WorldObj& front = scene.grid.Get(scene.FrontPos());
    if (!front.IsEmpty() && desc.Follows(front.tag) &&
        front.type == ObjType::kDoor && front.door == DoorState::kOpen) {
      return Status::kSuccess;
    }
    if (strict && front.type == ObjType::kDoor) {
      return Status::kFailure;
    }
    return Status::kContinue;
  }

  Status VerifyPickup(std::int64_t action, const Scene& scene) {
    const int before = pre_carrying;
    pre_carrying = CarriedTag(scene);
    if (action != kPickupAction) {
      return Status::kContinue;
    }
    if (before == -1 && !scene.carrying.IsEmpty() &&
        desc.Follows(scene.carrying.tag)) {
      return Status::kSuccess;
    }
    if (strict && !scene.carrying.IsEmpty()) {
      return Status::kFailure;
    }
    return Status::kContinue;
  }

  Status VerifyPutNext(std::int64_t action, const Scene& scene) {
    const int before = pre_carrying;
    pre_carrying = CarriedTag(scene);
    if (strict && action == kPickupAction && !scene.carrying.IsEmpty()) {
      return Status::kFailure;
    }
    if (action != kDropAction) {
      return Status::kContinue;
    }
    for (std::size_t k = 0; k < desc.objs.size(); ++k) {
      const std::uint8_t tag = desc.objs[k];
      if (tag == 0 || before != tag) {
        continue;
      }
      const Pos pos_a = CurrentPos(scene, tag, desc.poss[k]);
      for (const Pos& pos_b : fixed.poss) {
        if (NextTo(pos_a, pos_b)) {
          return Status::kSuccess;
        }
      }
    }
    return Status::kContinue;
  }

  // BeforeInstr.verify (first, then second) and AfterInstr.verify (the same
  // with the two swapped): the second is checked once the first succeeded,
  // on the same step too.
  Status VerifyInOrder(std::int64_t action, const Scene& scene, Instr& first,
                       Status& first_done, Instr& second, Status& second_done) {
    if (first_done == Status::kSuccess) {
      second_done = second.Verify(action, scene);
      if (second_done != Status::kContinue) {
        return second_done;
      }
      return Status::kContinue;
    }
    first_done = first.Verify(action, scene);
    if (first_done == Status::kFailure) {
      return Status::kFailure;
    }
    if (first_done == Status::kSuccess) {
      return Verify(action, scene);
    }
    if (strict && second.Verify(action, scene) == Status::kSuccess) {
      return Status::kFailure;
    }
    return Status::kContinue;
  }
};

}  // namespace envpool::minigrid::babyai

#endif  // ENVPOOL_MINIGRID_BABYAI_INSTRUCTIONS_H_

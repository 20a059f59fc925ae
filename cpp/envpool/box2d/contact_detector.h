// gymnasium's ContactDetector, which BipedalWalker and LunarLander share: a
// contact that touches the main body (the walker's hull, the lander) ends the
// game, and a leg is on the ground from the start of a contact with it to the
// end of one.
#ifndef ENVPOOL_BOX2D_CONTACT_DETECTOR_H_
#define ENVPOOL_BOX2D_CONTACT_DETECTOR_H_

#include <Box2D/Box2D.h>

#include <array>
#include <cstddef>

namespace envpool::box2d {

template <std::size_t kLegs>
class ContactDetector : public b2ContactListener {
 public:
  // A new world's main body and legs, nothing in contact yet. Call it before
  // the world's first step.
  void Watch(const b2Body* body, const std::array<const b2Body*, kLegs>& legs) {
    body_ = body;
    legs_ = legs;
    game_over_ = false;
    ground_contact_.fill(false);
  }

  bool game_over() const { return game_over_; }
  bool ground_contact(std::size_t leg) const { return ground_contact_[leg]; }

  void BeginContact(b2Contact* contact) override {
    const b2Body* a = contact->GetFixtureA()->GetBody();
    const b2Body* b = contact->GetFixtureB()->GetBody();
    if (body_ == a || body_ == b) {
      game_over_ = true;
    }
    SetGroundContact(a, b, true);
  }

  void EndContact(b2Contact* contact) override {
    SetGroundContact(contact->GetFixtureA()->GetBody(),
                     contact->GetFixtureB()->GetBody(), false);
  }

 private:
  void SetGroundContact(const b2Body* a, const b2Body* b, bool touching) {
    for (std::size_t i = 0; i < kLegs; ++i) {
      if (legs_[i] == a || legs_[i] == b) {
        ground_contact_[i] = touching;
      }
    }
  }

  const b2Body* body_ = nullptr;
  std::array<const b2Body*, kLegs> legs_{};
  bool game_over_ = false;
  std::array<bool, kLegs> ground_contact_{};
};

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_CONTACT_DETECTOR_H_

// Small pieces every Box2D env needs.
#ifndef ENVPOOL_BOX2D_BOX2D_COMMON_H_
#define ENVPOOL_BOX2D_BOX2D_COMMON_H_

#include <Box2D/Box2D.h>

namespace envpool::box2d {

// Box2D fills its table of contact functions the first time any world makes
// a contact, without a lock; envs built on several threads at once would race
// on it. Making one contact here, once per process (a thread-safe static),
// fills it before any env steps.
inline void InitializeBox2DStatics() {
  [[maybe_unused]] static const bool initialized = [] {
    b2World world(b2Vec2(0.0f, -10.0f));
    b2PolygonShape box;
    box.SetAsBox(1.0f, 1.0f);
    b2BodyDef def;
    world.CreateBody(&def)->CreateFixture(&box, 0.0f);
    def.type = b2_dynamicBody;
    world.CreateBody(&def)->CreateFixture(&box, 1.0f);
    world.Step(1.0f / 60.0f, 1, 1);  // the overlap creates a contact
    return true;
  }();
}

// pybox2d rounds every Python float it hands to Box2D to float32.
inline float ToBox2D(double value) { return static_cast<float>(value); }
inline b2Vec2 ToBox2D(double x, double y) {
  return {static_cast<float>(x), static_cast<float>(y)};
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_BOX2D_COMMON_H_

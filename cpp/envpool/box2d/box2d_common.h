// Small pieces every Box2D env needs.
#ifndef ENVPOOL_BOX2D_BOX2D_COMMON_H_
#define ENVPOOL_BOX2D_BOX2D_COMMON_H_

#include <Box2D/Box2D.h>

#include <stdexcept>
#include <string>

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

// Runs `call`. A failed Box2D assertion inside it (b2AssertException) leaves
// the world unusable: `drop_world` marks or drops it, and the assertion
// becomes a std::runtime_error carrying `message`.
template <typename Call, typename DropWorld>
void CallBox2D(Call&& call, DropWorld&& drop_world, const char* message) {
  try {
    call();
  } catch (const b2AssertException&) {
    drop_world();
    throw std::runtime_error(message);
  }
}

// The error of a step after such a failure, until the next reset.
inline std::runtime_error BrokenWorldError(const std::string& env) {
  return std::runtime_error(
      env +
      ": the env's Box2D world failed an assertion earlier; reset the env");
}

// pybox2d's fixtureDef(shape=..., density=..., friction=..., categoryBits=...,
// maskBits=..., restitution=...), the keywords gymnasium's Box2D envs pass: a
// keyword left out keeps Box2D's default (b2FixtureDef's, b2Filter's).
struct FixtureKeywords {
  const b2Shape* shape = nullptr;
  float density = 0.0f;
  float friction = 0.2f;
  uint16 category_bits = 0x0001;
  uint16 mask_bits = 0xFFFF;
  float restitution = 0.0f;
};

inline b2FixtureDef FixtureDef(const FixtureKeywords& keywords) {
  b2FixtureDef def;
  def.shape = keywords.shape;
  def.density = keywords.density;
  def.friction = keywords.friction;
  def.filter.categoryBits = keywords.category_bits;
  def.filter.maskBits = keywords.mask_bits;
  def.restitution = keywords.restitution;
  return def;
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_BOX2D_COMMON_H_

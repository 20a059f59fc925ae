// BipedalWalker-v3 and BipedalWalkerHardcore-v3: a four-joint walker crossing
// generated terrain. A port of gymnasium 1.4's box2d/bipedal_walker.py onto
// the same Box2D 2.3 engine that gymnasium reaches through pybox2d.
//
// Bit-for-bit replay rests on three things:
// - the world lives as long as the env and is emptied and refilled on reset
//   in gymnasium's order, so broadphase proxies, contacts and ray-cast
//   callbacks come in the same order;
// - every number gymnasium computes in Python is computed here in double (or
//   in float32 where numpy keeps float32) and rounded to float32 exactly where
//   pybox2d hands it to the engine;
// - every draw from env.np_random happens in gymnasium's order.
#ifndef ENVPOOL_BOX2D_BIPEDAL_WALKER_H_
#define ENVPOOL_BOX2D_BIPEDAL_WALKER_H_

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/box2d/bipedal_walker_render.h"
#include "envpool/box2d/box2d_common.h"
#include "envpool/box2d/contact_detector.h"
#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/numpy/random.h"

namespace envpool::box2d {

class BipedalWalker {
 public:
  using Action = std::span<const float>;

  // pygame_ce: draw frames by pygame-ce's rules, which gymnasium[box2d]
  // installs, or else by pygame 2.6.1's (make() follows the installed pygame).
  static Config DefaultConfig() {
    return {{"hardcore", false}, {"pygame_ce", true}};
  }

  static EnvSpec Spec(const Config& /*config*/) {
    constexpr double kPi = std::numbers::pi;
    // Hull angle, angular speed, velocity x/y, then per leg: hip angle and
    // speed, knee angle and speed, ground contact; then 10 lidar fractions.
    std::vector<double> low = {-kPi, -5.0, -5.0, -5.0, -kPi, -5.0, -kPi,
                               -5.0, -0.0, -kPi, -5.0, -kPi, -5.0, -0.0};
    std::vector<double> high = {kPi, 5.0, 5.0, 5.0, kPi, 5.0, kPi,
                                5.0, 5.0, kPi, 5.0, kPi, 5.0, 5.0};
    low.resize(kObsSize, -1.0);
    high.resize(kObsSize, 1.0);
    return {MakeArray<float>("obs", {kObsSize}, low, high),
            MakeArray<float>("action", {4}, {-1.0, -1.0, -1.0, -1.0},
                             {1.0, 1.0, 1.0, 1.0}),
            {}};
  }

  explicit BipedalWalker(const Config& config)
      : hardcore_(config.Get<bool>("hardcore")),
        flavour_(config.Get<bool>("pygame_ce") ? PygameFlavour::kPygameCe
                                               : PygameFlavour::kPygame) {
    InitializeBox2DStatics();
    world_ = std::make_unique<b2World>(b2Vec2(0.0f, -10.0f));
  }

  BipedalWalker(const BipedalWalker&) = delete;
  BipedalWalker& operator=(const BipedalWalker&) = delete;

  ~BipedalWalker() {
    // Destroying the world frees every body; no callbacks reach this env.
    if (world_) {
      world_->SetContactListener(nullptr);
    }
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    CallBox2D(
        [&] {
          ResetWorld();
          StepWorld(kZeroAction, out);
        },
        [this] { broken_ = true; },
        "BipedalWalker: a Box2D assertion failed while resetting the env");
    out.reward = 0.0;
    out.terminated = false;
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    if (broken_) {
      throw BrokenWorldError("BipedalWalker");
    }
    CallBox2D(
        [&] { StepWorld(action, out); }, [this] { broken_ = true; },
        "BipedalWalker: a Box2D assertion failed while stepping the env "
        "(the action or the physics state is out of range); reset the env");
  }

  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return {bipedal_walker_render::kViewportH,
            bipedal_walker_render::kViewportW, 3};
  }

  // gymnasium's render() in rgb_array mode: the same frame, pixel for pixel.
  // Like gymnasium's, each call moves the lidar sweep on by one ray.
  void Render(std::span<std::uint8_t> rgb) {
    lidar_render_ = (lidar_render_ + 1) % 100;
    bipedal_walker_render::Scene scene;
    scene.scroll = scroll_;
    scene.flavour = flavour_;
    scene.clouds = clouds_;
    scene.terrain_polys = terrain_polys_;
    const int i = lidar_render_;
    if (i < 2 * kLidarRays) {
      // Rays 0..9 on the way out, 9..0 on the way back.
      const Lidar& lidar = lidar_[i < kLidarRays ? i : 2 * kLidarRays - 1 - i];
      scene.lidar_line = {{{lidar.p1.x, lidar.p1.y}, lidar.p2}};
    }
    for (const Drawn& d : drawlist_) {
      for (const b2Fixture* f = d.body->GetFixtureList(); f != nullptr;
           f = f->GetNext()) {
        scene.shapes.push_back({d.color1, d.color2, ScreenPath(*f)});
      }
    }
    bipedal_walker_render::RenderScene(scene, rgb);
  }

 private:
  static constexpr std::int64_t kObsSize = 24;
  static constexpr int kLidarRays = 10;
  static constexpr double kFps = 50;
  static constexpr double kScale = 30.0;
  static constexpr int kMotorsTorque = 80;
  static constexpr int kSpeedHip = 4;
  static constexpr int kSpeedKnee = 6;
  static constexpr double kLidarRange = 160 / kScale;
  static constexpr int kInitialRandom = 5;
  static constexpr double kLegDown = -8 / kScale;
  static constexpr double kLegW = 8 / kScale;
  static constexpr double kLegH = 34 / kScale;
  static constexpr double kViewportW = 600;
  static constexpr double kViewportH = 400;
  static constexpr double kTerrainStep = 14 / kScale;
  static constexpr int kTerrainLength = 200;
  static constexpr double kTerrainHeight = kViewportH / kScale / 4;
  static constexpr int kTerrainGrass = 10;
  static constexpr int kTerrainStartpad = 20;
  static constexpr double kFriction = 2.5;
  static constexpr std::array<float, 4> kZeroActionValues = {0, 0, 0, 0};
  static constexpr std::span<const float> kZeroAction{kZeroActionValues};

  using Color = bipedal_walker_render::Rgb;
  using Vertex = bipedal_walker_render::Vec;

  // A body of gymnasium's drawlist with its two colours.
  struct Drawn {
    b2Body* body;
    Color color1;
    Color color2;
  };

  // gymnasium's LidarCallback: keeps the closest hit on the ground (category
  // bit 1), ignores the walker's own fixtures.
  struct Lidar : b2RayCastCallback {
    float32 ReportFixture(b2Fixture* fixture, const b2Vec2& point,
                          const b2Vec2& /*normal*/, float32 fraction) override {
      if ((fixture->GetFilterData().categoryBits & 1) == 0) {
        return -1;
      }
      p2 = {point.x, point.y};
      this->fraction = fraction;
      return fraction;
    }
    double fraction = 1.0;
    b2Vec2 p1{0.0f, 0.0f};
    // The ray's end as gymnasium computed it (double), or the closest hit.
    Vertex p2{0.0, 0.0};
  };

  static float F(double value) { return static_cast<float>(value); }
  static b2Vec2 V(double x, double y) { return {F(x), F(y)}; }

  // numpy's sign of a float32: +0.0 for either zero.
  static float NumpySign(float value) {
    if (value > 0.0f) {
      return 1.0f;
    }
    return value < 0.0f ? -1.0f : 0.0f;
  }
  static double NumpySign(double value) {
    if (value > 0.0) {
      return 1.0;
    }
    return value < 0.0 ? -1.0 : 0.0;
  }

  // np.clip(np.abs(a), 0, 1) on a float32.
  static float ClippedMagnitude(float value) {
    return std::min(std::max(std::fabs(value), 0.0f), 1.0f);
  }

  // pybox2d's `body.transform * vertex * SCALE` for each vertex of a polygon
  // or an edge fixture: float32 arithmetic throughout.
  static std::vector<Vertex> ScreenPath(const b2Fixture& fixture) {
    const b2Transform& t = fixture.GetBody()->GetTransform();
    auto to_screen = [&t](const b2Vec2& v) -> Vertex {
      const float x = (t.q.c * v.x - t.q.s * v.y) + t.p.x;
      const float y = (t.q.s * v.x + t.q.c * v.y) + t.p.y;
      const auto scale = static_cast<float>(kScale);
      return {x * scale, y * scale};
    };
    std::vector<Vertex> path;
    const b2Shape* shape = fixture.GetShape();
    if (shape->GetType() == b2Shape::e_polygon) {
      const auto* polygon = static_cast<const b2PolygonShape*>(shape);
      for (int32 k = 0; k < polygon->m_count; ++k) {
        path.push_back(to_screen(polygon->m_vertices[k]));
      }
    } else if (shape->GetType() == b2Shape::e_edge) {
      const auto* edge = static_cast<const b2EdgeShape*>(shape);
      path.push_back(to_screen(edge->m_vertex1));
      path.push_back(to_screen(edge->m_vertex2));
    }
    return path;
  }

  // gymnasium's _destroy(), then the world refilled as reset() does.
  void ResetWorld() {
    drawlist_.clear();  // until refilled, no body is drawn
    if (broken_) {
      // A failed assertion can leave the world locked mid-step: start over.
      world_.reset();
      world_ = std::make_unique<b2World>(b2Vec2(0.0f, -10.0f));
      terrain_.clear();
      hull_ = nullptr;
      legs_.fill(nullptr);
      joints_.fill(nullptr);
      broken_ = false;
    }
    if (!terrain_.empty()) {
      world_->SetContactListener(nullptr);
      for (const Drawn& t : terrain_) {
        world_->DestroyBody(t.body);
      }
      terrain_.clear();
      world_->DestroyBody(hull_);
      hull_ = nullptr;
      for (b2Body*& leg : legs_) {
        world_->DestroyBody(leg);
        leg = nullptr;
      }
      joints_.fill(nullptr);
    }
    world_->SetContactListener(&contacts_);
    prev_shaping_.reset();
    scroll_ = 0.0;
    lidar_render_ = 0;

    GenerateTerrain();
    GenerateClouds();
    CreateWalker();

    drawlist_ = terrain_;
    for (int i = 0; i < 4; ++i) {
      drawlist_.push_back({legs_[i], leg_colors_[i][0], leg_colors_[i][1]});
    }
    drawlist_.push_back({hull_, {127, 51, 229}, {76, 76, 127}});
  }

  void AddTerrainPolygon(const std::array<Vertex, 4>& poly) {
    std::array<b2Vec2, 4> vertices;
    for (std::size_t i = 0; i < poly.size(); ++i) {
      vertices[i] = V(poly[i].x, poly[i].y);
    }
    b2PolygonShape shape;
    shape.Set(vertices.data(), static_cast<int32>(vertices.size()));
    b2FixtureDef fixture;
    fixture.shape = &shape;
    fixture.friction = F(kFriction);
    b2BodyDef body;
    body.type = b2_staticBody;
    b2Body* t = world_->CreateBody(&body);
    t->CreateFixture(&fixture);
    terrain_.push_back({t, {255, 255, 255}, {153, 153, 153}});
  }

  void GenerateTerrain() {
    enum : std::int64_t { kGrass, kStump, kStairs, kPit, kStates };
    std::int64_t state = kGrass;
    double velocity = 0.0;
    double y = kTerrainHeight;
    std::int64_t counter = kTerrainStartpad;
    bool oneshot = false;
    terrain_x_.clear();
    terrain_y_.clear();
    std::int64_t stair_steps = 0;
    std::int64_t stair_width = 0;
    std::int64_t stair_height = 0;
    double original_y = 0;
    for (int i = 0; i < kTerrainLength; ++i) {
      const double x = i * kTerrainStep;
      terrain_x_.push_back(x);
      if (state == kGrass && !oneshot) {
        velocity = 0.8 * velocity + 0.01 * NumpySign(kTerrainHeight - y);
        if (i > kTerrainStartpad) {
          velocity += np_random_.Uniform(-1, 1) / kScale;
        }
        y += velocity;
      } else if (state == kPit && oneshot) {
        counter = np_random_.Integers(3, 5);
        const std::array<Vertex, 4> poly = {
            {{x, y},
             {x + kTerrainStep, y},
             {x + kTerrainStep, y - 4 * kTerrainStep},
             {x, y - 4 * kTerrainStep}}};
        AddTerrainPolygon(poly);
        std::array<Vertex, 4> shifted = poly;
        for (Vertex& p : shifted) {
          p.x = p.x + kTerrainStep * static_cast<double>(counter);
        }
        AddTerrainPolygon(shifted);
        counter += 2;
        original_y = y;
      } else if (state == kPit && !oneshot) {
        y = original_y;
        if (counter > 1) {
          y -= 4 * kTerrainStep;
        }
      } else if (state == kStump && oneshot) {
        counter = np_random_.Integers(1, 3);
        const double size = static_cast<double>(counter) * kTerrainStep;
        AddTerrainPolygon(
            {{{x, y}, {x + size, y}, {x + size, y + size}, {x, y + size}}});
      } else if (state == kStairs && oneshot) {
        stair_height = np_random_.Random() > 0.5 ? 1 : -1;
        stair_width = np_random_.Integers(4, 5);
        stair_steps = np_random_.Integers(3, 5);
        original_y = y;
        for (std::int64_t s = 0; s < stair_steps; ++s) {
          const double left =
              x + static_cast<double>(s * stair_width) * kTerrainStep;
          const double right =
              x + static_cast<double>((1 + s) * stair_width) * kTerrainStep;
          const double top =
              y + static_cast<double>(s * stair_height) * kTerrainStep;
          const double bottom =
              y + static_cast<double>(-1 + s * stair_height) * kTerrainStep;
          AddTerrainPolygon(
              {{{left, top}, {right, top}, {right, bottom}, {left, bottom}}});
        }
        counter = stair_steps * stair_width;
      } else if (state == kStairs && !oneshot) {
        const std::int64_t s =
            stair_steps * stair_width - counter - stair_height;
        const double n =
            static_cast<double>(s) / static_cast<double>(stair_width);
        y = original_y + (n * static_cast<double>(stair_height)) * kTerrainStep;
      }
      oneshot = false;
      terrain_y_.push_back(y);
      counter -= 1;
      if (counter == 0) {
        counter = np_random_.Integers(kTerrainGrass / 2, kTerrainGrass);
        if (state == kGrass && hardcore_) {
          state = np_random_.Integers(1, kStates);
        } else {
          state = kGrass;
        }
        oneshot = true;
      }
    }

    terrain_polys_.clear();
    b2EdgeShape edge;
    b2FixtureDef fixture;
    fixture.shape = &edge;
    fixture.friction = F(kFriction);
    fixture.filter.categoryBits = 0x0001;
    for (int i = 0; i + 1 < kTerrainLength; ++i) {
      edge.Set(V(terrain_x_[i], terrain_y_[i]),
               V(terrain_x_[i + 1], terrain_y_[i + 1]));
      b2BodyDef body;
      body.type = b2_staticBody;
      b2Body* t = world_->CreateBody(&body);
      t->CreateFixture(&fixture);
      const Color color{76, static_cast<std::uint8_t>(i % 2 == 0 ? 255 : 204),
                        76};
      terrain_.push_back({t, color, color});
      terrain_polys_.push_back({{{terrain_x_[i], terrain_y_[i]},
                                 {terrain_x_[i + 1], terrain_y_[i + 1]},
                                 {terrain_x_[i + 1], 0.0},
                                 {terrain_x_[i], 0.0}}});
    }
    std::reverse(terrain_.begin(), terrain_.end());
  }

  void GenerateClouds() {
    clouds_.clear();
    for (int c = 0; c < kTerrainLength / 20; ++c) {
      const double x = np_random_.Uniform(0, kTerrainLength) * kTerrainStep;
      const double y = kViewportH / kScale * 3 / 4;
      bipedal_walker_render::Cloud cloud;
      for (int a = 0; a < 5; ++a) {
        const double angle = 3.14 * 2 * a / 5;
        const double px = x + 15 * kTerrainStep * std::sin(angle) +
                          np_random_.Uniform(0, 5 * kTerrainStep);
        const double py = y + 5 * kTerrainStep * std::cos(angle) +
                          np_random_.Uniform(0, 5 * kTerrainStep);
        cloud.poly[a] = {px, py};
      }
      cloud.x1 = cloud.poly[0].x;
      cloud.x2 = cloud.poly[0].x;
      for (const Vertex& p : cloud.poly) {
        cloud.x1 = std::min(cloud.x1, p.x);
        cloud.x2 = std::max(cloud.x2, p.x);
      }
      clouds_.push_back(cloud);
    }
  }

  b2Body* CreateDynamicBody(double x, double y, double angle,
                            const b2FixtureDef& fixture) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = V(x, y);
    def.angle = F(angle);
    b2Body* body = world_->CreateBody(&def);
    body->CreateFixture(&fixture);
    return body;
  }

  b2RevoluteJoint* CreateJoint(b2Body* a, b2Body* b, double anchor_a_y,
                               double anchor_b_y, double motor_speed,
                               double lower, double upper) {
    b2RevoluteJointDef def;
    def.bodyA = a;
    def.bodyB = b;
    def.localAnchorA = V(0, anchor_a_y);
    def.localAnchorB = V(0, anchor_b_y);
    def.enableMotor = true;
    def.enableLimit = true;
    def.maxMotorTorque = F(kMotorsTorque);
    def.motorSpeed = F(motor_speed);
    def.lowerAngle = F(lower);
    def.upperAngle = F(upper);
    // pybox2d's revoluteJointDef(bodyA=..., bodyB=...) sets the reference
    // angle from the bodies' angles (Python doubles), as Initialize() would.
    def.referenceAngle = F(static_cast<double>(b->GetAngle()) -
                           static_cast<double>(a->GetAngle()));
    return static_cast<b2RevoluteJoint*>(world_->CreateJoint(&def));
  }

  void CreateWalker() {
    constexpr std::array<std::array<int, 2>, 5> kHullPoly = {
        {{-30, +9}, {+6, +9}, {+34, +1}, {+34, -8}, {-30, -8}}};
    b2PolygonShape hull_shape;
    std::array<b2Vec2, 5> hull_vertices;
    for (std::size_t i = 0; i < kHullPoly.size(); ++i) {
      hull_vertices[i] = V(kHullPoly[i][0] / kScale, kHullPoly[i][1] / kScale);
    }
    hull_shape.Set(hull_vertices.data(),
                   static_cast<int32>(hull_vertices.size()));
    const b2FixtureDef hull_fixture = FixtureDef({.shape = &hull_shape,
                                                  .density = 5.0f,
                                                  .friction = 0.1f,
                                                  .category_bits = 0x0020,
                                                  .mask_bits = 0x001,
                                                  .restitution = 0.0f});

    b2PolygonShape leg_shape;
    leg_shape.SetAsBox(F(kLegW / 2), F(kLegH / 2));
    const b2FixtureDef leg_fixture = FixtureDef({.shape = &leg_shape,
                                                 .density = 1.0f,
                                                 .category_bits = 0x0020,
                                                 .mask_bits = 0x001,
                                                 .restitution = 0.0f});

    b2PolygonShape lower_shape;
    lower_shape.SetAsBox(F(0.8 * kLegW / 2), F(kLegH / 2));
    b2FixtureDef lower_fixture = leg_fixture;
    lower_fixture.shape = &lower_shape;

    const double init_x = kTerrainStep * kTerrainStartpad / 2;
    const double init_y = kTerrainHeight + 2 * kLegH;
    hull_ = CreateDynamicBody(init_x, init_y, 0.0, hull_fixture);
    hull_->ApplyForceToCenter(
        V(np_random_.Uniform(-kInitialRandom, kInitialRandom), 0), true);

    for (int side = 0; side < 2; ++side) {
      const int i = side == 0 ? -1 : +1;
      // This side's upper leg, then its lower leg, in legs_ and joints_.
      const auto upper = static_cast<std::size_t>(side) * 2;
      b2Body* leg = CreateDynamicBody(init_x, init_y - kLegH / 2 - kLegDown,
                                      i * 0.05, leg_fixture);
      legs_[upper] = leg;
      joints_[upper] =
          CreateJoint(hull_, leg, kLegDown, kLegH / 2, i, -0.8, 1.1);
      b2Body* lower = CreateDynamicBody(
          init_x, init_y - kLegH * 3 / 2 - kLegDown, i * 0.05, lower_fixture);
      legs_[upper + 1] = lower;
      joints_[upper + 1] =
          CreateJoint(leg, lower, -kLegH / 2, kLegH / 2, 1, -1.6, -0.1);
      const Color color1{static_cast<std::uint8_t>(153 - i * 25),
                         static_cast<std::uint8_t>(76 - i * 25),
                         static_cast<std::uint8_t>(127 - i * 25)};
      const Color color2{static_cast<std::uint8_t>(102 - i * 25),
                         static_cast<std::uint8_t>(51 - i * 25),
                         static_cast<std::uint8_t>(76 - i * 25)};
      leg_colors_[upper] = {color1, color2};
      leg_colors_[upper + 1] = {color1, color2};
    }
    contacts_.Watch(hull_, {legs_[1], legs_[3]});  // the lower legs
  }

  void StepWorld(std::span<const float> action, Output& out) {
    for (int j = 0; j < 4; ++j) {
      const int speed = j % 2 == 0 ? kSpeedHip : kSpeedKnee;
      // speed * np.sign(a) and torque * np.clip(np.abs(a), 0, 1) stay
      // float32 in numpy before float() and pybox2d's float32.
      joints_[j]->SetMotorSpeed(static_cast<float>(speed) *
                                NumpySign(action[j]));
      joints_[j]->SetMaxMotorTorque(static_cast<float>(kMotorsTorque) *
                                    ClippedMagnitude(action[j]));
    }

    world_->Step(F(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = hull_->GetPosition();
    const b2Vec2 vel = hull_->GetLinearVelocity();
    for (int i = 0; i < kLidarRays; ++i) {
      Lidar& lidar = lidar_[i];
      lidar.fraction = 1.0;
      lidar.p1 = pos;
      lidar.p2 = {pos.x + std::sin(1.5 * i / 10.0) * kLidarRange,
                  pos.y - std::cos(1.5 * i / 10.0) * kLidarRange};
      world_->RayCast(&lidar, lidar.p1, V(lidar.p2.x, lidar.p2.y));
    }

    const double angle = hull_->GetAngle();
    std::array<double, kObsSize> state = {
        angle,
        2.0 * static_cast<double>(hull_->GetAngularVelocity()) / kFps,
        0.3 * static_cast<double>(vel.x) * (kViewportW / kScale) / kFps,
        0.3 * static_cast<double>(vel.y) * (kViewportH / kScale) / kFps,
        joints_[0]->GetJointAngle(),
        static_cast<double>(joints_[0]->GetJointSpeed()) / kSpeedHip,
        static_cast<double>(joints_[1]->GetJointAngle()) + 1.0,
        static_cast<double>(joints_[1]->GetJointSpeed()) / kSpeedKnee,
        contacts_.ground_contact(0) ? 1.0 : 0.0,
        joints_[2]->GetJointAngle(),
        static_cast<double>(joints_[2]->GetJointSpeed()) / kSpeedHip,
        static_cast<double>(joints_[3]->GetJointAngle()) + 1.0,
        static_cast<double>(joints_[3]->GetJointSpeed()) / kSpeedKnee,
        contacts_.ground_contact(1) ? 1.0 : 0.0};
    for (int i = 0; i < kLidarRays; ++i) {
      state[14 + i] = lidar_[i].fraction;
    }
    std::span<float> obs = out.Obs<float>();
    for (std::size_t i = 0; i < state.size(); ++i) {
      obs[i] = F(state[i]);
    }

    scroll_ = static_cast<double>(pos.x) - kViewportW / kScale / 5;

    double shaping = 130 * static_cast<double>(pos.x) / kScale;
    shaping -= 5.0 * std::fabs(angle);
    const double progress =
        prev_shaping_.has_value() ? shaping - *prev_shaping_ : 0.0;
    prev_shaping_ = shaping;
    // Subtracting a numpy float32 from a Python float gives a float32: the
    // torque cost turns the reward into float32 arithmetic.
    float reward = F(progress);
    for (int j = 0; j < 4; ++j) {
      reward =
          reward - F(0.00035 * kMotorsTorque) * ClippedMagnitude(action[j]);
    }
    out.reward = reward;
    out.terminated = false;
    if (contacts_.game_over() || pos.x < 0) {
      out.reward = -100;
      out.terminated = true;
    }
    if (static_cast<double>(pos.x) >
        (kTerrainLength - kTerrainGrass) * kTerrainStep) {
      out.terminated = true;
    }
  }

  bool hardcore_;
  PygameFlavour flavour_;
  NumpyRandom np_random_;
  std::unique_ptr<b2World> world_;
  ContactDetector<2> contacts_;
  bool broken_ = false;

  std::vector<Drawn> terrain_;  // gymnasium's self.terrain (reversed)
  b2Body* hull_ = nullptr;
  std::array<b2Body*, 4> legs_{};             // upper, lower, upper, lower
  std::array<b2RevoluteJoint*, 4> joints_{};  // hip, knee, hip, knee
  std::array<std::array<Color, 2>, 4> leg_colors_{};
  std::array<Lidar, kLidarRays> lidar_;
  std::optional<double> prev_shaping_;

  // For rendering.
  std::vector<double> terrain_x_;
  std::vector<double> terrain_y_;
  std::vector<bipedal_walker_render::TerrainPoly> terrain_polys_;
  std::vector<bipedal_walker_render::Cloud> clouds_;
  std::vector<Drawn> drawlist_;
  double scroll_ = 0.0;
  int lidar_render_ = 0;  // gymnasium's lidar_render: the ray drawn next
};

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_BIPEDAL_WALKER_H_

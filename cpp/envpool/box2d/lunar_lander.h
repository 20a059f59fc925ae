// LunarLander-v3 and LunarLanderContinuous-v3: land a two-legged craft on a
// pad between flags. A port of gymnasium 1.4's box2d/lunar_lander.py onto the
// Box2D 2.3 engine that gymnasium reaches through pybox2d.
//
// Replays bit for bit from the seed: every np_random draw is made in
// gymnasium's order (NumpyRandom), every number gymnasium computes in Python
// is computed here in double and rounded to float32 exactly where pybox2d
// hands it to Box2D, and the world is rebuilt on every reset as in v3.
//
// gymnasium creates exhaust particles (bodies that collide only with the
// ground, so they never touch the lander's island) only when it renders.
// They do not change the lander's motion; they are simulated here, as
// gymnasium simulates them, only with the render_particles option (which
// make(render_mode="rgb_array") turns on), since the frames draw them.
#ifndef ENVPOOL_BOX2D_LUNAR_LANDER_H_
#define ENVPOOL_BOX2D_LUNAR_LANDER_H_

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <numbers>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "envpool/box2d/box2d_common.h"
#include "envpool/box2d/contact_detector.h"
#include "envpool/box2d/lunar_lander_render.h"
#include "envpool/box2d/pygame_draw.h"
#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/numpy/random.h"

namespace envpool::box2d {

template <bool kContinuous>
class LunarLanderEnv {
 public:
  using Action =
      std::conditional_t<kContinuous, std::span<const float>, std::int64_t>;

  // gymnasium's options, and render_particles: simulate the engines' exhaust
  // particles as gymnasium does when it renders, so that rgb_array frames
  // show them (make() sets it for render_mode="rgb_array"; it does not change
  // the lander's motion); pygame_ce: draw frames by pygame-ce's rules, which
  // gymnasium[box2d] installs, or else by pygame 2.6.1's (make() follows the
  // installed pygame).
  static Config DefaultConfig() {
    return {{"continuous", kContinuous}, {"gravity", -10.0},
            {"enable_wind", false},      {"wind_power", 15.0},
            {"turbulence_power", 1.5},   {"render_particles", false},
            {"pygame_ce", true}};
  }

  static EnvSpec Spec(const Config& config) {
    Check(config);
    constexpr double kTwoPi = 2 * std::numbers::pi;
    // gymnasium's bounds, as float32.
    auto obs = MakeArray<float>(
        "obs", {8}, {-2.5, -2.5, -10.0, -10.0, -kTwoPi, -10.0, -0.0, -0.0},
        {2.5, 2.5, 10.0, 10.0, kTwoPi, 10.0, 1.0, 1.0});
    if constexpr (kContinuous) {
      return {obs, MakeArray<float>("action", {2}, {-1.0}, {1.0}), {}};
    } else {
      return {obs, MakeDiscrete<std::int64_t>("action", 4), {}};
    }
  }

  explicit LunarLanderEnv(const Config& config)
      : gravity_(config.Get<double>("gravity")),
        enable_wind_(config.Get<bool>("enable_wind")),
        wind_power_(config.Get<double>("wind_power")),
        turbulence_power_(config.Get<double>("turbulence_power")),
        render_particles_(config.Get<bool>("render_particles")),
        flavour_(config.Get<bool>("pygame_ce") ? PygameFlavour::kPygameCe
                                               : PygameFlavour::kPygame) {
    Check(config);
    InitializeBox2DStatics();
  }

  LunarLanderEnv(const LunarLanderEnv&) = delete;
  LunarLanderEnv& operator=(const LunarLanderEnv&) = delete;

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    CallBox2D(
        [&] {
          BuildWorld();
          // gymnasium's reset returns the observation of one no-op step.
          prev_shaping_.reset();
          if constexpr (kContinuous) {
            Advance(0.0f, 0.0, out);
          } else {
            Advance(std::int64_t{0}, 0.0, out);
          }
        },
        [this] { DropWorld(); },
        "LunarLander: a Box2D assertion failed while resetting the env");
    out.reward = 0.0;
    out.terminated = false;
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    if (!world_) {
      throw BrokenWorldError("LunarLander");
    }
    CallBox2D(
        [&] {
          if constexpr (kContinuous) {
            Advance(action[0], action[1], out);
          } else {
            Advance(action, 0.0, out);
          }
        },
        [this] { DropWorld(); },
        "LunarLander: a Box2D assertion failed while stepping the env; "
        "reset the env");
  }

  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return {lunar_lander_render::kViewportH, lunar_lander_render::kViewportW,
            3};
  }

  // gymnasium's render() in rgb_array mode: the same frame, pixel for pixel.
  // Like gymnasium's, each call ages the exhaust particles (and drops the
  // oldest ones once they have faded).
  void Render(std::span<std::uint8_t> rgb) {
    for (Particle& p : particles_) {
      p.ttl -= 0.15;
      const double red = std::max(0.2, 0.15 + p.ttl) * 255;
      const double rest = std::max(0.2, 0.5 * p.ttl) * 255;
      p.color = {static_cast<std::uint8_t>(static_cast<int>(red)),
                 static_cast<std::uint8_t>(static_cast<int>(rest)),
                 static_cast<std::uint8_t>(static_cast<int>(rest))};
    }
    CleanParticles(false);

    lunar_lander_render::Scene scene;
    scene.sky_polys = sky_polys_;
    scene.helipad_x1 = helipad_x1_;
    scene.helipad_x2 = helipad_x2_;
    scene.helipad_y = helipad_y_;
    scene.flavour = flavour_;
    if (world_) {
      for (const Particle& p : particles_) {
        AddShapes(p.body, p.color, p.color, scene.shapes);
      }
      constexpr Color kFill{128, 102, 230};
      constexpr Color kOutline{77, 77, 128};
      AddShapes(lander_, kFill, kOutline, scene.shapes);
      for (b2Body* leg : legs_) {
        AddShapes(leg, kFill, kOutline, scene.shapes);
      }
    }
    lunar_lander_render::RenderScene(scene, canvas_);
    std::span<const std::uint8_t> pixels = canvas_.pixels();
    std::memcpy(rgb.data(), pixels.data(), std::min(rgb.size(), pixels.size()));
  }

 private:
  static constexpr double kFps = 50;
  static constexpr double kScale = 30.0;
  static constexpr double kMainEnginePower = 13.0;
  static constexpr double kSideEnginePower = 0.6;
  static constexpr double kInitialRandom = 1000.0;
  static constexpr double kLegAway = 20;
  static constexpr double kLegDown = 18;
  static constexpr double kLegW = 2;
  static constexpr double kLegH = 8;
  static constexpr double kLegSpringTorque = 40;
  static constexpr double kSideEngineHeight = 14;
  static constexpr double kSideEngineAway = 12;
  static constexpr double kMainEngineYLocation = 4;
  static constexpr double kViewportW = 600;
  static constexpr double kViewportH = 400;
  static constexpr int kChunks = 11;
  static constexpr std::array<std::array<double, 2>, 6> kLanderPoly = {
      {{-14, 17}, {-17, 0}, {-17, -10}, {17, -10}, {17, 0}, {14, 17}}};

  // What gymnasium asserts, and the ranges it recommends for the wind.
  static void Check(const Config& config) {
    const double gravity = config.Get<double>("gravity");
    if (!(gravity > -12.0 && gravity < 0.0)) {
      throw std::invalid_argument(
          "gravity must be between -12 and 0 (exclusive), got " +
          std::to_string(gravity) + "; the default is -10.0");
    }
    CheckRange(config, "wind_power", 20.0, "15.0");
    CheckRange(config, "turbulence_power", 2.0, "1.5");
    if (config.Get<bool>("continuous") != kContinuous) {
      throw std::invalid_argument(
          "continuous must be the same for every env of a LunarLander pool");
    }
  }

  static void CheckRange(const Config& config, const char* name, double high,
                         const char* default_value) {
    const double value = config.Get<double>(name);
    if (!(value >= 0.0 && value <= high)) {
      throw std::invalid_argument(
          std::string(name) + " must be in [0, " + std::to_string(high) +
          "] (gymnasium's recommended range), got " + std::to_string(value) +
          "; the default is " + default_value);
    }
  }

  // An exhaust particle: its body, its remaining life and its colour.
  struct Particle {
    b2Body* body;
    double ttl;
    Color color;
  };

  // The world and everything in it are gone (after a failed assertion).
  void DropWorld() {
    particles_.clear();
    world_.reset();
  }

  // gymnasium's _create_particle: a small disc that collides with the ground
  // only.
  b2Body* CreateParticle(double mass, double x, double y, double ttl) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = ToBox2D(x, y);
    def.angle = 0.0f;
    b2Body* body = world_->CreateBody(&def);
    b2CircleShape circle;
    circle.m_radius = ToBox2D(2 / kScale);
    circle.m_p = ToBox2D(0.0, 0.0);
    const b2FixtureDef fixture = FixtureDef({.shape = &circle,
                                             .density = ToBox2D(mass),
                                             .friction = 0.1f,
                                             .category_bits = 0x0100,
                                             .mask_bits = 0x001,
                                             .restitution = 0.3f});
    body->CreateFixture(&fixture);
    particles_.push_back({body, ttl, {0, 0, 0}});
    CleanParticles(false);
    return body;
  }

  // gymnasium's _clean_particles: drops particles from the oldest on while
  // the oldest has faded (or all of them).
  // An engine firing at (x, y): the particle it throws (when particles are
  // drawn) takes the impulse (px, py), the lander the opposite one.
  void FireEngine(double particle_mass, double x, double y, double px,
                  double py, double power) {
    const b2Vec2 impulse_pos = ToBox2D(x, y);
    if (render_particles_) {
      b2Body* p = CreateParticle(particle_mass, x, y, power);
      p->ApplyLinearImpulse(ToBox2D(px, py), impulse_pos, true);
    }
    lander_->ApplyLinearImpulse(ToBox2D(-px, -py), impulse_pos, true);
  }

  void CleanParticles(bool all) {
    while (!particles_.empty() && (all || particles_.front().ttl < 0)) {
      world_->DestroyBody(particles_.front().body);
      particles_.pop_front();
    }
  }

  // pybox2d's `body.transform * point * SCALE`: float32 arithmetic.
  static Point ToScreen(const b2Transform& t, const b2Vec2& v) {
    const float x = (t.q.c * v.x - t.q.s * v.y) + t.p.x;
    const float y = (t.q.s * v.x + t.q.c * v.y) + t.p.y;
    const auto scale = static_cast<float>(kScale);
    return {x * scale, y * scale};
  }

  // The body's fixtures as gymnasium's render() sees them.
  static void AddShapes(const b2Body* body, Color color1, Color color2,
                        std::vector<lunar_lander_render::Shape>& shapes) {
    const b2Transform& t = body->GetTransform();
    for (const b2Fixture* f = body->GetFixtureList(); f != nullptr;
         f = f->GetNext()) {
      lunar_lander_render::Shape shape{color1, color2};
      const b2Shape* s = f->GetShape();
      if (s->GetType() == b2Shape::e_circle) {
        const auto* circle = static_cast<const b2CircleShape*>(s);
        shape.circle = true;
        shape.center = ToScreen(t, circle->m_p);
        shape.radius = static_cast<double>(circle->m_radius) * kScale;
      } else if (s->GetType() == b2Shape::e_polygon) {
        const auto* polygon = static_cast<const b2PolygonShape*>(s);
        for (int32 k = 0; k < polygon->m_count; ++k) {
          shape.path.push_back(ToScreen(t, polygon->m_vertices[k]));
        }
      } else {
        continue;  // neither the lander nor a particle has other shapes
      }
      shapes.push_back(std::move(shape));
    }
  }

  void BuildWorld() {
    // The old world's particles go with it (gymnasium destroys them first).
    particles_.clear();
    world_ = std::make_unique<b2World>(ToBox2D(0.0, gravity_));
    world_->SetContactListener(&contacts_);

    const double w = kViewportW / kScale;
    const double h = kViewportH / kScale;
    std::array<double, kChunks + 1> height{};
    for (double& y : height) {
      y = np_random_.Uniform(0.0, h / 2);
    }
    std::array<double, kChunks> chunk_x{};
    for (int i = 0; i < kChunks; ++i) {
      chunk_x[i] = w / (kChunks - 1) * i;
    }
    helipad_x1_ = chunk_x[kChunks / 2 - 1];
    helipad_x2_ = chunk_x[kChunks / 2 + 1];
    helipad_y_ = h / 4;
    for (int i = kChunks / 2 - 2; i <= kChunks / 2 + 2; ++i) {
      height[i] = helipad_y_;
    }
    std::array<double, kChunks> smooth_y{};
    for (int i = 0; i < kChunks; ++i) {
      // height[i - 1] is Python's height[-1], the last entry, for i = 0.
      const double before = height[i == 0 ? kChunks : i - 1];
      smooth_y[i] = 0.33 * (before + height[i] + height[i + 1]);
    }

    b2BodyDef moon_def;
    b2Body* moon = world_->CreateBody(&moon_def);
    b2EdgeShape floor;
    floor.Set(ToBox2D(0.0, 0.0), ToBox2D(w, 0.0));
    b2FixtureDef floor_def;
    floor_def.shape = &floor;
    moon->CreateFixture(&floor_def);
    for (int i = 0; i < kChunks - 1; ++i) {
      b2EdgeShape edge;
      edge.Set(ToBox2D(chunk_x[i], smooth_y[i]),
               ToBox2D(chunk_x[i + 1], smooth_y[i + 1]));
      b2FixtureDef def;
      def.shape = &edge;
      def.density = 0.0f;
      def.friction = 0.1f;
      moon->CreateFixture(&def);
      sky_polys_[i] = {{{chunk_x[i], smooth_y[i]},
                        {chunk_x[i + 1], smooth_y[i + 1]},
                        {chunk_x[i + 1], h},
                        {chunk_x[i], h}}};
    }

    const double initial_y = kViewportH / kScale;
    const double initial_x = kViewportW / kScale / 2;
    b2BodyDef lander_def;
    lander_def.type = b2_dynamicBody;
    lander_def.position = ToBox2D(initial_x, initial_y);
    lander_def.angle = 0.0f;
    lander_ = world_->CreateBody(&lander_def);
    std::array<b2Vec2, kLanderPoly.size()> vertices;
    for (std::size_t i = 0; i < kLanderPoly.size(); ++i) {
      vertices[i] =
          ToBox2D(kLanderPoly[i][0] / kScale, kLanderPoly[i][1] / kScale);
    }
    b2PolygonShape hull;
    hull.Set(vertices.data(), static_cast<int32>(vertices.size()));
    const b2FixtureDef hull_def = FixtureDef({.shape = &hull,
                                              .density = 5.0f,
                                              .friction = 0.1f,
                                              .category_bits = 0x0010,
                                              .mask_bits = 0x001,
                                              .restitution = 0.0f});
    lander_->CreateFixture(&hull_def);
    const double force_x = np_random_.Uniform(-kInitialRandom, kInitialRandom);
    const double force_y = np_random_.Uniform(-kInitialRandom, kInitialRandom);
    lander_->ApplyForceToCenter(ToBox2D(force_x, force_y), true);
    if (enable_wind_) {
      wind_idx_ = np_random_.Integers(-9999, 9999);
      torque_idx_ = np_random_.Integers(-9999, 9999);
    }

    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : 1;
      b2BodyDef leg_def;
      leg_def.type = b2_dynamicBody;
      leg_def.position = ToBox2D(initial_x - i * kLegAway / kScale, initial_y);
      leg_def.angle = ToBox2D(i * 0.05);
      b2Body* leg = world_->CreateBody(&leg_def);
      b2PolygonShape box;
      box.SetAsBox(ToBox2D(kLegW / kScale), ToBox2D(kLegH / kScale));
      const b2FixtureDef box_def = FixtureDef({.shape = &box,
                                               .density = 1.0f,
                                               .category_bits = 0x0020,
                                               .mask_bits = 0x001,
                                               .restitution = 0.0f});
      leg->CreateFixture(&box_def);
      legs_[k] = leg;

      b2RevoluteJointDef joint;
      joint.bodyA = lander_;
      joint.bodyB = leg;
      joint.localAnchorA = ToBox2D(0.0, 0.0);
      joint.localAnchorB = ToBox2D(i * kLegAway / kScale, kLegDown / kScale);
      joint.enableMotor = true;
      joint.enableLimit = true;
      joint.maxMotorTorque = ToBox2D(kLegSpringTorque);
      joint.motorSpeed = ToBox2D(0.3 * i);
      // pybox2d's revoluteJointDef sets this when it is not given.
      joint.referenceAngle = ToBox2D(static_cast<double>(leg->GetAngle()) -
                                     static_cast<double>(lander_->GetAngle()));
      if (i == -1) {
        joint.lowerAngle = ToBox2D(0.9 - 0.5);
        joint.upperAngle = ToBox2D(0.9);
      } else {
        joint.lowerAngle = ToBox2D(-0.9);
        joint.upperAngle = ToBox2D(-0.9 + 0.5);
      }
      world_->CreateJoint(&joint);
    }
    contacts_.Watch(lander_, {legs_[0], legs_[1]});
  }

  // Wind and turbulence: tanh(sin(2 k t) + sin(pi k t)) with k = 0.01.
  static double WindShape(std::int64_t index) {
    const auto t = static_cast<double>(index);
    return std::tanh(std::sin(0.02 * t) +
                     std::sin(std::numbers::pi * 0.01 * t));
  }

  // One env step: `main` and `lateral` are the continuous action, or for
  // discrete actions `main` holds the action index.
  template <typename Main>
  void Advance(Main main, double lateral, Output& out) {
    if (enable_wind_ &&
        !(contacts_.ground_contact(0) || contacts_.ground_contact(1))) {
      const double wind_mag = WindShape(wind_idx_) * wind_power_;
      ++wind_idx_;
      lander_->ApplyForceToCenter(ToBox2D(wind_mag, 0.0), true);
      const double torque_mag = WindShape(torque_idx_) * turbulence_power_;
      ++torque_idx_;
      lander_->ApplyTorque(ToBox2D(torque_mag), true);
    }

    double action0 = 0.0;
    double action1 = 0.0;
    bool fire_main = false;
    bool fire_side = false;
    if constexpr (kContinuous) {
      // np.clip on the float32 action, then float64.
      action0 = static_cast<double>(
          std::clamp(static_cast<float>(main), -1.0f, 1.0f));
      action1 = static_cast<double>(
          std::clamp(static_cast<float>(lateral), -1.0f, 1.0f));
      fire_main = action0 > 0.0;
      fire_side = std::abs(action1) > 0.5;
    } else {
      fire_main = main == 2;
      fire_side = main == 1 || main == 3;
    }

    const double angle = lander_->GetAngle();
    const std::array<double, 2> tip = {std::sin(angle), std::cos(angle)};
    const std::array<double, 2> side = {-tip[1], tip[0]};
    std::array<double, 2> dispersion{};
    for (double& d : dispersion) {
      d = np_random_.Uniform(-1.0, 1.0) / kScale;
    }

    double m_power = 0.0;
    if (fire_main) {
      m_power = kContinuous ? (std::clamp(action0, 0.0, 1.0) + 1.0) * 0.5 : 1.0;
      const double ox =
          tip[0] * (kMainEngineYLocation / kScale + 2 * dispersion[0]) +
          side[0] * dispersion[1];
      const double oy =
          -tip[1] * (kMainEngineYLocation / kScale + 2 * dispersion[0]) -
          side[1] * dispersion[1];
      const b2Vec2 position = lander_->GetPosition();
      const double pos_x = position.x + ox;
      const double pos_y = position.y + oy;
      FireEngine(3.5, pos_x, pos_y, ox * kMainEnginePower * m_power,
                 oy * kMainEnginePower * m_power, m_power);
    }

    double s_power = 0.0;
    if (fire_side) {
      double direction = 0.0;
      if constexpr (kContinuous) {
        direction = action1 > 0.0 ? 1.0 : -1.0;
        s_power = std::clamp(std::abs(action1), 0.5, 1.0);
      } else {
        direction = static_cast<double>(main - 2);
        s_power = 1.0;
      }
      const double away =
          3 * dispersion[1] + direction * kSideEngineAway / kScale;
      const double ox = tip[0] * dispersion[0] + side[0] * away;
      const double oy = -tip[1] * dispersion[0] - side[1] * away;
      const b2Vec2 position = lander_->GetPosition();
      const double pos_x = position.x + ox - tip[0] * 17 / kScale;
      const double pos_y =
          position.y + oy + tip[1] * kSideEngineHeight / kScale;
      FireEngine(0.7, pos_x, pos_y, ox * kSideEnginePower * s_power,
                 oy * kSideEnginePower * s_power, s_power);
    }

    world_->Step(ToBox2D(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = lander_->GetPosition();
    const b2Vec2 vel = lander_->GetLinearVelocity();
    const std::array<double, 8> state = {
        (pos.x - kViewportW / kScale / 2) / (kViewportW / kScale / 2),
        (pos.y - (helipad_y_ + kLegDown / kScale)) / (kViewportH / kScale / 2),
        vel.x * (kViewportW / kScale / 2) / kFps,
        vel.y * (kViewportH / kScale / 2) / kFps,
        lander_->GetAngle(),
        20.0 * lander_->GetAngularVelocity() / kFps,
        contacts_.ground_contact(0) ? 1.0 : 0.0,
        contacts_.ground_contact(1) ? 1.0 : 0.0};

    double reward = 0.0;
    const double shaping =
        -100 * std::sqrt(state[0] * state[0] + state[1] * state[1]) -
        100 * std::sqrt(state[2] * state[2] + state[3] * state[3]) -
        100 * std::abs(state[4]) + 10 * state[6] + 10 * state[7];
    if (prev_shaping_) {
      reward = shaping - *prev_shaping_;
    }
    prev_shaping_ = shaping;
    reward -= m_power * 0.30;
    reward -= s_power * 0.03;

    bool terminated = false;
    if (contacts_.game_over() || std::abs(state[0]) >= 1.0) {
      terminated = true;
      reward = -100;
    }
    if (!lander_->IsAwake()) {
      terminated = true;
      reward = +100;
    }

    std::span<float> obs = out.Obs<float>();
    for (std::size_t i = 0; i < state.size(); ++i) {
      obs[i] = static_cast<float>(state[i]);
    }
    out.reward = reward;
    out.terminated = terminated;
  }

  double gravity_;
  bool enable_wind_;
  double wind_power_;
  double turbulence_power_;
  bool render_particles_;
  PygameFlavour flavour_;
  NumpyRandom np_random_;
  ContactDetector<2> contacts_;
  std::unique_ptr<b2World> world_;
  b2Body* lander_ = nullptr;
  std::array<b2Body*, 2> legs_{};
  double helipad_x1_ = 0.0;
  double helipad_x2_ = 0.0;
  double helipad_y_ = 0.0;
  std::array<lunar_lander_render::SkyPoly, kChunks - 1> sky_polys_{};
  std::deque<Particle> particles_;  // oldest first
  Canvas canvas_{static_cast<int>(lunar_lander_render::kViewportW),
                 static_cast<int>(lunar_lander_render::kViewportH)};
  std::optional<double> prev_shaping_;
  std::int64_t wind_idx_ = 0;
  std::int64_t torque_idx_ = 0;
};

using LunarLander = LunarLanderEnv<false>;
using LunarLanderContinuous = LunarLanderEnv<true>;

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_LUNAR_LANDER_H_

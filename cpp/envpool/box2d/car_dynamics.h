// CarRacing's car: a hull and four wheels on revolute joints, driven by a
// tyre-friction model applied as forces each step; a port of gymnasium 1.4's
// box2d/car_dynamics.py. Numbers gymnasium computes in Python are doubles
// here, rounded to float32 where pybox2d hands them to Box2D.
#ifndef ENVPOOL_BOX2D_CAR_DYNAMICS_H_
#define ENVPOOL_BOX2D_CAR_DYNAMICS_H_

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

#include "envpool/box2d/box2d_common.h"
#include "envpool/box2d/pygame_draw.h"

namespace envpool::box2d::car_racing {

inline constexpr double kSize = 0.02;
inline constexpr double kEnginePower = 100000000 * kSize * kSize;
inline constexpr double kWheelMomentOfInertia = 4000 * kSize * kSize;
inline constexpr double kFrictionLimit = 1000000 * kSize * kSize;
inline constexpr double kWheelR = 27;
inline constexpr double kWheelW = 14;
inline constexpr std::array<std::array<double, 2>, 4> kWheelPos = {
    {{-55, +80}, {+55, +80}, {-55, -82}, {+55, -82}}};
inline constexpr Color kWheelColor{0, 0, 0};
inline constexpr Color kWheelWhite{77, 77, 77};
inline constexpr Color kMudColor{102, 102, 0};
inline constexpr std::size_t kMaxParticles = 30;

// What a body's user data points at, for the contact listener.
struct BodyTag {
  enum class Kind { kTile, kWheel } kind;
  int index;
};

// A skid mark: a polyline in world units.
struct SkidParticle {
  Color color;
  std::vector<Point> poly;
  bool grass;
};

// pygame.math.Vector2.rotate_rad(angle) for one angle, worked out once:
// quarter turns exactly, other angles with the sine and cosine of the angle
// reduced to [0, 2 pi).
class Rotation {
 public:
  explicit Rotation(double angle) {
    constexpr double kPi = 3.14159265358979323846;
    constexpr double kTwoPi = 2. * kPi;
    constexpr double kHalfPi = kPi / 2.0;
    constexpr double kEpsilon = 1e-6;
    angle = std::fmod(angle, kTwoPi);
    if (angle < 0) {
      angle += kTwoPi;
    }
    if (std::fmod(angle + kEpsilon, kHalfPi) < 2 * kEpsilon) {
      quarter_turns_ = static_cast<int>((angle + kEpsilon) / kHalfPi) % 4;
    } else {
      sin_ = std::sin(angle);
      cos_ = std::cos(angle);
    }
  }

  [[nodiscard]] Point operator()(Point p) const {
    switch (quarter_turns_) {
      case 0:
        return p;
      case 1:
        return {-p.y, p.x};
      case 2:
        return {-p.x, -p.y};
      case 3:
        return {p.y, -p.x};
      default:
        return {cos_ * p.x - sin_ * p.y, sin_ * p.x + cos_ * p.y};
    }
  }

 private:
  int quarter_turns_ = -1;  // -1: not a quarter turn
  double sin_ = 0.0;
  double cos_ = 1.0;
};

// pygame.math.Vector2(x, y).rotate_rad(angle).
inline Point RotateRad(Point p, double angle) { return Rotation(angle)(p); }

// Rotate by the camera angle, zoom, translate: gymnasium's screen transform.
struct Camera {
  double zoom;
  Point translation;
  double angle;
  Rotation rotation{angle};

  [[nodiscard]] Point operator()(Point world) const {
    Point r = rotation(world);
    return {r.x * zoom + translation.x, r.y * zoom + translation.y};
  }
};

class Car {
 public:
  struct Wheel {
    b2Body* body = nullptr;
    b2RevoluteJoint* joint = nullptr;
    double wheel_rad = 0.0;
    double gas = 0.0;
    double brake = 0.0;
    double steer = 0.0;
    double phase = 0.0;
    double omega = 0.0;
    int tiles = 0;  // road tiles under the wheel
    BodyTag tag{BodyTag::Kind::kWheel, 0};
    // gymnasium's wheel keeps its mark even after the deque drops it.
    std::shared_ptr<SkidParticle> skid_particle;
    bool skid_started = false;
  };

  Car(b2World* world, double init_angle, double init_x, double init_y)
      : world_(world) {
    static constexpr std::array<std::array<std::array<double, 2>, 8>, 4>
        kHullPolys = {{
            {{{-60, +130}, {+60, +130}, {+60, +110}, {-60, +110}}},
            {{{-15, +120}, {+15, +120}, {+20, +20}, {-20, 20}}},
            {{{+25, +20},
              {+50, -10},
              {+50, -40},
              {+20, -90},
              {-20, -90},
              {-50, -40},
              {-50, -10},
              {-25, +20}}},
            {{{-50, -120}, {+50, -120}, {+50, -90}, {-50, -90}}},
        }};
    static constexpr std::array<int, 4> kHullPolySizes = {4, 4, 8, 4};
    b2BodyDef hull_def;
    hull_def.type = b2_dynamicBody;
    hull_def.position = ToBox2D(init_x, init_y);
    hull_def.angle = ToBox2D(init_angle);
    hull_ = world_->CreateBody(&hull_def);
    for (std::size_t k = 0; k < kHullPolys.size(); ++k) {
      std::array<b2Vec2, 8> vertices;
      for (int i = 0; i < kHullPolySizes[k]; ++i) {
        vertices[i] =
            ToBox2D(kHullPolys[k][i][0] * kSize, kHullPolys[k][i][1] * kSize);
      }
      b2PolygonShape shape;
      shape.Set(vertices.data(), kHullPolySizes[k]);
      b2FixtureDef def;
      def.shape = &shape;
      def.density = 1.0f;
      hull_->CreateFixture(&def);
    }
    const std::array<std::array<double, 2>, 4> wheel_poly = {
        {{-kWheelW, +kWheelR},
         {+kWheelW, +kWheelR},
         {+kWheelW, -kWheelR},
         {-kWheelW, -kWheelR}}};
    for (std::size_t k = 0; k < wheels_.size(); ++k) {
      const double wx = kWheelPos[k][0];
      const double wy = kWheelPos[k][1];
      const double front_k = 1.0;
      b2BodyDef def;
      def.type = b2_dynamicBody;
      def.position = ToBox2D(init_x + wx * kSize, init_y + wy * kSize);
      def.angle = ToBox2D(init_angle);
      b2Body* body = world_->CreateBody(&def);
      std::array<b2Vec2, 4> vertices;
      for (std::size_t i = 0; i < wheel_poly.size(); ++i) {
        vertices[i] = ToBox2D(wheel_poly[i][0] * front_k * kSize,
                              wheel_poly[i][1] * front_k * kSize);
      }
      b2PolygonShape shape;
      shape.Set(vertices.data(), 4);
      const b2FixtureDef fixture = FixtureDef({.shape = &shape,
                                               .density = 0.1f,
                                               .category_bits = 0x0020,
                                               .mask_bits = 0x001,
                                               .restitution = 0.0f});
      body->CreateFixture(&fixture);

      Wheel& w = wheels_[k];
      w.body = body;
      w.wheel_rad = front_k * kWheelR * kSize;
      w.tag.index = static_cast<int>(k);
      body->SetUserData(&w.tag);

      b2RevoluteJointDef joint;
      joint.bodyA = hull_;
      joint.bodyB = body;
      joint.localAnchorA = ToBox2D(wx * kSize, wy * kSize);
      joint.localAnchorB = ToBox2D(0.0, 0.0);
      joint.referenceAngle = ToBox2D(static_cast<double>(body->GetAngle()) -
                                     static_cast<double>(hull_->GetAngle()));
      joint.enableMotor = true;
      joint.enableLimit = true;
      joint.maxMotorTorque = ToBox2D(180 * 900 * kSize * kSize);
      joint.motorSpeed = 0.0f;
      joint.lowerAngle = ToBox2D(-0.4);
      joint.upperAngle = ToBox2D(+0.4);
      w.joint = static_cast<b2RevoluteJoint*>(world_->CreateJoint(&joint));
    }
  }

  Car(const Car&) = delete;
  Car& operator=(const Car&) = delete;

  ~Car() {
    world_->DestroyBody(hull_);
    for (Wheel& w : wheels_) {
      world_->DestroyBody(w.body);
    }
  }

  // Rear-wheel drive: gas rises by at most 0.1 a step, falls at once.
  void Gas(double gas) {
    gas = std::clamp(gas, 0.0, 1.0);
    for (std::size_t k = 2; k < 4; ++k) {
      double diff = gas - wheels_[k].gas;
      if (diff > 0.1) {
        diff = 0.1;
      }
      wheels_[k].gas += diff;
    }
  }

  void Brake(double brake) {
    for (Wheel& w : wheels_) {
      w.brake = brake;
    }
  }

  void Steer(double steer) {
    wheels_[0].steer = steer;
    wheels_[1].steer = steer;
  }

  void Step(double dt) {
    for (Wheel& w : wheels_) {
      const double joint_angle = w.joint->GetJointAngle();
      const double dir = Sign(w.steer - joint_angle);
      const double val = std::abs(w.steer - joint_angle);
      w.joint->SetMotorSpeed(ToBox2D(dir * std::min(50.0 * val, 3.0)));

      bool grass = true;
      double friction_limit = kFrictionLimit * 0.6;
      if (w.tiles > 0) {
        friction_limit = std::max(friction_limit, kFrictionLimit * 1.0);
        grass = false;
      }

      const b2Vec2 forw = w.body->GetWorldVector(b2Vec2(0.0f, 1.0f));
      const b2Vec2 side = w.body->GetWorldVector(b2Vec2(1.0f, 0.0f));
      const b2Vec2 v = w.body->GetLinearVelocity();
      const double vf =
          static_cast<double>(forw.x) * v.x + static_cast<double>(forw.y) * v.y;
      const double vs =
          static_cast<double>(side.x) * v.x + static_cast<double>(side.y) * v.y;

      w.omega += dt * kEnginePower * w.gas / kWheelMomentOfInertia /
                 (std::abs(w.omega) + 5.0);
      if (w.brake >= 0.9) {
        w.omega = 0;
      } else if (w.brake > 0) {
        constexpr double kBrakeForce = 15;
        const double brake_dir = -Sign(w.omega);
        double brake_val = kBrakeForce * w.brake;
        if (std::abs(brake_val) > std::abs(w.omega)) {
          brake_val = std::abs(w.omega);
        }
        w.omega += brake_dir * brake_val;
      }
      w.phase += w.omega * dt;

      const double vr = w.omega * w.wheel_rad;
      double f_force = -vf + vr;
      double p_force = -vs;
      f_force *= 205000 * kSize * kSize;
      p_force *= 205000 * kSize * kSize;
      double force = std::sqrt(f_force * f_force + p_force * p_force);

      if (std::abs(force) > 2.0 * friction_limit) {
        Skid(w, grass);
      } else {
        w.skid_started = false;
        w.skid_particle.reset();
      }

      if (std::abs(force) > friction_limit) {
        f_force /= force;
        p_force /= force;
        force = friction_limit;
        f_force *= force;
        p_force *= force;
      }
      w.omega -= dt * f_force * w.wheel_rad / kWheelMomentOfInertia;
      w.body->ApplyForceToCenter(ToBox2D(p_force * side.x + f_force * forw.x,
                                         p_force * side.y + f_force * forw.y),
                                 true);
    }
  }

  // Car.draw: skid marks (rgb_array only), then every fixture of the wheels
  // and the hull, and the wheels' white stripes.
  void Draw(Canvas& canvas, const Camera& camera, bool draw_particles,
            PygameFlavour flavour) const {
    if (draw_particles) {
      std::vector<Point> path;
      for (const auto& p : particles_) {
        path.clear();
        for (Point q : p->poly) {
          path.push_back(camera(q));
        }
        DrawLines(canvas, path, false, p->color, 2, flavour);
      }
    }
    std::vector<Point> path;
    for (const Wheel& w : wheels_) {
      DrawBody(canvas, camera, w.body, kWheelColor, flavour, path);
      DrawStripe(canvas, camera, w, flavour, path);
    }
    DrawBody(canvas, camera, hull_, Color{204, 0, 0}, flavour, path);
  }

  [[nodiscard]] b2Body* hull() const { return hull_; }
  [[nodiscard]] const std::array<Wheel, 4>& wheels() const { return wheels_; }
  std::array<Wheel, 4>& wheels() { return wheels_; }

 private:
  // np.sign.
  static double Sign(double v) {
    if (v > 0) {
      return 1.0;
    }
    if (v < 0) {
      return -1.0;
    }
    return 0.0;
  }

  // gymnasium keeps `w.skid_start = w.position`, which pybox2d returns as a
  // live view of the body's position: the particle starts with the wheel's
  // current position twice.
  void Skid(Wheel& w, bool grass) {
    const b2Vec2 pos = w.body->GetPosition();
    if (w.skid_particle && w.skid_particle->grass == grass &&
        w.skid_particle->poly.size() < 30) {
      w.skid_particle->poly.push_back({pos.x, pos.y});
    } else if (!w.skid_started) {
      w.skid_started = true;
    } else {
      if (particles_.size() == kMaxParticles) {
        particles_.pop_front();
      }
      w.skid_particle = std::make_shared<SkidParticle>(
          SkidParticle{grass ? kMudColor : kWheelColor,
                       {{pos.x, pos.y}, {pos.x, pos.y}},
                       grass});
      particles_.push_back(w.skid_particle);
      w.skid_started = false;
    }
  }

  static void DrawBody(Canvas& canvas, const Camera& camera, const b2Body* body,
                       Color color, PygameFlavour flavour,
                       std::vector<Point>& path) {
    const b2Transform& xf = body->GetTransform();
    for (const b2Fixture* f = body->GetFixtureList(); f != nullptr;
         f = f->GetNext()) {
      const auto* shape = static_cast<const b2PolygonShape*>(f->GetShape());
      path.clear();
      for (int i = 0; i < shape->m_count; ++i) {
        const b2Vec2 v = b2Mul(xf, shape->m_vertices[i]);
        path.push_back(camera({v.x, v.y}));
      }
      FillPolygon(canvas, path, color, flavour);
    }
  }

  static void DrawStripe(Canvas& canvas, const Camera& camera, const Wheel& w,
                         PygameFlavour flavour, std::vector<Point>& path) {
    const double a1 = w.phase;
    const double a2 = w.phase + 1.2;
    const double s1 = std::sin(a1);
    const double s2 = std::sin(a2);
    double c1 = std::cos(a1);
    double c2 = std::cos(a2);
    if (s1 > 0 && s2 > 0) {
      return;
    }
    if (s1 > 0) {
      c1 = Sign(c1);
    }
    if (s2 > 0) {
      c2 = Sign(c2);
    }
    const std::array<std::array<double, 2>, 4> white = {
        {{-kWheelW * kSize, +kWheelR * c1 * kSize},
         {+kWheelW * kSize, +kWheelR * c1 * kSize},
         {+kWheelW * kSize, +kWheelR * c2 * kSize},
         {-kWheelW * kSize, +kWheelR * c2 * kSize}}};
    const b2Transform& xf = w.body->GetTransform();
    path.clear();
    for (const auto& p : white) {
      const b2Vec2 v = b2Mul(xf, ToBox2D(p[0], p[1]));
      path.push_back(camera({v.x, v.y}));
    }
    FillPolygon(canvas, path, kWheelWhite, flavour);
  }

  b2World* world_;
  b2Body* hull_ = nullptr;
  std::array<Wheel, 4> wheels_{};
  // The last kMaxParticles skid marks (a deque with maxlen in gymnasium).
  std::deque<std::shared_ptr<SkidParticle>> particles_;
};

}  // namespace envpool::box2d::car_racing

#endif  // ENVPOOL_BOX2D_CAR_DYNAMICS_H_

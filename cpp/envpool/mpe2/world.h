// The particle world of mpe2 1.1.1 (mpe2/_mpe_utils/core.py): entities on a
// plane pushed by their agents' actions and by soft contact forces, and
// integrated with damping and a speed cap. Every operation is float64 in the
// reference's order, so that positions and velocities stay bit-identical.
#ifndef ENVPOOL_MPE2_WORLD_H_
#define ENVPOOL_MPE2_WORLD_H_

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace envpool::mpe2 {

using Vec2 = std::array<double, 2>;

// An agent or a landmark (agents come first in World::entities, as in
// World.entities = agents + landmarks).
struct Entity {
  std::string name;
  double size = 0.05;
  bool movable = false;
  bool collide = true;
  double mass = 1.0;
  std::optional<double> max_speed;
  std::optional<double> accel;
  std::vector<double> color;  // RGB (simple_crypto: a dim_c code)
  Vec2 pos{};
  Vec2 vel{};

  // Agents only.
  bool silent = false;
  bool blind = false;
  Vec2 action_u{};               // the physical force of this step's action
  std::vector<double> action_c;  // the utterance of this step's action
  std::vector<double> c;         // the utterance others observe
};

struct World {
  std::vector<Entity> entities;
  std::size_t num_agents = 0;
  int dim_c = 0;
  double dt = 0.1;
  double damping = 0.25;
  double contact_force = 1e2;
  double contact_margin = 1e-3;

  Entity& agent(std::size_t i) { return entities[i]; }
  [[nodiscard]] const Entity& agent(std::size_t i) const { return entities[i]; }
  Entity& landmark(std::size_t i) { return entities[num_agents + i]; }
  [[nodiscard]] const Entity& landmark(std::size_t i) const {
    return entities[num_agents + i];
  }
  [[nodiscard]] std::size_t num_landmarks() const {
    return entities.size() - num_agents;
  }

  // World.step: action forces, contact forces, integration, utterances.
  void Step() {
    // p_force[i] unset is the reference's None: no force at all.
    std::vector<std::optional<Vec2>> force(entities.size());
    for (std::size_t i = 0; i < num_agents; ++i) {
      const Entity& a = entities[i];
      if (a.movable) {
        // the action plus a noise of 0.0 (no agent has u_noise)
        force[i] = Vec2{a.action_u[0] + 0.0, a.action_u[1] + 0.0};
      }
    }
    for (std::size_t a = 0; a < entities.size(); ++a) {
      for (std::size_t b = a + 1; b < entities.size(); ++b) {
        AddContactForce(a, b, force);
      }
    }
    for (std::size_t i = 0; i < entities.size(); ++i) {
      Integrate(entities[i], force[i]);
    }
    for (std::size_t i = 0; i < num_agents; ++i) {
      Entity& a = entities[i];
      if (a.silent) {
        a.c.assign(static_cast<std::size_t>(dim_c), 0.0);
      } else {
        a.c.resize(a.action_c.size());
        for (std::size_t k = 0; k < a.c.size(); ++k) {
          a.c[k] = a.action_c[k] + 0.0;
        }
      }
    }
  }

  // np.sum(np.square(a.pos - b.pos)).
  static double SquaredDistance(const Entity& a, const Entity& b) {
    const double dx = a.pos[0] - b.pos[0];
    const double dy = a.pos[1] - b.pos[1];
    return dx * dx + dy * dy;
  }

  // np.sqrt(np.sum(np.square(a.pos - b.pos))).
  static double Distance(const Entity& a, const Entity& b) {
    return std::sqrt(SquaredDistance(a, b));
  }

 private:
  // np.logaddexp(0, x): numpy's npy_logaddexp with libm's exp and log1p.
  static double LogAddExpZero(double x) {
    if (x == 0.0) {
      return 0.0 + 0.693147180559945309417232121458176568;
    }
    const double tmp = 0.0 - x;
    if (tmp > 0) {
      return 0.0 + std::log1p(std::exp(-tmp));
    }
    if (tmp <= 0) {
      return x + std::log1p(std::exp(tmp));
    }
    return tmp;
  }

  // World.get_collision_force for entities a < b, added to their forces.
  void AddContactForce(std::size_t a, std::size_t b,
                       std::vector<std::optional<Vec2>>& force) const {
    const Entity& ea = entities[a];
    const Entity& eb = entities[b];
    if (!ea.collide || !eb.collide) {
      return;
    }
    const Vec2 delta{ea.pos[0] - eb.pos[0], ea.pos[1] - eb.pos[1]};
    const double dist = std::sqrt(delta[0] * delta[0] + delta[1] * delta[1]);
    const double dist_min = ea.size + eb.size;
    const double k = contact_margin;
    const double penetration = LogAddExpZero(-(dist - dist_min) / k) * k;
    const Vec2 f{contact_force * delta[0] / dist * penetration,
                 contact_force * delta[1] / dist * penetration};
    if (ea.movable) {
      const Vec2 base = force[a].value_or(Vec2{0.0, 0.0});
      force[a] = Vec2{f[0] + base[0], f[1] + base[1]};
    }
    if (eb.movable) {
      const Vec2 base = force[b].value_or(Vec2{0.0, 0.0});
      force[b] = Vec2{-f[0] + base[0], -f[1] + base[1]};
    }
  }

  // World.integrate_state for one entity.
  void Integrate(Entity& e, const std::optional<Vec2>& force) const {
    if (!e.movable) {
      return;
    }
    for (int d = 0; d < 2; ++d) {
      e.pos[d] += e.vel[d] * dt;
      e.vel[d] = e.vel[d] * (1 - damping);
    }
    if (force) {
      for (int d = 0; d < 2; ++d) {
        e.vel[d] += ((*force)[d] / e.mass) * dt;
      }
    }
    if (e.max_speed) {
      const double speed = std::sqrt(e.vel[0] * e.vel[0] + e.vel[1] * e.vel[1]);
      if (speed > *e.max_speed) {
        for (int d = 0; d < 2; ++d) {
          e.vel[d] = e.vel[d] / speed * *e.max_speed;
        }
      }
    }
  }
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_WORLD_H_

// CarRacing-v3: drive a top-down car round a random closed track, seen
// through a 96x96 frame. A port of gymnasium 1.4's box2d/car_racing.py onto
// Box2D 2.3 (as pybox2d runs it) and a pygame-exact canvas (pygame_draw.h).
//
// Replays bit for bit from the seed: the track's np_random draws are made in
// gymnasium's order (NumpyRandom); the Box2D world lives as long as the env
// and bodies are created and destroyed in gymnasium's order, so contact
// callbacks come in the same order; the frame is drawn at gymnasium's
// 1000x800 and smooth-scaled as pygame does.
#ifndef ENVPOOL_BOX2D_CAR_RACING_H_
#define ENVPOOL_BOX2D_CAR_RACING_H_

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "envpool/box2d/box2d_common.h"
#include "envpool/box2d/car_dynamics.h"
#include "envpool/box2d/pygame_draw.h"
#include "envpool/box2d/score_font.h"
#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/numpy/random.h"

namespace envpool::box2d {

template <bool kContinuous>
class CarRacingEnv {
 public:
  using Action =
      std::conditional_t<kContinuous, std::span<const float>, std::int64_t>;

  static Config DefaultConfig() {
    return {{"continuous", kContinuous},
            {"domain_randomize", false},
            {"lap_complete_percent", 0.95}};
  }

  static EnvSpec Spec(const Config& config) {
    Check(config);
    auto obs =
        MakeArray<std::uint8_t>("obs", {kStateH, kStateW, 3}, {0}, {255});
    // lap_finished: gymnasium's info key on the step that ends the episode
    // (False when the car left the playfield); False on every other step.
    std::vector<ArraySpec> info = {MakeArray<bool>("lap_finished", {})};
    if constexpr (kContinuous) {
      return {obs, MakeArray<float>("action", {3}, {-1.0, 0.0, 0.0}, {1.0}),
              info};
    } else {
      return {obs, MakeDiscrete<std::int64_t>("action", 5), info};
    }
  }

  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return {kVideoH, kVideoW, 3};
  }

  explicit CarRacingEnv(const Config& config)
      : domain_randomize_(config.Get<bool>("domain_randomize")),
        lap_complete_percent_(config.Get<double>("lap_complete_percent")),
        font_(ScoreFont::Installed()),
        contacts_(this),
        state_(kStateW, kStateH) {
    Check(config);
    if (font_ == nullptr) {
      throw std::runtime_error(
          "CarRacing: the score font is not installed; make CarRacing pools "
          "with envpool.make()");
    }
    InitializeBox2DStatics();
    world_ = std::make_unique<b2World>(b2Vec2(0.0f, 0.0f));
    world_->SetContactListener(&contacts_);
  }

  CarRacingEnv(const CarRacingEnv&) = delete;
  CarRacingEnv& operator=(const CarRacingEnv&) = delete;

  ~CarRacingEnv() {
    // Bodies go before the world, quietly (no listener).
    if (world_) {
      world_->SetContactListener(nullptr);
      DestroyTrack();
    }
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    CallBox2D(
        [&] {
          ResetWorld();
          // gymnasium's reset returns the frame of one step without an
          // action.
          Advance(nullptr, out);
        },
        [this] { Broken(); },
        "CarRacing: a Box2D assertion failed while resetting the env");
    out.reward = 0.0;
    out.terminated = false;
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    if (!world_ || !car_) {
      throw BrokenWorldError("CarRacing");
    }
    CallBox2D([&] { Advance(&action, out); }, [this] { Broken(); },
              "CarRacing: a Box2D assertion failed while stepping the env; "
              "reset the env");
  }

  // render_mode="rgb_array": the 600x400 frame, skid marks included.
  void Render(std::span<std::uint8_t> rgb) {
    if (!car_) {
      std::fill(rgb.begin(), rgb.end(), 0);
      return;
    }
    Canvas video(kVideoW, kVideoH);
    SmoothScale(Surface(), video, DrawFrame(true));
    std::copy(video.pixels().begin(), video.pixels().end(), rgb.begin());
  }

 private:
  // The top row of the indicator panel (H - 5 * H / 40).
  static constexpr int kPanelTop = 700;
  static constexpr std::int64_t kStateW = 96;
  static constexpr std::int64_t kStateH = 96;
  static constexpr std::int64_t kVideoW = 600;
  static constexpr std::int64_t kVideoH = 400;
  static constexpr int kWindowW = 1000;
  static constexpr int kWindowH = 800;
  static_assert(kPanelTop == kWindowH - 5 * kWindowH / 40);
  static constexpr double kScale = 6.0;
  static constexpr double kTrackRad = 900 / kScale;
  static constexpr double kPlayfield = 2000 / kScale;
  static constexpr double kFps = 50;
  static constexpr double kZoom = 2.7;
  static constexpr double kTrackDetailStep = 21 / kScale;
  static constexpr double kTrackTurnRate = 0.31;
  static constexpr double kTrackWidth = 40 / kScale;
  static constexpr double kBorder = 8 / kScale;
  static constexpr int kBorderMinCount = 4;
  static constexpr double kGrassDim = kPlayfield / 20.0;
  // The field polygon, drawn in the background colour under the grass.
  static constexpr std::array<Point, 4> kField = {{{kPlayfield, kPlayfield},
                                                   {kPlayfield, -kPlayfield},
                                                   {-kPlayfield, -kPlayfield},
                                                   {-kPlayfield, kPlayfield}}};
  static constexpr int kCheckpoints = 12;

  struct RgbD {
    double r, g, b;
  };

  struct Tile {
    b2Body* body = nullptr;
    car_racing::BodyTag tag{car_racing::BodyTag::Kind::kTile, 0};
    std::size_t poly_index = 0;  // its entry in road_poly_
    bool road_visited = false;
  };

  struct RoadPoly {
    std::array<Point, 4> poly;
    RgbD color;
  };

  struct TrackPoint {
    double alpha, beta, x, y;
  };

  static void Check(const Config& config) {
    if (config.Get<bool>("continuous") != kContinuous) {
      throw std::invalid_argument(
          "continuous must be the same for every env of a CarRacing pool");
    }
    const double p = config.Get<double>("lap_complete_percent");
    if (!std::isfinite(p)) {
      throw std::invalid_argument(
          "lap_complete_percent must be a finite number (the default is "
          "0.95), got " +
          std::to_string(p));
    }
  }

  class FrictionDetector : public b2ContactListener {
   public:
    explicit FrictionDetector(CarRacingEnv* env) : env_(env) {}
    void BeginContact(b2Contact* contact) override { Touch(contact, true); }
    void EndContact(b2Contact* contact) override { Touch(contact, false); }

   private:
    void Touch(b2Contact* contact, bool begin) {
      auto* a = static_cast<car_racing::BodyTag*>(
          contact->GetFixtureA()->GetBody()->GetUserData());
      auto* b = static_cast<car_racing::BodyTag*>(
          contact->GetFixtureB()->GetBody()->GetUserData());
      car_racing::BodyTag* tile = nullptr;
      car_racing::BodyTag* obj = nullptr;
      if (a != nullptr && a->kind == car_racing::BodyTag::Kind::kTile) {
        tile = a;
        obj = b;
      }
      if (b != nullptr && b->kind == car_racing::BodyTag::Kind::kTile) {
        tile = b;
        obj = a;
      }
      if (tile == nullptr) {
        return;
      }
      env_->OnTileContact(tile->index, obj, begin);
    }

    CarRacingEnv* env_;
  };

  void OnTileContact(int tile_index, const car_racing::BodyTag* obj,
                     bool begin) {
    Tile& tile = tiles_[tile_index];
    // gymnasium's tile.color is the same array as its road_poly entry's.
    road_poly_[tile.poly_index].color = road_color_;
    if (obj == nullptr || obj->kind != car_racing::BodyTag::Kind::kWheel) {
      return;
    }
    car_racing::Car::Wheel& wheel = car_->wheels()[obj->index];
    if (!begin) {
      --wheel.tiles;
      return;
    }
    ++wheel.tiles;
    if (tile.road_visited) {
      return;
    }
    tile.road_visited = true;
    const auto track_len = static_cast<double>(track_.size());
    reward_ += 1000.0 / track_len;
    ++tile_visited_count_;
    if (tile_index == 0 &&
        static_cast<double>(tile_visited_count_) / track_len >
            lap_complete_percent_) {
      new_lap_ = true;
    }
  }

  void Broken() {
    if (world_) {
      world_->SetContactListener(nullptr);
      DestroyTrack();
    }
    world_.reset();
  }

  void DestroyTrack() {
    if (tiles_.empty()) {
      return;
    }
    // EndContact for the old tiles reaches the listener, as in gymnasium,
    // where it only touches objects of the episode being torn down.
    for (Tile& t : tiles_) {
      world_->DestroyBody(t.body);
    }
    tiles_.clear();
    car_.reset();
  }

  void ResetWorld() {
    DestroyTrack();
    reward_ = 0.0;
    prev_reward_ = 0.0;
    tile_visited_count_ = 0;
    t_ = 0.0;
    new_lap_ = false;
    road_poly_.clear();
    if (domain_randomize_ || !colors_initialized_) {
      InitColors();
    }
    while (!CreateTrack()) {
    }
    car_ = std::make_unique<car_racing::Car>(world_.get(), track_[0].beta,
                                             track_[0].x, track_[0].y);
  }

  void InitColors() {
    colors_initialized_ = true;
    if (domain_randomize_) {
      for (double* c : {&road_color_.r, &road_color_.g, &road_color_.b}) {
        *c = np_random_.Uniform(0, 210);
      }
      for (double* c : {&bg_color_.r, &bg_color_.g, &bg_color_.b}) {
        *c = np_random_.Uniform(0, 210);
      }
      grass_color_ = bg_color_;
      const std::int64_t idx = np_random_.Integers(0, 3);
      (idx == 0   ? grass_color_.r
       : idx == 1 ? grass_color_.g
                  : grass_color_.b) += 20;
    } else {
      road_color_ = {102, 102, 102};
      bg_color_ = {102, 204, 102};
      grass_color_ = {102, 230, 102};
    }
  }

  // Python's a[i] for a negative i.
  template <typename T>
  static T& Wrap(std::vector<T>& v, std::int64_t i) {
    const auto n = static_cast<std::int64_t>(v.size());
    return v[static_cast<std::size_t>(i < 0 ? i + n : i)];
  }

  static double Sign(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

  bool CreateTrack() {
    std::array<std::array<double, 3>, kCheckpoints> checkpoints{};
    double start_alpha = 0.0;
    for (int c = 0; c < kCheckpoints; ++c) {
      const double noise =
          np_random_.Uniform(0, 2 * std::numbers::pi * 1 / kCheckpoints);
      double alpha = 2 * std::numbers::pi * c / kCheckpoints + noise;
      double rad = np_random_.Uniform(kTrackRad / 3, kTrackRad);
      if (c == 0) {
        alpha = 0;
        rad = 1.5 * kTrackRad;
      }
      if (c == kCheckpoints - 1) {
        alpha = 2 * std::numbers::pi * c / kCheckpoints;
        start_alpha = 2 * std::numbers::pi * (-0.5) / kCheckpoints;
        rad = 1.5 * kTrackRad;
      }
      checkpoints[c] = {alpha, rad * std::cos(alpha), rad * std::sin(alpha)};
    }
    start_alpha_ = start_alpha;

    double x = 1.5 * kTrackRad;
    double y = 0;
    double beta = 0;
    std::int64_t dest_i = 0;
    int laps = 0;
    std::vector<TrackPoint> track;
    int no_freeze = 2500;
    bool visited_other_side = false;
    while (true) {
      double alpha = std::atan2(y, x);
      if (visited_other_side && alpha > 0) {
        ++laps;
        visited_other_side = false;
      }
      if (alpha < 0) {
        visited_other_side = true;
        alpha += 2 * std::numbers::pi;
      }
      double dest_x = 0;
      double dest_y = 0;
      while (true) {
        bool failed = true;
        while (true) {
          const auto& cp = checkpoints[dest_i % kCheckpoints];
          dest_x = cp[1];
          dest_y = cp[2];
          if (alpha <= cp[0]) {
            failed = false;
            break;
          }
          ++dest_i;
          if (dest_i % kCheckpoints == 0) {
            break;
          }
        }
        if (!failed) {
          break;
        }
        alpha -= 2 * std::numbers::pi;
      }
      const double r1x = std::cos(beta);
      const double r1y = std::sin(beta);
      const double p1x = -r1y;
      const double p1y = r1x;
      const double dest_dx = dest_x - x;
      const double dest_dy = dest_y - y;
      double proj = r1x * dest_dx + r1y * dest_dy;
      while (beta - alpha > 1.5 * std::numbers::pi) {
        beta -= 2 * std::numbers::pi;
      }
      while (beta - alpha < -1.5 * std::numbers::pi) {
        beta += 2 * std::numbers::pi;
      }
      const double prev_beta = beta;
      proj *= kScale;
      if (proj > 0.3) {
        beta -= std::min(kTrackTurnRate, std::abs(0.001 * proj));
      }
      if (proj < -0.3) {
        beta += std::min(kTrackTurnRate, std::abs(0.001 * proj));
      }
      x += p1x * kTrackDetailStep;
      y += p1y * kTrackDetailStep;
      track.push_back({alpha, prev_beta * 0.5 + beta * 0.5, x, y});
      if (laps > 4) {
        break;
      }
      --no_freeze;
      if (no_freeze == 0) {
        break;
      }
    }

    std::int64_t i1 = -1;
    std::int64_t i2 = -1;
    auto i = static_cast<std::int64_t>(track.size());
    while (true) {
      --i;
      if (i == 0) {
        return false;
      }
      const bool pass_through_start =
          track[i].alpha > start_alpha_ && track[i - 1].alpha <= start_alpha_;
      if (pass_through_start && i2 == -1) {
        i2 = i;
      } else if (pass_through_start && i1 == -1) {
        i1 = i;
        break;
      }
    }
    // track[i1 : i2 - 1]
    std::vector<TrackPoint> loop;
    for (std::int64_t k = i1; k < i2 - 1; ++k) {
      loop.push_back(track[k]);
    }
    if (loop.empty()) {
      return false;
    }
    const double first_beta = loop[0].beta;
    const double first_perp_x = std::cos(first_beta);
    const double first_perp_y = std::sin(first_beta);
    const double gx = first_perp_x * (loop[0].x - loop.back().x);
    const double gy = first_perp_y * (loop[0].y - loop.back().y);
    const double well_glued_together = std::sqrt(gx * gx + gy * gy);
    if (well_glued_together > kTrackDetailStep) {
      return false;
    }

    const auto n = static_cast<std::int64_t>(loop.size());
    std::vector<char> border(loop.size(), 0);
    for (std::int64_t k = 0; k < n; ++k) {
      bool good = true;
      double oneside = 0;
      for (std::int64_t neg = 0; neg < kBorderMinCount; ++neg) {
        const double beta1 = Wrap(loop, k - neg - 0).beta;
        const double beta2 = Wrap(loop, k - neg - 1).beta;
        good = good && std::abs(beta1 - beta2) > kTrackTurnRate * 0.2;
        oneside += Sign(beta1 - beta2);
      }
      good = good && std::abs(oneside) == kBorderMinCount;
      border[k] = good ? 1 : 0;
    }
    for (std::int64_t k = 0; k < n; ++k) {
      for (std::int64_t neg = 0; neg < kBorderMinCount; ++neg) {
        Wrap(border, k - neg) |= border[k];
      }
    }

    tiles_.resize(loop.size());
    for (std::int64_t k = 0; k < n; ++k) {
      const TrackPoint& p1 = loop[k];
      const TrackPoint& p2 = Wrap(loop, k - 1);
      const Point road1_l{p1.x - kTrackWidth * std::cos(p1.beta),
                          p1.y - kTrackWidth * std::sin(p1.beta)};
      const Point road1_r{p1.x + kTrackWidth * std::cos(p1.beta),
                          p1.y + kTrackWidth * std::sin(p1.beta)};
      const Point road2_l{p2.x - kTrackWidth * std::cos(p2.beta),
                          p2.y - kTrackWidth * std::sin(p2.beta)};
      const Point road2_r{p2.x + kTrackWidth * std::cos(p2.beta),
                          p2.y + kTrackWidth * std::sin(p2.beta)};
      std::array<b2Vec2, 4> vertices = {
          ToBox2D(road1_l.x, road1_l.y), ToBox2D(road1_r.x, road1_r.y),
          ToBox2D(road2_r.x, road2_r.y), ToBox2D(road2_l.x, road2_l.y)};
      b2PolygonShape shape;
      shape.Set(vertices.data(), 4);
      b2FixtureDef def;
      def.shape = &shape;
      b2BodyDef body_def;
      Tile& tile = tiles_[k];
      tile.body = world_->CreateBody(&body_def);
      tile.body->CreateFixture(&def);
      tile.tag.index = static_cast<int>(k);
      tile.body->SetUserData(&tile.tag);
      tile.road_visited = false;
      const double c = 0.01 * static_cast<double>(k % 3) * 255;
      tile.body->GetFixtureList()->SetSensor(true);
      tile.poly_index = road_poly_.size();
      road_poly_.push_back(
          {{road1_l, road1_r, road2_r, road2_l},
           {road_color_.r + c, road_color_.g + c, road_color_.b + c}});
      if (border[k] != 0) {
        const double side = Sign(p2.beta - p1.beta);
        const Point b1_l{p1.x + side * kTrackWidth * std::cos(p1.beta),
                         p1.y + side * kTrackWidth * std::sin(p1.beta)};
        const Point b1_r{
            p1.x + side * (kTrackWidth + kBorder) * std::cos(p1.beta),
            p1.y + side * (kTrackWidth + kBorder) * std::sin(p1.beta)};
        const Point b2_l{p2.x + side * kTrackWidth * std::cos(p2.beta),
                         p2.y + side * kTrackWidth * std::sin(p2.beta)};
        const Point b2_r{
            p2.x + side * (kTrackWidth + kBorder) * std::cos(p2.beta),
            p2.y + side * (kTrackWidth + kBorder) * std::sin(p2.beta)};
        road_poly_.push_back(
            {{b1_l, b1_r, b2_r, b2_l},
             k % 2 == 0 ? RgbD{255, 255, 255} : RgbD{255, 0, 0}});
      }
    }
    track_ = std::move(loop);
    return true;
  }

  // One env step; `action` is null for the step reset() takes.
  void Advance(const Action* action, Output& out) {
    if (action != nullptr) {
      if constexpr (kContinuous) {
        const std::span<const float>& a = *action;
        car_->Steer(-static_cast<double>(a[0]));
        car_->Gas(static_cast<double>(a[1]));
        car_->Brake(static_cast<double>(a[2]));
      } else {
        const std::int64_t a = *action;
        car_->Steer(-0.6 * (a == 1 ? 1.0 : 0.0) + 0.6 * (a == 2 ? 1.0 : 0.0));
        car_->Gas(0.2 * (a == 3 ? 1.0 : 0.0));
        car_->Brake(0.8 * (a == 4 ? 1.0 : 0.0));
      }
    }
    car_->Step(1.0 / kFps);
    world_->Step(ToBox2D(1.0 / kFps), 6 * 30, 2 * 30);
    t_ += 1.0 / kFps;

    SmoothScale(Surface(), state_, DrawFrame(false));
    std::span<std::uint8_t> obs = out.Obs<std::uint8_t>();
    std::copy(state_.pixels().begin(), state_.pixels().end(), obs.begin());

    double step_reward = 0;
    bool terminated = false;
    bool lap_finished = false;
    if (action != nullptr) {
      reward_ -= 0.1;
      step_reward = reward_ - prev_reward_;
      prev_reward_ = reward_;
      if (tile_visited_count_ == static_cast<std::int64_t>(track_.size()) ||
          new_lap_) {
        terminated = true;
        lap_finished = true;
      }
      const b2Vec2 pos = car_->hull()->GetPosition();
      if (std::abs(static_cast<double>(pos.x)) > kPlayfield ||
          std::abs(static_cast<double>(pos.y)) > kPlayfield) {
        terminated = true;
        lap_finished = false;
        step_reward = -100;
      }
    }
    out.reward = step_reward;
    out.terminated = terminated;
    out.Info<bool>(0)[0] = lap_finished;
  }

  // _render(mode) up to the scaling, on this thread's Surface() (1000x800);
  // returns where the frame's rows start, for SmoothScale.
  const std::uint8_t* const* DrawFrame(bool draw_particles) {
    const double angle = -static_cast<double>(car_->hull()->GetAngle());
    const double zoom = 0.1 * kScale * std::max(1 - t_, 0.0) +
                        kZoom * kScale * std::min(t_, 1.0);
    const b2Vec2 position = car_->hull()->GetPosition();
    const double scroll_x = -static_cast<double>(position.x) * zoom;
    const double scroll_y = -static_cast<double>(position.y) * zoom;
    const Point trans = car_racing::RotateRad({scroll_x, scroll_y}, angle);
    const car_racing::Camera camera{
        zoom, {kWindowW / 2.0 + trans.x, kWindowH / 4.0 + trans.y}, angle};

    // The field's background polygon usually hides the black fill.
    std::array<Point, 4> field = kField;
    for (Point& p : field) {
      p = camera(p);
    }
    if (!GfxQuadCovers(Surface(), field)) {
      Surface().Fill(Color{0, 0, 0});
    }
    DrawRoad(camera);
    car_->Draw(Surface(), camera, draw_particles, font_->flavour());
    // pygame flips the whole surface and then draws the indicators and the
    // score at the bottom. Flipping only the rows those touch (and their
    // mirrors), and reading the others bottom-up, gives the same frame.
    std::vector<Overlay> overlay = Indicators();
    double top = kPanelTop;
    for (const Overlay& o : overlay) {
      for (const Point& p : o.points) {
        top = std::min(top, p.y);
      }
    }
    std::array<char, 64> score_text{};
    std::snprintf(score_text.data(), score_text.size(), "%04.0f", reward_);
    int score_width = 0;
    std::vector<std::uint8_t> score =
        font_->Render(score_text.data(), &score_width);
    const int score_height = font_->height();
    // text_rect.center = (60, 750): pygame's Rect keeps ints.
    const int score_x = 60 - score_width / 2;
    const int score_y =
        static_cast<int>(kWindowH - kWindowH * 2.5 / 40.0) - score_height / 2;
    // pygame.draw.polygon truncates its points: no row above `first`.
    const int first = std::max(
        static_cast<int>(std::floor(std::min<double>(top, score_y))), 0);
    thread_local std::vector<const std::uint8_t*> rows;
    const std::uint8_t* const* row_starts = nullptr;
    if (first > kWindowH / 2) {
      if (first == kPanelTop) {
        // The panel, drawn first, covers rows kPanelTop.. whole: what the
        // flip would put there is never seen.
        Surface().CopyRowsToMirrors(first);
      } else {
        Surface().SwapMirroredRows(first);
      }
      rows.resize(kWindowH);
      for (int y = 0; y < kWindowH; ++y) {
        const bool in_place = y < kWindowH - first || y >= first;
        rows[y] = Surface().Row(in_place ? y : kWindowH - 1 - y);
      }
      row_starts = rows.data();
    } else {
      Surface().FlipVertical();
    }
    for (const Overlay& o : overlay) {
      FillPolygon(Surface(), o.points, o.color, font_->flavour());
    }
    BlitCoverage(Surface(), score, score_width, score_height, score_x, score_y);
    return row_starts;
  }

  static Color ToColor(const RgbD& c) {
    // pygame reads a float colour component as (int)value.
    return {static_cast<std::uint8_t>(static_cast<int>(c.r)),
            static_cast<std::uint8_t>(static_cast<int>(c.g)),
            static_cast<std::uint8_t>(static_cast<int>(c.b))};
  }

  void DrawColoredPolygon(std::span<const Point> poly, Color color,
                          const car_racing::Camera& camera, bool clip) {
    static const double kMaxShapeDim =
        std::max({kGrassDim, kTrackWidth, kTrackDetailStep}) * std::sqrt(2.0) *
        kZoom * kScale;
    std::array<Point, 4> screen{};
    bool visible = !clip;
    for (std::size_t i = 0; i < poly.size(); ++i) {
      screen[i] = camera(poly[i]);
      if (-kMaxShapeDim <= screen[i].x &&
          screen[i].x <= kWindowW + kMaxShapeDim &&
          -kMaxShapeDim <= screen[i].y &&
          screen[i].y <= kWindowH + kMaxShapeDim) {
        visible = true;
      }
    }
    if (!visible) {
      return;
    }
    std::span<const Point> points(screen.data(), poly.size());
    AaPolygon(Surface(), points, color);
    GfxFilledPolygon(Surface(), points, color);
  }

  void DrawRoad(const car_racing::Camera& camera) {
    DrawColoredPolygon(kField, ToColor(bg_color_), camera, false);
    const Color grass = ToColor(grass_color_);
    for (int x = -20; x < 20; x += 2) {
      for (int y = -20; y < 20; y += 2) {
        const std::array<Point, 4> poly = {
            {{kGrassDim * x + kGrassDim, kGrassDim * y + 0},
             {kGrassDim * x + 0, kGrassDim * y + 0},
             {kGrassDim * x + 0, kGrassDim * y + kGrassDim},
             {kGrassDim * x + kGrassDim, kGrassDim * y + kGrassDim}}};
        DrawColoredPolygon(poly, grass, camera, true);
      }
    }
    for (const RoadPoly& rp : road_poly_) {
      DrawColoredPolygon(rp.poly, ToColor(rp.color), camera, true);
    }
  }

  struct Overlay {
    std::array<Point, 4> points;
    Color color;
  };

  // The indicator panel and bars gymnasium's render_indicators draws (with
  // pygame.draw.polygon), in drawing order.
  [[nodiscard]] std::vector<Overlay> Indicators() const {
    constexpr double kW = kWindowW;
    constexpr double kH = kWindowH;
    constexpr double s = kW / 40.0;
    constexpr double h = kH / 40.0;
    std::vector<Overlay> overlay;
    overlay.push_back({{{{kW, kH}, {kW, kH - 5 * h}, {0, kH - 5 * h}, {0, kH}}},
                       Color{0, 0, 0}});
    auto vertical = [&](double place, double val) {
      return std::array<Point, 4>{{{place * s, kH - (h + h * val)},
                                   {(place + 1) * s, kH - (h + h * val)},
                                   {(place + 1) * s, kH - h},
                                   {(place + 0) * s, kH - h}}};
    };
    auto horizontal = [&](double place, double val) {
      return std::array<Point, 4>{{{(place + 0) * s, kH - 4 * h},
                                   {(place + val) * s, kH - 4 * h},
                                   {(place + val) * s, kH - 2 * h},
                                   {(place + 0) * s, kH - 2 * h}}};
    };
    auto draw_if = [&](double value, const std::array<Point, 4>& points,
                       Color color) {
      if (std::abs(value) > 1e-4) {
        overlay.push_back({points, color});
      }
    };
    const b2Vec2 v = car_->hull()->GetLinearVelocity();
    const double vx = v.x;
    const double vy = v.y;
    const double true_speed = std::sqrt(vx * vx + vy * vy);
    const auto& wheels = car_->wheels();
    draw_if(true_speed, vertical(5, 0.02 * true_speed), Color{255, 255, 255});
    draw_if(wheels[0].omega, vertical(7, 0.01 * wheels[0].omega),
            Color{0, 0, 255});
    draw_if(wheels[1].omega, vertical(8, 0.01 * wheels[1].omega),
            Color{0, 0, 255});
    draw_if(wheels[2].omega, vertical(9, 0.01 * wheels[2].omega),
            Color{51, 0, 255});
    draw_if(wheels[3].omega, vertical(10, 0.01 * wheels[3].omega),
            Color{51, 0, 255});
    const double steer_angle = wheels[0].joint->GetJointAngle();
    draw_if(steer_angle, horizontal(20, -10.0 * steer_angle), Color{0, 255, 0});
    const double spin = car_->hull()->GetAngularVelocity();
    draw_if(spin, horizontal(30, -0.8 * spin), Color{255, 0, 0});
    return overlay;
  }

  bool domain_randomize_;
  double lap_complete_percent_;
  std::shared_ptr<const ScoreFont> font_;
  NumpyRandom np_random_;
  FrictionDetector contacts_;
  std::unique_ptr<b2World> world_;
  std::vector<Tile> tiles_;
  std::unique_ptr<car_racing::Car> car_;
  std::vector<RoadPoly> road_poly_;
  std::vector<TrackPoint> track_;
  RgbD road_color_{};
  RgbD bg_color_{};
  RgbD grass_color_{};
  bool colors_initialized_ = false;
  double start_alpha_ = 0.0;
  double reward_ = 0.0;
  double prev_reward_ = 0.0;
  std::int64_t tile_visited_count_ = 0;
  double t_ = 0.0;
  bool new_lap_ = false;
  // The 1000x800 drawing surface is scratch, rebuilt every frame: one per
  // thread, shared by the envs that thread steps, keeps the memory it sweeps
  // small enough to stay in cache.
  static Canvas& Surface() {
    thread_local Canvas surface(kWindowW, kWindowH);
    return surface;
  }

  Canvas state_;
};

using CarRacing = CarRacingEnv<true>;
using CarRacingDiscrete = CarRacingEnv<false>;

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_CAR_RACING_H_

// minigrid's RGB rendering (Grid.render_tile, Grid.render and the shapes of
// minigrid/utils/rendering.py), for render_mode="rgb_array" and the "rgb" and
// "rgb_partial" obs modes: each tile is drawn three times over at
// 3 * tile_size pixels, by testing every pixel's centre against the shapes in
// minigrid's order and precision (its line and triangle constants are
// float32), lightened where highlighted, then averaged down 3 x 3.
#ifndef ENVPOOL_MINIGRID_RENDER_H_
#define ENVPOOL_MINIGRID_RENDER_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numbers>
#include <span>
#include <tuple>
#include <vector>

#include "envpool/minigrid/grid.h"
#include "envpool/minigrid/world_object.h"

namespace envpool::minigrid {

// render_mode="rgb_array"'s tile size (minigrid's TILE_PIXELS).
inline constexpr std::int64_t kRenderTilePixels = 32;

class TileRenderer {
 public:
  // The tile_size x tile_size x 3 tile of `obj` (empty: only the grid lines)
  // with the agent facing `agent_dir` (-1: no agent) over it, lightened if
  // `highlight`. Tiles are cached, as minigrid caches them.
  const std::vector<std::uint8_t>& Tile(const WorldObj& obj,
                                        std::int64_t agent_dir, bool highlight,
                                        std::int64_t tile_size) {
    const auto code = obj.Encode();
    const Key key{code[0], code[1], code[2], agent_dir, highlight, tile_size};
    auto found = cache_.find(key);
    if (found == cache_.end()) {
      found =
          cache_.emplace(key, Draw(obj, agent_dir, highlight, tile_size)).first;
    }
    return found->second;
  }

 private:
  using Key = std::tuple<std::uint8_t, std::uint8_t, std::uint8_t, std::int64_t,
                         bool, std::int64_t>;
  using Rgb = std::array<double, 3>;
  static constexpr int kSubdivs = 3;

  class Canvas {
   public:
    explicit Canvas(std::int64_t size)
        : size_(size), pixels_(static_cast<std::size_t>(size * size * 3)) {}

    // minigrid's fill_coords: every pixel whose centre, in [0, 1] units,
    // passes `inside` takes `color` (cast to uint8 as numpy casts it).
    template <typename Inside>
    void Fill(Inside inside, Rgb color) {
      for (std::int64_t y = 0; y < size_; ++y) {
        for (std::int64_t x = 0; x < size_; ++x) {
          const double yf =
              (static_cast<double>(y) + 0.5) / static_cast<double>(size_);
          const double xf =
              (static_cast<double>(x) + 0.5) / static_cast<double>(size_);
          if (inside(xf, yf)) {
            auto* px = Pixel(x, y);
            for (int k = 0; k < 3; ++k) {
              px[k] =
                  static_cast<std::uint8_t>(color[static_cast<std::size_t>(k)]);
            }
          }
        }
      }
    }

    // minigrid's highlight_img: 30% of the way to white.
    void Highlight() {
      for (std::uint8_t& v : pixels_) {
        const auto to_white = static_cast<std::uint8_t>(255 - v);
        const double blended =
            static_cast<double>(v) + 0.3 * static_cast<double>(to_white);
        v = static_cast<std::uint8_t>(std::clamp(blended, 0.0, 255.0));
      }
    }

    // minigrid's downsample: the mean over each 3 x 3 block, columns first.
    [[nodiscard]] std::vector<std::uint8_t> Downsample() const {
      const std::int64_t out = size_ / kSubdivs;
      std::vector<std::uint8_t> tile(static_cast<std::size_t>(out * out * 3));
      for (std::int64_t ty = 0; ty < out; ++ty) {
        for (std::int64_t tx = 0; tx < out; ++tx) {
          for (int k = 0; k < 3; ++k) {
            double rows = 0.0;
            for (int sy = 0; sy < kSubdivs; ++sy) {
              double cols = 0.0;
              for (int sx = 0; sx < kSubdivs; ++sx) {
                cols += static_cast<double>(
                    Pixel(tx * kSubdivs + sx, ty * kSubdivs + sy)[k]);
              }
              rows += cols / kSubdivs;
            }
            tile[static_cast<std::size_t>((ty * out + tx) * 3 + k)] =
                static_cast<std::uint8_t>(rows / kSubdivs);
          }
        }
      }
      return tile;
    }

   private:
    std::uint8_t* Pixel(std::int64_t x, std::int64_t y) {
      return &pixels_[static_cast<std::size_t>((y * size_ + x) * 3)];
    }
    [[nodiscard]] const std::uint8_t* Pixel(std::int64_t x,
                                            std::int64_t y) const {
      return &pixels_[static_cast<std::size_t>((y * size_ + x) * 3)];
    }

    std::int64_t size_;
    std::vector<std::uint8_t> pixels_;
  };

  static auto Rect(double xmin, double xmax, double ymin, double ymax) {
    return [=](double x, double y) {
      return x >= xmin && x <= xmax && y >= ymin && y <= ymax;
    };
  }
  static auto Circle(double cx, double cy, double r) {
    return [=](double x, double y) {
      return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r;
    };
  }
  // point_in_line: the end points and the direction are float32, the test
  // point float64.
  static auto Line(double x0, double y0, double x1, double y1, double r) {
    const auto p0x = static_cast<float>(x0);
    const auto p0y = static_cast<float>(y0);
    float dx = static_cast<float>(x1) - p0x;
    float dy = static_cast<float>(y1) - p0y;
    const float dist = std::sqrt(dx * dx + dy * dy);
    dx /= dist;
    dy /= dist;
    const double xmin = std::min(x0, x1) - r;
    const double xmax = std::max(x0, x1) + r;
    const double ymin = std::min(y0, y1) - r;
    const double ymax = std::max(y0, y1) + r;
    return [=](double x, double y) {
      if (x < xmin || x > xmax || y < ymin || y > ymax) {
        return false;
      }
      const double pqx = x - p0x;
      const double pqy = y - p0y;
      const double a =
          std::clamp(pqx * dx + pqy * dy, 0.0, static_cast<double>(dist));
      const double px = p0x + a * dx;
      const double py = p0y + a * dy;
      const double ex = x - px;
      const double ey = y - py;
      return std::sqrt(ex * ex + ey * ey) <= r;
    };
  }
  // point_in_triangle, with float32 corners, turned by `dir` quarter turns
  // about the tile's centre (rotate_fn).
  static auto AgentTriangle(std::int64_t dir) {
    const std::array<float, 2> a{0.12F, 0.19F};
    const std::array<float, 2> b{0.87F, 0.50F};
    const std::array<float, 2> c{0.12F, 0.81F};
    const std::array<float, 2> v0{c[0] - a[0], c[1] - a[1]};
    const std::array<float, 2> v1{b[0] - a[0], b[1] - a[1]};
    const float dot00 = v0[0] * v0[0] + v0[1] * v0[1];
    const float dot01 = v0[0] * v1[0] + v0[1] * v1[1];
    const float dot11 = v1[0] * v1[0] + v1[1] * v1[1];
    const float inv_denom = 1.0F / (dot00 * dot11 - dot01 * dot01);
    const double theta = 0.5 * std::numbers::pi * static_cast<double>(dir);
    const double cos_t = std::cos(-theta);
    const double sin_t = std::sin(-theta);
    return [=](double x, double y) {
      x = x - 0.5;
      y = y - 0.5;
      const double x2 = 0.5 + x * cos_t - y * sin_t;
      const double y2 = 0.5 + y * cos_t + x * sin_t;
      const double v2x = x2 - a[0];
      const double v2y = y2 - a[1];
      const double dot02 = v0[0] * v2x + v0[1] * v2y;
      const double dot12 = v1[0] * v2x + v1[1] * v2y;
      const double u = (dot11 * dot02 - dot01 * dot12) * inv_denom;
      const double v = (dot00 * dot12 - dot01 * dot02) * inv_denom;
      return u >= 0 && v >= 0 && u + v < 1;
    };
  }

  static Rgb ColorOf(Color color) {
    static constexpr std::array<Rgb, 6> kRgb = {{{255, 0, 0},
                                                 {0, 255, 0},
                                                 {0, 0, 255},
                                                 {112, 39, 195},
                                                 {255, 255, 0},
                                                 {100, 100, 100}}};
    return kRgb[static_cast<std::size_t>(color)];
  }
  static Rgb Scaled(Rgb c, double by) {
    return {c[0] * by, c[1] * by, c[2] * by};
  }

  static void DrawObject(const WorldObj& obj, Canvas& img) {
    const Rgb c = ColorOf(obj.color);
    const Rgb black{0, 0, 0};
    switch (obj.type) {
      case ObjType::kGoal:
      case ObjType::kWall:
        img.Fill(Rect(0, 1, 0, 1), c);
        break;
      case ObjType::kFloor:
        img.Fill(Rect(0.031, 1, 0.031, 1), {c[0] / 2, c[1] / 2, c[2] / 2});
        break;
      case ObjType::kLava:
        img.Fill(Rect(0, 1, 0, 1), {255, 128, 0});
        for (int i = 0; i < 3; ++i) {
          const double ylo = 0.3 + 0.2 * i;
          const double yhi = 0.4 + 0.2 * i;
          img.Fill(Line(0.1, ylo, 0.3, yhi, 0.03), black);
          img.Fill(Line(0.3, yhi, 0.5, ylo, 0.03), black);
          img.Fill(Line(0.5, ylo, 0.7, yhi, 0.03), black);
          img.Fill(Line(0.7, yhi, 0.9, ylo, 0.03), black);
        }
        break;
      case ObjType::kDoor:
        if (obj.door == DoorState::kOpen) {
          img.Fill(Rect(0.88, 1.00, 0.00, 1.00), c);
          img.Fill(Rect(0.92, 0.96, 0.04, 0.96), black);
        } else if (obj.door == DoorState::kLocked) {
          img.Fill(Rect(0.00, 1.00, 0.00, 1.00), c);
          img.Fill(Rect(0.06, 0.94, 0.06, 0.94), Scaled(c, 0.45));
          img.Fill(Rect(0.52, 0.75, 0.50, 0.56), c);  // the key slot
        } else {
          img.Fill(Rect(0.00, 1.00, 0.00, 1.00), c);
          img.Fill(Rect(0.04, 0.96, 0.04, 0.96), black);
          img.Fill(Rect(0.08, 0.92, 0.08, 0.92), c);
          img.Fill(Rect(0.12, 0.88, 0.12, 0.88), black);
          img.Fill(Circle(0.75, 0.50, 0.08), c);  // the handle
        }
        break;
      case ObjType::kKey:
        img.Fill(Rect(0.50, 0.63, 0.31, 0.88), c);
        img.Fill(Rect(0.38, 0.50, 0.59, 0.66), c);
        img.Fill(Rect(0.38, 0.50, 0.81, 0.88), c);
        img.Fill(Circle(0.56, 0.28, 0.190), c);
        img.Fill(Circle(0.56, 0.28, 0.064), black);
        break;
      case ObjType::kBall:
        img.Fill(Circle(0.5, 0.5, 0.31), c);
        break;
      case ObjType::kBox:
        img.Fill(Rect(0.12, 0.88, 0.12, 0.88), c);
        img.Fill(Rect(0.18, 0.82, 0.18, 0.82), black);
        img.Fill(Rect(0.16, 0.84, 0.47, 0.53), c);
        break;
      default:
        break;
    }
  }

  static std::vector<std::uint8_t> Draw(const WorldObj& obj,
                                        std::int64_t agent_dir, bool highlight,
                                        std::int64_t tile_size) {
    Canvas img(tile_size * kSubdivs);
    const Rgb line{100, 100, 100};
    img.Fill(Rect(0, 0.031, 0, 1), line);
    img.Fill(Rect(0, 1, 0, 0.031), line);
    if (!obj.IsEmpty()) {
      DrawObject(obj, img);
    }
    if (agent_dir >= 0) {
      img.Fill(AgentTriangle(agent_dir), {255, 0, 0});
    }
    if (highlight) {
      img.Highlight();
    }
    return img.Downsample();
  }

  std::map<Key, std::vector<std::uint8_t>> cache_;
};

// Grid.render: the cells of `grid` (width x height, `cell(x, y)`) as a
// (height * tile) x (width * tile) x 3 image, the agent at `agent` facing
// `agent_dir`, the cells where `highlight(x, y)` lightened.
template <typename CellFn, typename HighlightFn>
void RenderCells(TileRenderer& tiles, std::int64_t width, std::int64_t height,
                 CellFn cell, Pos agent, std::int64_t agent_dir,
                 HighlightFn highlight, std::int64_t tile,
                 std::span<std::uint8_t> out) {
  const std::int64_t row_bytes = width * tile * 3;
  for (std::int64_t j = 0; j < height; ++j) {
    for (std::int64_t i = 0; i < width; ++i) {
      const bool agent_here = agent == Pos{i, j};
      const std::vector<std::uint8_t>& img = tiles.Tile(
          cell(i, j), agent_here ? agent_dir : -1, highlight(i, j), tile);
      for (std::int64_t y = 0; y < tile; ++y) {
        std::copy_n(img.begin() + y * tile * 3, tile * 3,
                    out.begin() + (j * tile + y) * row_bytes + i * tile * 3);
      }
    }
  }
}

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_RENDER_H_

// minigrid's Grid (minigrid/core/grid.py): width x height cells, each one
// WorldObj, with the wall-drawing helpers the envs lay out their rooms with.
#ifndef ENVPOOL_MINIGRID_GRID_H_
#define ENVPOOL_MINIGRID_GRID_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/minigrid/world_object.h"

namespace envpool::minigrid {

struct Pos {
  std::int64_t x = 0;
  std::int64_t y = 0;
  bool operator==(const Pos&) const = default;
};

class Grid {
 public:
  Grid() = default;
  Grid(std::int64_t width, std::int64_t height)
      : width_(width),
        height_(height),
        cells_(static_cast<std::size_t>(width * height)) {}

  [[nodiscard]] std::int64_t width() const { return width_; }
  [[nodiscard]] std::int64_t height() const { return height_; }
  [[nodiscard]] bool Contains(Pos p) const {
    return p.x >= 0 && p.x < width_ && p.y >= 0 && p.y < height_;
  }

  [[nodiscard]] const WorldObj& Get(Pos p) const { return cells_[Index(p)]; }
  WorldObj& At(Pos p) { return cells_[Index(p)]; }
  void Set(Pos p, const WorldObj& obj) { cells_[Index(p)] = obj; }
  void Clear(Pos p) { cells_[Index(p)] = WorldObj{}; }

  // Every cell emptied, as a fresh Grid(width, height).
  void Reset() { cells_.assign(cells_.size(), WorldObj{}); }

  // `length` cells of `obj` rightwards (downwards) from (x, y); -1: to the
  // grid's edge.
  void HorzWall(std::int64_t x, std::int64_t y, std::int64_t length = -1,
                const WorldObj& obj = Wall()) {
    if (length < 0) {
      length = width_ - x;
    }
    for (std::int64_t i = 0; i < length; ++i) {
      Set({x + i, y}, obj);
    }
  }
  void VertWall(std::int64_t x, std::int64_t y, std::int64_t length = -1,
                const WorldObj& obj = Wall()) {
    if (length < 0) {
      length = height_ - y;
    }
    for (std::int64_t j = 0; j < length; ++j) {
      Set({x, y + j}, obj);
    }
  }
  void WallRect(std::int64_t x, std::int64_t y, std::int64_t w,
                std::int64_t h) {
    HorzWall(x, y, w);
    HorzWall(x, y + h - 1, w);
    VertWall(x, y, h);
    VertWall(x + w - 1, y, h);
  }

 private:
  [[nodiscard]] std::size_t Index(Pos p) const {
    if (!Contains(p)) [[unlikely]] {
      throw std::out_of_range("minigrid: cell (" + std::to_string(p.x) + ", " +
                              std::to_string(p.y) + ") is outside the " +
                              std::to_string(width_) + "x" +
                              std::to_string(height_) + " grid");
    }
    return static_cast<std::size_t>(p.y * width_ + p.x);
  }

  std::int64_t width_ = 0;
  std::int64_t height_ = 0;
  std::vector<WorldObj> cells_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_GRID_H_

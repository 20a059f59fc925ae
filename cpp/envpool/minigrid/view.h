// The agent's partial view (minigrid's gen_obs_grid and Grid.encode): the
// view_size x view_size square ahead of the agent, turned so that the agent
// looks up from the middle of its bottom row, cells behind walls and closed
// doors hidden unless see_through_walls (Grid.process_vis), encoded as
// (type, color, state) triples.
#ifndef ENVPOOL_MINIGRID_VIEW_H_
#define ENVPOOL_MINIGRID_VIEW_H_

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "envpool/minigrid/grid.h"
#include "envpool/minigrid/world_object.h"

namespace envpool::minigrid {

// minigrid's DIR_TO_VEC: right, down, left, up.
inline Pos DirVec(std::int64_t dir) {
  static constexpr std::array<Pos, 4> kVecs = {Pos{1, 0}, Pos{0, 1}, Pos{-1, 0},
                                               Pos{0, -1}};
  return kVecs[static_cast<std::size_t>(dir)];
}

class AgentView {
 public:
  explicit AgentView(std::int64_t view_size)
      : size_(view_size),
        cells_(static_cast<std::size_t>(view_size * view_size)),
        visible_(cells_.size()) {}

  [[nodiscard]] std::int64_t size() const { return size_; }

  // Takes in the view of an agent at `agent` facing `dir` and holding
  // `carrying`: the cells ahead (the carried object in the agent's own) and
  // which of them the agent sees (minigrid's gen_obs_grid).
  void Gather(const Grid& grid, Pos agent, std::int64_t dir,
              bool see_through_walls, const WorldObj& carrying) {
    const std::int64_t half = size_ / 2;
    for (std::int64_t vy = 0; vy < size_; ++vy) {
      for (std::int64_t vx = 0; vx < size_; ++vx) {
        const Pos p = WorldPos(agent, dir, vx, vy);
        Cell(vx, vy) = grid.Contains(p) ? grid.Get(p) : Wall();
      }
    }
    if (see_through_walls) {
      visible_.assign(visible_.size(), 1);
    } else {
      ComputeVisibility();
    }
    Cell(half, size_ - 1) = carrying;
  }

  // Gather, then the view encoded into `image`, (view x, view y, 3)
  // row-major, unseen cells zero.
  void Encode(const Grid& grid, Pos agent, std::int64_t dir,
              bool see_through_walls, const WorldObj& carrying,
              std::span<std::uint8_t> image) {
    Gather(grid, agent, dir, see_through_walls, carrying);
    for (std::int64_t vx = 0; vx < size_; ++vx) {
      for (std::int64_t vy = 0; vy < size_; ++vy) {
        const std::size_t k = static_cast<std::size_t>(vx * size_ + vy) * 3;
        if (visible_[Index(vx, vy)] != 0) {
          const auto code = Cell(vx, vy).Encode();
          image[k] = code[0];
          image[k + 1] = code[1];
          image[k + 2] = code[2];
        } else {
          image[k] = image[k + 1] = image[k + 2] = 0;
        }
      }
    }
  }

  // After Gather: view cell (vx, vy) and whether the agent sees it.
  [[nodiscard]] const WorldObj& ViewCell(std::int64_t vx,
                                         std::int64_t vy) const {
    return cells_[Index(vx, vy)];
  }
  [[nodiscard]] bool Visible(std::int64_t vx, std::int64_t vy) const {
    return visible_[Index(vx, vy)] != 0;
  }

  // The world cell of view cell (vx, vy): forward * (size - 1 - vy) + right
  // * (vx - size / 2) from the agent, minigrid's slice of the grid turned
  // left dir + 1 times (cells off the grid read as walls).
  [[nodiscard]] Pos WorldPos(Pos agent, std::int64_t dir, std::int64_t vx,
                             std::int64_t vy) const {
    const Pos f = DirVec(dir);
    const Pos r{-f.y, f.x};
    const std::int64_t half = size_ / 2;
    return {agent.x + f.x * (size_ - 1 - vy) + r.x * (vx - half),
            agent.y + f.y * (size_ - 1 - vy) + r.y * (vx - half)};
  }

 private:
  [[nodiscard]] std::size_t Index(std::int64_t vx, std::int64_t vy) const {
    return static_cast<std::size_t>(vy * size_ + vx);
  }
  WorldObj& Cell(std::int64_t vx, std::int64_t vy) {
    return cells_[Index(vx, vy)];
  }

  // minigrid's Grid.process_vis from the agent's cell, bottom row first:
  // light spreads sideways and one row up from every visible cell that
  // does not block sight.
  void ComputeVisibility() {
    visible_.assign(visible_.size(), 0);
    visible_[Index(size_ / 2, size_ - 1)] = 1;
    auto spreads = [&](std::int64_t i, std::int64_t j) {
      if (visible_[Index(i, j)] == 0) {
        return false;
      }
      const WorldObj& cell = Cell(i, j);
      return cell.IsEmpty() || cell.SeeBehind();
    };
    for (std::int64_t j = size_ - 1; j >= 0; --j) {
      for (std::int64_t i = 0; i < size_ - 1; ++i) {
        if (!spreads(i, j)) {
          continue;
        }
        visible_[Index(i + 1, j)] = 1;
        if (j > 0) {
          visible_[Index(i + 1, j - 1)] = 1;
          visible_[Index(i, j - 1)] = 1;
        }
      }
      for (std::int64_t i = size_ - 1; i > 0; --i) {
        if (!spreads(i, j)) {
          continue;
        }
        visible_[Index(i - 1, j)] = 1;
        if (j > 0) {
          visible_[Index(i - 1, j - 1)] = 1;
          visible_[Index(i, j - 1)] = 1;
        }
      }
    }
  }

  std::int64_t size_;
  std::vector<WorldObj> cells_;
  std::vector<std::uint8_t> visible_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_VIEW_H_

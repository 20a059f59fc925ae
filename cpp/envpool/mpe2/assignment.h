// scipy.optimize.linear_sum_assignment for a square cost matrix: the
// minimum-cost matching of rows to columns (simple_line and
// simple_formation match agents to their target slots with it).
#ifndef ENVPOOL_MPE2_ASSIGNMENT_H_
#define ENVPOOL_MPE2_ASSIGNMENT_H_

#include <cstddef>
#include <limits>
#include <vector>

namespace envpool::mpe2 {

// The column matched to each row of the n x n row-major `cost`, by the
// Hungarian method with potentials (shortest augmenting paths, O(n^3)).
inline std::vector<std::size_t> MinCostAssignment(
    const std::vector<double>& cost, std::size_t n) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // 1-based, with row/column 0 as the augmenting path's virtual start
  std::vector<double> u(n + 1, 0.0);
  std::vector<double> v(n + 1, 0.0);
  std::vector<std::size_t> row_of(n + 1, 0);  // row matched to column j
  std::vector<std::size_t> way(n + 1, 0);
  for (std::size_t i = 1; i <= n; ++i) {
    row_of[0] = i;
    std::size_t j0 = 0;
    std::vector<double> min_slack(n + 1, kInf);
    std::vector<bool> used(n + 1, false);
    do {
      used[j0] = true;
      const std::size_t i0 = row_of[j0];
      double delta = kInf;
      std::size_t j1 = 0;
      for (std::size_t j = 1; j <= n; ++j) {
        if (used[j]) {
          continue;
        }
        const double slack = cost[(i0 - 1) * n + (j - 1)] - u[i0] - v[j];
        if (slack < min_slack[j]) {
          min_slack[j] = slack;
          way[j] = j0;
        }
        if (min_slack[j] < delta) {
          delta = min_slack[j];
          j1 = j;
        }
      }
      for (std::size_t j = 0; j <= n; ++j) {
        if (used[j]) {
          u[row_of[j]] += delta;
          v[j] -= delta;
        } else {
          min_slack[j] -= delta;
        }
      }
      j0 = j1;
    } while (row_of[j0] != 0);
    do {
      const std::size_t j1 = way[j0];
      row_of[j0] = row_of[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  std::vector<std::size_t> column_of(n);
  for (std::size_t j = 1; j <= n; ++j) {
    column_of[row_of[j] - 1] = j - 1;
  }
  return column_of;
}

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_ASSIGNMENT_H_

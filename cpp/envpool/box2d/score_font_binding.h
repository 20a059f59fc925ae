// Python entry points to CarRacing's score font: envpool/box2d_score_font.py
// installs the glyphs it reads from pygame, and tests render strings with it.
#ifndef ENVPOOL_BOX2D_SCORE_FONT_BINDING_H_
#define ENVPOOL_BOX2D_SCORE_FONT_BINDING_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/box2d/score_font.h"

namespace envpool::box2d {

namespace score_font_binding_detail {

namespace py = pybind11;
using CoverageArray =
    py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

inline void Install(int height, const std::vector<int>& advances,
                    const std::vector<int>& widths,
                    const std::vector<CoverageArray>& coverages,
                    const std::vector<std::vector<int>>& kerning) {
  constexpr std::size_t n = ScoreFont::kCount;
  if (height <= 0 || advances.size() != n || widths.size() != n ||
      coverages.size() != n || kerning.size() != n) {
    throw std::invalid_argument("score font: one entry per character of " +
                                std::string(ScoreFont::kCharacters));
  }
  std::array<ScoreFont::Glyph, n> glyphs;
  std::array<std::array<int, n>, n> kern{};
  for (std::size_t i = 0; i < n; ++i) {
    const CoverageArray& c = coverages[i];
    if (c.ndim() != 2 || c.shape(0) != height || c.shape(1) != widths[i]) {
      throw std::invalid_argument("score font: coverage " + std::to_string(i) +
                                  " must be (height, width)");
    }
    glyphs[i].advance = advances[i];
    glyphs[i].width = widths[i];
    glyphs[i].coverage.assign(c.data(), c.data() + c.size());
    if (kerning[i].size() != n) {
      throw std::invalid_argument("score font: kerning must be square");
    }
    for (std::size_t j = 0; j < n; ++j) {
      kern[i][j] = kerning[i][j];
    }
  }
  ScoreFont::Install(
      std::make_shared<const ScoreFont>(height, std::move(glyphs), kern));
}

inline py::array_t<std::uint8_t> RenderForTests(const std::string& text) {
  auto font = ScoreFont::Installed();
  if (!font) {
    throw std::runtime_error("no score font installed");
  }
  int width = 0;
  std::vector<std::uint8_t> image = font->Render(text, &width);
  py::array_t<std::uint8_t> out({font->height(), width});
  if (!image.empty()) {
    std::memcpy(out.mutable_data(), image.data(), image.size());
  }
  return out;
}

}  // namespace score_font_binding_detail

inline void RegisterScoreFont(pybind11::module_& m) {
  m.def("_install_score_font", &score_font_binding_detail::Install,
        "Installs CarRacing's score glyphs (envpool/box2d_score_font.py).");
  m.def("_render_score_for_tests", &score_font_binding_detail::RenderForTests,
        "Test only: the installed font's coverage image of a string.");
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_SCORE_FONT_BINDING_H_

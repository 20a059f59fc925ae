// The Box2D tasks, in their own extension module: only it links the Box2D
// engine (third_party/box2d). Besides the envs, it exposes the score font's
// installer (envpool/box2d_score_font.py), the pygame-faithful drawing as a
// list of commands (tests/test_pygame_draw.py, and make()'s check of the
// installed pygame) and the score's rendering (for tests).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/box2d/bipedal_walker.h"
#include "envpool/box2d/car_racing.h"
#include "envpool/box2d/lunar_lander.h"
#include "envpool/box2d/pygame_draw.h"
#include "envpool/box2d/score_font.h"
#include "envpool/python/py_env_pool.h"

namespace {

namespace py = pybind11;
using envpool::box2d::Canvas;
using envpool::box2d::Color;
using envpool::box2d::Point;
using envpool::box2d::ScoreFont;

// Replays a list of drawing commands on the pygame-faithful canvas and returns
// the pixels the way gymnasium reads them.
Color ToColor(const py::handle& obj) {
  auto seq = py::reinterpret_borrow<py::sequence>(obj);
  return Color{seq[0].cast<std::uint8_t>(), seq[1].cast<std::uint8_t>(),
               seq[2].cast<std::uint8_t>()};
}

Point ToPoint(const py::handle& obj) {
  auto seq = py::reinterpret_borrow<py::sequence>(obj);
  return Point{seq[0].cast<double>(), seq[1].cast<double>()};
}

std::vector<Point> ToPoints(const py::handle& obj) {
  std::vector<Point> points;
  for (const py::handle& item : py::reinterpret_borrow<py::sequence>(obj)) {
    points.push_back(ToPoint(item));
  }
  return points;
}

py::array_t<std::uint8_t> DrawCommands(int width, int height,
                                       const py::list& commands,
                                       bool pygame_ce) {
  const auto flavour = pygame_ce ? envpool::box2d::PygameFlavour::kPygameCe
                                 : envpool::box2d::PygameFlavour::kPygame;
  if (width < 0 || height < 0) {
    throw std::invalid_argument("width and height must be >= 0");
  }
  Canvas canvas(width, height);
  for (const py::handle& command_obj : commands) {
    auto command = py::reinterpret_borrow<py::tuple>(command_obj);
    auto name = command[0].cast<std::string>();
    if (name == "fill") {
      canvas.Fill(ToColor(command[1]));
    } else if (name == "rect") {
      canvas.FillRect(command[2].cast<int>(), command[3].cast<int>(),
                      command[4].cast<int>(), command[5].cast<int>(),
                      ToColor(command[1]));
    } else if (name == "polygon") {
      FillPolygon(canvas, ToPoints(command[2]), ToColor(command[1]), flavour);
    } else if (name == "aapolygon") {
      AaPolygon(canvas, ToPoints(command[2]), ToColor(command[1]));
    } else if (name == "filled_polygon") {
      GfxFilledPolygon(canvas, ToPoints(command[2]), ToColor(command[1]));
    } else if (name == "circle") {
      FillCircle(canvas, ToPoint(command[2]), command[3].cast<double>(),
                 ToColor(command[1]));
    } else if (name == "line") {
      const std::vector<Point> ends = {ToPoint(command[2]),
                                       ToPoint(command[3])};
      DrawLines(canvas, ends, false, ToColor(command[1]),
                command[4].cast<int>(), flavour);
    } else if (name == "lines") {
      DrawLines(canvas, ToPoints(command[3]), command[2].cast<bool>(),
                ToColor(command[1]), command[4].cast<int>(), flavour);
    } else if (name == "aalines") {
      AaLines(canvas, ToPoints(command[3]), command[2].cast<bool>(),
              ToColor(command[1]), flavour);
    } else if (name == "aaline") {
      AaLine(canvas, ToPoint(command[2]), ToPoint(command[3]),
             ToColor(command[1]));
    } else if (name == "pixels") {
      // Replaces the whole canvas with an (height, width, 3) uint8 image.
      auto image =
          command[1]
              .cast<py::array_t<std::uint8_t,
                                py::array::c_style | py::array::forcecast>>();
      auto target = canvas.pixels();
      if (image.ndim() != 3 || image.shape(0) != canvas.height() ||
          image.shape(1) != canvas.width() || image.shape(2) != 3) {
        throw std::invalid_argument("pixels must be (height, width, 3)");
      }
      std::memcpy(target.data(), image.data(), target.size());
    } else if (name == "flip") {
      canvas.FlipVertical();
    } else if (name == "smoothscale") {
      Canvas scaled(command[1].cast<int>(), command[2].cast<int>());
      SmoothScale(canvas, scaled);
      canvas = std::move(scaled);
    } else {
      throw std::invalid_argument("unknown draw command: " + name);
    }
  }
  py::array_t<std::uint8_t> out({canvas.height(), canvas.width(), 3});
  auto pixels = canvas.pixels();
  if (!pixels.empty()) {
    std::memcpy(out.mutable_data(), pixels.data(), pixels.size());
  }
  return out;
}

// CarRacing's score font: installed from the glyphs that
// envpool/box2d_score_font.py reads, and rendered by tests.
using CoverageArray =
    py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

void InstallScoreFont(int height, const std::vector<int>& advances,
                      const std::vector<int>& widths,
                      const std::vector<CoverageArray>& coverages,
                      const std::vector<std::vector<int>>& kerning,
                      bool pygame_ce) {
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
  ScoreFont::Install(std::make_shared<const ScoreFont>(
      height, std::move(glyphs), kern,
      pygame_ce ? envpool::box2d::PygameFlavour::kPygameCe
                : envpool::box2d::PygameFlavour::kPygame));
}

py::array_t<std::uint8_t> RenderScoreForTests(const std::string& text) {
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

}  // namespace

PYBIND11_MODULE(_box2d, m) {
  using envpool::python::RegisterEnv;
  m.def("_draw_commands", &DrawCommands, py::arg("width"), py::arg("height"),
        py::arg("commands"), py::arg("pygame_ce") = false,
        "Draws commands with the pygame-faithful canvas (by pygame-ce's rules "
        "where they differ, for pygame_ce) and returns an (height, width, 3) "
        "uint8 array: for tests, and make()'s check of the installed pygame.");
  m.def("_install_score_font", &InstallScoreFont, py::arg("height"),
        py::arg("advances"), py::arg("widths"), py::arg("coverages"),
        py::arg("kerning"), py::arg("pygame_ce"),
        "Installs CarRacing's score glyphs and the drawing rules of the pygame "
        "they came from (envpool/box2d_score_font.py).");
  m.def("_render_score_for_tests", &RenderScoreForTests,
        "Test only: the installed font's coverage image of a string.");
  namespace b2 = envpool::box2d;
  envpool::python::RegisterEnvs<b2::BipedalWalker, b2::CarRacing,
                                b2::CarRacingDiscrete, b2::LunarLander,
                                b2::LunarLanderContinuous>(
      m, "BipedalWalker", "CarRacing", "CarRacingDiscrete", "LunarLander",
      "LunarLanderContinuous");
}

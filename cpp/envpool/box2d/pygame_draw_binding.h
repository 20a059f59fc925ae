// Test-only Python entry point to the pygame-faithful canvas: replays a list
// of drawing commands and returns the pixels the way gymnasium reads them.
#ifndef ENVPOOL_BOX2D_PYGAME_DRAW_BINDING_H_
#define ENVPOOL_BOX2D_PYGAME_DRAW_BINDING_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/box2d/pygame_draw.h"

namespace envpool::box2d {

namespace pygame_binding_detail {

namespace py = pybind11;

inline Color ToColor(const py::handle& obj) {
  auto seq = py::reinterpret_borrow<py::sequence>(obj);
  return Color{seq[0].cast<std::uint8_t>(), seq[1].cast<std::uint8_t>(),
               seq[2].cast<std::uint8_t>()};
}

inline Point ToPoint(const py::handle& obj) {
  auto seq = py::reinterpret_borrow<py::sequence>(obj);
  return Point{seq[0].cast<double>(), seq[1].cast<double>()};
}

inline std::vector<Point> ToPoints(const py::handle& obj) {
  std::vector<Point> points;
  for (const py::handle& item : py::reinterpret_borrow<py::sequence>(obj)) {
    points.push_back(ToPoint(item));
  }
  return points;
}

inline py::array_t<std::uint8_t> DrawForTests(int width, int height,
                                              const py::list& commands) {
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
      canvas.FillPolygon(ToPoints(command[2]), ToColor(command[1]));
    } else if (name == "aapolygon") {
      canvas.AaPolygon(ToPoints(command[2]), ToColor(command[1]));
    } else if (name == "filled_polygon") {
      canvas.GfxFilledPolygon(ToPoints(command[2]), ToColor(command[1]));
    } else if (name == "circle") {
      canvas.FillCircle(ToPoint(command[2]), command[3].cast<double>(),
                        ToColor(command[1]));
    } else if (name == "line") {
      canvas.Line(ToPoint(command[2]), ToPoint(command[3]), ToColor(command[1]),
                  command[4].cast<int>());
    } else if (name == "lines") {
      canvas.Lines(ToPoints(command[3]), command[2].cast<bool>(),
                   ToColor(command[1]), command[4].cast<int>());
    } else if (name == "aalines") {
      canvas.AaLines(ToPoints(command[3]), command[2].cast<bool>(),
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

}  // namespace pygame_binding_detail

inline void RegisterPygameDrawForTests(pybind11::module_& m) {
  m.def("_draw_for_tests", &pygame_binding_detail::DrawForTests,
        pybind11::arg("width"), pybind11::arg("height"),
        pybind11::arg("commands"),
        "Test only: draws commands with the pygame-faithful canvas and returns "
        "an (height, width, 3) uint8 array.");
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_DRAW_BINDING_H_

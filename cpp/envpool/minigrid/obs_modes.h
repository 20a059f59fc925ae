// The observation forms of minigrid's observation wrappers, as the obs_mode
// option: "dict" (none: Dict(direction, image, mission)), "image"
// (ImgObsWrapper: the image alone), "one_hot" (OneHotPartialObsWrapper: each
// cell's type, color and state as one-hot bits) and "flat" (FlatObsWrapper:
// the image flattened, then the lower-cased mission one-hot per character)
// and "full" (FullyObsWrapper: the whole grid as the image, the agent drawn in
// its cell); "rgb" (RGBImgObsWrapper: the whole grid drawn, the agent's view
// lightened) and "rgb_partial" (RGBImgPartialObsWrapper: the agent's view
// drawn), both tile_size pixels a cell (render.h).
#ifndef ENVPOOL_MINIGRID_OBS_MODES_H_
#define ENVPOOL_MINIGRID_OBS_MODES_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/minigrid/grid.h"
#include "envpool/minigrid/world_object.h"

namespace envpool::minigrid {

enum class ObsMode : std::uint8_t {
  kDict,
  kImage,
  kOneHot,
  kFlat,
  kFull,
  kRgb,
  kRgbPartial
};

inline ObsMode ObsModeOption(const Config& config) {
  static constexpr std::array<std::pair<std::string_view, ObsMode>, 7> kNames =
      {{{"dict", ObsMode::kDict},
        {"image", ObsMode::kImage},
        {"one_hot", ObsMode::kOneHot},
        {"flat", ObsMode::kFlat},
        {"full", ObsMode::kFull},
        {"rgb", ObsMode::kRgb},
        {"rgb_partial", ObsMode::kRgbPartial}}};
  const auto name = config.Get<std::string>("obs_mode");
  for (const auto& [mode_name, mode] : kNames) {
    if (name == mode_name) {
      return mode;
    }
  }
  throw std::invalid_argument(
      "obs_mode must be 'dict', 'image' (minigrid's ImgObsWrapper), 'one_hot' "
      "(OneHotPartialObsWrapper), 'flat' (FlatObsWrapper), 'full' "
      "(FullyObsWrapper), 'rgb' (RGBImgObsWrapper) or 'rgb_partial' "
      "(RGBImgPartialObsWrapper), got '" +
      name + "'");
}

// OneHotPartialObsWrapper's bits per cell: object types, colors, states.
inline constexpr std::int64_t kNumTypes = 11;
inline constexpr std::int64_t kNumColors = 6;
inline constexpr std::int64_t kOneHotBits = kNumTypes + kNumColors + 3;
// FlatObsWrapper's mission: at most maxStrLen (96) characters, each one of
// numCharCodes (28): a to z, space, comma.
inline constexpr std::int64_t kFlatMissionChars = 96;
inline constexpr std::int64_t kFlatCharCodes = 28;

// The pixels a cell takes in the "rgb" and "rgb_partial" forms (the wrappers'
// tile_size, 8 by default).
inline std::int64_t TileSize(const Config& config) {
  const auto tile = config.Get<std::int64_t>("tile_size");
  if (tile < 1) {
    throw std::invalid_argument("tile_size must be at least 1, got " +
                                std::to_string(tile));
  }
  return tile;
}

// The observation's spec in `mode` for a view x view agent view, missions of
// at most max_mission bytes, a grid of `grid` (width, height) cells and
// `tile` pixels a cell.
inline ArraySpec ObsModeSpec(ObsMode mode, std::int64_t view,
                             std::int64_t max_mission, Pos grid,
                             std::int64_t tile) {
  auto dict = [&](std::vector<std::int64_t> image_shape) {
    return MakeDict("obs", {MakeDiscrete<std::int64_t>("direction", 4),
                            MakeArray<std::uint8_t>(
                                "image", std::move(image_shape), {0}, {255}),
                            MakeText("mission", max_mission, 0)});
  };
  switch (mode) {
    case ObsMode::kImage:
      return MakeArray<std::uint8_t>("obs", {view, view, 3}, {0}, {255});
    case ObsMode::kOneHot:
      return dict({view, view, kOneHotBits});
    case ObsMode::kFull:
      return dict({grid.x, grid.y, 3});
    case ObsMode::kRgb:
      return dict({grid.y * tile, grid.x * tile, 3});
    case ObsMode::kRgbPartial:
      return dict({view * tile, view * tile, 3});
    case ObsMode::kFlat:
      return MakeArray<std::uint8_t>(
          "obs", {view * view * 3 + kFlatCharCodes * kFlatMissionChars}, {0},
          {255});
    case ObsMode::kDict:
      break;
  }
  return dict({view, view, 3});
}

// OneHotPartialObsWrapper's image from the encoded `image` (cells of 3).
inline void WriteOneHot(std::span<const std::uint8_t> image,
                        std::span<std::uint8_t> out) {
  std::fill(out.begin(), out.end(), 0);
  const std::size_t cells = image.size() / 3;
  for (std::size_t c = 0; c < cells; ++c) {
    std::uint8_t* bits = &out[c * kOneHotBits];
    bits[image[c * 3]] = 1;
    bits[kNumTypes + image[c * 3 + 1]] = 1;
    bits[kNumTypes + kNumColors + image[c * 3 + 2]] = 1;
  }
}

// FlatObsWrapper's observation: `image` flattened, then `mission` lower-cased,
// one row of kFlatCharCodes bits per character. A mission longer than
// kFlatMissionChars, or with another character, is minigrid's error too.
inline void WriteFlat(std::span<const std::uint8_t> image,
                      std::string_view mission, std::span<std::uint8_t> out) {
  if (static_cast<std::int64_t>(mission.size()) > kFlatMissionChars) {
    throw std::runtime_error("obs_mode='flat': the mission is " +
                             std::to_string(mission.size()) +
                             " characters, FlatObsWrapper takes at most 96: '" +
                             std::string(mission) + "'");
  }
  std::copy(image.begin(), image.end(), out.begin());
  auto chars = out.subspan(image.size());
  std::fill(chars.begin(), chars.end(), 0);
  for (std::size_t i = 0; i < mission.size(); ++i) {
    char ch = mission[i];
    if (ch >= 'A' && ch <= 'Z') {
      ch = static_cast<char>(ch - 'A' + 'a');
    }
    std::int64_t code = 0;
    if (ch >= 'a' && ch <= 'z') {
      code = ch - 'a';
    } else if (ch == ' ') {
      code = 26;
    } else if (ch == ',') {
      code = 27;
    } else {
      throw std::runtime_error(
          std::string("obs_mode='flat': FlatObsWrapper cannot encode the "
                      "character '") +
          ch + "' of the mission '" + std::string(mission) + "'");
    }
    chars[i * kFlatCharCodes + static_cast<std::size_t>(code)] = 1;
  }
}

// FullyObsWrapper's image: every cell of `grid` encoded, (width, height, 3),
// with the agent (red, its direction as state) in its cell.
inline void WriteFullGrid(const Grid& grid, Pos agent, std::int64_t dir,
                          std::span<std::uint8_t> out) {
  for (std::int64_t x = 0; x < grid.width(); ++x) {
    for (std::int64_t y = 0; y < grid.height(); ++y) {
      const auto code = grid.Get({x, y}).Encode();
      std::copy(code.begin(), code.end(),
                out.begin() + (x * grid.height() + y) * 3);
    }
  }
  const auto k =
      static_cast<std::size_t>((agent.x * grid.height() + agent.y) * 3);
  out[k] = static_cast<std::uint8_t>(ObjType::kAgent);
  out[k + 1] = static_cast<std::uint8_t>(Color::kRed);
  out[k + 2] = static_cast<std::uint8_t>(dir);
}

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_OBS_MODES_H_

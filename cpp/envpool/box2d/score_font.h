// The score in the corner of CarRacing's frame: gymnasium draws it with
// pygame's default font (freesansbold.ttf, 42 px, anti-aliased, white on
// black), through SDL_ttf's 8-bit "shaded" renderer. The glyphs come from
// pygame at make() time (envpool/box2d_score_font.py), so no font data is
// kept here; this file lays them out the way SDL_ttf 2.20 (pygame 2.6) and
// 2.24 (pygame-ce 2.5, glyphs a few rows taller) do: pen positions
// in 26.6 fixed point (hinted advance plus the font's kerning), each glyph at
// the floor of its pen, overlapping glyphs OR-ed together.
#ifndef ENVPOOL_BOX2D_SCORE_FONT_H_
#define ENVPOOL_BOX2D_SCORE_FONT_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/box2d/pygame_draw.h"

namespace envpool::box2d {

class ScoreFont {
 public:
  // The characters a "%04.0f" score uses.
  static constexpr std::string_view kCharacters = "0123456789-";
  static constexpr std::size_t kCount = kCharacters.size();

  struct Glyph {
    int advance = 0;  // 26.6 fixed point
    int width = 0;    // of the bitmap, which starts at the pen
    std::vector<std::uint8_t> coverage;  // height rows of width values
  };

  ScoreFont(int height, std::array<Glyph, kCount> glyphs,
            std::array<std::array<int, kCount>, kCount> kerning,
            PygameFlavour flavour)
      : height_(height),
        glyphs_(std::move(glyphs)),
        kerning_(kerning),
        flavour_(flavour) {
    for (const Glyph& g : glyphs_) {
      if (g.width < 0 ||
          g.coverage.size() != static_cast<std::size_t>(g.width) * height_) {
        throw std::invalid_argument("score font: a glyph's size is wrong");
      }
    }
  }

  // font.render(text, True, white, black): its coverage image (row-major,
  // height() rows) and width.
  [[nodiscard]] std::vector<std::uint8_t> Render(std::string_view text,
                                                 int* width) const {
    std::vector<int> pens;
    pens.reserve(text.size());
    int pen = 0;
    int max_x = 0;
    std::size_t previous = kCount;
    for (char ch : text) {
      std::size_t index = Index(ch);
      if (previous != kCount) {
        pen += glyphs_[previous].advance + kerning_[previous][index];
      }
      pens.push_back(pen);
      max_x = std::max(max_x, FloorPixel(pen) + glyphs_[index].width);
      previous = index;
    }
    if (previous != kCount) {
      max_x = std::max(max_x, FloorPixel(pen + glyphs_[previous].advance));
    }
    *width = max_x;
    std::vector<std::uint8_t> image(static_cast<std::size_t>(max_x) * height_,
                                    0);
    for (std::size_t k = 0; k < text.size(); ++k) {
      const Glyph& g = glyphs_[Index(text[k])];
      const int x0 = FloorPixel(pens[k]);
      for (int row = 0; row < height_; ++row) {
        for (int col = 0; col < g.width; ++col) {
          image[static_cast<std::size_t>(row) * max_x + x0 + col] |=
              g.coverage[static_cast<std::size_t>(row) * g.width + col];
        }
      }
    }
    return image;
  }

  [[nodiscard]] int height() const { return height_; }
  // The pygame the glyphs came from: the rest of the frame follows its
  // drawing rules too.
  [[nodiscard]] PygameFlavour flavour() const { return flavour_; }

  // The process's font, installed once from Python before any CarRacing env
  // is built.
  static void Install(std::shared_ptr<const ScoreFont> font) {
    std::lock_guard<std::mutex> lock(Mutex());
    Slot() = std::move(font);
  }
  static std::shared_ptr<const ScoreFont> Installed() {
    std::lock_guard<std::mutex> lock(Mutex());
    return Slot();
  }

 private:
  static int FloorPixel(int pen) { return pen >> 6; }

  static std::size_t Index(char ch) {
    std::size_t index = kCharacters.find(ch);
    if (index == std::string_view::npos) {
      throw std::invalid_argument(std::string("score font has no glyph '") +
                                  ch + "'");
    }
    return index;
  }

  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static std::shared_ptr<const ScoreFont>& Slot() {
    static std::shared_ptr<const ScoreFont> slot;
    return slot;
  }

  int height_;
  std::array<Glyph, kCount> glyphs_;
  std::array<std::array<int, kCount>, kCount> kerning_;
  PygameFlavour flavour_;
};

// Blits a coverage image drawn white on black at (x, y), clipped.
inline void BlitCoverage(Canvas& canvas, const std::vector<std::uint8_t>& image,
                         int width, int height, int x, int y) {
  for (int row = 0; row < height; ++row) {
    for (int col = 0; col < width; ++col) {
      std::uint8_t v = image[static_cast<std::size_t>(row) * width + col];
      canvas.SetPixel(x + col, y + row, Color{v, v, v});
    }
  }
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_SCORE_FONT_H_

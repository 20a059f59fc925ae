// An env's rendered frames: their shape from the env's options, and the
// renderer, made on the first frame.
#ifndef ENVPOOL_MUJOCO_RUNTIME_ENV_RENDERER_H_
#define ENVPOOL_MUJOCO_RUNTIME_ENV_RENDERER_H_

#include <mujoco/mujoco.h>

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mujoco_runtime/egl_renderer.h"

namespace envpool::mujoco_runtime {

// {height, width, 3}: the frames Render draws.
inline std::vector<std::int64_t> RenderShape(const Config& config) {
  const auto width = config.Get<std::int64_t>("width");
  const auto height = config.Get<std::int64_t>("height");
  if (width < 1 || height < 1 || width > 8192 || height > 8192) {
    throw std::invalid_argument(
        "options 'width' and 'height' must be in [1, 8192], got " +
        std::to_string(width) + " x " + std::to_string(height));
  }
  return {height, width, 3};
}

class EnvRenderer {
 public:
  EnvRenderer(int width, int height, CameraConfig camera)
      : width_(width), height_(height), camera_(std::move(camera)) {}

  void Render(const mjModel& model, mjData& data, std::span<std::uint8_t> rgb) {
    if (renderer_ == nullptr) {
      renderer_ = std::make_unique<EglRenderer>(width_, height_, camera_);
    }
    renderer_->Render(model, data, rgb);
  }

 private:
  int width_;
  int height_;
  CameraConfig camera_;
  std::unique_ptr<EglRenderer> renderer_;
};

}  // namespace envpool::mujoco_runtime

#endif  // ENVPOOL_MUJOCO_RUNTIME_ENV_RENDERER_H_

// Offscreen RGB frames of a MuJoCo simulation, drawn through an EGL OpenGL
// context (GPU drivers, or Mesa's software rasteriser on a headless machine).
// libEGL is opened at run time, so envpool neither links nor needs it until
// a frame is asked for; without it, Render raises an error naming what to
// install.
#ifndef ENVPOOL_MUJOCO_RUNTIME_EGL_RENDERER_H_
#define ENVPOOL_MUJOCO_RUNTIME_EGL_RENDERER_H_

#include <dlfcn.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace envpool::mujoco_runtime {

// The few EGL 1.5 names used here (the values are fixed by the EGL spec), so
// that building envpool needs no EGL headers.
namespace egl {
using Display = void*;
using ConfigHandle = void*;
using Context = void*;
using Int = std::int32_t;
constexpr Int kNone = 0x3038;
constexpr Int kSuccess = 0x3000;
constexpr unsigned kOpenGlApi = 0x30A2;
constexpr Int kPlatformDevice = 0x313F;
constexpr Int kPlatformSurfacelessMesa = 0x31DD;
constexpr Int kConfigAttributes[] = {
    0x3024, 8,       // EGL_RED_SIZE
    0x3023, 8,       // EGL_GREEN_SIZE
    0x3022, 8,       // EGL_BLUE_SIZE
    0x3021, 8,       // EGL_ALPHA_SIZE
    0x3025, 24,      // EGL_DEPTH_SIZE
    0x3026, 8,       // EGL_STENCIL_SIZE
    0x303F, 0x308E,  // EGL_COLOR_BUFFER_TYPE: EGL_RGB_BUFFER
    0x3033, 0x0001,  // EGL_SURFACE_TYPE: EGL_PBUFFER_BIT
    0x3040, 0x0008,  // EGL_RENDERABLE_TYPE: EGL_OPENGL_BIT
    kNone};

// libEGL's entry points and one initialised display, shared by every env.
class Library {
 public:
  static Library& Get() {
    static Library library;
    if (!library.error_.empty()) {
      throw std::runtime_error(library.error_);
    }
    return library;
  }

  Context CreateContext() {
    const std::lock_guard lock(mutex_);
    Context context = create_context_(display_, config_, nullptr, nullptr);
    if (context == nullptr) {
      throw std::runtime_error(Failure("eglCreateContext"));
    }
    return context;
  }
  void MakeCurrent(Context context) {
    if (make_current_(display_, nullptr, nullptr, context) == 0) {
      throw std::runtime_error(Failure("eglMakeCurrent (surfaceless)"));
    }
  }
  void DestroyContext(Context context) {
    make_current_(display_, nullptr, nullptr, nullptr);
    destroy_context_(display_, context);
  }

 private:
  static constexpr const char* kInstallHint =
      "rendering MuJoCo tasks needs an offscreen OpenGL context through EGL "
      "(a GPU driver, or Mesa: apt-get install libegl1 libegl-mesa0 "
      "libgl1-mesa-dri)";

  Library() {
    handle_ = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      error_ = std::string(kInstallHint) + "; libEGL.so.1 could not be loaded";
      return;
    }
    get_proc_ = Symbol<void* (*)(const char*)>("eglGetProcAddress");
    get_error_ = Symbol<Int (*)()>("eglGetError");
    create_context_ =
        Symbol<Context (*)(Display, ConfigHandle, Context, const Int*)>(
            "eglCreateContext");
    make_current_ =
        Symbol<unsigned (*)(Display, void*, void*, Context)>("eglMakeCurrent");
    destroy_context_ =
        Symbol<unsigned (*)(Display, Context)>("eglDestroyContext");
    if (!error_.empty()) {
      return;
    }
    display_ = OpenDisplay();
    if (display_ == nullptr) {
      error_ = std::string(kInstallHint) + "; no EGL display could be opened";
      return;
    }
    auto choose =
        Symbol<unsigned (*)(Display, const Int*, ConfigHandle*, Int, Int*)>(
            "eglChooseConfig");
    auto bind_api = Symbol<unsigned (*)(unsigned)>("eglBindAPI");
    Int count = 0;
    if (!error_.empty() ||
        choose(display_, kConfigAttributes, &config_, 1, &count) == 0 ||
        count < 1) {
      error_ = std::string(kInstallHint) +
               "; the EGL display offers no RGBA8 depth24 OpenGL config";
      return;
    }
    if (bind_api(kOpenGlApi) == 0) {
      error_ =
          std::string(kInstallHint) + "; eglBindAPI(EGL_OPENGL_API) failed";
    }
  }

  template <typename F>
  F Symbol(const char* name) {
    void* symbol = dlsym(handle_, name);
    if (symbol == nullptr) {
      error_ = std::string(kInstallHint) + "; libEGL.so.1 lacks " + name;
    }
    return reinterpret_cast<F>(symbol);
  }

  // The first GPU device, else Mesa's surfaceless platform, else the default
  // display; each initialised before use.
  Display OpenDisplay() {
    using GetPlatformDisplay = Display (*)(Int, void*, const Int*);
    using QueryDevices = unsigned (*)(Int, void**, Int*);
    auto initialize =
        Symbol<unsigned (*)(Display, Int*, Int*)>("eglInitialize");
    auto get_display = Symbol<Display (*)(void*)>("eglGetDisplay");
    if (!error_.empty()) {
      return nullptr;
    }
    auto platform_display = reinterpret_cast<GetPlatformDisplay>(
        get_proc_("eglGetPlatformDisplayEXT"));
    auto query_devices =
        reinterpret_cast<QueryDevices>(get_proc_("eglQueryDevicesEXT"));
    std::vector<Display> candidates;
    if (platform_display != nullptr && query_devices != nullptr) {
      void* devices[4];
      Int count = 0;
      if (query_devices(4, devices, &count) != 0 && count > 0) {
        candidates.push_back(
            platform_display(kPlatformDevice, devices[0], nullptr));
      }
    }
    if (platform_display != nullptr) {
      candidates.push_back(
          platform_display(kPlatformSurfacelessMesa, nullptr, nullptr));
    }
    candidates.push_back(get_display(nullptr));
    for (Display display : candidates) {
      Int major = 0;
      Int minor = 0;
      if (display != nullptr && initialize(display, &major, &minor) != 0) {
        return display;
      }
    }
    return nullptr;
  }

  std::string Failure(const char* call) const {
    return std::string(kInstallHint) + "; " + call + " failed with EGL error " +
           std::to_string(get_error_());
  }

  std::mutex mutex_;
  std::string error_;
  void* handle_ = nullptr;
  Display display_ = nullptr;
  ConfigHandle config_ = nullptr;
  void* (*get_proc_)(const char*) = nullptr;
  Int (*get_error_)() = nullptr;
  Context (*create_context_)(Display, ConfigHandle, Context,
                             const Int*) = nullptr;
  unsigned (*make_current_)(Display, void*, void*, Context) = nullptr;
  unsigned (*destroy_context_)(Display, Context) = nullptr;
};
}  // namespace egl

// Where the free camera looks from: gymnasium's default_camera_config.
struct CameraConfig {
  double distance = 0.0;  // <= 0: the model's extent
  double elevation = -45.0;
  std::vector<double> lookat{};  // empty: the median of the geoms
  int camera_id = -1;            // >= 0: the model's fixed camera with this id
  double azimuth = 90.0;         // mjv_defaultCamera's
};

// The one thread that makes every OpenGL call in the process. Mesa's EGL
// fails ("Shadow framebuffer is not complete", EGL_BAD_ACCESS) once contexts
// are made or used on several threads, as the envs' worker threads would;
// each frame is instead drawn here while the env's thread waits.
class GlThread {
 public:
  static GlThread& Get() {
    // Never destroyed: the thread may still hold contexts at exit.
    static auto* thread = new GlThread();
    return *thread;
  }

  // Runs `job` on the GL thread and returns when it is done, rethrowing what
  // it threw.
  void Run(const std::function<void()>& job) {
    std::exception_ptr error;
    bool done = false;
    {
      const std::lock_guard lock(mutex_);
      jobs_.push_back([&] {
        try {
          job();
        } catch (...) {
          error = std::current_exception();
        }
        const std::lock_guard done_lock(mutex_);
        done = true;
        done_.notify_all();
      });
    }
    wake_.notify_one();
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return done; });
    if (error) {
      std::rethrow_exception(error);
    }
  }

 private:
  GlThread() {
    std::thread([this] { Loop(); }).detach();
  }

  [[noreturn]] void Loop() {
    while (true) {
      std::function<void()> job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return !jobs_.empty(); });
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::deque<std::function<void()>> jobs_;
};

// One env's renderer: its own GL context, scene and MuJoCo render context,
// made on the first frame.
class EglRenderer {
 public:
  EglRenderer(int width, int height, CameraConfig camera)
      : width_(width), height_(height), camera_(std::move(camera)) {}
  EglRenderer(const EglRenderer&) = delete;
  EglRenderer& operator=(const EglRenderer&) = delete;
  ~EglRenderer() {
    if (context_ == nullptr) {
      return;
    }
    try {
      GlThread::Get().Run([this] {
        auto& library = egl::Library::Get();
        library.MakeCurrent(context_);
        mjr_freeContext(&render_context_);
        mjv_freeScene(&scene_);
        library.DestroyContext(context_);
      });
    } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch)
      // The context is gone with the process; nothing else to release.
    }
    mj_deleteModel(model_);
  }

  // Draws the current state into `rgb` (height x width x 3, top row first),
  // on the GL thread.
  void Render(const mjModel& model, mjData& data, std::span<std::uint8_t> rgb) {
    GlThread::Get().Run([&] { RenderHere(model, data, rgb); });
  }

 private:
  void RenderHere(const mjModel& model, mjData& data,
                  std::span<std::uint8_t> rgb) {
    auto& library = egl::Library::Get();
    if (context_ == nullptr) {
      Create(library, model, data);
    }
    library.MakeCurrent(context_);
    // The live model: a task may have moved a target since the first frame.
    mjv_updateScene(&model, &data, &option_, &perturb_, &camera_state_,
                    mjCAT_ALL, &scene_);
    const mjrRect viewport{0, 0, width_, height_};
    mjr_render(viewport, &scene_, &render_context_);
    pixels_.resize(rgb.size());
    mjr_readPixels(pixels_.data(), nullptr, viewport, &render_context_);
    // OpenGL's rows run bottom-up.
    const std::size_t row = 3 * static_cast<std::size_t>(width_);
    for (int y = 0; y < height_; ++y) {
      std::memcpy(rgb.data() + y * row,
                  pixels_.data() + (height_ - 1 - y) * row, row);
    }
  }

  void Create(egl::Library& library, const mjModel& model, const mjData& data) {
    context_ = library.CreateContext();
    library.MakeCurrent(context_);
    // The offscreen buffer is sized from the model's visual settings.
    model_ = mj_copyModel(nullptr, &model);
    model_->vis.global.offwidth = std::max(model_->vis.global.offwidth, width_);
    model_->vis.global.offheight =
        std::max(model_->vis.global.offheight, height_);
    mjv_defaultScene(&scene_);
    mjv_makeScene(model_, &scene_, 1000);
    mjv_defaultOption(&option_);
    mjv_defaultPerturb(&perturb_);
    mjr_defaultContext(&render_context_);
    mjr_makeContext(model_, &render_context_, mjFONTSCALE_150);
    mjr_setBuffer(mjFB_OFFSCREEN, &render_context_);
    if (render_context_.currentBuffer != mjFB_OFFSCREEN) {
      throw std::runtime_error("MuJoCo could not make an offscreen buffer");
    }
    mjv_defaultCamera(&camera_state_);
    camera_state_.type = mjCAMERA_FREE;
    camera_state_.fixedcamid = -1;
    for (int axis = 0; axis < 3; ++axis) {
      camera_state_.lookat[axis] = MedianGeomPosition(model, data, axis);
    }
    camera_state_.distance = model.stat.extent;
    if (camera_.distance > 0.0) {
      camera_state_.distance = camera_.distance;
    }
    camera_state_.elevation = camera_.elevation;
    camera_state_.azimuth = camera_.azimuth;
    for (std::size_t axis = 0; axis < 3 && axis < camera_.lookat.size();
         ++axis) {
      camera_state_.lookat[axis] = camera_.lookat[axis];
    }
    if (camera_.camera_id >= 0) {
      camera_state_.type = mjCAMERA_FIXED;
      camera_state_.fixedcamid = camera_.camera_id;
    }
  }

  static double MedianGeomPosition(const mjModel& model, const mjData& data,
                                   int axis) {
    std::vector<double> values(static_cast<std::size_t>(model.ngeom));
    for (int g = 0; g < model.ngeom; ++g) {
      values[g] = data.geom_xpos[3 * g + axis];
    }
    if (values.empty()) {
      return 0.0;
    }
    std::ranges::sort(values);
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2]
                      : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  }

  int width_;
  int height_;
  CameraConfig camera_;
  egl::Context context_ = nullptr;
  mjModel* model_ = nullptr;
  mjvScene scene_{};
  mjvOption option_{};
  mjvPerturb perturb_{};
  mjvCamera camera_state_{};
  mjrContext render_context_{};
  std::vector<std::uint8_t> pixels_;
};

}  // namespace envpool::mujoco_runtime

#endif  // ENVPOOL_MUJOCO_RUNTIME_EGL_RENDERER_H_

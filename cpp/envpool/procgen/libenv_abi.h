// The C interface procgen's game library exports (gym3's "libenv" ABI,
// version 1), declared here from its published layout so that envpool can
// call a library it loads at run time. Only the parts envpool calls.
#ifndef ENVPOOL_PROCGEN_LIBENV_ABI_H_
#define ENVPOOL_PROCGEN_LIBENV_ABI_H_

#include <cstdint>

namespace envpool::procgen::abi {

inline constexpr int kVersion = 1;
inline constexpr int kMaxNameLength = 128;
inline constexpr int kMaxDims = 16;

enum DType : int { kUnused = 0, kUint8 = 1, kInt32 = 2, kFloat32 = 3 };

enum SpaceName : int { kObservation = 1, kAction = 2, kInfo = 3 };

union Value {
  std::uint8_t uint8;
  std::int32_t int32;
  float float32;
};

struct TensorType {
  char name[kMaxNameLength];
  int scalar_type;
  int dtype;
  int shape[kMaxDims];
  int ndim;
  Value low;
  Value high;
};

// One named option: `count` elements of `dtype` at `data` (a string is
// `count` uint8 bytes, without a terminator).
struct Option {
  char name[kMaxNameLength];
  int dtype;
  int count;
  void* data;
};

struct Options {
  Option* items;
  int count;
};

// Per space, one pointer per env: index space * num_envs + env.
struct Buffers {
  void** ob;
  float* rew;
  std::uint8_t* first;
  void** info;
  void** ac;
};

using VersionFn = int (*)();
using MakeFn = void* (*)(int num_envs, Options options);
using GetTensorTypesFn = int (*)(void* env, int space, TensorType* types);
using SetBuffersFn = void (*)(void* env, Buffers* buffers);
using ObserveFn = void (*)(void* env);
using ActFn = void (*)(void* env);
using CloseFn = void (*)(void* env);
// procgen's own additions: serialise env `index`'s game into `data` (returns
// the bytes written) and restore it.
using GetStateFn = int (*)(void* env, int index, char* data, int length);
using SetStateFn = void (*)(void* env, int index, char* data, int length);

}  // namespace envpool::procgen::abi

#endif  // ENVPOOL_PROCGEN_LIBENV_ABI_H_

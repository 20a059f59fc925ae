// Model values that a task's episode start draws (a target's position, ...),
// named as dm_control's physics.named.model names them: "<field>:<name>" for
// the row of the object `name` ("geom_pos:target"), "<field>" for the whole
// array ("wrap_prm"). The reset info carries them under these names, and
// envpool.families.dmc.tasks.start_dm_control_episode sets them by name.
#ifndef ENVPOOL_DMC_MODEL_VALUES_H_
#define ENVPOOL_DMC_MODEL_VALUES_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace envpool::dmc {

// An array of mjModel with a row per object of one type (mjOBJ_UNKNOWN for
// the wrap objects, which have no names: the array is read whole).
struct ModelField {
  std::string_view name;
  mjtObj object;
  mjtSize mjModel::* count;
  int width;
  mjtNum* mjModel::* values;
};

// The fields the suite's tasks draw.
inline constexpr std::array kModelFields = {
    ModelField{"body_pos", mjOBJ_BODY, &mjModel::nbody, 3, &mjModel::body_pos},
    ModelField{"body_quat", mjOBJ_BODY, &mjModel::nbody, 4,
               &mjModel::body_quat},
    ModelField{"geom_pos", mjOBJ_GEOM, &mjModel::ngeom, 3, &mjModel::geom_pos},
    ModelField{"geom_size", mjOBJ_GEOM, &mjModel::ngeom, 3,
               &mjModel::geom_size},
    ModelField{"light_pos", mjOBJ_LIGHT, &mjModel::nlight, 3,
               &mjModel::light_pos},
    ModelField{"site_pos", mjOBJ_SITE, &mjModel::nsite, 3, &mjModel::site_pos},
    ModelField{"site_size", mjOBJ_SITE, &mjModel::nsite, 3,
               &mjModel::site_size},
    ModelField{"wrap_prm", mjOBJ_UNKNOWN, &mjModel::nwrap, 1,
               &mjModel::wrap_prm},
};

// The values of `m` that `key` names.
inline std::span<const mjtNum> ModelValues(const mjModel& m,
                                           std::string_view key) {
  const std::size_t colon = key.find(':');
  const std::string_view field_name = key.substr(0, colon);
  const auto field =
      std::ranges::find(kModelFields, field_name, &ModelField::name);
  if (field == kModelFields.end()) {
    throw std::invalid_argument("'" + std::string(key) +
                                "' names no model field a DMC task draws");
  }
  const mjtNum* values = m.*(field->values);
  const auto width = static_cast<std::size_t>(field->width);
  if (colon == std::string_view::npos) {
    return {values, static_cast<std::size_t>(m.*(field->count)) * width};
  }
  const std::string name(key.substr(colon + 1));
  const int id = mj_name2id(&m, field->object, name.c_str());
  if (id < 0) {
    throw std::invalid_argument(std::string("the model has no ") +
                                mju_type2Str(field->object) + " '" + name +
                                "'");
  }
  return {values + static_cast<std::size_t>(id) * width, width};
}

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_MODEL_VALUES_H_

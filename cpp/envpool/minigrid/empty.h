// minigrid's EmptyEnv (MiniGrid-Empty-*): an empty room, the goal in the
// bottom-right corner; the agent starts at agent_start_pos facing
// agent_start_dir, or anywhere facing anywhere when agent_start_pos is
// empty (the Empty-Random ids, minigrid's agent_start_pos=None).
#ifndef ENVPOOL_MINIGRID_EMPTY_H_
#define ENVPOOL_MINIGRID_EMPTY_H_

#include <cstdint>

#include "envpool/minigrid/minigrid_env.h"
#include "envpool/minigrid/options.h"

namespace envpool::minigrid {

class Empty : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return WithCommonOptions(WithAgentStartOptions({{"size", std::int64_t{8}}}),
                             false);
  }
  static EnvSpec Spec(const Config& config) {
    const std::int64_t size = config.Get<std::int64_t>("size");
    const auto start = OptionalPos(config, "agent_start_pos");
    CheckAtLeast("size", size, start ? 3 : 4,
                 "walls around a free cell for the agent and the goal");
    CheckAgentStart(config, size, size);
    return MiniGridEnv::Spec(config);
  }
  explicit Empty(const Config& config)
      : MiniGridEnv(config, 4, true), start_(AgentStartOptions(config)) {}

 protected:
  void GenGrid() override {
    const auto [w, h] = WalledGrid();
    grid_.Set({w - 2, h - 2}, Goal());
    StartAgent(start_.pos, start_.dir);
    mission_ = "get to the green goal square";
  }

 private:
  AgentStart start_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_EMPTY_H_

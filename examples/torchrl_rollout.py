"""TorchRL's MultiThreadedEnv runs envpool pools: rollouts with a policy.

MultiThreadedEnv makes the pool itself (``envpool.make(..., env_type="gym")``)
and hands TorchRL TensorDicts. A rule policy balances CartPole, a small torch
network drives HalfCheetah and random actions play Pong.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch
from tensordict import TensorDictBase
from tensordict.nn import TensorDictModule
from torchrl.envs import MultiThreadedEnv
from torchrl.envs.utils import RandomPolicy, check_env_specs

WORKERS = 4


class PoleAngleRule(torch.nn.Module):
    """Pushes the cart towards the side the pole leans to."""

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        return (observation[..., 2] > 0).long()


def summarize(task: str, rollout: TensorDictBase) -> str:
    ends = int(rollout["next", "done"].sum())
    reward_per_worker = rollout["next", "reward"].sum(dim=1).mean().item()
    return (
        f"{task}: {rollout.numel()} steps over {WORKERS} workers, {ends} episode ends, "
        f"reward per worker {reward_per_worker:.1f}"
    )


def main() -> None:
    torch.manual_seed(0)
    torch.set_num_threads(1)

    cartpole = MultiThreadedEnv(WORKERS, "CartPole-v1", create_env_kwargs={"seed": 0})
    check_env_specs(cartpole)
    rule = TensorDictModule(PoleAngleRule(), in_keys=["observation"], out_keys=["action"])
    # break_when_any_done=False: the pool restarts ended episodes on the next step.
    print(summarize("CartPole-v1", cartpole.rollout(1000, rule, break_when_any_done=False)))
    cartpole.close()

    cheetah = MultiThreadedEnv(WORKERS, "HalfCheetah-v5", create_env_kwargs={"seed": 0})
    obs_size = cheetah.observation_spec["observation"].shape[-1]
    act_size = cheetah.action_spec.shape[-1]
    network = torch.nn.Sequential(
        torch.nn.Linear(obs_size, 64),
        torch.nn.Tanh(),
        torch.nn.Linear(64, act_size),
        torch.nn.Tanh(),
    ).double()  # HalfCheetah's observations are float64
    actor = TensorDictModule(
        lambda obs: network(obs).float(), in_keys=["observation"], out_keys=["action"]
    )
    with torch.no_grad():
        print(summarize("HalfCheetah-v5", cheetah.rollout(200, actor)))
    cheetah.close()

    pong = MultiThreadedEnv(WORKERS, "Pong-v5", create_env_kwargs={"seed": 0})
    rollout = pong.rollout(200, RandomPolicy(pong.action_spec))
    print(summarize("Pong-v5", rollout), f"frames {tuple(rollout['observation'].shape[2:])}")
    pong.close()


if __name__ == "__main__":
    main()

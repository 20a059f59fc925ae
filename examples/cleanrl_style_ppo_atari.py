"""PPO on Atari, written the way CleanRL's single-file scripts are laid out
(an Args dataclass, a statistics wrapper, a Nature-CNN agent, one training
loop), on envpool's gymnasium vector API.

    python examples/cleanrl_style_ppo_atari.py                    # smoke run (~30 s)
    python examples/cleanrl_style_ppo_atari.py --total-timesteps 10000000 --num-envs 8 \
        --num-steps 128 --torch-threads 4                        # a real run

It needs torch: pip install "envpool[examples]".

What differs from a script written for the original EnvPool (see
docs/migration.md, "CleanRL scripts"): reset() returns (obs, info) and step()
returns (obs, reward, terminated, truncated, info); observation_space and
action_space are the batch's, single_observation_space and single_action_space
one env's. Game-level statistics come from the Atari info arrays: with
episodic_life=True an episode ends at every lost life, while
info["game_return"] and info["game_length"] add up the whole game, which is
over where info["terminated"] (or truncated) is set.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import deque
from typing import Any

import gymnasium as gym
import numpy as np

import envpool

try:
    import torch
    from torch import nn
except ImportError:
    torch = None


@dataclasses.dataclass
class Args:
    env_id: str = "Pong-v5"
    seed: int = 1
    total_timesteps: int = 1024
    num_envs: int = 4
    num_steps: int = 64
    learning_rate: float = 2.5e-4
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.1
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    torch_threads: int = 1


def parse_args(argv: list[str]) -> Args:
    """One --flag per Args field, with the field's type and default."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for field in dataclasses.fields(Args):
        flag = "--" + field.name.replace("_", "-")
        if field.type == "bool":
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=field.default)
        else:
            kind = {"int": int, "float": float, "str": str}[str(field.type)]
            parser.add_argument(flag, type=kind, default=field.default)
    return Args(**vars(parser.parse_args(argv)))


class RecordGames(gym.vector.VectorWrapper):
    """Keeps the return and length of every finished game (all lives), read from
    the Atari info arrays of the step where the game ended."""

    def __init__(self, env: gym.vector.VectorEnv, window: int = 20) -> None:
        super().__init__(env)
        self.recent_returns: deque[float] = deque(maxlen=window)
        self.finished: list[tuple[int, float, int]] = []
        """(env index, game return, game length) of the games that ended in the last step."""

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(actions)
        # A game ends at game over, or where the time limit cut an episode that no
        # lost life ended (a life lost on that step goes on with the game).
        game_over = info["terminated"] | (truncated & ~terminated)
        self.finished = [
            (int(i), float(info["game_return"][i]), int(info["game_length"][i]))
            for i in np.flatnonzero(game_over)
        ]
        self.recent_returns.extend(r for _, r, _ in self.finished)
        return obs, reward, terminated, truncated, info


def layer_init(layer: nn.Module, std: float = float(np.sqrt(2)), bias: float = 0.0) -> nn.Module:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


def make_agent(n_actions: int) -> nn.Module:
    class Agent(nn.Module):
        """The Nature DQN torso (4 stacked 84x84 frames) with a policy and a value head."""

        def __init__(self) -> None:
            super().__init__()
            self.torso = nn.Sequential(
                layer_init(nn.Conv2d(4, 32, 8, stride=4)),
                nn.ReLU(),
                layer_init(nn.Conv2d(32, 64, 4, stride=2)),
                nn.ReLU(),
                layer_init(nn.Conv2d(64, 64, 3, stride=1)),
                nn.ReLU(),
                nn.Flatten(),
                layer_init(nn.Linear(64 * 7 * 7, 512)),
                nn.ReLU(),
            )
            self.actor = layer_init(nn.Linear(512, n_actions), std=0.01)
            self.critic = layer_init(nn.Linear(512, 1), std=1.0)

        def value(self, obs: torch.Tensor) -> torch.Tensor:
            return self.critic(self.torso(obs / 255.0)).squeeze(-1)

        def act(
            self, obs: torch.Tensor, action: torch.Tensor | None = None
        ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
            hidden = self.torso(obs / 255.0)
            dist = torch.distributions.Categorical(logits=self.actor(hidden))
            if action is None:
                action = dist.sample()
            return action, dist.log_prob(action), dist.entropy(), self.critic(hidden).squeeze(-1)

    return Agent()


def advantages_and_returns(
    args: Args,
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    next_value: torch.Tensor,
    next_done: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """GAE(lambda) over the rollout; an ended episode is not bootstrapped."""
    advantages = torch.zeros_like(rewards)
    last = torch.zeros(args.num_envs)
    for t in reversed(range(args.num_steps)):
        next_nonterminal = 1.0 - (next_done if t == args.num_steps - 1 else dones[t + 1])
        next_values = next_value if t == args.num_steps - 1 else values[t + 1]
        delta = rewards[t] + args.gamma * next_values * next_nonterminal - values[t]
        last = delta + args.gamma * args.gae_lambda * next_nonterminal * last
        advantages[t] = last
    return advantages, advantages + values


def train(args: Args) -> None:
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    envs = envpool.make(
        args.env_id,
        num_envs=args.num_envs,
        seed=args.seed,
        episodic_life=True,
        reward_clip=True,
    )
    envs = RecordGames(envs)
    assert isinstance(envs.single_action_space, gym.spaces.Discrete)
    agent = make_agent(int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    num_iterations = max(1, args.total_timesteps // batch_size)
    obs_shape = envs.single_observation_space.shape
    obs = torch.zeros((args.num_steps, args.num_envs, *obs_shape))
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    dones = torch.zeros((args.num_steps, args.num_envs))
    values = torch.zeros((args.num_steps, args.num_envs))

    print(
        f"{args.env_id}: {args.num_envs} envs, obs {obs_shape}, "
        f"{envs.single_action_space.n} actions, "
        f"{num_iterations} PPO iterations of {batch_size} steps"
    )
    global_step = 0
    games = 0
    start = time.time()
    next_obs = torch.as_tensor(envs.reset(seed=args.seed)[0])
    next_done = torch.zeros(args.num_envs)
    for iteration in range(1, num_iterations + 1):
        if args.anneal_lr:
            frac = 1.0 - (iteration - 1.0) / num_iterations
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate

        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.act(next_obs)
            actions[step], logprobs[step], values[step] = action, logprob, value
            obs_np, reward, terminated, truncated, _ = envs.step(action.numpy())
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs = torch.as_tensor(obs_np)
            next_done = torch.as_tensor(terminated | truncated, dtype=torch.float32)
            for env_index, game_return, game_length in envs.finished:
                games += 1
                print(
                    f"step {global_step}: env {env_index} finished a game, "
                    f"return {game_return:.0f} in {game_length} steps"
                )

        with torch.no_grad():
            next_value = agent.value(next_obs)
        advantages, returns = advantages_and_returns(
            args, rewards, values, dones, next_value, next_done
        )
        # In the default autoreset mode (next_step), the step after an episode's end
        # acts on its last observation and only resets the env: leave it out.
        valid = (1.0 - dones).reshape(-1)
        b_obs = obs.reshape((-1, *obs_shape))
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns = advantages.reshape(-1), returns.reshape(-1)

        for _ in range(args.update_epochs):
            for mb in torch.randperm(batch_size).split(minibatch_size):
                _, newlogprob, entropy, newvalue = agent.act(b_obs[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(
                    -adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                )
                v_loss = 0.5 * (newvalue - b_returns[mb]) ** 2
                per_step = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
                weight = valid[mb]
                loss = (per_step * weight).sum() / weight.sum().clamp(min=1.0)
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        recent = envs.recent_returns
        mean_return = f"{np.mean(recent):.1f}" if recent else "none finished yet"
        print(
            f"iteration {iteration}/{num_iterations}: step {global_step}, "
            f"loss {loss.item():.4f}, mean game return {mean_return}, "
            f"SPS {int(global_step / (time.time() - start))}"
        )
    envs.close()
    print(f"trained on {global_step} steps; {games} games finished")


def main(argv: list[str]) -> int:
    if torch is None:
        print("skipped: torch not installed; pip install 'envpool[examples]'")
        return 0
    train(parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

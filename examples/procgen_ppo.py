"""PPO on Procgen's StarpilotEasy-v0 with PyTorch (CPU), stepping envpool's Procgen pool.

    python examples/procgen_ppo.py                               # 1.5M env steps (~11 min)
    python examples/procgen_ppo.py --total-timesteps 300000      # a shorter curve
    python examples/procgen_ppo.py --smoke                       # 4,096 steps, checks nothing

It prints a random policy's mean return on the same game first, then the learning curve:
the mean return of the training episodes that ended in each window of --log-every env
steps, against env steps.

Starpilot, easy mode: a side-scrolling shooter, reward 1 per enemy destroyed and 10 for
reaching the end of the level. The envs play procgen's unlimited level distribution
(num_levels=0), so no level comes twice and the curve measures generalisation as well
as training. Of the easy games suggested for a CPU budget, starpilot is the one whose
return rose within 300k steps here (a destroyed enemy pays at once): with this script's
settings (64 envs then), one seed each, the last 50k-step window against a random
policy was starpilot 3.03 (random 1.47), fruitbot -1.60 (random -2.54), bigfish 0.88
(random 0.76, no rise).

The network is a Nature-DQN-style body narrowed for the 64x64 frames (convolutions of
16, 32 and 32 channels, a 256-unit layer) with a policy and a value head. The Procgen
paper's IMPALA-CNN (15 convolutions in residual blocks) costs about 40 times as much per
frame on a CPU: fewer than 100 steps per second on 2 cores.

Episode ends: procgen's episodes end with ``terminated`` (the agent died or finished the
level) or ``truncated`` (the level's time limit, 1000 steps). In envpool's default
autoreset mode, "next_step", the step after an end is a reset step: its action is
ignored, its reward is 0, and it returns the next level's first frame. Those steps are
left out of the loss; an episode's return is the sum of its rewards up to its
``terminated | truncated`` step. GAE cuts its trace at every end, and bootstraps a
truncated episode (not a terminated one) with the value of its last frame, the
observation the reset step was taken from.

Result. The default run (seed 1; 1,501,184 env steps in 670 s, about 2,200 steps per
second, on the shared 2-core development machine with other jobs running, torch 2.13
CPU, 2026-11-29); the mean return of the 461 to 558 episodes that ended in each 50k-step
window, every other window shown:

    env steps       51k  100k  201k  301k  401k  502k  600k  700k  801k  901k
    mean return    2.14  2.87  3.28  3.33  3.03  2.94  3.12  3.29  3.62  3.92

    env steps      1.0M  1.1M  1.2M  1.3M  1.4M  1.5M
    mean return    3.82  3.68  3.07  3.27  3.78  3.54

The random policy's mean return on the same game was 1.38 over 500 episodes (1.36 +-
0.08 over 500 more, another seed). So the return is 2.4 times the random one by 200k
steps, peaks at 4.06 (2.9 times) at 852k, and then hovers between 3 and 4 up to 1.5M
steps; it does not go on rising in this budget (the Procgen paper trains for 25M
steps). Neither a learning rate of 1e-3 nor scaling rewards by the running std of the
discounted return did better over the first 300k to 500k steps.

It needs torch: pip install "envpool[examples]".
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from typing import Any

import numpy as np

import envpool

try:
    import torch
    from torch import nn
except ImportError:
    print("skipped: torch not installed; pip install 'envpool[examples]'")
    sys.exit(0)


def layer_init(layer: nn.Module, std: float = float(np.sqrt(2))) -> nn.Module:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.zeros_(layer.bias)
    return layer


class Agent(nn.Module):
    """Three convolutions over the 64x64 RGB frame, a 256-unit layer, a policy head over
    procgen's 15 actions and a value head."""

    def __init__(self, n_actions: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            layer_init(nn.Conv2d(3, 16, 8, stride=4)),  # -> 16 x 15 x 15
            nn.ReLU(),
            layer_init(nn.Conv2d(16, 32, 4, stride=2)),  # -> 32 x 6 x 6
            nn.ReLU(),
            layer_init(nn.Conv2d(32, 32, 3, stride=1)),  # -> 32 x 4 x 4
            nn.ReLU(),
            nn.Flatten(),
            layer_init(nn.Linear(32 * 4 * 4, 256)),
            nn.ReLU(),
        )
        self.policy_head = layer_init(nn.Linear(256, n_actions), std=0.01)
        self.value_head = layer_init(nn.Linear(256, 1), std=1.0)

    def forward(self, obs: torch.Tensor) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        # (batch, 64, 64, 3) uint8 frames, height-width-channel -> (batch, 3, 64, 64) in [0, 1]
        h = self.body(obs.permute(0, 3, 1, 2).float() / 255.0)
        logits = self.policy_head(h)
        return torch.distributions.Categorical(logits=logits), self.value_head(h).squeeze(-1)


def random_return(task: str, args: argparse.Namespace) -> tuple[float, int]:
    """Mean return of a uniformly random policy over --random-episodes episodes of the
    same task and levels (seeds not used in training), and how many episodes that is."""
    env = envpool.make(
        task, num_envs=args.num_envs, seed=args.seed + 10_000, num_levels=args.num_levels
    )
    env.reset()
    n = args.num_envs
    rng = np.random.default_rng(args.seed)
    running = np.zeros(n)
    ended: list[float] = []
    while len(ended) < args.random_episodes:
        _, reward, terminated, truncated, _ = env.step(rng.integers(0, 15, n))
        running += reward  # a reset step's reward is 0
        for i in np.flatnonzero(terminated | truncated):
            ended.append(float(running[i]))
            running[i] = 0.0
    env.close()
    return float(np.mean(ended)), len(ended)


def ppo_update(
    agent: Agent, optimizer: Any, batch: dict[str, torch.Tensor], args: argparse.Namespace
) -> None:
    """--epochs passes over the rollout in --minibatches shuffled minibatches."""
    size = batch["obs"].shape[0]  # less than num_envs * num_steps: reset steps are left out
    for _ in range(args.epochs):
        for idx in torch.randperm(size).chunk(args.minibatches):  # sizes differ by 1 at most
            dist, value = agent(batch["obs"][idx])
            ratio = torch.exp(dist.log_prob(batch["action"][idx]) - batch["logp"][idx])
            adv = batch["adv"][idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            clipped = torch.clamp(ratio, 1 - args.clip, 1 + args.clip)
            surrogate = torch.min(ratio * adv, clipped * adv)
            value_loss = 0.5 * (value - batch["ret"][idx]).pow(2).mean()
            entropy = dist.entropy().mean()
            loss = -surrogate.mean() + args.vf_coef * value_loss - args.ent_coef * entropy
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
            optimizer.step()


def train(
    args: argparse.Namespace,
) -> tuple[list[tuple[int, float, int]], list[float], int, float]:
    """Trains for --total-timesteps env steps; returns the curve (env steps, mean return
    of the episodes that ended in the window, how many), the returns of the last (up to
    100) training episodes, the env steps taken and the seconds."""
    torch.manual_seed(args.seed)
    env = envpool.make(
        args.task, num_envs=args.num_envs, seed=args.seed, num_levels=args.num_levels
    )
    agent = Agent(int(env.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    n, t = args.num_envs, args.num_steps
    obs_buf = torch.zeros((t, n, 64, 64, 3), dtype=torch.uint8)
    actions = torch.zeros((t, n), dtype=torch.long)
    logps, values, rewards = torch.zeros((t, n)), torch.zeros((t, n)), torch.zeros((t, n))
    terminal, ended, valid = torch.zeros((t, n)), torch.zeros((t, n)), torch.zeros((t, n))

    obs = torch.from_numpy(env.reset()[0])
    resetting = np.zeros(n, dtype=bool)  # the next step of these envs is a reset step
    running = np.zeros(n)
    window: list[float] = []
    last: deque[float] = deque(maxlen=100)
    curve: list[tuple[int, float, int]] = []
    steps, next_log, start = 0, args.log_every, time.perf_counter()
    while steps < args.total_timesteps:
        for k in range(t):
            with torch.no_grad():
                dist, value = agent(obs)
                action = dist.sample()
            obs_buf[k], actions[k], values[k] = obs, action, value
            logps[k] = dist.log_prob(action)
            valid[k] = torch.from_numpy(~resetting)
            obs_np, reward, terminated, truncated, _ = env.step(action.numpy())
            done = terminated | truncated
            rewards[k] = torch.from_numpy(reward)
            terminal[k] = torch.from_numpy(terminated)
            ended[k] = torch.from_numpy(done)
            running += reward
            for i in np.flatnonzero(done):
                window.append(float(running[i]))
                last.append(float(running[i]))
                running[i] = 0.0
            resetting = done
            obs = torch.from_numpy(obs_np)
        steps += n * t
        with torch.no_grad():
            following = agent(obs)[1]
        # GAE. Where step k ended an episode, step k + 1 is its reset step, taken from the
        # episode's last frame: values[k + 1] is that frame's value, the bootstrap of a
        # truncated episode; the trace stops there either way.
        adv = torch.zeros((t, n))
        carry = torch.zeros(n)
        for k in reversed(range(t)):
            delta = rewards[k] + args.gamma * (1.0 - terminal[k]) * following - values[k]
            carry = delta + args.gamma * args.lam * (1.0 - ended[k]) * carry
            adv[k] = carry
            following = values[k]
        keep = valid.reshape(-1) > 0  # reset steps: action unused, not trained on
        batch = {
            "obs": obs_buf.reshape(t * n, 64, 64, 3)[keep],
            "action": actions.reshape(-1)[keep],
            "logp": logps.reshape(-1)[keep],
            "adv": adv.reshape(-1)[keep],
            "ret": (adv + values).reshape(-1)[keep],
        }
        ppo_update(agent, optimizer, batch, args)
        if steps >= next_log or steps >= args.total_timesteps:
            while next_log <= steps:
                next_log += args.log_every
            if window:
                curve.append((steps, float(np.mean(window)), len(window)))
                print(
                    f"{steps:>9} env steps  {time.perf_counter() - start:6.0f} s  "
                    f"mean return {np.mean(window):6.2f} over {len(window):4} episodes",
                    flush=True,
                )
            window.clear()
    env.close()
    return curve, list(last), steps, time.perf_counter() - start


SETTINGS: dict[str, tuple[int | float | str, str]] = {
    "task": ("StarpilotEasy-v0", "the Procgen task (any <Game>Easy-v0 fits the network)"),
    "num_levels": (0, "procgen's num_levels: 0 is unlimited levels"),
    "total_timesteps": (1_500_000, "env steps"),
    "num_envs": (32, "envs in the pool"),
    "num_steps": (64, "rollout length per env"),
    "learning_rate": (5e-4, "Adam's step size"),
    "gamma": (0.99, "discount"),
    "lam": (0.95, "GAE's lambda"),
    "minibatches": (8, "minibatches per epoch"),
    "epochs": (3, "passes over each rollout"),
    "clip": (0.2, "PPO's ratio clip"),
    "ent_coef": (0.01, "entropy bonus"),
    "vf_coef": (0.5, "value loss weight"),
    "max_grad_norm": (0.5, "gradient norm clip"),
    "random_episodes": (500, "episodes of the random policy's baseline"),
    "log_every": (50_000, "env steps between points of the curve"),
    "torch_threads": (1, "torch's intra-op threads (one is faster on a busy 2-core machine)"),
    "seed": (1, "seed of the training pool and of torch"),
}
"""The command line: --total-timesteps etc., each with its default and what it sets."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, (default, meaning) in SETTINGS.items():
        flag = "--" + name.replace("_", "-")
        parser.add_argument(flag, type=type(default), default=default, help=meaning)
    parser.add_argument("--smoke", action="store_true", help="4,096 steps, checks nothing")
    args = parser.parse_args()
    if args.smoke:
        args.num_envs, args.num_steps, args.total_timesteps = 16, 64, 4096
        args.log_every, args.random_episodes = 2048, 16

    torch.set_num_threads(args.torch_threads)
    baseline, episodes = random_return(args.task, args)
    print(f"{args.task}: random policy, mean return {baseline:.2f} over {episodes} episodes")
    _, last, steps, seconds = train(args)
    mean_last = f"{np.mean(last):.2f}" if last else "none ended"
    print(
        f"trained {steps} env steps in {seconds:.0f} s; mean return of the last "
        f"{len(last)} training episodes {mean_last} (random policy {baseline:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""PPO on Procgen's StarpilotEasy-v0 with PyTorch (CPU), stepping envpool's Procgen pool.

    python examples/procgen_ppo.py                   # 200k env steps, prints the return curve
    python examples/procgen_ppo.py --steps 1000000   # longer
    python examples/procgen_ppo.py --smoke           # two small iterations, checks nothing

Starpilot: a side-scrolling shooter; the reward is 1 per enemy shot down (and 10 for
reaching the end), so returns rise as soon as the policy learns to aim. The envs play
procgen's unlimited level distribution (num_levels=0, easy mode), so every episode is
a new level and the curve measures generalisation as well as training. The network is a
small convolutional body (three conv layers over the 64x64 RGB frame) with a policy and
a value head; PPO with GAE, clipped objective, 4 epochs of 4 minibatches.

The curve is the mean return of the training episodes that ended in each logging
window, against env steps. The procgen library comes from procgen's wheel on the first
make (docs/procgen.md). It needs torch: pip install "envpool[examples]".
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import envpool

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover - the example's own dependency
    sys.exit('this example needs torch: pip install "envpool[examples]"')


class Agent(nn.Module):
    def __init__(self, num_actions: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 8, stride=4),
            nn.ReLU(),
            nn.Conv2d(16, 32, 4, stride=2),
            nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(32 * 4 * 4, 256),
            nn.ReLU(),
        )
        self.policy = nn.Linear(256, num_actions)
        self.value = nn.Linear(256, 1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        # (batch, 64, 64, 3) uint8 frames -> (batch, 3, 64, 64) floats in [0, 1]
        hidden = self.body(obs.permute(0, 3, 1, 2).float() / 255.0)
        return self.policy(hidden), self.value(hidden).squeeze(-1)


def train(args: argparse.Namespace) -> list[tuple[int, float]]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    env = envpool.make(args.task, num_envs=args.num_envs, seed=args.seed, num_levels=0)
    agent = Agent(env.single_action_space.n)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    n, t = args.num_envs, args.num_steps
    obs_buf = torch.zeros((t, n, 64, 64, 3), dtype=torch.uint8)
    actions = torch.zeros((t, n), dtype=torch.long)
    logprobs, rewards, values = torch.zeros((t, n)), torch.zeros((t, n)), torch.zeros((t, n))
    dones, valid = torch.zeros((t, n)), torch.zeros((t, n))

    obs, _ = env.reset()
    obs_t = torch.from_numpy(obs.copy())
    resetting = np.zeros(n, dtype=bool)  # next step is next_step autoreset's reset step
    returns = np.zeros(n)
    ended: list[float] = []
    curve: list[tuple[int, float]] = []
    steps, next_log = 0, args.log_every
    start = time.time()
    while steps < args.steps:
        for k in range(t):
            with torch.no_grad():
                logits, value = agent(obs_t)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            obs_buf[k], actions[k], values[k] = obs_t, action, value
            logprobs[k] = dist.log_prob(action)
            # a reset step's action is unused and its result is a first frame: it is
            # kept out of the loss
            valid[k] = torch.from_numpy(~resetting).float()
            obs, reward, terminated, truncated, _ = env.step(action.numpy())
            done = terminated | truncated
            rewards[k] = torch.from_numpy(reward).float()
            dones[k] = torch.from_numpy(done).float()
            returns += reward
            for i in np.flatnonzero(done):
                ended.append(float(returns[i]))
                returns[i] = 0.0
            resetting = done
            obs_t = torch.from_numpy(obs.copy())
            steps += n
        with torch.no_grad():
            _, next_value = agent(obs_t)
        advantages = torch.zeros((t, n))
        gae = torch.zeros(n)
        for k in reversed(range(t)):
            following = next_value if k == t - 1 else values[k + 1]
            not_done = 1.0 - dones[k]
            delta = rewards[k] + args.gamma * following * not_done - values[k]
            gae = delta + args.gamma * args.gae_lambda * not_done * gae
            advantages[k] = gae
        targets = advantages + values
        flat = {
            "obs": obs_buf.reshape(t * n, 64, 64, 3),
            "actions": actions.reshape(-1),
            "logprobs": logprobs.reshape(-1),
            "advantages": advantages.reshape(-1),
            "targets": targets.reshape(-1),
            "valid": valid.reshape(-1),
        }
        keep = flat["valid"] > 0
        batch = {k: v[keep] for k, v in flat.items()}
        size = int(keep.sum())
        for _ in range(args.epochs):
            order = torch.randperm(size)
            for chunk in order.chunk(args.minibatches):
                logits, value = agent(batch["obs"][chunk])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(batch["actions"][chunk]) - batch["logprobs"][chunk]).exp()
                adv = batch["advantages"][chunk]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = -torch.min(
                    ratio * adv, ratio.clamp(1 - args.clip, 1 + args.clip) * adv
                ).mean()
                value_loss = 0.5 * (value - batch["targets"][chunk]).pow(2).mean()
                loss = policy_loss + 0.5 * value_loss - args.entropy * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        if steps >= next_log and ended:
            mean = float(np.mean(ended))
            curve.append((steps, mean))
            print(
                f"{steps:>9,} env steps  mean return {mean:6.2f} over {len(ended):4} episodes"
                f"  ({time.time() - start:5.0f} s)",
                flush=True,
            )
            ended.clear()
            next_log += args.log_every
    env.close()
    return curve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="StarpilotEasy-v0")
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--num-envs", type=int, default=32)
    parser.add_argument("--num-steps", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--log-every", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="two small iterations")
    args = parser.parse_args(argv)
    if args.smoke:
        args.num_envs, args.num_steps, args.steps, args.log_every = 8, 16, 256, 1
        args.epochs = 1
    train(args)


if __name__ == "__main__":
    main()

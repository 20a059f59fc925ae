"""PPO on CartPole-v1 with PyTorch (CPU), stepping envpool through the gymnasium API.

    python examples/ppo_cartpole.py                              # a short smoke run (~10 s)
    python examples/ppo_cartpole.py --total-timesteps 500000     # trains until solved

The full run stops as soon as the mean return of the last 100 finished episodes
reaches 475 (CartPole-v1's reward threshold), then evaluates the greedy policy.
It needs torch: pip install "envpool[examples]".

The pool runs in autoreset_mode="same_step": when an episode ends, step() returns
the next episode's first observation and keeps the last one in
info["final_obs"], so a rollout needs no special case for resets, and a
truncated episode can be bootstrapped from the value of its final observation.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque

import numpy as np

import envpool

try:
    import torch
    from torch import nn
except ImportError:
    torch = None


def build_agent(obs_dim: int, n_actions: int) -> nn.Module:
    def layer(n_in: int, n_out: int, gain: float) -> nn.Linear:
        lin = nn.Linear(n_in, n_out)
        nn.init.orthogonal_(lin.weight, gain)
        nn.init.zeros_(lin.bias)
        return lin

    class Agent(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            root2 = float(np.sqrt(2))
            self.actor = nn.Sequential(
                layer(obs_dim, 64, root2),
                nn.Tanh(),
                layer(64, 64, root2),
                nn.Tanh(),
                layer(64, n_actions, 0.01),
            )
            self.critic = nn.Sequential(
                layer(obs_dim, 64, root2),
                nn.Tanh(),
                layer(64, 64, root2),
                nn.Tanh(),
                layer(64, 1, 1.0),
            )

        def value(self, obs: torch.Tensor) -> torch.Tensor:
            return self.critic(obs).squeeze(-1)

        def policy(self, obs: torch.Tensor) -> torch.distributions.Categorical:
            return torch.distributions.Categorical(logits=self.actor(obs))

    return Agent()


def evaluate(agent: nn.Module, episodes: int, seed: int) -> np.ndarray:
    """Returns of one greedy episode in each of `episodes` fresh envs."""
    env = envpool.make("CartPole-v1", num_envs=episodes, seed=seed, autoreset_mode="disabled")
    obs, _ = env.reset()
    returns = np.zeros(episodes)
    running = np.ones(episodes, dtype=bool)
    while running.any():
        with torch.no_grad():
            action = agent.actor(torch.as_tensor(obs)).argmax(-1).numpy()
        ids = np.flatnonzero(running)
        obs_part, reward, terminated, truncated, _ = env.step(action[ids], env_id=ids)
        obs = obs.copy()
        obs[ids] = obs_part
        returns[ids] += reward
        running[ids[terminated | truncated]] = False
    env.close()
    return returns


def train(args: argparse.Namespace) -> tuple[nn.Module, float, int, float]:
    """Trains; returns (agent, mean of the last 100 returns, env steps taken, seconds)."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # a 64-unit MLP is faster on one thread than split across cores
    env = envpool.make(
        "CartPole-v1", num_envs=args.num_envs, seed=args.seed, autoreset_mode="same_step"
    )
    obs_dim = env.single_observation_space.shape[0]
    agent = build_agent(obs_dim, int(env.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    n, t_len = args.num_envs, args.num_steps
    batch = n * t_len
    minibatch = batch // args.num_minibatches
    iterations = max(1, args.total_timesteps // batch)
    obs_buf = torch.zeros((t_len, n, obs_dim))
    act_buf = torch.zeros((t_len, n), dtype=torch.long)
    logp_buf = torch.zeros((t_len, n))
    rew_buf = torch.zeros((t_len, n))
    done_buf = torch.zeros((t_len, n))
    val_buf = torch.zeros((t_len, n))

    obs_np, _ = env.reset()
    obs = torch.as_tensor(obs_np)
    episode_return = np.zeros(n)
    recent: deque[float] = deque(maxlen=100)
    steps, start = 0, time.perf_counter()
    mean_return = 0.0
    for it in range(iterations):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - it / iterations)
        for t in range(t_len):
            with torch.no_grad():
                dist = agent.policy(obs)
                action = dist.sample()
                val_buf[t] = agent.value(obs)
            obs_buf[t], act_buf[t], logp_buf[t] = obs, action, dist.log_prob(action)
            obs_np, reward, terminated, truncated, info = env.step(action.numpy())
            episode_return += reward
            shaped = reward.astype(np.float32)
            cut = np.flatnonzero(truncated & ~terminated)
            if len(cut):  # a time limit, not a failure: bootstrap from the final obs's value
                with torch.no_grad():
                    tail = agent.value(torch.as_tensor(info["final_obs"][cut])).numpy()
                shaped[cut] += args.gamma * tail
            done = terminated | truncated
            rew_buf[t] = torch.as_tensor(shaped)
            done_buf[t] = torch.as_tensor(done, dtype=torch.float32)
            obs = torch.as_tensor(obs_np)
            for i in np.flatnonzero(done):
                recent.append(episode_return[i])
                episode_return[i] = 0.0
        steps += batch

        with torch.no_grad():  # generalised advantage estimation
            next_value = agent.value(obs)
            adv = torch.zeros((t_len, n))
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                nv = next_value if t == t_len - 1 else val_buf[t + 1]
                alive = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * nv * alive - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * alive * last
                adv[t] = last
            ret = adv + val_buf

        b_obs, b_act = obs_buf.reshape(batch, obs_dim), act_buf.reshape(batch)
        b_logp, b_adv = logp_buf.reshape(batch), adv.reshape(batch)
        b_ret, b_val = ret.reshape(batch), val_buf.reshape(batch)
        for _ in range(args.update_epochs):
            order = torch.randperm(batch)
            for lo in range(0, batch, minibatch):
                idx = order[lo : lo + minibatch]
                dist = agent.policy(b_obs[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip))
                value = agent.value(b_obs[idx])
                v_clipped = b_val[idx] + (value - b_val[idx]).clamp(-args.clip, args.clip)
                v_loss = torch.max((value - b_ret[idx]) ** 2, (v_clipped - b_ret[idx]) ** 2)
                loss = (
                    pg_loss.mean()
                    + args.vf_coef * 0.5 * v_loss.mean()
                    - args.ent_coef * dist.entropy().mean()
                )
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        mean_return = float(np.mean(recent)) if recent else 0.0
        elapsed = time.perf_counter() - start
        if (it + 1) % args.log_every == 0 or it == iterations - 1:
            print(
                f"{steps:>8} steps  {elapsed:6.1f} s  {len(recent):>3} recent episodes  "
                f"mean return {mean_return:6.1f}",
                flush=True,
            )
        if args.target and len(recent) == recent.maxlen and mean_return >= args.target:
            print(f"reached a mean return of {mean_return:.1f} over the last 100 episodes")
            break
    env.close()
    return agent, mean_return, steps, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total-timesteps", type=int, default=16_384)
    parser.add_argument("--target", type=float, default=475.0, help="stop at this mean return")
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--num-steps", type=int, default=128, help="rollout length per env")
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--no-anneal-lr", dest="anneal_lr", action="store_false")
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--num-minibatches", type=int, default=4)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.0)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-every", type=int, default=10, help="iterations between logs")
    args = parser.parse_args()

    if torch is None:
        print("skipped: torch not installed; pip install 'envpool[examples]'")
        return 0
    agent, mean_return, steps, seconds = train(args)
    greedy = evaluate(agent, episodes=16, seed=args.seed + 1000)
    print(
        f"trained {steps} env steps in {seconds:.1f} s; mean return of the last 100 "
        f"episodes {mean_return:.1f}; greedy policy over 16 episodes: {greedy.mean():.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

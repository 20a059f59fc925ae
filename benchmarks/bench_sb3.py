"""SB3 PPO wall time on envpool against SB3's DummyVecEnv and SubprocVecEnv.

    python benchmarks/bench_sb3.py [--tasks cartpole pong] [--cartpole-steps 20000]
        [--pong-steps 5000] [--num-envs 8]

Each row trains one SB3 PPO model for the same number of env steps with the
same hyperparameters and seed; only the VecEnv differs. "env s" is the time
spent inside the VecEnv's reset and step calls, the rest is PPO's own work.
A second table gives the microseconds per step of the SB3 VecEnv against the
bare envpool pool it wraps, which is the Python overhead of the adapter.

- cartpole: MlpPolicy, rl-baselines3-zoo's CartPole-v1 hyperparameters.
  envpool: make_vec_env("CartPole-v1") under VecMonitor; SB3: gymnasium's
  CartPole-v1 through SB3's make_vec_env (each env under Monitor).
- pong: CnnPolicy, rl-baselines3-zoo's Atari hyperparameters. envpool: Pong-v5
  with episodic_life=True and reward_clip=True under VecMonitor; SB3:
  gymnasium's ALE/Pong-v5 with frameskip=1 and repeat_action_probability=0
  through SB3's make_atari_env (Monitor and AtariWrapper: up to 30 no-ops, fire
  reset, frame skip 4 with a max-pool, life loss ends an episode, 84x84 grey,
  clipped rewards) and VecFrameStack(4); PPO adds VecTransposeImage. envpool's
  Pong-v5 does the same preprocessing in C++ and gives channel-first frames.

torch runs on one thread; the machine may be shared, so compare rows of one run.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from typing import Any

import ale_py
import gymnasium as gym
import numpy as np
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_atari_env
from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env
from stable_baselines3.common.vec_env import (
    DummyVecEnv,
    SubprocVecEnv,
    VecEnv,
    VecEnvWrapper,
    VecFrameStack,
    VecMonitor,
)

from envpool.integrations.sb3 import make_vec_env

VEC_ENVS = ("envpool", "DummyVecEnv", "SubprocVecEnv")


class StepTimer(VecEnvWrapper):
    """Adds up the seconds spent in the wrapped VecEnv's reset and step calls."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self.seconds = 0.0

    def reset(self) -> Any:
        start = time.perf_counter()
        obs = self.venv.reset()
        self.seconds += time.perf_counter() - start
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        start = time.perf_counter()
        self.venv.step_async(actions)
        self.seconds += time.perf_counter() - start

    def step_wait(self) -> Any:
        start = time.perf_counter()
        result = self.venv.step_wait()
        self.seconds += time.perf_counter() - start
        return result


def _linear(start: float) -> Callable[[float], float]:
    return lambda progress_remaining: progress_remaining * start


def cartpole_env(vec_env: str, num_envs: int) -> VecEnv:
    if vec_env == "envpool":
        return VecMonitor(make_vec_env("CartPole-v1", num_envs, seed=0))
    cls = DummyVecEnv if vec_env == "DummyVecEnv" else SubprocVecEnv
    return sb3_make_vec_env("CartPole-v1", n_envs=num_envs, seed=0, vec_env_cls=cls)


def gymnasium_pong(**kwargs: Any) -> gym.Env:
    """gymnasium's ALE/Pong-v5; registers the ALE envs first, as SubprocVecEnv's
    worker processes have not."""
    gym.register_envs(ale_py)
    return gym.make("ALE/Pong-v5", **kwargs)


def pong_env(vec_env: str, num_envs: int) -> VecEnv:
    if vec_env == "envpool":
        pool = make_vec_env("Pong-v5", num_envs, seed=0, episodic_life=True, reward_clip=True)
        return VecMonitor(pool)
    cls = DummyVecEnv if vec_env == "DummyVecEnv" else SubprocVecEnv
    venv = make_atari_env(
        gymnasium_pong,
        n_envs=num_envs,
        seed=0,
        env_kwargs={"frameskip": 1, "repeat_action_probability": 0.0},
        vec_env_cls=cls,
    )
    return VecFrameStack(venv, n_stack=4)


TASKS: dict[str, tuple[str, Callable[[str, int], VecEnv], dict[str, Any]]] = {
    "cartpole": (
        "MlpPolicy",
        cartpole_env,
        {
            "n_steps": 32,
            "batch_size": 256,
            "gae_lambda": 0.8,
            "gamma": 0.98,
            "n_epochs": 20,
            "ent_coef": 0.0,
            "learning_rate": _linear(1e-3),
            "clip_range": _linear(0.2),
        },
    ),
    "pong": (
        "CnnPolicy",
        pong_env,
        {
            "n_steps": 128,
            "n_epochs": 4,
            "batch_size": 256,
            "learning_rate": _linear(2.5e-4),
            "clip_range": _linear(0.1),
            "vf_coef": 0.5,
            "ent_coef": 0.01,
        },
    ),
}


def train(task: str, vec_env: str, num_envs: int, steps: int) -> dict[str, Any]:
    policy, make_env, hyperparameters = TASKS[task]
    venv = StepTimer(make_env(vec_env, num_envs))
    model = PPO(policy, venv, seed=0, device="cpu", **hyperparameters)
    start = time.perf_counter()
    model.learn(steps)
    wall = time.perf_counter() - start
    venv.close()
    return {
        "task": task,
        "policy": policy,
        "vec_env": vec_env,
        "steps": model.num_timesteps,
        "wall_s": wall,
        "env_s": venv.seconds,
    }


def step_microseconds(step: Callable[[np.ndarray], Any], actions: np.ndarray, n: int) -> float:
    for _ in range(100):
        step(actions)
    start = time.perf_counter()
    for _ in range(n):
        step(actions)
    return (time.perf_counter() - start) / n * 1e6


def step_overhead(num_envs: int, n: int = 20_000) -> str:
    """Microseconds per step of num_envs CartPoles (always pushing right, so
    episodes end every ~10 steps): the bare pool, the SB3 VecEnv over it, and
    SB3's DummyVecEnv (no Monitor) for scale."""
    actions = np.ones(num_envs, dtype=np.int64)
    lines = [f"| CartPole-v1 step, num_envs={num_envs} | us per step |", "|---|---:|"]
    for mode in ("same_step", "next_step"):
        venv = make_vec_env("CartPole-v1", num_envs, seed=0, num_threads=1, autoreset_mode=mode)
        venv.reset()
        bare = step_microseconds(venv.pool.step, actions, n)
        wrapped = step_microseconds(venv.step, actions, n)
        venv.close()
        lines.append(f"| envpool pool.step ({mode} pool) | {bare:.1f} |")
        lines.append(f"| envpool.integrations.sb3.VecEnv.step ({mode} pool) | {wrapped:.1f} |")
    dummy = DummyVecEnv([lambda: gym.make("CartPole-v1") for _ in range(num_envs)])
    dummy.reset()
    dummy_us = step_microseconds(dummy.step, actions, n // 10)
    dummy.close()
    lines.append(f"| SB3 DummyVecEnv.step over gymnasium CartPole-v1 | {dummy_us:.1f} |")
    return "\n".join(lines)


def markdown_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| task | policy | VecEnv | env steps | wall s | env s | steps/s | vs DummyVecEnv |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    baseline = {r["task"]: r["wall_s"] for r in rows if r["vec_env"] == "DummyVecEnv"}
    for r in rows:
        base = baseline.get(r["task"])
        ratio = f"{base / r['wall_s']:.2f}x" if base else "-"
        lines.append(
            f"| {r['task']} | {r['policy']} | {r['vec_env']} | {r['steps']} | "
            f"{r['wall_s']:.1f} | {r['env_s']:.1f} | {r['steps'] / r['wall_s']:.0f} | {ratio} |"
        )
    return "\n".join(lines)


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", choices=sorted(TASKS), default=["cartpole", "pong"])
    parser.add_argument("--vec-envs", nargs="+", choices=VEC_ENVS, default=list(VEC_ENVS))
    parser.add_argument("--cartpole-steps", type=int, default=20_000)
    parser.add_argument("--pong-steps", type=int, default=5_000)
    parser.add_argument("--num-envs", type=int, default=8)
    args = parser.parse_args()
    torch.set_num_threads(1)
    overhead = step_overhead(args.num_envs)

    steps = {"cartpole": args.cartpole_steps, "pong": args.pong_steps}
    rows = []
    for task in args.tasks:
        for vec_env in args.vec_envs:
            rows.append(train(task, vec_env, args.num_envs, steps[task]))
            print(f"done: {task} {vec_env} {rows[-1]['wall_s']:.1f} s", flush=True)
    print(
        f"\n{cpu_name()}, {os.cpu_count()} CPU cores, "
        f"torch {torch.__version__} on 1 thread, num_envs={args.num_envs}\n"
    )
    print(markdown_table(rows))
    print()
    print(overhead)


if __name__ == "__main__":
    main()

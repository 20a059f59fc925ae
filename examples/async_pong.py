"""An asynchronous rollout loop on Pong-v5, in the style of Sebulba / CleanRL's envpool PPO.

    python examples/async_pong.py                      # 2000 batches, a few seconds
    python examples/async_pong.py --batches 100000 --num-envs 32 --batch-size 16

The pool holds num_envs games but recv() hands back only the first batch_size to
finish, so the policy works on one batch while the worker threads step the
others. Actions go back to exactly the envs that were received, named by
info["env_id"]. The policy is a small, fixed numpy network (a stand-in for a
learner's); per-env bookkeeping is indexed by env_id, as a learner's trajectory
buffers would be.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import envpool


class LinearPolicy:
    """Softmax over a linear map of the newest frame, downsampled 4x (21 x 21 pixels)."""

    def __init__(self, n_actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.weights = rng.normal(0.0, 0.05, size=(21 * 21, n_actions)).astype(np.float32)
        self.rng = rng

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        frame = obs[:, -1, ::4, ::4].reshape(len(obs), -1).astype(np.float32) / 255.0
        logits = frame @ self.weights
        gumbel = -np.log(-np.log(self.rng.random(logits.shape, dtype=np.float32)))
        return (logits + gumbel).argmax(axis=1)  # a sample from softmax(logits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--num-threads", type=int, default=None)
    parser.add_argument("--batches", type=int, default=2000, help="recv() calls to make")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = envpool.make(
        "Pong-v5",
        num_envs=args.num_envs,
        batch_size=args.batch_size,
        num_threads=args.num_threads,
        seed=args.seed,
        episodic_life=False,
        reward_clip=True,
    )
    frame_skip = env.config["frame_skip"]
    policy = LinearPolicy(int(env.single_action_space.n), args.seed)

    episode_return = np.zeros(args.num_envs)  # raw game score, per env_id
    finished: list[tuple[float, int]] = []
    steps_per_env = np.zeros(args.num_envs, dtype=np.int64)

    env.async_reset()  # every env starts resetting; recv() returns the first batch_size
    start = time.perf_counter()
    for _ in range(args.batches):
        obs, reward, terminated, truncated, info = env.recv()
        env_id = info["env_id"]
        actions = policy(obs)
        env.send(actions, env_id)  # hand the envs back before any learning work

        steps_per_env[env_id] += 1
        episode_return[env_id] += info["reward"]  # unclipped score; `reward` is clipped
        for row in np.flatnonzero(terminated | truncated):
            i = env_id[row]
            finished.append((episode_return[i], int(info["elapsed_step"][row])))
            episode_return[i] = 0.0
    elapsed = time.perf_counter() - start
    env.close()

    steps = int(steps_per_env.sum())
    print(
        f"{steps} env steps ({steps * frame_skip} frames) in {elapsed:.1f} s: "
        f"{steps / elapsed:,.0f} steps/s, {steps * frame_skip / elapsed:,.0f} frames/s"
    )
    print(
        f"every env was stepped: min {steps_per_env.min()}, max {steps_per_env.max()} "
        f"steps per env ({args.num_envs} envs, {args.batch_size} per batch)"
    )
    if finished:
        scores = np.array([r for r, _ in finished])
        lengths = np.array([n for _, n in finished])
        print(
            f"{len(finished)} games finished: mean score {scores.mean():.1f}, "
            f"mean length {lengths.mean():.0f} steps"
        )
    else:
        print("no game finished yet (a Pong game lasts ~800+ steps): try --batches 20000")


if __name__ == "__main__":
    main()

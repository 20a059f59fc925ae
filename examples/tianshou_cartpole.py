"""Tianshou 2.x's PPO learns CartPole-v1 on envpool pools.

Tianshou's Collector drives the pools directly: it steps the ready envs with
``step(actions, env_ids)`` and resets only the envs whose episode ended with
``reset(env_id=ids)``. Training stops once the mean return of a test round of
TEST_EPISODES episodes reaches TARGET_RETURN (usually within 30k-60k env steps);
the script fails if it never does.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import torch
from tianshou.algorithm import PPO
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.trainer import OnPolicyTrainerParams
from tianshou.utils.net.common import ActorCritic, Net
from tianshou.utils.net.discrete import DiscreteActor, DiscreteCritic

import envpool

TARGET_RETURN = 195.0
TRAIN_ENVS = 8
TEST_EPISODES = 10
STEPS_PER_COLLECT = 1024
SEED = 0


def make_algorithm(observation_shape: tuple[int, ...], action_space: object) -> PPO:
    body = Net(state_shape=observation_shape, hidden_sizes=[64, 64])
    actor = DiscreteActor(preprocess_net=body, action_shape=int(action_space.n))
    critic = DiscreteCritic(preprocess_net=body)
    for layer in ActorCritic(actor, critic).modules():
        if isinstance(layer, torch.nn.Linear):
            torch.nn.init.orthogonal_(layer.weight)
            torch.nn.init.zeros_(layer.bias)
    policy = DiscreteActorPolicy(
        actor=actor,
        dist_fn=torch.distributions.Categorical,
        action_space=action_space,
        deterministic_eval=True,
    )
    return PPO(
        policy=policy,
        critic=critic,
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        gae_lambda=0.95,
        eps_clip=0.2,
        vf_coef=0.5,
        ent_coef=0.0,
        max_grad_norm=0.5,
        advantage_normalization=True,
    )


def main() -> None:
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    torch.set_num_threads(1)
    train_envs = envpool.make("CartPole-v1", num_envs=TRAIN_ENVS, seed=SEED)
    test_envs = envpool.make("CartPole-v1", num_envs=TEST_EPISODES, seed=SEED + 1000)
    algorithm = make_algorithm(
        train_envs.single_observation_space.shape, train_envs.single_action_space
    )
    train_collector = Collector[CollectStats](
        algorithm, train_envs, VectorReplayBuffer(STEPS_PER_COLLECT * 2, TRAIN_ENVS)
    )
    test_collector = Collector[CollectStats](algorithm, test_envs)

    start = time.perf_counter()
    result = algorithm.run_training(
        OnPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=10,
            epoch_num_steps=10_000,
            collection_step_num_env_steps=STEPS_PER_COLLECT,
            update_step_num_repetitions=4,
            batch_size=256,
            test_step_num_episodes=TEST_EPISODES,
            stop_fn=lambda mean_return: mean_return >= TARGET_RETURN,
            test_in_training=True,
            show_progress=False,
        )
    )
    seconds = time.perf_counter() - start
    train_envs.close()
    test_envs.close()
    print(
        f"PPO on envpool CartPole-v1: best mean test return {result.best_reward:.1f} over "
        f"{TEST_EPISODES} episodes after {train_collector.collect_step} env steps "
        f"in {seconds:.0f} s (target {TARGET_RETURN:.0f})"
    )
    if result.best_reward < TARGET_RETURN:
        raise SystemExit(f"PPO did not reach a mean test return of {TARGET_RETURN:.0f}")


if __name__ == "__main__":
    main()

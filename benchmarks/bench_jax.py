"""JAX-driven env steps/s: env.xla() in a jitted lax.scan against the other ways to step from JAX.

    python benchmarks/bench_jax.py [--tasks CartPole-v1 Pong-v5] [--workloads random ppo]
        [--variants xla python pure_callback io_callback original] [--num-envs 8]
        [--num-threads 2] [--seconds 5] [--rounds 3] [--peer-python /path/to/python]
        [--json out.json]

Every variant steps `envpool.make(task, env_type="gymnasium", num_envs=N, batch_size=N,
num_threads=T, seed=0)` (sync mode), one pool of its own per task, workload and variant:

- xla: `handle, recv, send, step = env.xla()`; a jitted `lax.scan` calls `step` with the
  handle in its carry (the handle orders the env calls).
- python: a Python for-loop calling `env.step(np.asarray(action))` and converting obs,
  reward, terminated and truncated with `jnp.asarray`; the action comes from jitted code.
- pure_callback: the xla variant's jitted scan with `jax.pure_callback` around `env.step`.
  This is what many users write, but it is not correct for a side-effecting call: JAX may
  drop a pure callback whose results are unused, run it more than once (e.g. under
  remat or vmap) or reorder calls that do not depend on each other. It works here only
  because every call's results feed the scan carry.
- io_callback: the same with `jax.experimental.io_callback(..., ordered=True)`, the
  correct way to run a host side effect from jitted code (ordered: the calls run in
  program order).
- original: the xla variant under the original EnvPool, in another Python given by
  --peer-python: this script is started there with --peer-worker and measures the
  xla variant on request (one long-lived process, so it compiles once).

Workloads (env steps/s = num_envs x env steps per second, with all the work included):

- random: a random policy, actions drawn with jax.random in the loop / scan, --scan-length
  steps per jitted call (per Python loop of the python variant).
- ppo: PPO iterations: a rollout of --rollout-length steps with a small policy network
  sampling the actions (CartPole: a 64x64 tanh MLP; Pong: conv 16@8x8/4, conv 32@4x4/2,
  dense 256 on the uint8 4x84x84 frames), then --ppo-epochs epochs of --ppo-minibatches
  Adam steps on the clipped PPO loss over the batch. The xla and callback variants jit
  the whole iteration; the python variant jits the action sampling and the update.

Every case is built, compiled and run once before the timing starts; each measurement
then runs one more call as a warm-up and times whole calls for about --seconds. Each
round measures every variant once (in an order rotated every round), so the noise of a
shared machine hits them alike; the tables show the median over the rounds (range), and
ratios are the medians of the per-round ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

VARIANTS = ("xla", "python", "pure_callback", "io_callback", "env_only", "original")
REFERENCE = "env_only"
"""The pool stepped from Python with numpy actions and no JAX at all (random workload
only): what stepping the env costs by itself, the ceiling of every variant; it is not
one of the ways to step from JAX, so it takes no part in "best other"."""
LOCAL_VARIANTS = VARIANTS[:-1]
WORKLOADS = ("random", "ppo")
DEFAULT_TASKS = ("CartPole-v1", "Pong-v5")
DEFAULT_NUM_ENVS = {"CartPole-v1": 8, "Pong-v5": 8}
FALLBACK_NUM_ENVS = 8
RESULT = "RESULT "
"""The prefix of the peer worker's answer lines on its stdout."""

Params = dict[str, dict[str, jax.Array]]
Outputs = tuple[jax.Array, jax.Array, jax.Array, jax.Array]
"""obs, reward, terminated, truncated of one batched env step."""
StepFn = Callable[[Any, jax.Array], tuple[Any, Outputs]]
"""(token, action) -> (token, outputs): one env step inside jitted code."""


@dataclass(frozen=True)
class Config:
    """One case of the benchmark, apart from the variant (JSON-able, sent to the peer)."""

    task: str
    workload: str
    num_envs: int
    num_threads: int
    scan_length: int = 128
    rollout_length: int = 128
    ppo_epochs: int = 1
    ppo_minibatches: int = 4

    @property
    def steps_per_call(self) -> int:
        length = self.scan_length if self.workload == "random" else self.rollout_length
        return self.num_envs * length


# ---------------------------------------------------------------- the policy network


def _dense_init(key: jax.Array, n_in: int, n_out: int, scale: float) -> dict[str, jax.Array]:
    w = jax.random.normal(key, (n_in, n_out), jnp.float32) * (scale / np.sqrt(n_in))
    return {"w": w, "b": jnp.zeros(n_out, jnp.float32)}


def _conv_init(
    key: jax.Array, size: int, c_in: int, c_out: int, scale: float
) -> dict[str, jax.Array]:
    shape = (size, size, c_in, c_out)  # HWIO
    w = jax.random.normal(key, shape, jnp.float32) * (scale / np.sqrt(size * size * c_in))
    return {"w": w, "b": jnp.zeros(c_out, jnp.float32)}


def init_policy(key: jax.Array, obs_shape: tuple[int, ...], num_actions: int) -> Params:
    """A CNN trunk for (C, H, W) frames, a 64x64 MLP for flat observations; two heads."""
    keys = jax.random.split(key, 5)
    relu_gain = float(np.sqrt(2.0))
    params: Params = {}
    if len(obs_shape) == 3:
        channels, height, width = obs_shape
        params["conv1"] = _conv_init(keys[0], 8, channels, 16, relu_gain)
        params["conv2"] = _conv_init(keys[1], 4, 16, 32, relu_gain)
        h, w = (height - 8) // 4 + 1, (width - 8) // 4 + 1
        h, w = (h - 4) // 2 + 1, (w - 4) // 2 + 1
        params["dense"] = _dense_init(keys[2], h * w * 32, 256, relu_gain)
        hidden = 256
    else:
        params["mlp1"] = _dense_init(keys[0], int(np.prod(obs_shape)), 64, relu_gain)
        params["mlp2"] = _dense_init(keys[1], 64, 64, relu_gain)
        hidden = 64
    params["pi"] = _dense_init(keys[3], hidden, num_actions, 0.01)
    params["v"] = _dense_init(keys[4], hidden, 1, 1.0)
    return params


def _conv(x: jax.Array, layer: dict[str, jax.Array], stride: int) -> jax.Array:
    y = jax.lax.conv_general_dilated(
        x, layer["w"], (stride, stride), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )
    return y + layer["b"]


def _dense(x: jax.Array, layer: dict[str, jax.Array]) -> jax.Array:
    return x @ layer["w"] + layer["b"]


def policy_value(params: Params, obs: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Action logits [B, A] and state values [B] of a batch of observations."""
    if "conv1" in params:
        x = jnp.transpose(obs.astype(jnp.float32) / 255.0, (0, 2, 3, 1))  # NCHW -> NHWC
        x = jax.nn.relu(_conv(x, params["conv1"], 4))
        x = jax.nn.relu(_conv(x, params["conv2"], 2))
        x = jax.nn.relu(_dense(x.reshape(x.shape[0], -1), params["dense"]))
    else:
        x = obs.reshape(obs.shape[0], -1).astype(jnp.float32)
        x = jnp.tanh(_dense(x, params["mlp1"]))
        x = jnp.tanh(_dense(x, params["mlp2"]))
    return _dense(x, params["pi"]), _dense(x, params["v"])[:, 0]


def sample_action(
    params: Params, obs: jax.Array, key: jax.Array
) -> tuple[jax.Array, jax.Array, jax.Array]:
    """An action per env drawn from the policy, with its log-probability and the value."""
    logits, value = policy_value(params, obs)
    action = jax.random.categorical(key, logits).astype(jnp.int32)
    logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
    return action, logp, value


# ---------------------------------------------------------------- PPO, Adam


class AdamState(NamedTuple):
    count: jax.Array
    mu: Params
    nu: Params


class TrainState(NamedTuple):
    params: Params
    opt: AdamState
    key: jax.Array


class Trajectory(NamedTuple):
    """One rollout, time-major: [T, N, ...]."""

    obs: jax.Array
    actions: jax.Array
    logp: jax.Array
    values: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    truncated: jax.Array


@dataclass(frozen=True)
class PPOSettings:
    epochs: int = 1
    minibatches: int = 4
    learning_rate: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.1
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5


def init_train_state(key: jax.Array, obs_shape: tuple[int, ...], num_actions: int) -> TrainState:
    init_key, key = jax.random.split(key)
    params = init_policy(init_key, obs_shape, num_actions)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return TrainState(params, AdamState(jnp.zeros((), jnp.int32), zeros, zeros), key)


def adam_step(
    params: Params, grads: Params, opt: AdamState, hp: PPOSettings
) -> tuple[Params, AdamState]:
    """One Adam step (eps 1e-5) after clipping the gradient's global norm."""
    b1, b2, eps = 0.9, 0.999, 1e-5
    norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree_util.tree_leaves(grads)))
    scale = jnp.minimum(1.0, hp.max_grad_norm / (norm + 1e-6))
    grads = jax.tree_util.tree_map(lambda g: g * scale, grads)
    count = opt.count + 1
    mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, opt.mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, opt.nu, grads)
    step = count.astype(jnp.float32)
    c1, c2 = 1 - b1**step, 1 - b2**step
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - hp.learning_rate * (m / c1) / (jnp.sqrt(v / c2) + eps),
        params,
        mu,
        nu,
    )
    return params, AdamState(count, mu, nu)


def gae(
    rewards: jax.Array, values: jax.Array, dones: jax.Array, last_value: jax.Array, hp: PPOSettings
) -> tuple[jax.Array, jax.Array]:
    """Advantages and returns; dones[t] says step t ended the episode (no bootstrap).

    envpool resets an env on the step after the one that ended its episode; that reset
    step is kept as an ordinary transition here (a benchmark, not a tuned learner).
    """

    def back(
        carry: tuple[jax.Array, jax.Array], x: tuple[jax.Array, jax.Array, jax.Array]
    ) -> tuple[tuple[jax.Array, jax.Array], jax.Array]:
        next_adv, next_value = carry
        reward, value, done = x
        live = 1.0 - done
        delta = reward + hp.gamma * next_value * live - value
        adv = delta + hp.gamma * hp.gae_lambda * live * next_adv
        return (adv, value), adv

    init = (jnp.zeros_like(last_value), last_value)
    _, adv = jax.lax.scan(back, init, (rewards, values, dones), reverse=True)
    return adv, adv + values


def ppo_loss(params: Params, batch: tuple[jax.Array, ...], hp: PPOSettings) -> jax.Array:
    obs, actions, old_logp, adv, returns = batch
    logits, value = policy_value(params, obs)
    log_probs = jax.nn.log_softmax(logits)
    logp = jnp.take_along_axis(log_probs, actions[:, None], axis=1)[:, 0]
    ratio = jnp.exp(logp - old_logp)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    clipped = jnp.clip(ratio, 1 - hp.clip, 1 + hp.clip)
    pg_loss = -jnp.minimum(ratio * adv, clipped * adv).mean()
    v_loss = 0.5 * jnp.square(value - returns).mean()
    entropy = -(jnp.exp(log_probs) * log_probs).sum(-1).mean()
    return pg_loss + hp.value_coef * v_loss - hp.entropy_coef * entropy


def ppo_update(
    train: TrainState, traj: Trajectory, last_obs: jax.Array, hp: PPOSettings
) -> tuple[TrainState, jax.Array]:
    """hp.epochs passes of hp.minibatches Adam steps over the rollout; the mean loss."""
    _, last_value = policy_value(train.params, last_obs)
    dones = jnp.logical_or(traj.terminated, traj.truncated).astype(jnp.float32)
    rewards = traj.rewards.astype(jnp.float32)
    adv, returns = gae(rewards, traj.values, dones, last_value, hp)
    size = rewards.size
    batch = tuple(
        x.reshape(size, *x.shape[2:]) for x in (traj.obs, traj.actions, traj.logp, adv, returns)
    )
    loss_grad = jax.value_and_grad(ppo_loss)
    params, opt, key = train
    losses = []
    # Python loops, unrolled in the jitted graph: in a lax.scan (a while loop, even with
    # unroll=True) XLA's CPU backend runs these conv gradients about 6x slower.
    for _ in range(hp.epochs):
        key, sub = jax.random.split(key)
        order = jax.random.permutation(sub, size)
        shards = tuple(x[order].reshape(hp.minibatches, -1, *x.shape[1:]) for x in batch)
        for i in range(hp.minibatches):
            loss, grads = loss_grad(params, tuple(x[i] for x in shards), hp)
            params, opt = adam_step(params, grads, opt, hp)
            losses.append(loss)
    return TrainState(params, opt, key), jnp.mean(jnp.stack(losses))


# ---------------------------------------------------------------- the cases


@dataclass
class Prepared:
    """A case ready to time: call() runs one jitted call (or Python loop) and blocks."""

    call: Callable[[], None]
    steps_per_call: int
    env: Any = None
    """Kept so that the pool lives as long as the case."""

    def measure(self, seconds: float) -> float:
        self.call()  # warm-up: caches, and the pool's threads, after the other variants ran
        calls, start = 0, time.perf_counter()
        while True:
            self.call()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return calls * self.steps_per_call / elapsed


def make_env(cfg: Config) -> Any:
    import envpool

    return envpool.make(
        cfg.task,
        env_type="gymnasium",
        num_envs=cfg.num_envs,
        batch_size=cfg.num_envs,
        num_threads=cfg.num_threads,
        seed=0,
    )


def _num_actions(env: Any) -> int:
    space = getattr(env, "single_action_space", None) or env.action_space
    if not hasattr(space, "n"):
        raise ValueError(f"a discrete action space is needed, not {space}")
    return int(space.n)


def _output_specs(obs: np.ndarray) -> tuple[jax.ShapeDtypeStruct, ...]:
    """The callbacks' result shapes: obs, reward (float32), terminated, truncated (bool)."""
    n = obs.shape[0]
    return (
        jax.ShapeDtypeStruct(obs.shape, obs.dtype),
        jax.ShapeDtypeStruct((n,), np.float32),
        jax.ShapeDtypeStruct((n,), np.bool_),
        jax.ShapeDtypeStruct((n,), np.bool_),
    )


def _host_step(env: Any, specs: tuple[jax.ShapeDtypeStruct, ...]) -> Callable[..., Any]:
    """env.step for a callback: numpy outputs of exactly the declared dtypes."""

    def host_step(action: np.ndarray) -> tuple[np.ndarray, ...]:
        obs, reward, terminated, truncated, _ = env.step(np.asarray(action))
        outs = (obs, reward, terminated, truncated)
        return tuple(np.asarray(x, dtype=s.dtype) for x, s in zip(outs, specs, strict=True))

    return host_step


def jax_step_fn(variant: str, env: Any, obs: np.ndarray) -> tuple[StepFn, Any]:
    """The env step for jitted code, and the initial token of its carry."""
    if variant == "xla":
        handle, _recv, _send, step = env.xla()

        def xla_step(token: Any, action: jax.Array) -> tuple[Any, Outputs]:
            token, (o, r, term, trunc, _info) = step(token, action)
            return token, (o, r, term, trunc)

        return xla_step, handle
    specs = _output_specs(obs)
    host_step = _host_step(env, specs)
    if variant == "pure_callback":

        def pure_step(token: Any, action: jax.Array) -> tuple[Any, Outputs]:
            return token, jax.pure_callback(host_step, specs, action)

        return pure_step, jnp.zeros((), jnp.int32)
    if variant == "io_callback":

        def io_step(token: Any, action: jax.Array) -> tuple[Any, Outputs]:
            return token, io_callback(host_step, specs, action, ordered=True)

        return io_step, jnp.zeros((), jnp.int32)
    raise ValueError(f"unknown jitted variant {variant!r}")


def _checksum(outputs: Outputs) -> jax.Array:
    """A cheap sum that uses every output, so none of them is dead code."""
    obs, reward, terminated, truncated = outputs
    first = obs.reshape(obs.shape[0], -1)[:, 0].astype(jnp.float32)
    flags = terminated.astype(jnp.float32) + truncated.astype(jnp.float32)
    return jnp.sum(reward.astype(jnp.float32) + first + flags)


def prepare_random(variant: str, cfg: Config) -> Prepared:
    env = make_env(cfg)
    obs, _ = env.reset()
    n, num_actions, length = cfg.num_envs, _num_actions(env), cfg.scan_length
    key = jax.random.PRNGKey(0)

    def draw(key: jax.Array) -> tuple[jax.Array, jax.Array]:
        key, sub = jax.random.split(key)
        return key, jax.random.randint(sub, (n,), 0, num_actions, dtype=jnp.int32)

    if variant == REFERENCE:
        rng = np.random.default_rng(0)

        def env_only_call() -> None:
            for _ in range(length):
                env.step(rng.integers(0, num_actions, n, dtype=np.int32))

        env_only_call()
        return Prepared(env_only_call, cfg.steps_per_call, env)

    if variant == "python":
        draw_jit = jax.jit(draw)
        state: dict[str, Any] = {"key": key}

        def python_call() -> None:
            key, outs = state["key"], None
            for _ in range(length):
                key, action = draw_jit(key)
                o, r, term, trunc, _ = env.step(np.asarray(action))
                outs = (jnp.asarray(o), jnp.asarray(r), jnp.asarray(term), jnp.asarray(trunc))
            state["key"] = key
            jax.block_until_ready(outs)

        python_call()  # compiles draw
        return Prepared(python_call, cfg.steps_per_call, env)

    step_fn, token = jax_step_fn(variant, env, obs)

    @jax.jit
    def rollout(token: Any, key: jax.Array) -> tuple[Any, jax.Array, jax.Array]:
        def body(
            carry: tuple[Any, jax.Array, jax.Array], _: None
        ) -> tuple[tuple[Any, jax.Array, jax.Array], None]:
            token, key, total = carry
            key, action = draw(key)
            token, outs = step_fn(token, action)
            return (token, key, total + _checksum(outs)), None

        init = (token, key, jnp.zeros((), jnp.float32))
        carry, _ = jax.lax.scan(body, init, None, length=length)
        return carry

    carry = [token, key]

    def jit_call() -> None:
        token, key, total = rollout(*carry)
        jax.block_until_ready((token, key, total))
        carry[:] = [token, key]

    jit_call()  # compiles
    return Prepared(jit_call, cfg.steps_per_call, env)


def prepare_ppo(variant: str, cfg: Config) -> Prepared:
    env = make_env(cfg)
    obs_np, _ = env.reset()
    hp = PPOSettings(epochs=cfg.ppo_epochs, minibatches=cfg.ppo_minibatches)
    if (cfg.rollout_length * cfg.num_envs) % hp.minibatches:
        raise ValueError("--rollout-length x num_envs must be a multiple of --ppo-minibatches")
    train = init_train_state(jax.random.PRNGKey(0), obs_np.shape[1:], _num_actions(env))
    obs = jnp.asarray(obs_np)
    length = cfg.rollout_length

    if variant == "python":

        @jax.jit
        def act(
            params: Params, obs: jax.Array, key: jax.Array
        ) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
            key, sub = jax.random.split(key)
            return key, *sample_action(params, obs, sub)

        @jax.jit
        def update(
            train: TrainState, traj: Trajectory, last_obs: jax.Array
        ) -> tuple[TrainState, jax.Array]:
            return ppo_update(train, traj, last_obs, hp)

        state: dict[str, Any] = {"train": train, "obs": obs}

        def python_call() -> None:
            train, obs = state["train"], state["obs"]
            key = train.key
            columns: list[list[jax.Array]] = [[] for _ in Trajectory._fields]
            for _ in range(length):
                key, action, logp, value = act(train.params, obs, key)
                o, r, term, trunc, _ = env.step(np.asarray(action))
                row = (obs, action, logp, value, jnp.asarray(r), jnp.asarray(term))
                for column, x in zip(columns, (*row, jnp.asarray(trunc)), strict=True):
                    column.append(x)
                obs = jnp.asarray(o)
            traj = Trajectory(*(jnp.stack(c) for c in columns))
            train, loss = update(train._replace(key=key), traj, obs)
            jax.block_until_ready((train, loss))
            state["train"], state["obs"] = train, obs

        python_call()  # compiles act and update
        return Prepared(python_call, cfg.steps_per_call, env)

    step_fn, token = jax_step_fn(variant, env, obs_np)

    @jax.jit
    def iteration(
        token: Any, train: TrainState, obs: jax.Array
    ) -> tuple[Any, TrainState, jax.Array, jax.Array]:
        def body(
            carry: tuple[Any, jax.Array, jax.Array], _: None
        ) -> tuple[tuple[Any, jax.Array, jax.Array], Trajectory]:
            token, obs, key = carry
            key, sub = jax.random.split(key)
            action, logp, value = sample_action(train.params, obs, sub)
            token, (next_obs, reward, terminated, truncated) = step_fn(token, action)
            row = Trajectory(obs, action, logp, value, reward, terminated, truncated)
            return (token, next_obs, key), row

        (token, obs, key), traj = jax.lax.scan(body, (token, obs, train.key), None, length=length)
        train, loss = ppo_update(train._replace(key=key), traj, obs, hp)
        return token, train, obs, loss

    carry = [token, train, obs]

    def jit_call() -> None:
        token, train, obs, loss = iteration(*carry)
        jax.block_until_ready((token, train, obs, loss))
        carry[:] = [token, train, obs]

    jit_call()  # compiles
    return Prepared(jit_call, cfg.steps_per_call, env)


def prepare(variant: str, cfg: Config) -> Prepared:
    """Builds, compiles and runs a case once (variant: one of LOCAL_VARIANTS)."""
    if variant not in LOCAL_VARIANTS:
        raise ValueError(f"{variant!r} is not a variant of this process")
    if cfg.workload == "random":
        return prepare_random(variant, cfg)
    if cfg.workload == "ppo":
        if variant == REFERENCE:
            raise ValueError("env_only is a reference for the random workload only")
        return prepare_ppo(variant, cfg)
    raise ValueError(f"unknown workload {cfg.workload!r}")


# ---------------------------------------------------------------- the original EnvPool


def _describe(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def peer_worker() -> int:
    """--peer-worker: answers JSON requests on stdin with the xla variant's rates.

    A request is {"op": "prepare" | "measure", "config": Config, "seconds": s}; each
    answer is one line, RESULT + {"ok", "version", "steps_per_second" | "error"}.
    """
    import envpool

    version = str(getattr(envpool, "__version__", "?"))
    if importlib.util.find_spec("envpool.bench") is not None:
        error = "its envpool is this package (it has envpool.bench), not the original EnvPool"
        print(RESULT + json.dumps({"ok": False, "error": error}), flush=True)
        return 1
    cases: dict[Config, Prepared] = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        answer: dict[str, Any] = {"ok": True, "version": version}
        try:
            cfg = Config(**request["config"])
            if cfg not in cases:
                cases[cfg] = prepare("xla", cfg)
            if request["op"] == "measure":
                answer["steps_per_second"] = cases[cfg].measure(float(request["seconds"]))
        except Exception as exc:
            answer = {"ok": False, "version": version, "error": _describe(exc)}
        print(RESULT + json.dumps(answer), flush=True)
    return 0


class PeerWorker:
    """This script under --peer-python with --peer-worker: the original's xla variant."""

    def __init__(self, python: str) -> None:
        self.python = python
        self.version: str | None = None
        self.stderr = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (closed by close())
        self.process = subprocess.Popen(
            [python, os.path.abspath(__file__), "--peer-worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            cwd=tempfile.gettempdir(),  # not a folder holding this envpool's source
        )

    def _ask(self, op: str, cfg: Config, seconds: float = 0.0) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        request = {"op": op, "config": asdict(cfg), "seconds": seconds}
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except OSError:
            pass  # it has died; readline() says so
        for line in self.process.stdout:
            if line.startswith(RESULT):
                answer: dict[str, Any] = json.loads(line[len(RESULT) :])
                self.version = answer.get("version", self.version)
                if not answer["ok"]:
                    raise RuntimeError(answer["error"])
                return answer
        self.stderr.seek(0)
        lines = self.stderr.read().strip().splitlines()
        raise RuntimeError(f"{self.python} exited: {lines[-1] if lines else '?'}")

    def prepare(self, cfg: Config) -> None:
        self._ask("prepare", cfg)

    def measure(self, cfg: Config, seconds: float) -> float:
        return float(self._ask("measure", cfg, seconds)["steps_per_second"])

    def close(self) -> None:
        if self.process.stdin is not None:
            # BrokenPipeError: the worker has already exited (its error was noted)
            with contextlib.suppress(BrokenPipeError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stderr.close()


# ---------------------------------------------------------------- the report


@dataclass
class CaseRun:
    """One task x workload: variant -> one rate per round, and the variants left out."""

    task: str
    workload: str
    num_envs: int
    rates: dict[str, list[float]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)


def _median(xs: Sequence[float]) -> float:
    return statistics.median(xs)


def _rate(xs: Sequence[float] | None) -> str:
    # envpool.bench is this envpool's: bench_jax's peer worker runs the original's
    from envpool.bench.report import rate_with_range

    return rate_with_range(xs)


def _x(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def xla_over(run: CaseRun, others: Sequence[str]) -> float | None:
    """Median over rounds of xla / the best of `others` in that round."""
    ours = run.rates.get("xla", [])
    ratios = []
    for i, rate in enumerate(ours):
        best = max((run.rates[o][i] for o in others if len(run.rates.get(o, [])) > i), default=0)
        if best:
            ratios.append(rate / best)
    return _median(ratios) if ratios else None


def best_other(run: CaseRun) -> str | None:
    """The non-xla variant with the highest median rate."""
    others = [v for v in run.rates if v not in ("xla", REFERENCE) and run.rates[v]]
    return max(others, key=lambda v: _median(run.rates[v]), default=None)


def case_table(run: CaseRun, variants: Sequence[str], original: str) -> list[str]:
    lines = ["| variant | env steps/s | xla / this |", "|---|---:|---:|"]
    for v in variants:
        if v in run.rates:
            ratio = "" if v == "xla" else _x(xla_over(run, [v]))
            label = original if v == "original" else v
            lines.append(f"| {label} | {_rate(run.rates[v])} | {ratio} |")
    for v, reason in run.skipped.items():
        lines.append(f"note: {v} left out: {reason}")
    return lines


def summary_table(runs: Sequence[CaseRun], variants: Sequence[str]) -> list[str]:
    """One row per task x workload: every variant's rate, xla / the best other in each
    round (named: the other with the best median), and xla / original when both ran."""
    with_original = "xla" in variants and "original" in variants
    head = (
        " | ".join(variants)
        + " | xla / best other"
        + (" | xla / original" if with_original else "")
    )
    columns = len(variants) + 1 + with_original
    lines = [f"| task | workload | {head} |", "|---|---|" + "---:|" * columns]
    for run in runs:
        cells = [_rate(run.rates.get(v)) for v in variants]
        other = best_other(run)
        others = [v for v in run.rates if v not in ("xla", REFERENCE)]
        ratio = _x(xla_over(run, others))
        cells.append(f"{ratio} ({other})" if other and ratio != "-" else "-")
        if with_original:
            cells.append(_x(xla_over(run, ["original"])))
        lines.append(f"| {run.task} | {run.workload} | " + " | ".join(cells) + " |")
    return lines


def versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for name in ("envpool", "jax", "jaxlib", "numpy"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


# ---------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=list(DEFAULT_TASKS))
    parser.add_argument("--workloads", nargs="+", choices=WORKLOADS, default=list(WORKLOADS))
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--num-envs", type=int, help=f"envs per pool (default: {DEFAULT_NUM_ENVS})")
    parser.add_argument("--num-threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=5.0, help="timed seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over every case")
    parser.add_argument("--scan-length", type=int, default=128, help="random: steps per call")
    parser.add_argument("--rollout-length", type=int, default=128, help="ppo: steps per rollout")
    parser.add_argument("--ppo-epochs", type=int, default=1)
    parser.add_argument("--ppo-minibatches", type=int, default=4)
    parser.add_argument("--peer-python", help="a Python with the original EnvPool and jax")
    parser.add_argument("--json", help="write every round's numbers to this file")
    parser.add_argument("--peer-worker", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.peer_worker:
        return peer_worker()
    variants = [v for v in VARIANTS if v in args.variants]
    peer: PeerWorker | None = None
    if "original" in variants:
        if args.peer_python:
            try:
                peer = PeerWorker(args.peer_python)
            except OSError as exc:
                print(f"note: original left out: {_describe(exc)}", file=sys.stderr)
                variants.remove("original")
        else:
            print("note: original left out: no --peer-python", file=sys.stderr)
            variants.remove("original")

    runs: list[CaseRun] = []
    configs: dict[tuple[str, str], Config] = {}
    cases: dict[tuple[str, str, str], Prepared] = {}
    try:
        for task in args.tasks:
            n = args.num_envs or DEFAULT_NUM_ENVS.get(task, FALLBACK_NUM_ENVS)
            for workload in args.workloads:
                cfg = Config(
                    task,
                    workload,
                    n,
                    args.num_threads,
                    args.scan_length,
                    args.rollout_length,
                    args.ppo_epochs,
                    args.ppo_minibatches,
                )
                run = CaseRun(task, workload, n)
                runs.append(run)
                configs[task, workload] = cfg
                for v in variants:
                    if v == REFERENCE and workload != "random":
                        continue
                    print(f"preparing {task} {workload} {v}", file=sys.stderr, flush=True)
                    try:
                        if v == "original":
                            assert peer is not None
                            peer.prepare(cfg)
                        else:
                            cases[task, workload, v] = prepare(v, cfg)
                    except Exception as exc:
                        run.skipped[v] = _describe(exc)
                        print(f"note: {task} {workload}: {v} left out: {exc}", file=sys.stderr)

        load_before = os.getloadavg()
        for i in range(args.rounds):
            print(f"round {i + 1}/{args.rounds}", file=sys.stderr, flush=True)
            order = variants[i % len(variants) :] + variants[: i % len(variants)]
            for run in runs:
                cfg = configs[run.task, run.workload]
                for v in order:
                    if v in run.skipped or (
                        (run.task, run.workload, v) not in cases and v != "original"
                    ):
                        continue
                    try:
                        if v == "original":
                            assert peer is not None
                            rate = peer.measure(cfg, args.seconds)
                        else:
                            rate = cases[run.task, run.workload, v].measure(args.seconds)
                    except Exception as exc:
                        run.skipped[v] = _describe(exc)
                        print(
                            f"note: {run.task} {run.workload}: {v} failed: {exc}", file=sys.stderr
                        )
                        continue
                    run.rates.setdefault(v, []).append(rate)
                    print(
                        f"  {run.task} {run.workload} {v}: {rate:,.0f} steps/s",
                        file=sys.stderr,
                        flush=True,
                    )
        load_after = os.getloadavg()
    finally:
        if peer is not None:
            peer.close()

    original = "original"
    vers = versions()
    if peer is not None and peer.version:
        original = f"original (EnvPool {peer.version})"
        vers["original EnvPool"] = peer.version
    shown = [v for v in variants if any(v in r.rates for r in runs)]
    print()
    for run in runs:
        print(
            f"{run.task}, {run.workload}: {run.num_envs} envs, {args.num_threads} threads; "
            f"env steps/s, median of {args.rounds} round(s) of {args.seconds:g} s (range)"
        )
        print()
        print("\n".join(case_table(run, variants, original)))
        print()
    print("Summary (env steps/s, median (range); ratios: medians of the per-round ratios):")
    print()
    print("\n".join(summary_table(runs, shown)))
    print()
    # envpool.bench exists only in this envpool, not in the peer's original
    from envpool.bench.report import finish_script_run

    settings = {k: v for k, v in vars(args).items() if k != "peer_worker"}
    loads = (load_before[0], load_after[0])
    finish_script_run(args.json, settings, vers, loads, ("cases", [asdict(r) for r in runs]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

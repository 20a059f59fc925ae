"""PPO on CartPole-v1 in plain JAX, with the env stepped inside ``jax.lax.scan`` via ``env.xla()``.

    python examples/ppo_jax_xla.py --smoke          # tiny run, checks nothing (~10 s)
    python examples/ppo_jax_xla.py                  # solves in about 5-10 s on 2 CPU cores
    python examples/ppo_jax_xla.py --seed 1 --num-envs 16 --total-steps 300000

``env.xla()`` returns ``handle, recv, send, step``: jax functions that move the
pool through XLA, with ``handle`` the ordering token threaded from call to call.
A whole PPO iteration (rollout scan with ``step``, GAE, minibatch epochs) is one
jitted function whose carry holds the handle, so the Python loop only calls it
and prints progress. No flax or optax: the MLPs and Adam are written out below.

The pool uses its default next-step autoreset: the step after an episode ends
ignores its action and returns the new episode's first observation with reward 0.
Those transitions are masked out of the loss, and because the ending step still
returns the real final observation, truncated episodes are bootstrapped from its
value. Whenever the last 20 finished episodes average >= 475, the greedy policy
plays one episode in each of 16 eval envs; training stops once that averages
>= 475 too, and the run fails (non-zero exit) if it never does.
It needs jax: pip install "envpool[jax]".
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import deque
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

import envpool

Params = dict[str, dict[str, jax.Array]]
SOLVED = 475.0


class Config(NamedTuple):
    num_envs: int
    num_steps: int
    epochs: int
    minibatches: int
    lr: float
    gamma: float
    lam: float
    clip: float
    ent_coef: float
    vf_coef: float
    max_grad_norm: float
    num_iters: int


class Adam(NamedTuple):
    mu: Params
    nu: Params
    count: jax.Array


class Carry(NamedTuple):
    params: Params
    adam: Adam
    handle: Any
    obs: jax.Array
    after_done: jax.Array  # the next step is an autoreset step whose action is ignored
    ep_return: jax.Array
    key: jax.Array


class Batch(NamedTuple):
    obs: jax.Array
    action: jax.Array
    logp: jax.Array
    adv: jax.Array
    ret: jax.Array
    valid: jax.Array


# ---------------------------------------------------------------- networks


def init_mlp(key: jax.Array, sizes: list[int], out_scale: float) -> dict[str, jax.Array]:
    params = {}
    keys = jax.random.split(key, len(sizes) - 1)
    for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        scale = out_scale if i == len(sizes) - 2 else float(np.sqrt(2.0))
        params[f"w{i}"] = jax.nn.initializers.orthogonal(scale)(keys[i], (n_in, n_out))
        params[f"b{i}"] = jnp.zeros(n_out)
    return params


def mlp(params: dict[str, jax.Array], x: jax.Array) -> jax.Array:
    n = len(params) // 2
    for i in range(n):
        x = x @ params[f"w{i}"] + params[f"b{i}"]
        if i < n - 1:
            x = jnp.tanh(x)
    return x


def init_params(key: jax.Array, obs_dim: int, n_actions: int) -> Params:
    k_pi, k_v = jax.random.split(key)
    return {
        "pi": init_mlp(k_pi, [obs_dim, 64, 64, n_actions], 0.01),
        "v": init_mlp(k_v, [obs_dim, 64, 64, 1], 1.0),
    }


def policy(params: Params, obs: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Action log-probabilities and state value."""
    return jax.nn.log_softmax(mlp(params["pi"], obs)), mlp(params["v"], obs)[..., 0]


# ---------------------------------------------------------------- optimiser


def adam_init(params: Params) -> Adam:
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return Adam(zeros, zeros, jnp.zeros((), jnp.int32))


def adam_update(
    params: Params, grads: Params, state: Adam, lr: jax.Array, max_norm: float
) -> tuple[Params, Adam]:
    b1, b2, eps = 0.9, 0.999, 1e-5
    norm = jnp.sqrt(sum(jnp.sum(g**2) for g in jax.tree_util.tree_leaves(grads)))
    grads = jax.tree_util.tree_map(lambda g: g * jnp.minimum(1.0, max_norm / (norm + 1e-6)), grads)
    count = state.count + 1
    mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g**2, state.nu, grads)
    step = lr * jnp.sqrt(1 - b2**count) / (1 - b1**count)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - step * m / (jnp.sqrt(v) + eps), params, mu, nu
    )
    return params, Adam(mu, nu, count)


# ---------------------------------------------------------------- PPO


def make_iteration(cfg: Config, step_fn: Any) -> Any:
    """One jitted PPO iteration: collect, compute advantages, update."""
    batch_size = cfg.num_envs * cfg.num_steps
    mb_size = batch_size // cfg.minibatches

    def env_step(carry: Carry, _: None) -> tuple[Carry, tuple[jax.Array, ...]]:
        key, k_act = jax.random.split(carry.key)
        logp_all, value = policy(carry.params, carry.obs)
        action = jax.random.categorical(k_act, logp_all)
        logp = jnp.take_along_axis(logp_all, action[:, None], axis=1)[:, 0]
        handle, (obs, reward, terminated, truncated, _info) = step_fn(carry.handle, action)
        reward = reward.astype(jnp.float32)
        done = terminated | truncated
        ep_return = carry.ep_return + reward
        valid = ~carry.after_done
        out = (carry.obs, action, logp, value, reward, terminated, done, valid, ep_return)
        carry = carry._replace(
            handle=handle,
            obs=obs.astype(jnp.float32),
            after_done=done,
            ep_return=jnp.where(done, 0.0, ep_return),
            key=key,
        )
        return carry, out

    def gae(
        values: jax.Array,
        next_values: jax.Array,
        rewards: jax.Array,
        terminated: jax.Array,
        done: jax.Array,
    ) -> jax.Array:
        # A truncated step bootstraps from its final observation, whose value is the next
        # entry (the autoreset step that follows observes it); only termination zeroes it.
        deltas = rewards + cfg.gamma * next_values * (1.0 - terminated) - values
        decay = cfg.gamma * cfg.lam * (1.0 - done)

        def back(acc: jax.Array, x: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
            delta, d = x
            acc = delta + d * acc
            return acc, acc

        _, adv = jax.lax.scan(back, jnp.zeros_like(values[0]), (deltas, decay), reverse=True)
        return adv

    def loss_fn(params: Params, mb: Batch) -> tuple[jax.Array, tuple[jax.Array, ...]]:
        logp_all, value = policy(params, mb.obs)
        logp = jnp.take_along_axis(logp_all, mb.action[:, None], axis=1)[:, 0]
        w = mb.valid / jnp.maximum(mb.valid.sum(), 1.0)
        mean = jnp.sum(w * mb.adv)
        std = jnp.sqrt(jnp.sum(w * (mb.adv - mean) ** 2))
        adv = (mb.adv - mean) / (std + 1e-8)
        ratio = jnp.exp(logp - mb.logp)
        clipped = jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip)
        pg_loss = -jnp.sum(w * jnp.minimum(ratio * adv, clipped * adv))
        v_loss = 0.5 * jnp.sum(w * (value - mb.ret) ** 2)
        entropy = -jnp.sum(w * jnp.sum(jnp.exp(logp_all) * logp_all, axis=-1))
        loss = pg_loss + cfg.vf_coef * v_loss - cfg.ent_coef * entropy
        return loss, (pg_loss, v_loss, entropy)

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)

    def iteration(carry: Carry, it: jax.Array) -> tuple[Carry, dict[str, jax.Array]]:
        carry, traj = jax.lax.scan(env_step, carry, None, length=cfg.num_steps)
        obs, action, logp, value, reward, terminated, done, valid, ep_return = traj
        _, last_value = policy(carry.params, carry.obs)
        next_values = jnp.concatenate([value[1:], last_value[None]], axis=0)
        adv = gae(value, next_values, reward, terminated.astype(jnp.float32), done)
        batch = Batch(obs, action, logp, adv, adv + value, valid.astype(jnp.float32))
        batch = jax.tree_util.tree_map(lambda x: x.reshape(batch_size, *x.shape[2:]), batch)
        lr = cfg.lr * (1.0 - it / cfg.num_iters)

        def epoch(
            state: tuple[Params, Adam, jax.Array], _: None
        ) -> tuple[tuple[Params, Adam, jax.Array], jax.Array]:
            params, adam, key = state
            key, k_perm = jax.random.split(key)
            perm = jax.random.permutation(k_perm, batch_size)
            mbs = jax.tree_util.tree_map(
                lambda x: x[perm].reshape(cfg.minibatches, mb_size, *x.shape[1:]), batch
            )

            def minibatch(
                s: tuple[Params, Adam], mb: Batch
            ) -> tuple[tuple[Params, Adam], jax.Array]:
                (loss, aux), grads = grad_fn(s[0], mb)
                return adam_update(s[0], grads, s[1], lr, cfg.max_grad_norm), jnp.stack(aux)

            (params, adam), stats = jax.lax.scan(minibatch, (params, adam), mbs)
            return (params, adam, key), stats

        (params, adam, key), stats = jax.lax.scan(
            epoch, (carry.params, carry.adam, carry.key), None, length=cfg.epochs
        )
        stats = stats.reshape(-1, 3).mean(axis=0)
        carry = carry._replace(params=params, adam=adam, key=key)
        metrics = {
            "done": done,
            "ep_return": ep_return,
            "pg_loss": stats[0],
            "v_loss": stats[1],
            "entropy": stats[2],
        }
        return carry, metrics

    return jax.jit(iteration)


def make_greedy_eval(step_fn: Any, num_envs: int) -> Any:
    """Jitted mean return of one whole episode per env under the argmax policy.

    The eval pool is never reset by hand: each env first finishes the episode it is in,
    then plays one full episode, which CartPole-v1 truncates at 500 steps.
    """

    def body(c: tuple[Any, ...], _: None) -> tuple[tuple[Any, ...], None]:
        params, handle, obs, ep_return, started, recorded, score = c
        logp_all, _ = policy(params, obs)
        action = jnp.argmax(logp_all, axis=-1).astype(jnp.int32)
        handle, (obs, reward, terminated, truncated, _info) = step_fn(handle, action)
        ep_return = ep_return + reward.astype(jnp.float32)
        done = terminated | truncated
        record = done & started & ~recorded
        score = jnp.where(record, ep_return, score)
        c = (
            params,
            handle,
            obs.astype(jnp.float32),
            jnp.where(done, 0.0, ep_return),
            started | done,
            recorded | record,
            score,
        )
        return c, None

    def evaluate(params: Params, handle: Any, obs: jax.Array) -> tuple[Any, jax.Array, jax.Array]:
        zeros = jnp.zeros(num_envs, jnp.float32)
        flags = jnp.zeros(num_envs, bool)
        init = (params, handle, obs, zeros, flags, flags, zeros)
        c, _ = jax.lax.scan(body, init, None, length=2 * 500 + 2)
        return c[1], c[2], jnp.mean(c[6])

    return jax.jit(evaluate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total-steps", type=int, default=300_000)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--num-steps", type=int, default=128, help="rollout length per env")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--smoke", action="store_true", help="tiny run that checks nothing")
    args = parser.parse_args()
    if args.smoke:
        args.total_steps, args.num_envs, args.num_steps = 4096, 4, 64

    num_iters = max(1, args.total_steps // (args.num_envs * args.num_steps))
    cfg = Config(
        num_envs=args.num_envs,
        num_steps=args.num_steps,
        epochs=4,
        minibatches=4,
        lr=2.5e-3,
        gamma=0.99,
        lam=0.95,
        clip=0.2,
        ent_coef=0.0,
        vf_coef=0.5,
        max_grad_norm=0.5,
        num_iters=num_iters,
    )

    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=cfg.num_envs, seed=args.seed)
    obs, _ = env.reset()
    handle, _recv, _send, step_fn = env.xla()
    obs_dim = int(np.prod(env.single_observation_space.shape))
    n_actions = int(env.single_action_space.n)

    key = jax.random.PRNGKey(args.seed)
    key, k_init = jax.random.split(key)
    params = init_params(k_init, obs_dim, n_actions)
    carry = Carry(
        params=params,
        adam=adam_init(params),
        handle=handle,
        obs=jnp.asarray(obs, jnp.float32),
        after_done=jnp.zeros(cfg.num_envs, bool),
        ep_return=jnp.zeros(cfg.num_envs, jnp.float32),
        key=key,
    )
    iteration = make_iteration(cfg, step_fn)

    eval_envs = 16
    eval_env = envpool.make(
        "CartPole-v1", env_type="gymnasium", num_envs=eval_envs, seed=args.seed + 10_000
    )
    eval_obs, _ = eval_env.reset()
    eval_handle, _recv, _send, eval_step = eval_env.xla()
    eval_obs = jnp.asarray(eval_obs, jnp.float32)
    greedy_eval = make_greedy_eval(eval_step, eval_envs)

    recent: deque[float] = deque(maxlen=20)
    episodes = 0
    score = float("nan")
    start = time.perf_counter()
    for it in range(num_iters):
        carry, m = iteration(carry, jnp.asarray(it, jnp.float32))
        done = np.asarray(m["done"])
        finished = np.asarray(m["ep_return"])[done].tolist()
        recent.extend(finished)
        episodes += len(finished)
        steps = (it + 1) * cfg.num_envs * cfg.num_steps
        mean = float(np.mean(recent)) if recent else 0.0
        last = it == num_iters - 1
        # Once the sampled policy looks solved, check the greedy one; stop when it is too.
        check = last or (len(recent) == recent.maxlen and mean >= SOLVED)
        if check:
            eval_handle, eval_obs, greedy = greedy_eval(carry.params, eval_handle, eval_obs)
            score = float(greedy)
        if it % 10 == 0 or check:
            elapsed = time.perf_counter() - start
            print(
                f"iter {it + 1:4d}  steps {steps:7d}  episodes {episodes:5d}  "
                f"mean return (last {len(recent)}) {mean:6.1f}  "
                f"v_loss {float(m['v_loss']):7.3f}  entropy {float(m['entropy']):.3f}  "
                f"{steps / elapsed:6.0f} steps/s  {elapsed:5.1f} s"
                + (f"  greedy {score:5.1f}" if check else ""),
                flush=True,
            )
        if check and score >= SOLVED and not args.smoke:
            break
    env.close()
    eval_env.close()

    elapsed = time.perf_counter() - start
    print(
        f"greedy policy: mean return {score:.1f} over {eval_envs} episodes "
        f"after {steps} steps, {elapsed:.1f} s"
    )
    if not args.smoke and score < SOLVED:
        raise SystemExit(f"not solved: greedy mean return {score:.1f} < {SOLVED}")


if __name__ == "__main__":
    main()

"""``env.xla()``: step a pool inside ``jax.jit`` through XLA's FFI.

``handle, recv, send, step = env.xla()`` gives JAX functions with the original
EnvPool's signatures::

    recv(handle) -> (handle, result)
    send(handle, action, env_id=None) -> handle
    step(handle, action, env_id=None) -> (handle, result)   # recv(send(...))

``result`` is what the pool's own ``recv()`` returns (gymnasium:
``(obs, reward, terminated, truncated, info)``; dm_env: a ``TimeStep``), as jax
arrays. Each call is an XLA custom call (envpool._xla) that runs the C++ pool on
the host; no Python runs per step. The returned handle orders the calls: thread
it through (e.g. as a ``lax.scan`` carry) so that every call consumes the handle
the previous one returned. jax is imported only here, so a plain install neither
needs nor imports it.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import re
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from envpool import bindings
from envpool._frontend import with_tuple_observations_jax
from envpool.dm import DmEnvPool, Observation
from envpool.errors import CallOrderError
from envpool.original_api import (
    OriginalDmEnvPool,
    OriginalGymEnvPool,
    as_original_info,
)
from envpool.spec import Config

OLDEST_JAX = "0.5.0"
"""The oldest jax and jaxlib release xla() supports: the first with the public
``jax.ffi`` module (``ffi_call``, ``register_ffi_target``), numpy 2 ready, with
wheels for CPython 3.11 to 3.13. envpool._xla is built against its XLA FFI
headers (FFI API 0.1), which newer jaxlibs accept too (docs/jax.md)."""
NEWEST_TESTED_JAX = "0.10.2"
"""The newest jax and jaxlib release xla() is tested with (CI tests both ends)."""
INSTALL_HINT = (
    f"pip install 'envpool[jax]' (jax and jaxlib >= {OLDEST_JAX}; "
    f"tested with {OLDEST_JAX} to {NEWEST_TESTED_JAX})"
)

try:
    import jax
    import jax.numpy as jnp
except ImportError as error:  # pragma: no cover - depends on the install
    raise ImportError(f"env.xla() needs jax: {INSTALL_HINT}") from error

SEND_TARGET = "envpool_send"
RECV_TARGET = "envpool_recv"
STEP_TARGET = "envpool_step"


def _release(version: str) -> tuple[int, ...]:
    """The numeric release of a version string: "0.9.0.1" -> (0, 9, 0, 1),
    "0.11.0rc1" and "0.11.0.dev20260101" -> (0, 11, 0)."""
    match = re.match(r"\d+(\.\d+)*", version)
    return tuple(int(part) for part in match.group().split(".")) if match else ()


_warned_untested = False


def check_jax_version() -> None:
    """Raises ImportError when jax or jaxlib is missing or older than OLDEST_JAX;
    warns once per process when either is newer than NEWEST_TESTED_JAX (it may
    still work: XLA itself checks envpool's FFI handlers when they register)."""
    global _warned_untested
    found = {}
    for dist in ("jax", "jaxlib"):
        try:
            found[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            found[dist] = "not installed"
    releases = [_release(v) for v in found.values()]
    if any(r < _release(OLDEST_JAX) for r in releases):
        raise ImportError(
            f"envpool's xla() needs jax and jaxlib >= {OLDEST_JAX} (the first release "
            f"with jax.ffi), found jax {found['jax']} and jaxlib {found['jaxlib']}: "
            f"{INSTALL_HINT}"
        )
    if not _warned_untested and any(r > _release(NEWEST_TESTED_JAX) for r in releases):
        _warned_untested = True
        warnings.warn(
            f"envpool's xla() is tested with jax and jaxlib {OLDEST_JAX} to "
            f"{NEWEST_TESTED_JAX}, found jax {found['jax']} and jaxlib {found['jaxlib']}; "
            "it should work while this jaxlib accepts envpool's XLA FFI handlers "
            "(it checks their FFI API version when they register)",
            UserWarning,
            stacklevel=6,  # the caller of env.xla()
        )


def _register_ffi_target(name: str, capsule: Any, platform: str) -> None:
    """jax.ffi.register_ffi_target, with XLA's refusal of the handlers' FFI API
    version turned into an ImportError that names the versions and the fix."""
    try:
        jax.ffi.register_ffi_target(name, capsule, platform=platform)
    except RuntimeError as error:
        if "API version" not in str(error):
            raise
        built = ".".join(map(str, bindings.extension("_xla").FFI_API_VERSION))
        raise ImportError(
            f"jax {importlib.metadata.version('jax')} (jaxlib "
            f"{importlib.metadata.version('jaxlib')}) refuses envpool's XLA FFI handlers, "
            f"built against XLA FFI API {built}: {error}. Install a jax release from "
            f"{OLDEST_JAX} to {NEWEST_TESTED_JAX} ({INSTALL_HINT}), or build envpool from "
            "source with ENVPOOL_XLA_FFI_INCLUDE_DIR set to this jaxlib's jax.ffi.include_dir()"
        ) from error


_registered = False
_register_lock = threading.Lock()


def _register_targets() -> None:
    """Registers envpool's FFI handlers with JAX, once per process (a second
    registration of another handler under the same name would break the backend)."""
    global _registered
    with _register_lock:
        if _registered:
            return
        check_jax_version()
        _xla = bindings.extension("_xla")
        # Start the backends first: a target registered before them is kept until
        # they start, and if XLA refuses it then, no jax backend starts at all.
        jax.devices()
        for name, capsule in _xla.HANDLERS["cpu"].items():
            _register_ffi_target(f"envpool_{name}", capsule, platform="cpu")
        if _has_cuda():
            for name, capsule in _xla.HANDLERS["gpu"].items():
                _register_ffi_target(f"envpool_{name}", capsule, platform="CUDA")
        for cls in (Config, Observation):
            jax.tree_util.register_pytree_node(
                cls, lambda c: (tuple(c.values()), tuple(c)), _unflatten(cls)
            )
        # Runs before jax's own exit hook (atexit is last in, first out).
        atexit.register(settle_calls)
        _registered = True


def settle_calls() -> None:
    """Waits for every dispatched side-effecting jax computation, envpool's calls
    among them. An envpool call that failed has raised its error where its results
    were used; on a GPU, where calls run after Python dispatched them, jax would
    raise it once more at exit (or from an unrelated later wait): that copy is
    dropped. Pools call this before they close, so that a call dispatched before
    close() runs before the pool goes."""
    try:
        jax.effects_barrier()
    except jax.errors.JaxRuntimeError as error:
        if "envpool: " not in str(error):
            raise
        try:  # the failed call's token would raise again at exit
            from jax._src import dispatch

            dispatch.runtime_tokens.clear()
        except (ImportError, AttributeError):  # pragma: no cover - other jax layouts
            pass


def _unflatten(cls: type) -> Callable[[tuple[str, ...], Any], Any]:
    return lambda keys, values: cls(zip(keys, values, strict=True))


def _has_cuda() -> bool:
    try:
        return bool(jax.devices("cuda"))
    except RuntimeError:
        return False


class XlaFunctions:
    """The four values ``env.xla()`` returns, as a tuple (``handle, recv, send, step``)."""

    def __init__(self, env: Any) -> None:
        _register_targets()
        pool = env._pool
        if pool.closed:
            raise CallOrderError("xla() on a closed pool; make a new pool")
        self._env = env  # the functions keep the pool alive
        env._xla_calls = True  # so that close() first waits for dispatched calls
        self._bridge = np.int64(pool._xla_bridge())
        self._outputs: list[tuple[str, np.dtype, tuple[int, ...]]] = [
            (name, np.dtype(dtype), tuple(shape)) for name, dtype, shape in pool._xla_outputs()
        ]
        self._num_envs = env.num_envs
        self._batch_size = env.batch_size
        self._sync = self._batch_size == self._num_envs
        spec = getattr(env.spec, "_spec", env.spec)  # an OriginalSpec wraps the EnvSpec
        action_spec = spec.action_spec
        self._action_dtype = np.dtype(action_spec.dtype)
        self._action_shape = tuple(action_spec.shape)
        self._convert = _front_end_result(env)
        self.handle = np.frombuffer(
            int(self._bridge).to_bytes(8, sys.byteorder), dtype=np.uint8
        ).copy()

    def as_tuple(self) -> tuple[np.ndarray, Callable[..., Any], Callable[..., Any], Any]:
        # Jitted, so that calls from Python reuse one compiled program (about 80 us a
        # call instead of 400); inside a caller's jit they are inlined.
        return self.handle, jax.jit(self.recv), jax.jit(self.send), jax.jit(self.step)

    def _output_specs(self) -> list[jax.ShapeDtypeStruct]:
        """The handle, then recv's arrays, as the custom calls return them."""
        n = self._batch_size
        return [jax.ShapeDtypeStruct((8,), jnp.uint8)] + [
            jax.ShapeDtypeStruct((n, *shape), jax.dtypes.canonicalize_dtype(dtype))
            for _, dtype, shape in self._outputs
        ]

    def _result(self, new_handle: jax.Array, arrays: list[jax.Array]) -> tuple[jax.Array, Any]:
        named = dict(zip((name for name, _, _ in self._outputs), arrays, strict=True))
        return new_handle, self._convert(_step_result(named))

    def _call(self, target: str, results: list[jax.ShapeDtypeStruct], *args: Any) -> Any:
        """One envpool custom call on this pool: ``args`` (the handle first, which the
        first result aliases) in, ``results`` out, both behind an optimisation barrier.
        XLA's GPU compiler may otherwise fuse the call with the dynamic slices that feed
        it or take its results (a ``lax.scan`` stacking them), and such a fusion can run
        the call twice: a recv twice per send, or every step twice (issue 30). The
        barrier costs no copy."""
        call = jax.ffi.ffi_call(target, results, has_side_effect=True, input_output_aliases={0: 0})
        fenced = jax.lax.optimization_barrier(args)
        return jax.lax.optimization_barrier(tuple(call(*fenced, bridge=self._bridge)))

    def recv(self, handle: Any) -> tuple[jax.Array, Any]:
        """Waits for the next batch; returns the new handle and the batch."""
        new_handle, *arrays = self._call(RECV_TARGET, self._output_specs(), _as_handle(handle))
        return self._result(new_handle, arrays)

    def send(self, handle: Any, action: Any, env_id: Any = None) -> jax.Array:
        """Starts stepping the envs in ``env_id`` (every env when None); returns the
        new handle. In sync mode every env steps; in async mode pass the env_id of
        the batch the actions are for (``info["env_id"]``)."""
        ids, action = self._check_send(action, env_id)
        handle_spec = [jax.ShapeDtypeStruct((8,), jnp.uint8)]
        (new_handle,) = self._call(SEND_TARGET, handle_spec, _as_handle(handle), ids, action)
        return new_handle

    def step(self, handle: Any, action: Any, env_id: Any = None) -> tuple[jax.Array, Any]:
        """``recv(send(handle, action, env_id))``, as one custom call: on a GPU that
        is one round of copies and one synchronisation instead of two."""
        ids, action = self._check_send(action, env_id)
        specs = self._output_specs()
        new_handle, *arrays = self._call(STEP_TARGET, specs, _as_handle(handle), ids, action)
        return self._result(new_handle, arrays)

    def _check_send(self, action: Any, env_id: Any) -> tuple[jax.Array, jax.Array]:
        """The env ids and actions as the C++ side takes them, or a clear error
        (raised while tracing, so inside jit too)."""
        action = jnp.asarray(action)
        kind = action.dtype.kind
        if self._action_dtype.kind in "iu":
            if kind not in "iu":
                raise TypeError(
                    f"discrete actions need an integer dtype, got {action.dtype}; "
                    "use action.astype(jnp.int32)"
                )
        elif kind != "f":
            raise TypeError(
                f"continuous actions need a float dtype, got {action.dtype}; "
                "use action.astype(jnp.float32)"
            )
        if env_id is None:
            if not self._sync and action.shape[:1] != (self._num_envs,):
                raise ValueError(
                    "in async mode (batch_size < num_envs) pass env_id: the info['env_id'] "
                    "of the batch these actions are for"
                )
            ids = jnp.arange(self._num_envs, dtype=jnp.int32)
        else:
            ids = jnp.asarray(env_id)
            if ids.dtype.kind not in "iu" or ids.ndim != 1:
                raise TypeError(
                    f"env_id must be a 1-D integer array, got {ids.dtype} of shape {ids.shape}"
                )
            ids = ids.astype(jnp.int32)
        rows = ids.shape[0]
        if self._sync and rows != self._num_envs:
            raise ValueError(
                f"in sync mode send() steps every env: env_id must hold all {self._num_envs}"
                f" env ids, got {rows}"
            )
        expected = (rows, *self._action_shape)
        if action.shape != expected:
            raise ValueError(
                f"actions must have shape {expected} (one row per env), got {action.shape}"
            )
        return ids, action.astype(jax.dtypes.canonicalize_dtype(self._action_dtype))


def make_xla(env: Any) -> tuple[np.ndarray, Callable[..., Any], Callable[..., Any], Any]:
    """``(handle, recv, send, step)`` for ``env`` (see the module doc)."""
    return XlaFunctions(env).as_tuple()


def _as_handle(handle: Any) -> jax.Array:
    handle = jnp.asarray(handle)
    if handle.shape != (8,) or handle.dtype != jnp.uint8:
        raise TypeError(
            "the handle must be the uint8[8] array from env.xla() or returned by the last "
            f"send/recv, got {handle.dtype}{list(handle.shape)}"
        )
    return handle


def _step_result(arrays: dict[str, jax.Array]) -> tuple[Any, ...]:
    """(obs, reward, terminated, truncated, info) from recv's named outputs, laid out
    as the pool's Python recv() lays them out."""
    if "obs" in arrays:
        obs: Any = arrays["obs"]
    else:  # a dict observation: "obs.<key>" in the env's key order
        obs = {k[4:]: v for k, v in arrays.items() if k.startswith("obs.")}
    info = {k[5:]: v for k, v in arrays.items() if k.startswith("info.")}
    if "final_mask" in arrays:
        mask = arrays["final_mask"]
        if "final_obs" in arrays:
            info["final_obs"] = arrays["final_obs"]
        else:
            info["final_obs"] = {k[10:]: v for k, v in arrays.items() if k.startswith("final_obs.")}
        info["_final_obs"] = mask
        final_info: dict[str, Any] = {}
        for key, value in arrays.items():
            if key.startswith("final_info."):
                final_info[key[11:]] = value
                final_info[f"_{key[11:]}"] = mask
        info["final_info"] = final_info
        info["_final_info"] = mask
    return obs, arrays["reward"], arrays["terminated"], arrays["truncated"], info


def _front_end_result(env: Any) -> Callable[[tuple[Any, ...]], Any]:
    """What the pool's front end makes of a recv result, in jax operations."""
    if isinstance(env, DmEnvPool):
        original = isinstance(env, OriginalDmEnvPool)
        return lambda result: _time_step(*result, original=original)
    if isinstance(env, OriginalGymEnvPool):

        def original_gym(result: tuple[Any, ...]) -> tuple[Any, ...]:
            obs, reward, terminated, truncated, info = result
            info = as_original_info(info)
            return obs, reward.astype(jnp.float32), terminated, truncated, info

        return original_gym
    if env.spec.tuple_observation:
        return with_tuple_observations_jax
    return lambda result: result


def _time_step(
    obs: Any,
    reward: jax.Array,
    terminated: jax.Array,
    truncated: jax.Array,
    info: Any,
    *,
    original: bool,
) -> Any:
    """The dm_env TimeStep DmEnvPool builds, in jax operations."""
    import dm_env

    first = info["elapsed_step"] == 0
    last = terminated | truncated
    step_type = jnp.where(
        first, int(dm_env.StepType.FIRST), last.astype(jnp.int8) + int(dm_env.StepType.MID)
    ).astype(jnp.int8)
    discount = jnp.where(terminated, 0.0, 1.0).astype(reward.dtype)
    if "discount" in info:
        discount = jnp.minimum(discount, info["discount"].astype(reward.dtype))
    arrays = obs if isinstance(obs, dict) else {"obs": obs}
    observation = Observation(**arrays, **info)
    if original:
        observation["players"] = Config(env_id=observation["env_id"])
        reward = reward.astype(jnp.float32)
        discount = discount.astype(jnp.float32)
    return dm_env.TimeStep(step_type, reward, discount, observation)

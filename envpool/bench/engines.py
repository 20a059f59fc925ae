"""The engines `envpool bench` times: envpool itself and the peers it is compared with.

Each engine opens a batch of envs for one case (task, num_envs, ...) and hands back
a ``run(k)`` function that makes k batched calls with pre-drawn random actions and
returns how many env steps they took. The timing loop is the same for every engine
(``timed``), so their numbers are comparable within one run.
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import importlib.util
import itertools
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

Runner = Callable[[int], int]
"""run(k): k batched calls; returns the env steps they took."""

ACTION_BATCHES = 64
"""Pre-drawn action batches per case, used in a cycle."""

ASYNC_MAX_PROCESSES = 64
"""gymnasium's AsyncVectorEnv starts one process per env; past this it is not run."""


def task_family(task_id: str) -> str:
    """``"atari"``, ``"mujoco"``, ``"box2d"``, ``"dmc"``, ``"minigrid"``, ``"mpe2"``,
    ``"procgen"``, ``"robotics"`` or ``"classic"`` (anything else, toy text included:
    small, cheap steps), from envpool's registry."""
    from envpool.registry import get_task

    family = get_task(task_id).family
    known = ("atari", "mujoco", "box2d", "dmc", "minigrid", "mpe2", "procgen", "robotics")
    return family if family in known else "classic"


@dataclass(frozen=True)
class TaskInfo:
    """What the engines need to know about a task."""

    task_id: str
    family: str
    """``"atari"``, ``"mujoco"``, ``"box2d"``, ``"dmc"``, ``"minigrid"``, ``"mpe2"``,
    ``"procgen"``, ``"robotics"`` or ``"classic"`` (task_family)."""
    frame_skip: int
    """Emulator frames per env step (1 for non-Atari tasks)."""
    action_space: Any
    """One env's gymnasium action space (of a multi-agent task: the Dict of its agents')."""
    agents: tuple[str, ...] = ()
    """A multi-agent task's agents, in order; empty for a single-agent task."""

    @property
    def is_multi_agent(self) -> bool:
        return bool(self.agents)

    @property
    def is_atari(self) -> bool:
        return self.family == "atari"

    @property
    def is_mujoco(self) -> bool:
        """One of gymnasium's MuJoCo tasks (same id in gymnasium and the original EnvPool)."""
        return self.family == "mujoco"

    @property
    def is_minigrid(self) -> bool:
        """One of minigrid's tasks (gymnasium has its id once ``minigrid`` is imported)."""
        return self.family == "minigrid"

    @property
    def is_robotics(self) -> bool:
        """One of gymnasium-robotics' tasks (gymnasium has its id once its envs are registered)."""
        return self.family == "robotics"

    @property
    def original_id(self) -> str:
        """The original EnvPool's id of the same task (it lags gymnasium's versions)."""
        return ORIGINAL_IDS.get(self.task_id, self.task_id)

    @property
    def ale_id(self) -> str:
        """gymnasium's id of the same game, e.g. ``ALE/Pong-v5``."""
        return f"ALE/{self.task_id}"

    @property
    def rom_id(self) -> str:
        """ale-py's ROM id, e.g. ``pong``."""
        from envpool.families.atari.tasks import ROM_IDS, task_name

        return next(r for r in ROM_IDS if f"{task_name(r)}-v5" == self.task_id)


ORIGINAL_IDS = {"Taxi-v4": "Taxi-v3", "CarRacing-v3": "CarRacing-v2"}
"""Tasks the original EnvPool 1.2.5 has under an older version suffix (same dynamics)."""


def task_info(task_id: str) -> TaskInfo:
    """A TaskInfo from envpool's registry (ValueError for an unknown task)."""
    import envpool

    family = task_family(task_id)
    spec = envpool.make_spec(task_id)
    frame_skip = int(spec.config.get("frame_skip", 1)) if family == "atari" else 1
    return TaskInfo(task_id, family, frame_skip, spec.action_space, tuple(spec.agent_action_spaces))


@dataclass(frozen=True)
class Case:
    """One measurement: an engine on num_envs copies of a task."""

    task: TaskInfo
    num_envs: int
    batch_size: int | None
    """None or >= num_envs: every call steps every env (sync); less: async."""
    num_threads: int | None
    seconds: float

    @property
    def is_async(self) -> bool:
        return self.batch_size is not None and self.batch_size < self.num_envs

    @property
    def rows(self) -> int:
        """Envs stepped per call."""
        return cast(int, self.batch_size) if self.is_async else self.num_envs

    def actions(self, rows: int | None = None, dtype: Any = None) -> Iterator[Any]:
        """An endless cycle of pre-drawn random action batches of `rows` envs; of a
        multi-agent task, dicts of each agent's batch (the multi-agent pool's form)."""
        rows = self.rows if rows is None else rows
        rng = np.random.default_rng(0)
        space = self.task.action_space
        if not self.task.is_multi_agent:
            return itertools.cycle(list(_action_batches(space, rows, rng, dtype)))
        drawn = {a: _action_batches(space[a], rows, rng, dtype) for a in self.task.agents}
        return itertools.cycle([{a: b[i] for a, b in drawn.items()} for i in range(ACTION_BATCHES)])


def _action_batches(space: Any, rows: int, rng: np.random.Generator, dtype: Any) -> np.ndarray:
    """ACTION_BATCHES random actions of `rows` envs from one env's `space` (Discrete or Box)."""
    batches: np.ndarray
    if hasattr(space, "n"):
        batches = rng.integers(0, int(space.n), size=(ACTION_BATCHES, rows), dtype=np.int64)
        batches = batches + int(getattr(space, "start", 0))
    else:
        low = np.broadcast_to(space.low, space.shape)
        high = np.broadcast_to(space.high, space.shape)
        batches = rng.uniform(low, high, size=(ACTION_BATCHES, rows, *space.shape))
        batches = batches.astype(space.dtype)
    return batches if dtype is None else batches.astype(dtype)


def timed(run: Runner, seconds: float) -> float:
    """Env steps per second of run() over about `seconds`, after a short warm-up.

    The clock is read between chunks of calls that take about a millisecond, so
    the timing adds next to nothing even to a call of a few microseconds.
    """
    warm_up = min(0.5, 0.2 * seconds)
    calls, start = 0, time.perf_counter()
    while True:
        run(1)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= warm_up:
            break
    chunk = max(1, min(10_000, int(1e-3 / (elapsed / calls))))
    steps, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        steps += run(chunk)
        now = time.perf_counter()
        if now >= deadline:
            return steps / (now - start)


class CannotRunError(Exception):
    """An engine cannot run this case; the message says why, in one line."""


class Engine:
    """Base class: a name, when it applies, and how to open a case."""

    name = ""
    peer = True
    async_capable = False
    """Whether it takes batch_size (runs asynchronously when batch_size < num_envs)."""

    def applies(self, task: TaskInfo) -> bool:
        """Whether this engine has a version of `task` at all (if not, it is left out quietly)."""
        return True

    def unavailable(self, task: TaskInfo) -> str | None:
        """Why this engine cannot run `task` here, e.g. a missing package (None: it can)."""
        return None

    def too_many(self, num_envs: int) -> str | None:
        """Why this engine does not run with `num_envs` envs (None: it does)."""
        return None

    def open(self, case: Case) -> contextlib.AbstractContextManager[Runner]:
        raise NotImplementedError

    def measure(self, case: Case) -> float:
        """Env steps per second on `case`."""
        with self.open(case) as run:
            return timed(run, case.seconds)


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


@contextlib.contextmanager
def mujoco_timer_off() -> Iterator[None]:
    """Clears libmujoco's ``mjcb_time`` callback while inside (if the mujoco package is imported).

    Importing the mujoco Python package installs a timer callback that mj_step calls
    around each of its stages to fill ``data.timer``; it is a global of the shared
    libmujoco, so it also slows envpool's MuJoCo envs (by about 10% here) in any
    process that imported mujoco, as the gymnasium peers do. envpool alone never
    imports it, so envpool and the raw-MuJoCo ceiling are measured without it.
    """
    module = sys.modules.get("mujoco")
    folder = os.path.dirname(getattr(module, "__file__", None) or "")
    libraries = sorted(glob.glob(os.path.join(folder, "libmujoco.so*"))) if folder else []
    if not libraries:
        yield
        return
    slot = ctypes.c_void_p.in_dll(ctypes.CDLL(libraries[0]), "mjcb_time")
    saved = slot.value
    slot.value = None
    try:
        yield
    finally:
        slot.value = saved


def envpool_loop(env: Any, case: Case, dm: bool = False) -> Runner:
    """The timed loop over an open envpool pool: ``run(k)`` makes k recv/send pairs
    (async) or k steps (sync) with the case's actions and returns the env steps done.
    It resets the pool first."""
    actions = case.actions()
    rows = case.rows
    if case.is_async:
        env.async_reset()

        def env_ids() -> Any:
            if dm:
                return env.recv().observation["env_id"]
            info = env.recv()[4]
            if case.task.is_multi_agent:  # info keyed by agent; every agent has the env ids
                info = next(iter(info.values()))
            return info["env_id"]

        def run(k: int) -> int:
            for a in itertools.islice(actions, k):
                env.send(a, env_ids())
            return k * rows

        return run
    env.reset()
    return _step_runner(env.step, actions, rows)


def _step_runner(step: Callable[[Any], Any], actions: Iterator[Any], rows: int) -> Runner:
    """``run(k)``: k calls of ``step`` with the next k actions; returns the env steps done
    (``rows`` a call)."""

    def run(k: int) -> int:
        for a in itertools.islice(actions, k):
            step(a)
        return k * rows

    return run


class EnvpoolEngine(Engine):
    name = "envpool"
    peer = False
    async_capable = True

    def measure(self, case: Case) -> float:
        if case.task.family not in ("mujoco", "dmc", "robotics"):
            return super().measure(case)
        with mujoco_timer_off():
            return super().measure(case)

    @contextlib.contextmanager
    def open(self, case: Case) -> Iterator[Runner]:
        import envpool

        # DMC tasks through the dm_env API, their native one (and the original's)
        dm = case.task.family == "dmc"
        env = envpool.make(
            case.task.task_id,
            env_type="dm" if dm else "gymnasium",
            num_envs=case.num_envs,
            batch_size=case.batch_size if case.is_async else None,
            num_threads=case.num_threads,
            seed=0,
        )
        try:
            yield envpool_loop(env, case, dm)
        finally:
            env.close()


def _gym_env_factory(task: TaskInfo) -> Callable[[], Any]:
    """A function making one gymnasium env that matches envpool's version of `task`."""
    import gymnasium as gym

    if task.is_minigrid:

        def make_minigrid() -> Any:
            importlib.import_module("minigrid")  # its ids, also in a spawned worker
            return gym.make(task.task_id)

        return make_minigrid
    if task.is_robotics:

        def make_robotics() -> Any:
            _register_robotics()  # its ids, also in a spawned worker
            return gym.make(task.task_id)

        return make_robotics
    if not task.is_atari:
        return lambda: gym.make(task.task_id)

    import ale_py
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    gym.register_envs(ale_py)

    def make() -> Any:
        env = gym.make(task.ale_id, frameskip=1, repeat_action_probability=0.0)
        env = AtariPreprocessing(env, noop_max=30, frame_skip=task.frame_skip)
        return FrameStackObservation(env, 4)

    return make


def _register_robotics() -> None:
    """Registers gymnasium-robotics' ids in gymnasium, with its joint checks patched to
    run on mujoco 3.17 (envpool/bench/robotics_peer.py)."""
    from envpool.bench import robotics_peer

    robotics_peer.register()


class _GymnasiumEngine(Engine):
    """Shared checks of the engines built from gymnasium.make envs."""

    def applies(self, task: TaskInfo) -> bool:
        # gymnasium has no DMC or Procgen tasks (procgen registers gym ids, not
        # gymnasium's), and a multi-agent task is no gymnasium env
        return task.family not in ("dmc", "procgen") and not task.is_multi_agent

    def unavailable(self, task: TaskInfo) -> str | None:
        import gymnasium as gym

        gym_id = task.ale_id if task.is_atari else task.task_id
        if task.is_mujoco and _missing("mujoco"):
            return "gymnasium's MuJoCo envs need the mujoco package (pip install mujoco==3.17.0)"
        if task.is_minigrid:
            if _missing("minigrid"):
                return (
                    "gymnasium's MiniGrid envs need the minigrid package (pip install "
                    "--no-deps minigrid==3.2.0: with its dependencies it would replace pygame)"
                )
            try:
                importlib.import_module("minigrid")  # registers its ids in gymnasium
            except ImportError as exc:  # minigrid imports pygame
                return f"minigrid does not import here: {exc}"
        if task.is_robotics:
            if _missing("gymnasium_robotics"):
                return (
                    "gymnasium-robotics' envs need gymnasium-robotics "
                    "(pip install gymnasium-robotics==1.4.2)"
                )
            try:
                _register_robotics()
            except ImportError as exc:
                return f"gymnasium_robotics does not import here: {exc}"
        if task.is_atari:
            try:
                import cv2  # noqa: F401
            except ImportError:
                return (
                    "gymnasium's AtariPreprocessing needs opencv "
                    '(pip install opencv-python-headless, or pip install "envpool[bench]")'
                )
            import ale_py

            gym.register_envs(ale_py)
        try:
            gym.spec(gym_id)
        except gym.error.Error:
            return f"gymnasium has no task {gym_id}"
        return None


class ForLoopEngine(_GymnasiumEngine):
    name = "gymnasium for-loop"

    @contextlib.contextmanager
    def open(self, case: Case) -> Iterator[Runner]:
        with _seeded_envs(_gym_env_factory(case.task), case.num_envs) as envs:
            yield _env_loop(envs, case.actions(), lambda _, result: result[2] or result[3])


@contextlib.contextmanager
def _seeded_envs(make: Callable[[], Any], num_envs: int) -> Iterator[list[Any]]:
    """num_envs envs from make(), env i reset with seed i; closed afterwards."""
    envs = [make() for _ in range(num_envs)]
    try:
        for i, env in enumerate(envs):
            env.reset(seed=i)
        yield envs
    finally:
        for env in envs:
            env.close()


def _env_loop(envs: list[Any], actions: Iterator[Any], ended: Callable[[Any, Any], Any]) -> Runner:
    """``run(k)``: k rounds of stepping each env in turn with its action of the next batch
    (env i's is ``batch[i]``), resetting an env when ``ended(env, step's result)``."""

    def run(k: int) -> int:
        for batch in itertools.islice(actions, k):
            for env, act in zip(envs, batch, strict=True):
                if ended(env, env.step(act)):
                    env.reset()
        return k * len(envs)

    return run


class DmControlLoopEngine(Engine):
    """dm_control's own envs (suite.load), stepped one after another in a Python loop."""

    name = "dm_control for-loop"

    def applies(self, task: TaskInfo) -> bool:
        return task.family == "dmc"

    def unavailable(self, task: TaskInfo) -> str | None:
        return "needs dm_control (pip install envpool[dmc])" if _missing("dm_control") else None

    @contextlib.contextmanager
    def open(self, case: Case) -> Iterator[Runner]:
        from absl import logging as absl_logging
        from dm_control import suite

        from envpool.families.dmc.tasks import domain_task

        domain, task = domain_task(case.task.task_id)
        verbosity = absl_logging.get_verbosity()
        absl_logging.set_verbosity(absl_logging.ERROR)  # MuJoCo's per-load model warnings
        try:
            envs = [
                suite.load(domain, task, task_kwargs={"random": i}) for i in range(case.num_envs)
            ]
        finally:
            absl_logging.set_verbosity(verbosity)
        actions = case.actions()
        for env in envs:
            env.reset()

        def run(k: int) -> int:
            for a in itertools.islice(actions, k):
                for env, act in zip(envs, a, strict=True):
                    if env.step(act).last():
                        env.reset()
            return k * len(envs)

        yield run


@contextlib.contextmanager
def _stepping(env: Any, case: Case, rows: int) -> Iterator[Runner]:
    """Resets a gymnasium-style vector env and yields a runner stepping it with the
    case's actions (``rows`` env steps per call); closes the env afterwards."""
    actions = case.actions()
    try:
        env.reset(seed=0)
        yield _step_runner(env.step, actions, rows)
    finally:
        env.close()


class SyncVectorEngine(_GymnasiumEngine):
    name = "gymnasium SyncVectorEnv"

    def _make(self, case: Case) -> Any:
        import gymnasium as gym

        return gym.vector.SyncVectorEnv([_gym_env_factory(case.task)] * case.num_envs)

    @contextlib.contextmanager
    def open(self, case: Case) -> Iterator[Runner]:
        with _stepping(self._make(case), case, case.num_envs) as run:
            yield run


class AsyncVectorEngine(SyncVectorEngine):
    name = "gymnasium AsyncVectorEnv"

    def too_many(self, num_envs: int) -> str | None:
        if num_envs > ASYNC_MAX_PROCESSES:
            return f"one process per env; not run above {ASYNC_MAX_PROCESSES} envs"
        return None

    def _make(self, case: Case) -> Any:
        import gymnasium as gym

        # minigrid's mission space is its own Space class, which gymnasium cannot put in
        # shared memory: the workers pickle their observations through the pipes instead
        shared = not case.task.is_minigrid
        factories = [_gym_env_factory(case.task)] * case.num_envs
        return gym.vector.AsyncVectorEnv(factories, shared_memory=shared)


class NumpyVectorEngine(Engine):
    """gymnasium's own vectorised implementation (CartPole's CartPoleVectorEnv)."""

    name = "gymnasium numpy (vector_entry_point)"

    def applies(self, task: TaskInfo) -> bool:
        import gymnasium as gym

        if task.is_atari:
            return False
        try:
            return gym.spec(task.task_id).vector_entry_point is not None
        except gym.error.Error:
            return False

    @contextlib.contextmanager
    def open(self, case: Case) -> Iterator[Runner]:
        import gymnasium as gym

        env = gym.make_vec(
            case.task.task_id, num_envs=case.num_envs, vectorization_mode="vector_entry_point"
        )
        with _stepping(env, case, case.num_envs) as run:
            yield run


class AleVectorEngine(Engine):
    """ale-py's own C++ vector env, with the same preprocessing as envpool's Atari."""

    name = "ale-py AtariVectorEnv"
    async_capable = True

    def applies(self, task: TaskInfo) -> bool:
        return task.is_atari

    def unavailable(self, task: TaskInfo) -> str | None:
        if _missing("ale_py.vector_env"):
            return "this ale-py has no AtariVectorEnv"
        return None

    @contextlib.contextmanager
    def open(self, case: Case) -> Iterator[Runner]:
        from ale_py.vector_env import AtariVectorEnv

        env = AtariVectorEnv(
            case.task.rom_id,
            case.num_envs,
            batch_size=case.rows if case.is_async else 0,
            num_threads=case.num_threads or 0,
            frameskip=case.task.frame_skip,
            reward_clipping=False,
        )
        with _stepping(env, case, case.rows) as run:
            yield run


def _mpe2_env_factory(task: TaskInfo) -> Callable[[], Any]:
    """mpe2's ``parallel_env`` of the scenario that `task` is (its default options)."""
    import importlib

    from envpool.families.mpe2.tasks import MPE2_MODULES

    return cast(
        Callable[[], Any],
        importlib.import_module(f"mpe2.{MPE2_MODULES[task.task_id]}").parallel_env,
    )


class _Mpe2Engine(Engine):
    """Shared checks of the engines built from mpe2's PettingZoo parallel envs."""

    def applies(self, task: TaskInfo) -> bool:
        return task.family == "mpe2"

    def unavailable(self, task: TaskInfo) -> str | None:
        return "needs mpe2 (pip install --no-deps mpe2==1.1.1)" if _missing("mpe2") else None


class Mpe2LoopEngine(_Mpe2Engine):
    """mpe2's parallel envs stepped one after another in a Python loop, each reset when
    its agents are gone (the episode ended)."""

    name = "mpe2 for-loop"

    @contextlib.contextmanager
    def open(self, case: Case) -> Iterator[Runner]:
        # each batch as one dict per env (every agent is live until the episode ends)
        batches = itertools.islice(case.actions(), ACTION_BATCHES)
        per_env = [[{a: b[a][i] for a in b} for i in range(case.num_envs)] for b in batches]
        with _seeded_envs(_mpe2_env_factory(case.task), case.num_envs) as envs:
            yield _env_loop(envs, itertools.cycle(per_env), lambda env, _: not env.agents)


class SuperSuitEngine(_Mpe2Engine):
    """SuperSuit's vector form of PettingZoo envs: ``pettingzoo_env_to_vec_env_v1`` makes
    one env's agents the rows of a gymnasium VectorEnv (after ``pad_observations_v0`` /
    ``pad_action_space_v0`` where the agents' spaces differ, as it requires), and
    ``concat_vec_envs_v1`` joins num_envs of them in this process."""

    name = "SuperSuit concat_vec_envs"

    def unavailable(self, task: TaskInfo) -> str | None:
        if _missing("supersuit"):
            return (
                'needs supersuit (pip install supersuit==3.11.0, or pip install "envpool[bench]")'
            )
        return super().unavailable(task)

    def num_cpus(self, case: Case) -> int:
        """concat_vec_envs_v1's num_cpus: 0 runs the envs in this process."""
        return 0

    @contextlib.contextmanager
    def open(self, case: Case) -> Iterator[Runner]:
        import supersuit

        agents = case.task.agents
        if not all(hasattr(case.task.action_space[a], "n") for a in agents):
            raise CannotRunError("runs the discrete actions (the default) only")
        env = _mpe2_env_factory(case.task)()
        if any(env.observation_space(a) != env.observation_space(agents[0]) for a in agents):
            env = supersuit.pad_observations_v0(env)
        if any(env.action_space(a) != env.action_space(agents[0]) for a in agents):
            env = supersuit.pad_action_space_v0(env)
        vec = supersuit.concat_vec_envs_v1(
            supersuit.pettingzoo_env_to_vec_env_v1(env),
            case.num_envs,
            num_cpus=self.num_cpus(case),
            base_class="gymnasium",
        )
        # one row per (env, agent), the agents of an env side by side
        batches = itertools.islice(case.actions(), ACTION_BATCHES)
        rows = [np.stack([b[a] for a in agents], axis=1).reshape(-1) for b in batches]
        try:
            vec.reset(seed=0)
            yield _step_runner(vec.step, itertools.cycle(rows), case.num_envs)
        finally:
            vec.close()


class SuperSuitProcessesEngine(SuperSuitEngine):
    """SuperSuitEngine with ``concat_vec_envs_v1``'s worker processes: one per thread
    (num_threads, default one per core)."""

    name = "SuperSuit concat_vec_envs (processes)"

    def num_cpus(self, case: Case) -> int:
        return case.num_threads or os.cpu_count() or 1


PROCGEN_OPTIONS = (
    "num_levels",
    "start_level",
    "use_sequential_levels",
    "center_agent",
    "use_backgrounds",
    "restrict_themes",
    "use_monochrome_assets",
    "paint_vel_info",
    "use_generated_assets",
)
"""The options of a Procgen task that ProcgenGym3Env takes under the same names (besides
env_name and distribution_mode)."""


def procgen_reference() -> Any:
    """procgen's own ``ProcgenGym3Env`` class (module ``procgen.env``), or None where it
    does not import.

    It is there where procgen 0.10.7 is installed (its wheels are for CPython up to 3.10,
    with gym and gym3), or where a script has put procgen's ``env`` module from its wheel
    into ``sys.modules`` (benchmarks/bench_procgen.py, with tests/procgen_reference.py).
    """
    try:
        return importlib.import_module("procgen.env").ProcgenGym3Env
    except Exception:  # not installed, or its gym / gym3 / library does not load
        return None


class ProcgenGym3Engine(Engine):
    """procgen's own vector env, ``ProcgenGym3Env(num=num_envs, num_threads=...)``: the
    same game library stepping its envs on its own C++ threads; ``act`` then ``observe``
    per step (gym3's API). num_threads is passed on (None: procgen's default, 4)."""

    name = "procgen ProcgenGym3Env"

    def applies(self, task: TaskInfo) -> bool:
        return task.family == "procgen"

    def unavailable(self, task: TaskInfo) -> str | None:
        if procgen_reference() is None:
            return (
                "needs procgen's own ProcgenGym3Env (pip install procgen==0.10.7, whose "
                "wheels are for CPython up to 3.10; on later Pythons "
                "benchmarks/bench_procgen.py loads it from procgen's wheel)"
            )
        return None

    @contextlib.contextmanager
    def open(self, case: Case) -> Iterator[Runner]:
        import envpool

        config = envpool.make_spec(case.task.task_id).config
        options = {k: config[k] for k in PROCGEN_OPTIONS if k in config}
        if case.num_threads:
            options["num_threads"] = case.num_threads
        env = procgen_reference()(
            num=case.num_envs,
            env_name=config["env_name"],
            distribution_mode=config["distribution_mode"],
            rand_seed=0,
            **options,
        )
        actions = case.actions(dtype=np.int32)
        try:
            env.observe()

            def run(k: int) -> int:
                for a in itertools.islice(actions, k):
                    env.act(a)
                    env.observe()
                return k * case.num_envs

            yield run
        finally:
            env.close()


PEER_SCRIPT = textwrap.dedent(
    """
    import importlib.util, json, sys, time
    import numpy as np
    import envpool

    if importlib.util.find_spec("envpool.bench") is not None:
        sys.exit("its envpool is this package (it has envpool.bench), not the original EnvPool")

    task, n, batch, threads, seconds = sys.argv[1], *map(int, sys.argv[2:5]), float(sys.argv[5])
    dm = len(sys.argv) > 6 and sys.argv[6] == "dm"
    make = envpool.make_dm if dm else envpool.make_gymnasium
    env = make(task, num_envs=n, batch_size=batch, num_threads=threads, seed=0)
    rng = np.random.default_rng(0)
    if dm:
        spec = env.action_spec()
        space = type("Box", (), {"low": spec.minimum, "high": spec.maximum,
                                 "shape": spec.shape, "dtype": spec.dtype})
    else:
        space = getattr(env, "single_action_space", env.action_space)  # one env's space
    if hasattr(space, "n"):
        acts = [rng.integers(0, space.n, size=batch).astype(np.int32) for _ in range(64)]
    else:
        shape = (batch, *space.shape)
        acts = [rng.uniform(space.low, space.high, shape).astype(space.dtype) for _ in range(64)]
    if batch < n:
        env.async_reset()
        def one(a):
            ids = env.recv().observation.env_id if dm else env.recv()[-1]["env_id"]
            env.send(a, ids)
    else:
        env.reset()
        one = env.step
    def run(k):
        for i in range(k):
            one(acts[i % 64])
        return k * batch
    calls, start = 0, time.perf_counter()
    while True:
        run(1)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min(0.5, 0.2 * seconds):
            break
    chunk = max(1, min(10000, int(1e-3 / (elapsed / calls))))
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += run(chunk)
    rate = steps / (time.perf_counter() - start)
    env.close()
    print(json.dumps({"version": envpool.__version__, "steps_per_second": rate}))
    """
)


class OriginalEnvpoolEngine(Engine):
    """The original EnvPool (package `envpool`) in another Python, run in a subprocess."""

    name = "original EnvPool"
    async_capable = True

    def __init__(self, python: str) -> None:
        self.python = python
        self.version: str | None = None

    def applies(self, task: TaskInfo) -> bool:
        return not task.is_robotics  # EnvPool 1.2.5 has no gymnasium-robotics task

    def measure(self, case: Case) -> float:
        task = case.task.original_id
        args = [task, case.num_envs, case.rows, case.num_threads or 0, case.seconds]
        if case.task.family == "dmc":  # the original's DMC gymnasium spaces fail to build
            args.append("dm")
        try:
            done = subprocess.run(
                [self.python, "-c", PEER_SCRIPT, *map(str, args)],
                capture_output=True,
                text=True,
                timeout=120 + 2 * case.seconds,
                cwd=os.path.expanduser("~"),  # not a folder holding this envpool's source
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise CannotRunError(f"could not run {self.python}: {exc}") from None
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            raise CannotRunError(f"{self.python} failed: {lines[-1] if lines else done.returncode}")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        self.version = result.get("version")
        return float(result["steps_per_second"])


PEERS: tuple[Engine, ...] = (
    DmControlLoopEngine(),
    NumpyVectorEngine(),
    AleVectorEngine(),
    ForLoopEngine(),
    SyncVectorEngine(),
    AsyncVectorEngine(),
    Mpe2LoopEngine(),
    SuperSuitEngine(),
    SuperSuitProcessesEngine(),
    ProcgenGym3Engine(),
)

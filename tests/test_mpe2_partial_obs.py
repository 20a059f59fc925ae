"""mpe2's partial-observability options (num_agent_neighbors, num_landmark_neighbors) of
simple_adversary, simple_spread and simple_tag in envpool, against mpe2 side by side
(test_mpe2_parity.run_side_by_side: whole episodes, autoresets, discrete and
continuous actions), with the spaces mpe2 gives and the values it refuses.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_mpe2_parity import run_side_by_side

import envpool
from envpool import numpy_parity

pytest.importorskip("mpe2")
from mpe2 import simple_adversary_v3, simple_spread_v3, simple_tag_v3

MODULES = {
    "SimpleAdversary-v3": simple_adversary_v3,
    "SimpleSpread-v3": simple_spread_v3,
    "SimpleTag-v3": simple_tag_v3,
}
OPTIONS = ("num_agent_neighbors", "num_landmark_neighbors")

# task id -> options; k and m below, at and above the numbers of other agents and of
# landmarks (zero-padded slots), each option alone and both together
CASES: list[tuple[str, dict[str, Any]]] = [
    ("SimpleSpread-v3", {"num_agent_neighbors": 1}),
    ("SimpleSpread-v3", {"num_landmark_neighbors": 2}),
    ("SimpleSpread-v3", {"num_agent_neighbors": 2, "num_landmark_neighbors": 3}),
    ("SimpleSpread-v3", {"N": 5, "num_agent_neighbors": 3, "num_landmark_neighbors": 2}),
    ("SimpleSpread-v3", {"N": 2, "num_agent_neighbors": 4, "num_landmark_neighbors": 5}),
    ("SimpleSpread-v3", {"N": 1, "num_agent_neighbors": 2, "num_landmark_neighbors": 1}),
    ("SimpleAdversary-v3", {"num_agent_neighbors": 1}),
    ("SimpleAdversary-v3", {"num_landmark_neighbors": 1}),
    ("SimpleAdversary-v3", {"N": 4, "num_agent_neighbors": 2, "num_landmark_neighbors": 3}),
    ("SimpleAdversary-v3", {"num_agent_neighbors": 5, "num_landmark_neighbors": 4}),
    ("SimpleTag-v3", {"num_agent_neighbors": 1}),
    ("SimpleTag-v3", {"num_landmark_neighbors": 1}),
    ("SimpleTag-v3", {"num_agent_neighbors": 2, "num_landmark_neighbors": 2}),
    (
        "SimpleTag-v3",
        {
            "num_good": 2,
            "num_adversaries": 3,
            "num_obstacles": 3,
            "num_agent_neighbors": 3,
            "num_landmark_neighbors": 2,
        },
    ),
    ("SimpleTag-v3", {"num_obstacles": 0, "num_agent_neighbors": 6, "num_landmark_neighbors": 2}),
]


def case_id(task_id: str, options: dict[str, Any]) -> str:
    return f"{task_id}-{'-'.join(f'{k}={v}' for k, v in options.items())}"


@pytest.mark.numpy_sensitive
@pytest.mark.cpu_sensitive
@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@pytest.mark.parametrize(("task_id", "options"), CASES, ids=[case_id(*c) for c in CASES])
def test_matches_mpe2(task_id: str, options: dict[str, Any], continuous: bool) -> None:
    ends = run_side_by_side(task_id, MODULES[task_id], options, continuous)
    assert ends >= 3  # every env went through at least one autoreset


@pytest.mark.parametrize(("task_id", "options"), CASES, ids=[case_id(*c) for c in CASES])
def test_spaces_are_mpe2s(task_id: str, options: dict[str, Any]) -> None:
    pool = envpool.make(task_id, num_envs=1, **options)
    ref = MODULES[task_id].parallel_env(**options)
    assert pool.possible_agents == ref.possible_agents
    for agent in ref.possible_agents:
        assert pool.observation_space(agent) == ref.observation_space(agent), agent
        assert pool.action_space(agent) == ref.action_space(agent), agent
    pool.close()


@pytest.mark.parametrize("task_id", list(MODULES))
def test_none_is_full_observability(task_id: str) -> None:
    spec = envpool.make_spec(task_id)
    assert spec.config.num_agent_neighbors == 0  # None, as the env's config holds it
    assert spec.config.num_landmark_neighbors == 0
    explicit = envpool.make(task_id, num_envs=2, seed=4, **dict.fromkeys(OPTIONS))
    default = envpool.make(task_id, num_envs=2, seed=4)
    for a, b in zip(explicit.reset()[0].values(), default.reset()[0].values(), strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize(
    ("value", "error"),
    [(0, ValueError), (-1, ValueError), (-7, ValueError), (1.0, TypeError), ("2", TypeError)],
)
def test_bad_values_are_refused(option: str, value: Any, error: type) -> None:
    for task_id, module in MODULES.items():
        with pytest.raises(AssertionError):  # mpe2 refuses them too
            module.parallel_env(**{option: value})
        with pytest.raises(error, match=f"{option} must be a positive integer or None"):
            envpool.make(task_id, num_envs=1, **{option: value})
        with pytest.raises(error, match=option):
            envpool.make_spec(task_id, **{option: value})
        with pytest.raises(error, match=option):  # one bad value among the envs'
            envpool.make(task_id, num_envs=2, **{option: [2, value]})
    # a refused value leaves nothing behind: the next pool works
    pool = envpool.make("SimpleSpread-v3", num_envs=2, **{option: 2})
    pool.reset()
    pool.step({a: np.zeros(2, dtype=np.int64) for a in pool.possible_agents})
    pool.close()


def test_bool_is_refused() -> None:
    """mpe2's isinstance(value, int) lets True through as 1; envpool's int options take
    no bools."""
    with pytest.raises(TypeError, match="num_agent_neighbors"):
        envpool.make("SimpleTag-v3", num_envs=1, num_agent_neighbors=True)


def test_numpy_integers_are_taken() -> None:
    pool = envpool.make("SimpleTag-v3", num_envs=1, num_agent_neighbors=np.int64(2))
    ref = simple_tag_v3.parallel_env(num_agent_neighbors=2)
    assert pool.observation_space("agent_0") == ref.observation_space("agent_0")
    pool.close()


def test_ties_are_ordered_as_numpy_orders_them() -> None:
    """Two entities at exactly the same distance (which the seeded episodes cannot be
    steered into) come out in np.argsort's order, which is not stable: the scenarios
    sort with the argsort function of the numpy that is loaded, checked here on arrays
    full of ties."""
    envpool.make_spec("SimpleSpread-v3")  # installs numpy's kernels into the module
    from envpool.families.mpe2 import tasks

    if "argsort" not in tasks.NUMPY_LOOPS:
        pytest.skip("numpy's argsort was not found; ties are ordered stably")
    address = numpy_parity._numpy_argsort()
    assert address is not None
    argsort = numpy_parity._ARGSORT(address)
    rng = np.random.default_rng(7)
    for n in range(1, 33):
        for _ in range(20):
            distances = rng.integers(0, 3, n).astype(np.float64)
            order = np.arange(n, dtype=np.intp)
            scratch = distances.copy()
            argsort(scratch.ctypes.data, order.ctypes.data, n, None)
            np.testing.assert_array_equal(order, np.argsort(distances))

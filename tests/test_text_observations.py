"""Text observations in the env contract (MakeText, cpp/envpool/core/array_spec.h):
gymnasium's Text space, one Python str per env in a batch (a tuple of str, as
gymnasium's vector envs batch a Text), in a dict observation or alone, through
autoreset, async batches, masked resets and the dm_env front end; a text past its
max_length is the env's error, never cut; env.xla() refuses text observations.

The envs are cpp/tests/text_env.h, built with the fault env (tests/fault_env.py): the
note after k steps of an episode is "step k" followed by k dots."""

from __future__ import annotations

import string
from collections import OrderedDict
from typing import Any

import dm_env
import gymnasium
import numpy as np
import pytest
from gymnasium import spaces

import envpool

PRINTABLE = string.ascii_letters + string.digits + string.punctuation + " "


def note(steps: int) -> str:
    return f"step {steps}" + "." * steps


@pytest.fixture
def make_text(fault_env_dir: Any) -> Any:
    made: list[Any] = []

    def make(task: str = "FaultTextDict-v0", **kwargs: Any) -> Any:
        env = envpool.make(task, **kwargs)
        made.append(env)
        return env

    yield make
    for env in made:
        env.close()


def test_text_key_is_a_gymnasium_text_space(make_text: Any) -> None:
    env = make_text(num_envs=3, max_length=20)
    text = spaces.Text(max_length=20, min_length=1, charset=PRINTABLE)
    expected = spaces.Dict(
        OrderedDict(steps=spaces.Box(-(2**31), 2**31 - 1, (), np.int32), note=text)
    )
    assert env.single_observation_space == expected
    assert list(env.single_observation_space) == ["steps", "note"]
    assert env.observation_space["note"] == spaces.Tuple((text,) * 3)
    assert env.observation_space == gymnasium.vector.utils.batch_space(expected, 3)


def test_texts_come_as_a_tuple_of_str_through_autoreset(make_text: Any) -> None:
    env = make_text(num_envs=3, episode_length=4)
    obs, _ = env.reset()
    assert obs["note"] == (note(0),) * 3
    for t in range(1, 10):
        obs, _, terminated, _, info = env.step(np.zeros(3, np.int64))
        steps = info["elapsed_step"]
        assert isinstance(obs["note"], tuple)
        assert all(type(s) is str for s in obs["note"])
        assert obs["note"] == tuple(note(int(k)) for k in steps), t
        np.testing.assert_array_equal(obs["steps"], steps)
        assert obs in env.observation_space
        if t == 4:
            assert terminated.all()


def test_a_text_alone_is_the_observation(make_text: Any) -> None:
    env = make_text("FaultText-v0", num_envs=2)
    assert env.single_observation_space == spaces.Text(16, min_length=1, charset=PRINTABLE)
    obs, _ = env.reset()
    assert obs == (note(0), note(0))
    obs, *_ = env.step(np.zeros(2, np.int64))
    assert obs == (note(1), note(1))


def test_final_obs_holds_the_last_text_in_same_step_mode(make_text: Any) -> None:
    env = make_text(num_envs=2, episode_length=2, autoreset_mode="same_step")
    env.reset()
    env.step(np.zeros(2, np.int64))
    obs, _, terminated, _, info = env.step(np.zeros(2, np.int64))
    assert terminated.all()
    assert obs["note"] == (note(0),) * 2
    assert info["final_obs"]["note"] == (note(2),) * 2


def test_texts_in_async_batches_and_masked_resets(make_text: Any) -> None:
    env = make_text(num_envs=4, batch_size=2, episode_length=50)
    env.async_reset()
    for _ in range(6):
        obs, _, _, _, info = env.recv()
        assert obs["note"] == tuple(note(int(k)) for k in info["elapsed_step"])
        env.send(np.zeros(2, np.int64), info["env_id"])

    sync = make_text(num_envs=3, episode_length=50)
    sync.reset()
    sync.step(np.zeros(3, np.int64))
    obs, _ = sync.reset(options={"reset_mask": np.array([True, False, True])})
    assert obs["note"] == (note(0), note(1), note(0))


def test_a_text_past_max_length_is_an_error_and_the_pool_goes_on(make_text: Any) -> None:
    env = make_text(num_envs=2, max_length=8, episode_length=10)
    env.reset()
    for _ in range(2):  # "step 2.." has 8 characters
        obs, *_ = env.step(np.zeros(2, np.int64))
    assert obs["note"] == (note(2),) * 2
    with pytest.raises(
        envpool.EnvError,
        match=r"text 'note' of 9 characters is longer than its max_length 8: \"step 3\.\.\.\"",
    ):
        env.step(np.zeros(2, np.int64))
    obs, _ = env.reset()
    assert obs["note"] == (note(0),) * 2


def test_the_dm_front_end_gives_texts_and_a_string_spec(make_text: Any) -> None:
    env = make_text(num_envs=2, env_type="dm")
    spec = env.observation_spec()["note"]
    assert isinstance(spec, dm_env.specs.StringArray) and spec.shape == ()
    ts = env.reset()
    assert ts.observation.note == (note(0),) * 2
    spec.validate(np.array(ts.observation.note[0], dtype=object))
    ts = env.step(np.zeros(2, np.int64))
    assert ts.observation.note == (note(1),) * 2
    np.testing.assert_array_equal(ts.observation.steps, [1, 1])


def test_xla_refuses_text_observations(make_text: Any) -> None:
    env = make_text(num_envs=2)
    with pytest.raises(TypeError, match=r"FaultTextDict-v0: env.xla\(\) cannot carry text"):
        env.xla()
    env.reset()  # still usable


def test_gymnasium_warnings_can_print_a_text_space(make_text: Any) -> None:
    """gymnasium.logger.warn formats its message with ``msg % args``: a Text space printed
    with a raw ``%`` in its charset made every warning naming it raise TypeError (e.g.
    TransformObservation without single_observation_space over a MiniGrid pool)."""
    with make_text(num_envs=2) as env:
        space = env.single_observation_space
        assert "%" not in repr(space)
        with pytest.warns(UserWarning, match="charset=printable ASCII"):
            gymnasium.logger.warn(f"the space is {space}")
        wrapped = gymnasium.wrappers.vector.TransformObservation(env, lambda obs: obs)
        wrapped.reset(seed=0)
    odd = envpool.spaces.Text(4, charset="a%b")
    assert repr(odd) == "Text(1, 4, charset=\\x25ab)"  # gymnasium sorts the charset
    assert isinstance(odd, spaces.Text) and odd == spaces.Text(4, charset="a%b")

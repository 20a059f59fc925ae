"""Module paths and entry points that moved (envpool/compat/) still import and register."""

from __future__ import annotations

import json
import uuid

import pytest
from conftest import run_python

import envpool
from envpool import compat


@pytest.mark.parametrize("old", sorted(compat.MODULE_PATHS))
def test_every_old_module_path_imports_in_a_fresh_interpreter(old):
    # A fresh interpreter: the old path is the first thing imported, as in user code.
    code = (
        f"import importlib, json; m = importlib.import_module({old!r}); "
        f"import {old}; print(json.dumps([m.__name__, {old}.__name__]))"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    name, bound = json.loads(result.stdout)
    target = compat.MODULE_PATHS[old]
    assert name == bound == (target or old)


def test_the_originals_names_are_where_its_code_looks():
    code = (
        "from envpool.registration import make_gym, make_dm, make_spec, make_thread_pool\n"
        "from envpool.atari import AtariEnvSpec, AtariGymnasiumEnvPool, AtariDMEnvPool\n"
        "import envpool.atari.registration, envpool.mujoco.gym.registration\n"
        "from envpool.dmc_tasks import start_dm_control_episode\n"
        "spec = AtariEnvSpec(AtariEnvSpec.gen_config(task='pong', num_envs=2))\n"
        "print(spec.task_id, spec.config['num_envs'])"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Pong-v5", "2"]


@pytest.mark.parametrize("old", sorted(compat.LEGACY_ENTRY_POINTS))
def test_entry_points_of_the_old_shared_module_still_register(old):
    task_id = f"Legacy{old.partition(':')[2]}-{uuid.uuid4().hex[:8]}-v0"
    # The Atari env needs a ROM; the others run with their defaults.
    rom = {"rom_path": envpool.make_spec("Pong-v5").config["rom_path"]} if "Atari" in old else {}
    envpool.register(task_id, old, **rom)
    with envpool.make(task_id, num_envs=2) as env:
        env.reset(seed=0)
        env.step(env.action_space.sample())
    from envpool.registry import get_task

    assert get_task(task_id).entry_point == compat.LEGACY_ENTRY_POINTS[old]

"""Building envs outside envpool: the installed headers and CMake config, the
version check on env modules, and short compiler errors for a broken env."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest

import envpool
from envpool import build_paths
from envpool.cli import main as cli_main

REPO = Path(__file__).resolve().parents[1]


def test_cmake_dir_and_include_dir(capsys):
    cmake_dir = Path(build_paths.cmake_dir())
    assert (cmake_dir / "envpoolConfig.cmake").is_file()
    assert (cmake_dir / "envpoolConfigVersion.cmake").is_file()
    assert f'"{envpool.__version__}"' in (cmake_dir / "envpoolConfigVersion.cmake").read_text()
    include = Path(build_paths.include_dir())
    for header in ("core/env.h", "core/env_pool.h", "python/py_env_pool.h"):
        assert (include / "envpool" / header).is_file()
    assert cli_main(["cmake-dir"]) == 0
    assert capsys.readouterr().out.strip() == str(cmake_dir)
    assert cli_main(["include-dir"]) == 0
    assert capsys.readouterr().out.strip() == str(include)


def test_python_m_envpool_cmake_dir_prints_the_same_folder():
    done = subprocess.run(
        [sys.executable, "-m", "envpool", "cmake-dir"],
        capture_output=True,
        text=True,
        cwd="/",
        check=True,
    )
    assert done.stdout.strip() == build_paths.cmake_dir()


def test_versions_agree():
    pyproject = (REPO / "pyproject.toml").read_text()
    header = (REPO / "cpp/envpool/core/version.h").read_text()
    cmake = (REPO / "CMakeLists.txt").read_text()
    assert re.search(r'^version = "(.+)"', pyproject, re.M).group(1) == envpool.__version__
    assert f'#define ENVPOOL_VERSION "{envpool.__version__}"' in header
    assert f"project(envpool VERSION {envpool.__version__} " in cmake
    from envpool import _classic_control

    assert _classic_control.CartPole.envpool_version == envpool.__version__


def test_env_module_built_for_another_version_is_refused(monkeypatch):
    module = types.ModuleType("stale_envs")
    module.OldEnv = type("OldEnv", (), {"envpool_version": "0.0.1"})
    monkeypatch.setitem(sys.modules, "stale_envs", module)
    envpool.register("StaleEnv-v0", "stale_envs:OldEnv")
    try:
        with pytest.raises(ImportError, match=r"compiled against envpool 0\.0\.1.*rebuild"):
            envpool.make("StaleEnv-v0")
    finally:
        from envpool import registry

        registry._tasks.pop("StaleEnv-v0")


# A complete, valid env; each broken variant below changes one part.
GOOD_ENV = """
#include <cstdint>
#include "envpool/core/env.h"
using namespace envpool;
struct MyEnv {
  using Action = std::int64_t;
  static Config DefaultConfig() { return {}; }
  static EnvSpec Spec(const Config&) {
    return {MakeArray<float>("obs", {2}), MakeDiscrete("action", 2), {}};
  }
  explicit MyEnv(const Config&) {}
  void Reset(Rng&, Output& out) { out.Obs<float>()[0] = 0; }
  void Step(Action, Rng&, Output& out) { out.Obs<float>()[0] = 1; }
};
"""

BROKEN = {
    "missing_step": (
        "  void Step(Action, Rng&, Output& out) { out.Obs<float>()[0] = 1; }\n",
        "",
        "the env needs `void Step(Action, Rng&, Output&);`",
    ),
    "step_takes_wrong_action_type": (
        "void Step(Action, Rng&",
        "void Step(const std::string&, Rng&",
        "taking its declared Action type",
    ),
    "missing_reset": (
        "  void Reset(Rng&, Output& out) { out.Obs<float>()[0] = 0; }\n",
        "",
        "the env needs `void Reset(Rng&, Output&);`",
    ),
    "no_config_constructor": (
        "explicit MyEnv(const Config&) {}",
        "MyEnv() = default;",
        "a constructor `explicit Env(const Config&);`",
    ),
}


def _compile(source: str, tmp_path: Path, extra: list[str] = ()) -> subprocess.CompletedProcess:
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    path = tmp_path / "env.cc"
    path.write_text(source)
    cmd = [compiler, "-std=c++20", "-fsyntax-only", f"-I{build_paths.include_dir()}", *extra]
    return subprocess.run([*cmd, str(path)], capture_output=True, text=True, check=False)


def _assert_short_error(done: subprocess.CompletedProcess, expected: str) -> None:
    """The compile failed with at most 2 errors in at most 30 lines, naming `expected`."""
    assert done.returncode != 0
    assert expected in done.stderr
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(errors) <= 2, done.stderr
    assert len(done.stderr.splitlines()) <= 30, done.stderr


def test_the_valid_env_compiles(tmp_path):
    source = GOOD_ENV + "static_assert(envpool::CheckEnvironment<MyEnv>());\n"
    done = _compile(source, tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_env_gives_a_short_error_naming_the_missing_part(case, tmp_path):
    old, new, expected = BROKEN[case]
    assert old in GOOD_ENV
    source = GOOD_ENV.replace(old, new) + "static_assert(envpool::CheckEnvironment<MyEnv>());\n"
    done = _compile(source, tmp_path)
    _assert_short_error(done, expected)


def test_registering_a_broken_env_in_a_module_gives_the_same_short_error(tmp_path):
    """What an env author sees: RegisterEnv in a pybind11 module, Step missing."""
    pybind11 = pytest.importorskip("pybind11")
    old, new, expected = BROKEN["missing_step"]
    source = GOOD_ENV.replace(old, new) + textwrap.dedent("""
        #include "envpool/python/py_env_pool.h"
        PYBIND11_MODULE(my_envs, m) { envpool::python::RegisterEnv<MyEnv>(m, "MyEnv"); }
    """)
    extra = [f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}"]
    done = _compile(source, tmp_path, extra)
    _assert_short_error(done, expected)


# A two-agent env of an env package (docs/multi_agent.md): a hunter (discrete: left,
# stay, right) chases a prey (continuous speed in [-1, 1]) on a line.
TWO_AGENT_ENV = """
#include <cmath>
#include <cstdint>
#include <span>
#include "envpool/core/agents.h"
#include "envpool/core/env.h"
#include "envpool/python/py_env_pool.h"
using namespace envpool;
class Chase {
 public:
  using Action = std::span<const float>;
  static Config DefaultConfig() { return {{"length", 10.0}}; }
  static EnvSpec Spec(const Config&) {
    return MakeMultiAgentSpec(
        {{"hunter", MakeArray<float>("obs", {2}), MakeDiscrete("action", 3)},
         {"prey", MakeArray<float>("obs", {1}), MakeArray<float>("action", {1}, {-1.0}, {1.0})}},
        {MakeArray<std::int32_t>("catches", {})});
  }
  explicit Chase(const Config& config)
      : length_(config.Get<double>("length")), split_(Spec(config).agents) {}
  void Reset(Rng&, Output& out) {
    hunter_ = 0.0;
    prey_ = length_ / 2;
    Write(out, 0.0, 0.0, false);
  }
  void Step(Action action, Rng&, Output& out) {
    hunter_ += static_cast<double>(split_.Discrete(action, 0, 3) - 1);
    prey_ = std::fmin(std::fmax(prey_ + split_.Continuous(action, 1)[0], 0.0), length_);
    const bool caught = std::fabs(hunter_ - prey_) < 0.5;
    Write(out, caught ? 1.0 : -0.1, caught ? -1.0 : 0.1, caught);
    out.terminated = caught;
  }
 private:
  void Write(Output& out, double hunter_reward, double prey_reward, bool caught) {
    out.Obs<float>(0)[0] = static_cast<float>(hunter_);
    out.Obs<float>(0)[1] = static_cast<float>(prey_);
    out.Obs<float>(1)[0] = static_cast<float>(prey_ - hunter_);
    AgentRewards(out)[0] = hunter_reward;
    AgentRewards(out)[1] = prey_reward;
    for (int i = 0; i < 2; ++i) {
      AgentTerminations(out)[i] = caught;
      AgentActive(out)[i] = true;
    }
    out.Info<std::int32_t>(kFirstEnvInfo)[0] = caught ? 1 : 0;
  }
  double length_;
  AgentActions split_;
  double hunter_ = 0.0;
  double prey_ = 0.0;
};
PYBIND11_MODULE(chase_env, m) { python::RegisterEnv<Chase>(m, "Chase"); }
"""


def test_a_two_agent_env_builds_out_of_tree_and_runs(tmp_path, monkeypatch):
    """The installed headers build a multi-agent env into a module of its own; make()
    gives its multi-agent pool and make_pettingzoo its ParallelEnv."""
    pybind11 = pytest.importorskip("pybind11")
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    source = tmp_path / "chase_env.cc"
    source.write_text(TWO_AGENT_ENV)
    module = tmp_path / f"chase_env{sysconfig.get_config_var('EXT_SUFFIX')}"
    cmd = [compiler, "-std=c++20", "-O1", "-shared", "-fPIC", "-fvisibility=hidden"]
    cmd += [f"-I{build_paths.include_dir()}", f"-I{pybind11.get_include()}"]
    cmd += [f"-I{sysconfig.get_paths()['include']}", str(source), "-o", str(module)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    monkeypatch.syspath_prepend(str(tmp_path))
    envpool.register("Chase-v0", "chase_env:Chase", max_episode_steps=30)
    try:
        env = envpool.make("Chase-v0", num_envs=2, length=4.0)
        assert env.possible_agents == ["hunter", "prey"]
        assert env.action_space("hunter").n == 3
        assert env.action_space("prey").shape == (1,)
        obs, infos = env.reset()
        np.testing.assert_array_equal(obs["hunter"], [[0, 2], [0, 2]])
        actions = {"hunter": np.array([2, 1]), "prey": np.zeros((2, 1), np.float32)}
        obs, rewards, terminations, truncations, infos = env.step(actions)
        np.testing.assert_array_equal(obs["prey"][:, 0], [1, 2])  # prey - hunter
        np.testing.assert_array_equal(rewards["prey"], [0.1, 0.1])
        obs, rewards, terminations, truncations, infos = env.step(actions)  # caught
        assert terminations["hunter"][0] and not terminations["hunter"][1]
        np.testing.assert_array_equal(infos["hunter"]["catches"], [1, 0])
        env.close()
        pettingzoo_test = pytest.importorskip("pettingzoo.test")
        pettingzoo_test.parallel_api_test(envpool.make_pettingzoo("Chase-v0"), num_cycles=40)
    finally:
        from envpool import registry

        registry._tasks.pop("Chase-v0")

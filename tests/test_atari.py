"""The Atari env: byte-exact with gymnasium's AtariPreprocessing + FrameStackObservation
pipeline, its options and their validation, and its use of the engine's seeding."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
import pytest
from conftest import call_with_timeout

import envpool

ale_py = pytest.importorskip("ale_py")
gym = pytest.importorskip("gymnasium")
gym.register_envs(ale_py)

NOOP, FIRE = 0, 1  # ALE action ids


def _make(task: str = "Pong-v5", num_envs: int = 1, **options):
    return envpool.make(task, num_envs=num_envs, **options)


def _reference(game: str, stack: int = 4, screen=84, frame_skip: int = 4, **options):
    """gymnasium's own Atari pipeline, no no-op starts, no sticky actions."""
    pytest.importorskip("cv2")  # AtariPreprocessing resizes with OpenCV
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    env = gym.make(f"ALE/{game}-v5", frameskip=1, repeat_action_probability=0.0)
    env = AtariPreprocessing(
        env,
        noop_max=0,
        frame_skip=frame_skip,
        screen_size=screen,
        terminal_on_life_loss=False,
        **options,
    )
    return FrameStackObservation(env, stack)


def _ale(rom_id: str):
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(ale_py.roms.get_rom_path(rom_id))
    return ale


def _lockstep(game, env, refs, steps, seed, to_ref_layout=lambda obs: obs):
    """Steps our pool and the reference envs with the same random actions; both
    sides start a new episode when one ends (ours autoresets on the next step).
    Returns the number of episodes that ended."""
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        ref_obs, ref_info = ref.reset()
        np.testing.assert_array_equal(to_ref_layout(obs[i]), ref_obs)
        assert info["lives"][i] == ref_info["lives"]
    rng = np.random.default_rng(seed)
    ended = [False] * len(refs)
    episodes = 0
    for t in range(steps):
        actions = rng.integers(0, env.single_action_space.n, len(refs))
        obs, reward, terminated, truncated, info = env.step(actions)
        for i, ref in enumerate(refs):
            if ended[i]:
                ref_obs, ref_info = ref.reset()
                ref_reward, ref_terminated, ref_truncated = 0.0, False, False
                ended[i] = False
            else:
                ref_obs, ref_reward, ref_terminated, ref_truncated, ref_info = ref.step(
                    int(actions[i])
                )
                ended[i] = ref_terminated or ref_truncated
                episodes += ended[i]
            where = f"{game} env {i} step {t}"
            if not np.array_equal(to_ref_layout(obs[i]), ref_obs):
                diff = int(np.sum(to_ref_layout(obs[i]) != ref_obs))
                pytest.fail(f"{where}: {diff} observation bytes differ")
            assert reward[i] == ref_reward, where
            assert info["reward"][i] == ref_reward, where
            assert terminated[i] == ref_terminated, where
            assert info["terminated"][i] == ref_terminated, where
            assert not truncated[i], where
            assert info["lives"][i] == ref_info["lives"], where
    return episodes


@pytest.mark.parametrize(
    ("game", "steps", "seed"),
    [("Pong", 2000, 0), ("Breakout", 1000, 1), ("SpaceInvaders", 1500, 2), ("MsPacman", 1500, 3)],
)
def test_matches_gymnasium_pipeline(game: str, steps: int, seed: int) -> None:
    refs = [_reference(game) for _ in range(2)]
    with _make(f"{game}-v5", num_envs=2, noop_max=0, use_fire_reset=False, seed=seed) as env:
        assert env.single_observation_space.shape == (4, 84, 84)
        assert env.single_observation_space.dtype == np.uint8
        assert env.single_action_space.n == refs[0].action_space.n
        episodes = _lockstep(game, env, refs, steps, seed)
    assert episodes >= 2, "the stretch should cover episode ends"


def test_rgb_and_other_sizes_match_gymnasium_pipeline() -> None:
    # RGB: ours is channel-first, each frame's R, G, B planes in turn.
    def planar(obs):
        return obs.reshape(4, 3, 84, 84).transpose(0, 2, 3, 1)

    with _make("Breakout-v5", gray_scale=False, noop_max=0, use_fire_reset=False, seed=5) as env:
        assert env.single_observation_space.shape == (12, 84, 84)
        ref = _reference("Breakout", grayscale_obs=False)
        assert _lockstep("Breakout", env, [ref], 250, 5, planar) >= 1
    # Height 72, width 96 (cv2 takes (width, height)), frame skip 3, stack 2.
    with _make(
        "MsPacman-v5",
        img_height=72,
        img_width=96,
        frame_skip=3,
        stack_num=2,
        noop_max=0,
        use_fire_reset=False,
    ) as env:
        assert env.single_observation_space.shape == (2, 72, 96)
        ref = _reference("MsPacman", stack=2, screen=(96, 72), frame_skip=3)
        _lockstep("MsPacman", env, [ref], 150, 6)
    # 105 x 80 halves both sides: OpenCV's integer-block path.
    with _make(
        "Seaquest-v5", img_height=105, img_width=80, noop_max=0, use_fire_reset=False
    ) as env:
        ref = _reference("Seaquest", screen=(80, 105))
        _lockstep("Seaquest", env, [ref], 150, 7)


def test_taller_screen_matches_gymnasium_pipeline() -> None:
    # MrDo's screen has 250 rows, and shows odd palette indices.
    with _make("MrDo-v5", noop_max=0, use_fire_reset=False) as env:
        _lockstep("MrDo", env, [_reference("MrDo")], 150, 7)


def test_spaces_and_info_arrays() -> None:
    with _make("Pong-v5", num_envs=3) as env:
        assert env.single_observation_space.shape == (4, 84, 84)
        assert env.observation_space.shape == (3, 4, 84, 84)
        assert env.single_action_space.n == 6
        obs, info = env.reset()
        assert obs.dtype == np.uint8 and obs.shape == (3, 4, 84, 84)
        assert info["lives"].dtype == np.int32
        assert info["reward"].dtype == np.float64
        assert info["terminated"].dtype == np.bool_
        assert info["discount"].dtype == np.float32
        assert "ram" not in info
        # At reset every stacked frame is the reset frame.
        assert all(np.array_equal(o[0], o[k]) for o in obs for k in range(4))
    with _make("Pong-v5", full_action_space=True, stack_num=1, gray_scale=False) as env:
        assert env.single_action_space.n == 18
        assert env.single_observation_space.shape == (3, 84, 84)
    with _make("Breakout-v5", img_height=64, img_width=48, stack_num=2) as env:
        assert env.single_observation_space.shape == (2, 64, 48)
        obs, _ = env.reset()
        assert obs.shape == (1, 2, 64, 48)


def test_frame_stack_shifts_by_one_frame_per_step() -> None:
    with _make("Breakout-v5", seed=3) as env:
        previous, _ = env.reset()
        for t in range(20):
            obs, *_ = env.step(np.array([t % 4]))
            np.testing.assert_array_equal(obs[0, :3], previous[0, 1:])
            previous = obs


def test_lives_and_ram_follow_ale() -> None:
    ale = _ale("breakout")
    ale.reset_game()
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(8)
    with _make("Breakout-v5", include_ram=True, noop_max=0, use_fire_reset=False) as env:
        obs, info = env.reset()
        assert info["ram"].shape == (1, 128) and info["ram"].dtype == np.uint8
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
        assert info["lives"][0] == ale.lives() == 5
        for _ in range(200):
            a = int(rng.integers(len(actions)))
            for _ in range(4):
                ale.act(actions[a])
                if ale.game_over():
                    break
            obs, reward, terminated, truncated, info = env.step(np.array([a]))
            np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
            assert info["lives"][0] == ale.lives()
            if terminated[0]:
                break


def test_reward_clip() -> None:
    with _make("SpaceInvaders-v5", reward_clip=True, seed=4) as env:
        env.reset()
        rng = np.random.default_rng(4)
        raw = []
        for _ in range(300):
            _, reward, _, _, info = env.step(rng.integers(0, 6, 1))
            np.testing.assert_array_equal(reward, np.sign(info["reward"]))
            raw.append(info["reward"][0])
        assert max(raw) > 1, "SpaceInvaders scores 5 or more per hit"


def test_discount_and_terminated_info() -> None:
    with _make("Breakout-v5", zero_discount_on_life_loss=True, seed=2) as env:
        _, info = env.reset()
        lives = info["lives"][0]
        rng = np.random.default_rng(2)
        losses = 0
        for _ in range(3000):
            _, _, terminated, _, info = env.step(rng.integers(0, 4, 1))
            lost = info["lives"][0] < lives
            losses += lost
            assert info["terminated"][0] == terminated[0]
            assert info["discount"][0] == (0.0 if lost or terminated[0] else 1.0)
            if terminated[0]:
                break
            lives = info["lives"][0]
        assert terminated[0] and losses >= 4


@pytest.mark.parametrize(("game", "seed"), [("Breakout", 0), ("SpaceInvaders", 1)])
def test_life_loss_step_matches_terminal_on_life_loss(game: str, seed: int) -> None:
    # Up to the first lost life, episodic_life is AtariPreprocessing's
    # terminal_on_life_loss, including the cut-short skip of the last step.
    pytest.importorskip("cv2")
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    ref = gym.make(f"ALE/{game}-v5", frameskip=1, repeat_action_probability=0.0)
    ref = FrameStackObservation(AtariPreprocessing(ref, noop_max=0, terminal_on_life_loss=True), 4)
    with _make(f"{game}-v5", episodic_life=True, noop_max=0, use_fire_reset=False) as env:
        obs, _ = env.reset()
        np.testing.assert_array_equal(obs[0], ref.reset()[0])
        rng = np.random.default_rng(seed)
        for _ in range(2000):
            a = rng.integers(0, env.single_action_space.n, 1)
            obs, reward, terminated, _, info = env.step(a)
            ref_obs, ref_reward, ref_terminated, _, _ = ref.step(int(a[0]))
            np.testing.assert_array_equal(obs[0], ref_obs)
            assert reward[0] == ref_reward and terminated[0] == ref_terminated
            if ref_terminated:
                break
        assert terminated[0] and not info["terminated"][0]


def test_episodic_life_continues_the_game() -> None:
    with _make("Breakout-v5", episodic_life=True, seed=6) as env:
        _, info = env.reset()
        lives = int(info["lives"][0])
        assert lives == 5
        rng = np.random.default_rng(6)
        life_endings = 0
        for _ in range(5000):
            _, _, terminated, _, info = env.step(rng.integers(0, 4, 1))
            assert info["lives"][0] in (lives, lives - 1, 0)
            if not terminated[0]:
                assert info["lives"][0] == lives
                continue
            if info["terminated"][0]:  # game over
                break
            # A life ended: the episode ends, the game does not; the next
            # episode starts with the lives left.
            life_endings += 1
            assert info["lives"][0] == lives - 1
            lives -= 1
            _, reward, terminated, _, info = env.step(np.array([NOOP]))  # the autoreset
            assert info["lives"][0] == lives and reward[0] == 0 and not terminated[0]
        assert info["terminated"][0] and life_endings == 4
        # A game over starts a new game with all lives.
        _, _, _, _, info = env.step(np.array([NOOP]))
        assert info["lives"][0] == 5


def test_noop_starts_are_uniform_in_1_to_noop_max() -> None:
    # Pong's RAM differs after every number of no-op frames that follow a reset.
    ale = _ale("pong")
    ram_after = {}
    for k in range(0, 31):
        ale.reset_game()
        for _ in range(k):
            ale.act(ale_py.Action.NOOP)
        ram_after[ale.getRAM().tobytes()] = k
    assert len(ram_after) == 31
    counts = Counter()
    options = dict(include_ram=True, use_fire_reset=False)
    with _make("Pong-v5", num_envs=16, noop_max=30, seed=9, **options) as env:
        for _ in range(10):
            _, info = env.reset()
            counts.update(ram_after[ram.tobytes()] for ram in info["ram"])
    assert set(counts) <= set(range(1, 31))
    assert len(counts) >= 25  # 160 draws over 30 values
    assert max(counts.values()) <= 16
    with _make("Pong-v5", num_envs=4, noop_max=0, **options) as env:
        _, info = env.reset()
        assert {ram_after[ram.tobytes()] for ram in info["ram"]} == {0}


def test_fire_reset_presses_fire_then_the_third_action() -> None:
    ale = _ale("breakout")
    actions = ale.getMinimalActionSet()
    assert actions[1] == ale_py.Action.FIRE
    ale.reset_game()
    for action in (actions[1], actions[2]):
        for _ in range(4):
            ale.act(action)
    with _make("Breakout-v5", noop_max=0, include_ram=True) as env:
        _, info = env.reset()
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
    with _make("Breakout-v5", noop_max=0, include_ram=True, use_fire_reset=False) as env:
        _, info = env.reset()
        assert not np.array_equal(info["ram"][0], ale.getRAM())


def test_sticky_actions_use_the_engine_seed() -> None:
    def trajectory(seed: int, p: float, actions: np.ndarray):
        with _make("Breakout-v5", repeat_action_probability=p, seed=seed) as env:
            obs, _ = env.reset()
            frames = [obs]
            for a in actions:
                frames.append(env.step(np.array([a]))[0])
            return np.array(frames)

    actions = np.random.default_rng(0).integers(0, 4, 120)
    sticky = trajectory(1, 0.25, actions)
    np.testing.assert_array_equal(sticky, trajectory(1, 0.25, actions))
    assert not np.array_equal(sticky, trajectory(1, 0.0, actions))
    assert not np.array_equal(sticky, trajectory(2, 0.25, actions))
    # p = 1 never takes a chosen action: the same as pressing nothing at all.
    np.testing.assert_array_equal(
        trajectory(1, 1.0, actions), trajectory(1, 0.0, np.zeros_like(actions))
    )


def test_reset_with_seed_reproduces_the_episode() -> None:
    with _make("Breakout-v5", num_envs=2, repeat_action_probability=0.25) as env:
        actions = np.random.default_rng(1).integers(0, 4, (50, 2))

        def run():
            out = [env.reset(seed=123)[0]]
            out += [env.step(a)[0] for a in actions]
            return np.array(out)

        first = run()
        np.testing.assert_array_equal(first, run())


def test_async_matches_sync() -> None:
    num_envs, steps = 4, 40
    options = dict(repeat_action_probability=0.25, seed=11)
    actions = np.random.default_rng(11).integers(0, 4, (num_envs, steps))
    with _make("Breakout-v5", num_envs=num_envs, **options) as env:
        obs, _ = env.reset()
        expected = defaultdict(list)
        for i in range(num_envs):
            expected[i].append(obs[i])
        for t in range(steps):
            obs, reward, terminated, *_ = env.step(actions[:, t])
            for i in range(num_envs):
                expected[i].append(obs[i])
    with _make("Breakout-v5", num_envs=num_envs, batch_size=2, num_threads=2, **options) as env:
        env.async_reset()
        got = defaultdict(list)
        while len(got) < num_envs or any(len(v) <= steps for v in got.values()):
            obs, *_, info = call_with_timeout(env.recv)
            ids = info["env_id"].tolist()
            for row, i in enumerate(ids):
                got[i].append(obs[row])
            # Every env keeps stepping (past `steps` too), so that a full batch
            # is always in flight.
            t = [min(len(got[i]) - 1, steps - 1) for i in ids]
            env.send(actions[ids, t], env_id=np.array(ids))
    for i in range(num_envs):
        np.testing.assert_array_equal(np.array(got[i][: steps + 1]), np.array(expected[i]))


def test_render_gives_the_rgb_screen() -> None:
    ale = _ale("pong")
    ale.reset_game()
    with _make(
        "Pong-v5", num_envs=2, noop_max=0, use_fire_reset=False, render_mode="rgb_array"
    ) as env:
        env.reset()
        frames = np.stack(env.render())
        assert frames.shape == (2, 210, 160, 3) and frames.dtype == np.uint8
        np.testing.assert_array_equal(frames[0], ale.getScreenRGB())
        np.testing.assert_array_equal(frames[1], ale.getScreenRGB())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"img_height": 0}, "img_height"),
        ({"img_width": -3}, "img_width"),
        ({"stack_num": 0}, "stack_num"),
        ({"frame_skip": 0}, "frame_skip"),
        ({"noop_max": -1}, "noop_max"),
        ({"repeat_action_probability": 1.5}, "repeat_action_probability"),
        ({"repeat_action_probability": -0.1}, "repeat_action_probability"),
        ({"repeat_action_probability": float("nan")}, "repeat_action_probability"),
        ({"mode": 99}, r"mode 99 is not available .*available modes: 0, 1"),
        ({"difficulty": 7}, r"difficulty 7 is not available .*available difficulties: 0, 1, 2, 3"),
        ({"rom_path": ""}, r"rom_path is empty.*ale-py==0\.12\.1"),
        ({"rom_path": "/no/such/rom.bin"}, r"rom_path .*not a readable file.*ale-py"),
    ],
)
def test_invalid_options_are_rejected(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _make("Pong-v5", **options)


def test_not_a_rom_is_rejected_without_exiting(tmp_path) -> None:
    fake = tmp_path / "not_a_rom.bin"
    fake.write_bytes(b"\x00" * 4096)
    with pytest.raises(ValueError, match="not a ROM that ALE supports"):
        _make("Pong-v5", rom_path=str(fake))
    empty = tmp_path / "pong.bin"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match="empty file"):
        _make("Pong-v5", rom_path=str(empty))
    # The process goes on working.
    with _make("Pong-v5") as env:
        env.reset()


def test_valid_mode_and_difficulty_match_gymnasium() -> None:
    pytest.importorskip("cv2")
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    ref = gym.make(
        "ALE/Breakout-v5", frameskip=1, repeat_action_probability=0.0, mode=4, difficulty=1
    )
    ref = FrameStackObservation(AtariPreprocessing(ref, noop_max=0, frame_skip=4), 4)
    options = dict(mode=4, difficulty=1, noop_max=0, use_fire_reset=False, seed=3)
    with _make("Breakout-v5", **options) as env:
        _lockstep("Breakout", env, [ref], 100, 3)


def test_full_size_is_the_screen_and_other_sizes_run() -> None:
    ale = _ale("pong")
    ale.reset_game()
    options = dict(stack_num=1, noop_max=0, use_fire_reset=False)
    with _make("Pong-v5", img_height=210, img_width=160, **options) as env:
        obs, _ = env.reset()
        np.testing.assert_array_equal(obs[0, 0], ale.getScreenGrayscale())
    # Enlarging is not byte-exact with OpenCV (which interpolates there).
    for height, width in [(420, 320), (1, 1), (300, 40)]:
        with _make("Pong-v5", img_height=height, img_width=width, **options) as env:
            obs, _ = env.reset()
            assert obs.shape == (1, 1, height, width)
            obs, *_ = env.step(np.array([0]))
            assert obs.shape == (1, 1, height, width)

"""CarRacing-v3 replays gymnasium's episodes bit for bit, frames included.

Env i of a pool made with seed s is gymnasium's env after reset(seed=s + i): the
track (checkpoints, and the colours under domain_randomize) comes from the same
numpy draws, the car runs on the same Box2D engine with the same float32 inputs,
and the 96x96 observation is drawn and scaled as pygame draws it, so observations,
rewards, terminations and info are equal, not close. gymnasium's frames depend on
which pygame is installed: every test here holds under pygame 2.6.1 and under
pygame-ce 2.5.8 (CI runs this file under both: .ci/run's tests and pygame-ce steps).
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest

import envpool

pytest.importorskip("Box2D", reason="gymnasium's CarRacing needs the box2d package")
pygame = pytest.importorskip("pygame", reason="CarRacing draws its score with pygame's font")


def pursuit(ref, discrete: bool = False, ahead: int = 6, vmax: float = 55.0):
    """Steers gymnasium's car towards a track point a few tiles ahead (both envs
    then take the action)."""
    hull = ref.unwrapped.car.hull
    x, y = hull.position
    track = ref.unwrapped.track
    nearest = int(np.argmin([(p[2] - x) ** 2 + (p[3] - y) ** 2 for p in track]))
    tx, ty = track[(nearest + ahead) % len(track)][2:4]
    err = math.atan2(ty - y, tx - x) - (hull.angle + math.pi / 2)
    err = (err + math.pi) % (2 * math.pi) - math.pi
    speed = float(np.hypot(*hull.linearVelocity))
    steer = float(np.clip(-3.0 * err, -1, 1))
    if discrete:
        if abs(steer) > 0.3:
            return 1 if steer < 0 else 2
        return 3 if speed < vmax else 0
    return np.array(
        [steer, 0.5 if speed < vmax else 0.0, 0.0 if speed < vmax + 10 else 0.5], np.float32
    )


def random_actions(rng, discrete: bool):
    if discrete:
        return int(rng.integers(0, 5))
    return rng.uniform([-1, 0, 0], [1, 1, 1]).astype(np.float32)


def run_side_by_side(options, seed, steps, policy, episodes_to_reset=1, render=False):
    """One envpool env and gymnasium's env on the same actions; returns the
    (terminated, truncated, info) of each episode end seen, and gymnasium's env."""
    discrete = not options.get("continuous", True)
    max_steps = options.pop("max_episode_steps", 1000)
    env = envpool.make(
        "CarRacing-v3",
        num_envs=1,
        seed=seed,
        max_episode_steps=max_steps,
        render_mode="rgb_array" if render else None,
        **options,
    )
    ref = gym.make(
        "CarRacing-v3",
        max_episode_steps=max_steps,
        render_mode="rgb_array" if render else None,
        **options,
    )
    obs, _ = env.reset()
    expected, _ = ref.reset(seed=seed)
    assert np.array_equal(obs[0], expected)
    rng = np.random.default_rng(seed)
    ends = []
    restart = False
    for t in range(steps):
        action = policy(ref, rng, discrete)
        obs, reward, terminated, truncated, info = env.step(np.array([action]))
        if restart:
            expected, expected_info = ref.reset()
            expected_reward, expected_term, expected_trunc = 0.0, False, False
            restart = False
        else:
            expected, expected_reward, expected_term, expected_trunc, expected_info = ref.step(
                action
            )
        same = np.array_equal(obs[0], expected)
        assert same, (
            f"step {t}: {np.mean(obs[0] == expected):.4%} of pixels equal, "
            f"largest difference {np.abs(obs[0].astype(int) - expected).max()}"
        )
        assert reward[0] == expected_reward, (t, reward[0], expected_reward)
        assert (terminated[0], truncated[0]) == (expected_term, expected_trunc), t
        assert bool(info["lap_finished"][0]) == expected_info.get("lap_finished", False), t
        if render:
            frame = env.render()[0]
            expected_frame = ref.render()
            assert np.array_equal(frame, expected_frame), (
                f"step {t}: {np.mean(frame == expected_frame):.4%} of frame pixels equal, "
                f"largest difference {np.abs(frame.astype(int) - expected_frame).max()}"
            )
        if expected_term or expected_trunc:
            ends.append((bool(expected_term), bool(expected_trunc), expected_info))
            restart = True
            if len(ends) == episodes_to_reset:
                break
    env.close()
    return ends, ref.unwrapped


def test_spaces_match_gymnasium():
    for continuous in (True, False):
        ref = gym.make("CarRacing-v3", continuous=continuous)
        spec = envpool.make_spec("CarRacing-v3", continuous=continuous)
        assert spec.observation_space == ref.observation_space
        assert spec.action_space == ref.action_space
    env = envpool.make("CarRacing-v3", num_envs=1)
    assert env.spec.max_episode_steps == 1000
    env.close()


def test_the_installed_pygame_passes_the_drawing_check():
    import envpool._box2d as box2d
    from envpool.families.box2d import score_font as box2d_score_font

    box2d_score_font.check_drawing(box2d, pygame)
    name = box2d_score_font.pygame_name(pygame)
    assert name in box2d_score_font.VERIFIED_PYGAMES, name


def test_a_pygame_that_draws_otherwise_is_refused(monkeypatch):
    """A pygame whose drawing matches neither verified one gets a message naming
    them and the fix, not a wrong frame."""
    import envpool._box2d as box2d
    from envpool.families.box2d import pygame_rules
    from envpool.families.box2d import score_font as box2d_score_font

    real = pygame_rules.draw_with_pygame

    def off_by_one(*args):
        pixels = real(*args).copy()
        pixels[3, 5, 1] ^= 1
        return pixels

    monkeypatch.setattr(pygame_rules, "draw_with_pygame", off_by_one)
    with pytest.raises(RuntimeError) as raised:
        box2d_score_font.check_drawing(box2d, pygame)
    message = str(raised.value)
    assert "pygame 2.6.1 and pygame-ce 2.5.8" in message
    assert box2d_score_font.pygame_name(pygame) in message
    assert 'pip install "pygame-ce==2.5.8"' in message


def test_score_font_lays_out_strings_as_pygame():
    """Every score from -999 to 9999 (and longer ones) rendered by envpool's copy of
    SDL_ttf's layout equals pygame's own rendering."""
    import envpool._box2d as box2d
    from envpool.families.box2d import score_font as box2d_score_font

    box2d_score_font.install(box2d)
    pygame.font.init()
    font = pygame.font.Font(pygame.font.get_default_font(), box2d_score_font.FONT_SIZE)
    values = list(range(-999, 10000)) + list(range(-30000, -999, 997)) + [12345, 99999]
    for value in values:
        text = f"{value:04.0f}"
        expected = pygame.surfarray.array2d(font.render(text, True, (255,) * 3, (0,) * 3)).T
        got = box2d._render_score_for_tests(text)
        assert got.shape == expected.shape, text
        assert np.array_equal(got, expected), text


def test_whole_episode_to_truncation_then_next_reset(seed=0):
    """A driven episode runs to the 1000-step limit equal at every step, and the
    next episode's track (gymnasium's reset() without a seed) is the same."""
    ends, ref = run_side_by_side(
        {},
        seed,
        1050,
        lambda ref, rng, d: pursuit(ref, d),
        episodes_to_reset=2,
    )
    assert ends[0][:2] == (False, True)


def test_random_driving_discrete_leaves_the_playfield():
    """Discrete actions: the car leaves the playfield, which ends the episode with
    reward -100 and lap_finished False, as in gymnasium."""
    ends, _ = run_side_by_side(
        {"continuous": False},
        5,
        1000,
        lambda ref, rng, d: pursuit(ref, d, vmax=400.0) if ref.unwrapped.t < 0.5 else 3,
    )
    assert ends and ends[0][0] and ends[0][2] == {"lap_finished": False}


@pytest.mark.numpy_sensitive
@pytest.mark.cpu_sensitive
def test_domain_randomize_colours_and_random_actions():
    """domain_randomize draws road, background and grass colours at every reset."""
    ends, _ = run_side_by_side(
        {"domain_randomize": True, "max_episode_steps": 120},
        11,
        250,
        lambda ref, rng, d: random_actions(rng, d),
        episodes_to_reset=2,
    )
    assert len(ends) == 2


def test_lap_complete_percent_ends_the_lap_on_the_start_tile():
    """With lap_complete_percent=0 touching the start tile completes the lap at once:
    terminated, with info lap_finished True."""
    ends, _ = run_side_by_side(
        {"lap_complete_percent": 0.0},
        2,
        5,
        lambda ref, rng, d: np.zeros(3, np.float32),
    )
    assert ends == [(True, False, {"lap_finished": True})]


def test_rgb_array_frames_match_gymnasium_with_skid_marks():
    """render() gives gymnasium's 600x400 frame, skid marks included (hard braking
    at speed makes them)."""

    def policy(ref, rng, d):
        t = ref.unwrapped.t
        return np.array(
            [0.6 if t > 1.5 else 0.0, 1.0 if t < 1.5 else 0.0, 1.0 * (t > 1.5)], np.float32
        )

    _, ref = run_side_by_side({}, 4, 120, policy, render=True)
    assert len(ref.car.particles) > 0


def test_bad_options_are_rejected():
    with pytest.raises(ValueError, match="lap_complete_percent"):
        envpool.make("CarRacing-v3", num_envs=1, lap_complete_percent=float("nan"))
    env = envpool.make("CarRacing-v3", num_envs=1, continuous=False)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.array([5]))
    obs, *_ = env.step(np.array([0]))  # still usable
    assert obs.shape == (1, 96, 96, 3)
    env.close()

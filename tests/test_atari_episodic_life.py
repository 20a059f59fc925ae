"""episodic_life at the last life, in games that play on at 0 lives (Atlantis,
WizardOfWor): episodes end where gymnasium's AtariPreprocessing(terminal_on_life_loss)
ends them, zero_lives_ends_episode=False gives the original EnvPool's rule, and the
game_return / game_length info lets a logger record each game once."""

from __future__ import annotations

import numpy as np
import pytest

import envpool

ale_py = pytest.importorskip("ale_py")
gym = pytest.importorskip("gymnasium")
gym.register_envs(ale_py)

MAX_STEPS = 5000  # a random game of either lasts 700 to 1500 steps


def _make(game: str, num_envs: int = 1, **options):
    return envpool.make(
        f"{game}-v5",
        num_envs=num_envs,
        episodic_life=True,
        noop_max=0,
        use_fire_reset=False,
        **options,
    )


def _random_actions(seed: int, num_envs: int, steps: int = MAX_STEPS) -> np.ndarray:
    """Indices valid in every game's minimal action set (Atlantis has 4 actions)."""
    return np.random.default_rng(seed).integers(0, 4, size=(steps, num_envs))


def _episode_ends(game: str, actions: np.ndarray, **options) -> list[tuple[int, int, bool]]:
    """(step, lives, game over) at each episode end of one game."""
    ends = []
    with _make(game, autoreset_mode="same_step", **options) as env:
        env.reset()
        for t, action in enumerate(actions):
            _, _, terminated, truncated, info = env.step(action)
            assert not truncated[0]
            if terminated[0]:
                final = info["final_info"]
                ends.append((t, int(final["lives"][0]), bool(final["terminated"][0])))
                if final["terminated"][0]:
                    return ends
    pytest.fail(f"{game}: no game over in {MAX_STEPS} steps")


@pytest.mark.parametrize(("game", "seed"), [("Atlantis", 0), ("WizardOfWor", 1)])
def test_episodes_end_where_gymnasium_terminal_on_life_loss_ends_them(game: str, seed: int):
    pytest.importorskip("cv2")  # AtariPreprocessing resizes with OpenCV
    from gymnasium.wrappers import AtariPreprocessing

    ref = gym.make(f"ALE/{game}-v5", frameskip=1, repeat_action_probability=0.0)
    ref = AtariPreprocessing(ref, noop_max=0, terminal_on_life_loss=True)
    ale = ref.unwrapped.ale
    actions = np.random.default_rng(seed).integers(0, ref.action_space.n, size=MAX_STEPS)
    ends = []
    with _make(game, autoreset_mode="same_step") as env:
        obs, info = env.reset()
        start_lives = int(info["lives"][0])
        ref_obs, _ = ref.reset()
        np.testing.assert_array_equal(obs[0, -1], ref_obs)
        for t, a in enumerate(actions):
            obs, reward, terminated, truncated, info = env.step(np.array([a]))
            # AtariPreprocessing would reset the whole game after an episode;
            # stepping it on instead goes on with the game, as episodic_life does.
            ref_obs, ref_reward, ref_terminated, _, ref_info = ref.step(int(a))
            where = f"{game} step {t}"
            assert terminated[0] == ref_terminated and not truncated[0], where
            assert reward[0] == ref_reward, where
            step_info, step_obs = (
                (info["final_info"], info["final_obs"]) if terminated[0] else (info, obs)
            )
            assert step_info["lives"][0] == ref_info["lives"], where
            np.testing.assert_array_equal(step_obs[0, -1], ref_obs, err_msg=where)
            if terminated[0]:
                ends.append((int(step_info["lives"][0]), bool(step_info["terminated"][0])))
            if ale.game_over():
                break
    assert ends[-1] == (0, True), "the game ends at game over with 0 lives"
    # The life lost to reach 0 lives ends an episode, and the game plays on.
    assert ends[-2] == (0, False)
    assert [lives for lives, _ in ends[:-1]] == list(range(start_lives - 1, -1, -1))


@pytest.mark.parametrize(("game", "seed"), [("Atlantis", 0), ("WizardOfWor", 1)])
def test_original_rule_plays_the_last_life_to_game_over(game: str, seed: int) -> None:
    actions = _random_actions(seed, 1)
    gymnasium_rule = _episode_ends(game, actions)
    original_rule = _episode_ends(game, actions, zero_lives_ends_episode=False)
    # Every lost life that leaves lives ends an episode, at the same step under both rules.
    assert original_rule[:-1] == gymnasium_rule[:-2]
    assert all(lives > 0 and not over for _, lives, over in original_rule[:-1])
    # The loss of the last life does not: the episode runs on to game over.
    step, lives, over = original_rule[-1]
    assert lives == 0 and over
    assert step > gymnasium_rule[-2][0], "the game went on after the lives counter reached 0"


class GameLogger:
    """What a training script logs: each game's raw score and length, once, when the game
    ends, whether episodic_life cut it into lives and whether the time limit ended it."""

    def __init__(self) -> None:
        self.games: list[tuple[int, float, int]] = []  # (env, return, length)

    def record(self, terminated: np.ndarray, truncated: np.ndarray, info: dict) -> None:
        # A game ends at game over, or where the time limit ends an episode that no
        # lost life ended (a life lost on the same step goes on with the game).
        game_ended = info["terminated"] | (truncated & ~terminated)
        for i in np.flatnonzero(game_ended):
            self.games.append((int(i), float(info["game_return"][i]), int(info["game_length"][i])))


def _play(env, actions: np.ndarray) -> tuple[GameLogger, list[tuple[int, float, int]], int]:
    """Steps env through actions; returns the logger, each game's (env, sum of
    info["reward"], steps) tallied by hand from game start to game end, and how many
    games CleanRL's rule (an episode end with lives == 0) would have logged."""
    logger = GameLogger()
    n = env.num_envs
    _, info = env.reset()
    full_lives = info["lives"].copy()
    tally_return, tally_length = np.zeros(n), np.zeros(n, dtype=int)
    expected, cleanrl = [], 0
    autoreset = np.zeros(n, dtype=bool)  # this step is the autoreset
    new_game = np.zeros(n, dtype=bool)  # ... and it starts a new game
    for action in actions:
        _, _, terminated, truncated, info = env.step(action)
        logger.record(terminated, truncated, info)
        cleanrl += int(np.sum((terminated | truncated) & (info["lives"] == 0)))
        for i in range(n):
            if autoreset[i]:
                if new_game[i]:
                    assert info["lives"][i] == full_lives[i] and info["game_return"][i] == 0
                else:  # the same game goes on with the lives left
                    assert info["lives"][i] < full_lives[i]
                    assert info["game_return"][i] == tally_return[i]
                    assert info["game_length"][i] == tally_length[i]
                autoreset[i] = False
                continue
            tally_return[i] += info["reward"][i]
            tally_length[i] += 1
            assert info["game_return"][i] == tally_return[i]
            assert info["game_length"][i] == tally_length[i]
            if terminated[i] or truncated[i]:
                autoreset[i] = True
                new_game[i] = bool(info["terminated"][i]) or not terminated[i]
                if new_game[i]:
                    expected.append((i, tally_return[i], int(tally_length[i])))
                    tally_return[i], tally_length[i] = 0.0, 0
    return logger, expected, cleanrl


@pytest.mark.parametrize("zero_lives_ends_episode", [True, False])
def test_logger_records_each_game_once_with_its_full_return(zero_lives_ends_episode: bool):
    with _make("Atlantis", 2, seed=1, zero_lives_ends_episode=zero_lives_ends_episode) as env:
        logger, expected, cleanrl = _play(env, _random_actions(1, 2, 1200))
    assert {i for i, _, _ in expected} == {0, 1}, "the stretch should end a game in each env"
    assert sorted(logger.games) == sorted(expected)
    assert all(ret > 0 and length > 100 for _, ret, length in logger.games)
    # Counting episode ends at 0 lives logs an Atlantis game twice under gymnasium's
    # rule (the loss of the last life, then the game over), once under the original's.
    assert cleanrl == len(expected) * (2 if zero_lives_ends_episode else 1)


def test_logger_records_games_the_time_limit_ends() -> None:
    with _make("Atlantis", 2, seed=4, max_episode_steps=100) as env:
        logger, expected, cleanrl = _play(env, _random_actions(4, 2, 1000))
    assert cleanrl == 0, "no game reached 0 lives"
    assert len(expected) >= 6
    assert sorted(logger.games) == sorted(expected)


def test_a_life_lost_at_the_time_limit_goes_on_with_the_game() -> None:
    actions = _random_actions(5, 1)
    first_loss = _episode_ends("Atlantis", actions)[0][0] + 1  # in steps
    with _make("Atlantis", seed=0, max_episode_steps=first_loss) as env:
        _, info = env.reset()
        lives, total = info["lives"][0], 0.0
        logger = GameLogger()
        for action in actions[:first_loss]:
            _, _, terminated, truncated, info = env.step(action)
            logger.record(terminated, truncated, info)
            total += info["reward"][0]
        assert terminated[0] and truncated[0] and not info["terminated"][0]
        assert logger.games == []
        _, _, _, _, info = env.step(actions[first_loss])  # the autoreset
    assert info["lives"][0] == lives - 1
    assert info["game_return"][0] == total and info["game_length"][0] == first_loss

"""The Atari tasks: one task id per single-player ROM that ale-py 0.12.1 ships, e.g. Pong-v5.

The ROM list is fixed here, so that the task ids are known without importing
ale-py; the ROM files themselves come from the installed ale-py package when a
pool is made.
"""

from __future__ import annotations

import functools
import os
from typing import Any

from envpool.registry import mark_unavailable, register_family, task

ALE_PY_VERSION = "0.12.1"
MAX_EPISODE_STEPS = 27000  # 108,000 emulator frames at frame_skip=4

ROM_IDS = (
    "adventure",
    "air_raid",
    "alien",
    "amidar",
    "assault",
    "asterix",
    "asteroids",
    "atlantis2",
    "atlantis",
    "backgammon",
    "bank_heist",
    "basic_math",
    "battle_zone",
    "beam_rider",
    "berzerk",
    "blackjack",
    "bowling",
    "boxing",
    "breakout",
    "carnival",
    "casino",
    "centipede",
    "chopper_command",
    "crazy_climber",
    "crossbow",
    "darkchambers",
    "defender",
    "demon_attack",
    "donkey_kong",
    "double_dunk",
    "earthworld",
    "elevator_action",
    "enduro",
    "entombed",
    "et",
    "fishing_derby",
    "flag_capture",
    "freeway",
    "frogger",
    "frostbite",
    "galaxian",
    "gopher",
    "gravitar",
    "hangman",
    "haunted_house",
    "hero",
    "human_cannonball",
    "ice_hockey",
    "jamesbond",
    "journey_escape",
    "kaboom",
    "kangaroo",
    "keystone_kapers",
    "king_kong",
    "klax",
    "koolaid",
    "krull",
    "kung_fu_master",
    "laser_gates",
    "lost_luggage",
    "mario_bros",
    "miniature_golf",
    "montezuma_revenge",
    "mr_do",
    "ms_pacman",
    "name_this_game",
    "othello",
    "pacman",
    "phoenix",
    "pitfall2",
    "pitfall",
    "pong",
    "pooyan",
    "private_eye",
    "qbert",
    "riverraid",
    "road_runner",
    "robotank",
    "seaquest",
    "sir_lancelot",
    "skiing",
    "solaris",
    "space_invaders",
    "space_war",
    "star_gunner",
    "superman",
    "surround",
    "tennis",
    "tetris",
    "tic_tac_toe_3d",
    "time_pilot",
    "trondead",
    "turmoil",
    "tutankham",
    "up_n_down",
    "venture",
    "video_checkers",
    "video_chess",
    "video_cube",
    "video_pinball",
    "wizard_of_wor",
    "word_zapper",
    "yars_revenge",
    "zaxxon",
)

# ale-py ships these ROMs for multi-player use only: ALE has no single-player
# settings (score, lives, game over) for them and ale-py registers no
# ALE/<Game>-v5 for them, so they get no task id.
MULTI_PLAYER_ROM_IDS = ("combat", "joust", "maze_craze", "warlords")


def task_name(rom_id: str) -> str:
    """ "montezuma_revenge" -> "MontezumaRevenge", "tic_tac_toe_3d" -> "TicTacToe3D"."""
    return "".join(p.upper() if p[0].isdigit() else p.capitalize() for p in rom_id.split("_"))


def _multi_player_reason(rom_id: str) -> str:
    game = task_name(rom_id)
    return (
        f"{game}-v5 is not available: ale-py {ALE_PY_VERSION} ships the {game} ROM "
        "for multi-player use only; ALE's single-player interface, which envpool runs, "
        "has no settings (score, lives, game over) for it, and ale-py registers no "
        f"ALE/{game}-v5 either"
    )


UNAVAILABLE_TASKS = {f"{task_name(r)}-v5": _multi_player_reason(r) for r in MULTI_PLAYER_ROM_IDS}
"""Task ids a user may expect from ale-py's ROM list that cannot run: id -> why."""


def rom_options(rom_id: str) -> dict[str, Any]:
    """The ROM file of ``rom_id`` from the installed ale-py, as the env's rom_path option."""
    fix = f"install it with: pip install ale-py=={ALE_PY_VERSION}"
    try:
        from ale_py import roms
    except ImportError:
        raise ImportError(
            f"Atari tasks need the ale-py package, which ships the ROMs; {fix}"
        ) from None
    try:
        path = roms.get_rom_path(rom_id)
    except Exception as exc:
        raise FileNotFoundError(f"ale-py has no ROM {rom_id!r} ({exc}); {fix}") from None
    if path is None or not os.path.isfile(path):
        raise FileNotFoundError(f"the ROM {rom_id!r} is missing from the installed ale-py; {fix}")
    return {"rom_path": str(path)}


TABLE = [
    task(
        f"{task_name(rom_id)}-v5",
        "envpool._atari:Atari",
        max_episode_steps=MAX_EPISODE_STEPS,
        option_hook=functools.partial(rom_options, rom_id),
        render_fps=30,  # ale-py's AtariEnv.metadata
    )
    for rom_id in ROM_IDS
]
register_family("atari", TABLE)

for _task_id, _reason in UNAVAILABLE_TASKS.items():
    mark_unavailable(_task_id, _reason)

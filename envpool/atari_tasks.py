"""The Atari tasks: one task id per ROM that ale-py 0.12.1 ships, e.g. Pong-v5.

The ROM list is fixed here, so that the task ids are known without importing
ale-py; the ROM files themselves come from the installed ale-py package when a
pool is made.
"""

from __future__ import annotations

import os
from typing import Any

from envpool.registry import register

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
    "combat",
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
    "joust",
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
    "maze_craze",
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
    "warlords",
    "wizard_of_wor",
    "word_zapper",
    "yars_revenge",
    "zaxxon",
)


def task_name(rom_id: str) -> str:
    """ "montezuma_revenge" -> "MontezumaRevenge", "tic_tac_toe_3d" -> "TicTacToe3D"."""
    return "".join(p.upper() if p[0].isdigit() else p.capitalize() for p in rom_id.split("_"))


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


for _rom_id in ROM_IDS:
    register(
        f"{task_name(_rom_id)}-v5",
        "envpool._core:Atari",
        max_episode_steps=MAX_EPISODE_STEPS,
        option_hook=lambda rom_id=_rom_id: rom_options(rom_id),
    )

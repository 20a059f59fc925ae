"""What ``envpool info`` says of the options every MiniGrid and BabyAI task takes."""

from __future__ import annotations

from envpool.registry import OptionNote

OBS_MODES = ("dict", "image", "one_hot", "flat", "full", "rgb", "rgb_partial")
"""``obs_mode``'s choices (cpp/envpool/minigrid/obs_modes.h): minigrid's dict, then its
ImgObsWrapper, OneHotPartialObsWrapper, FlatObsWrapper, FullyObsWrapper,
RGBImgObsWrapper and RGBImgPartialObsWrapper."""

OPTION_NOTES = {
    "max_steps": OptionNote(
        "None or 0: the env class's own step limit, minigrid's default", zero_is_none=True
    ),
    "obs_mode": OptionNote(
        "one of " + ", ".join(repr(m) for m in OBS_MODES) + ": minigrid's observation "
        "wrappers, docs/minigrid.md"
    ),
}

"""The ``envpool`` command (also ``python -m envpool``): list, info, bench and tune.

envpool list [PATTERN]      task ids, all or those matching PATTERN
envpool list --families     the task families, with their number of tasks
envpool info TASK           spaces, specs and every option of TASK with its default
envpool bench [...]         steps/s of envpool against the peers installed here
envpool tune TASK [...]     the fastest threads / batch size / thread sharing for TASK here
envpool cmake-dir           folder of envpool's CMake package config (for env packages)
envpool include-dir         folder of envpool's C++ headers
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

import numpy as np

BENCH_EXAMPLES = """\
examples:
  envpool bench                                  CartPole-v1 and Pong-v5, all peers (~1 min)
  envpool bench --task Breakout-v5 --num-envs 8 --num-envs 16 --batch-size 4
  envpool bench --task HalfCheetah-v5 --num-envs 8 --num-threads 2
  envpool bench --task CartPole-v1 --seconds 3 --json out.json --plot out.png
  envpool bench --task SimpleSpread-v3 SimpleTag-v3 --num-envs 8 --num-threads 2
  envpool bench --task CoinrunEasy-v0 StarpilotEasy-v0 --num-envs 8 --num-threads 2
  envpool bench --task PointMaze_Medium-v3 --num-envs 8 --num-threads 2
  envpool bench --peer-python /path/to/venv/bin/python   adds the original EnvPool
"""


TUNE_EXAMPLES = """\
examples:
  envpool tune Pong-v5                           8 envs, every candidate, ~1 min
  envpool tune CartPole-v1 --num-envs 64 --budget 120 --json tune.json
  envpool tune Breakout-v5 --threads 4,8 --batch-sizes 16,8 --num-envs 16
  envpool tune HalfCheetah-v5 --no-shared --no-progress
"""


_Commands = argparse._SubParsersAction  # what add_subparsers() returns


def _int_at_least(text: str, minimum: int, note: str = "") -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be >= {minimum}{note}, got {value}")
    return value


def _positive_int(text: str) -> int:
    return _int_at_least(text, 1)


def _threads(text: str) -> int:
    return _int_at_least(text, 0, " (0: the default)")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (value > 0 and np.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def _int_list(text: str) -> list[int]:
    from envpool.tune import parse_list

    try:
        values = parse_list(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    bad = [v for v in values if v < 1]
    if bad:
        raise argparse.ArgumentTypeError(f"every value must be >= 1, got {bad[0]}")
    return values


def _command(
    sub: _Commands, name: str, help: str, description: str, epilog: str | None = None
) -> argparse.ArgumentParser:
    """A subcommand's parser that knows itself (``command_parser``, for its usage errors);
    with an ``epilog`` of examples, the description is filled to 78 columns and the
    examples keep their lines."""
    if epilog is None:
        p = sub.add_parser(name, help=help, description=description)
    else:
        p = sub.add_parser(
            name,
            help=help,
            description=textwrap.fill(description, 78),
            epilog=epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
    p.set_defaults(command_parser=p)
    return p


def _add_report_options(p: argparse.ArgumentParser, what: str) -> None:
    """--json and --no-progress, of the commands that measure (bench, tune)."""
    p.add_argument("--json", metavar="PATH", help=f"write {what} as JSON to PATH")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _add_list_command(sub: _Commands) -> None:
    """The parser of `envpool list`."""
    p = _command(
        sub, "list", "list task ids", "List the task ids that envpool.make accepts, one per line."
    )
    p.add_argument(
        "pattern",
        nargs="?",
        metavar="PATTERN",
        help="a glob (Pong*, *-v5) or a substring (cart); case-insensitive",
    )
    p.add_argument(
        "--family",
        metavar="NAME",
        help="only the tasks of this family (see --families), e.g. box2d",
    )
    p.add_argument(
        "--families",
        action="store_true",
        help="list the task families (atari, box2d, ...) with their number of tasks and "
        "a few ids, instead of the ids",
    )


def _add_info_command(sub: _Commands) -> None:
    """The parser of `envpool info`."""
    p = _command(
        sub,
        "info",
        "spaces and options of a task",
        "Show a task's spaces, dm_env specs, info arrays and every option with "
        "its default (what envpool.make_spec(TASK) returns).",
    )
    p.add_argument("task", metavar="TASK", help="a task id, e.g. CartPole-v1")
    p.add_argument("--json", action="store_true", help="print the config and spaces as JSON")


def _add_build_dirs_command(sub: _Commands) -> None:
    """The parser of `envpool cmake-dir` and `envpool include-dir`."""
    for name, what in (
        ("cmake-dir", "the folder of envpoolConfig.cmake, for find_package(envpool CONFIG)"),
        ("include-dir", "the folder of envpool's C++ headers"),
    ):
        p = sub.add_parser(name, help=f"print {what}", description=f"Print {what}.")
        p.set_defaults(command_parser=p)


def _add_distributed_command(sub: _Commands) -> None:
    """The parser of `envpool distributed` (for --help)."""
    # Listed for --help only: main() hands `envpool distributed ...` to
    # envpool.distributed's own parser, which needs Ray.
    sub.add_parser(
        "distributed",
        help="N actors x M envs on Ray against one learner (pip install envpool[ray]); "
        "see envpool distributed --help",
        add_help=False,
    )


def _add_bench_command(sub: _Commands) -> None:
    """The parser of `envpool bench`."""
    p = _command(
        sub,
        "bench",
        "steps/s of envpool against the peers installed here",
        "Measure env steps per second (and emulator frames per second for Atari) of "
        "envpool and of the peers importable in this Python: a for-loop over gymnasium "
        "envs, gymnasium's SyncVectorEnv and AsyncVectorEnv (also of the MuJoCo tasks), "
        "gymnasium's numpy CartPole, ale-py's AtariVectorEnv; for mpe2's multi-agent "
        "tasks a for-loop over mpe2's parallel envs and SuperSuit's vector envs (in this "
        "process and in worker processes), with agent steps/s; optionally the original "
        "EnvPool from another Python.",
        BENCH_EXAMPLES,
    )
    p.add_argument(
        "--task",
        dest="tasks",
        action="extend",
        nargs="+",
        metavar="T",
        help="task id; repeatable (default: CartPole-v1 and Pong-v5)",
    )
    p.add_argument(
        "--num-envs",
        action="extend",
        nargs="+",
        type=_positive_int,
        metavar="N",
        help="number of envs; repeatable (default: 8, 64, 256 for classic control, "
        "4, 8, 16 for Atari, 8, 16, 32 for MuJoCo and 8, 32, 128 for mpe2)",
    )
    p.add_argument(
        "--batch-size",
        type=_positive_int,
        metavar="B",
        help="run envpool (and ale-py, the original EnvPool) asynchronously, "
        "B envs per recv() (default: sync, every env per step)",
    )
    p.add_argument(
        "--num-threads",
        type=_threads,
        metavar="K",
        help="worker threads of envpool, ale-py and the original EnvPool, worker "
        "processes of SuperSuit (default: each one's own, min(num_envs, cores) for "
        "envpool, one per core for SuperSuit)",
    )
    p.add_argument(
        "--seconds",
        type=_seconds,
        metavar="S",
        help="timed seconds per engine and size, after a short warm-up (default: 1)",
    )
    p.add_argument("--plot", metavar="PATH", help="write a PNG of steps/s against num_envs to PATH")
    p.add_argument(
        "--no-peers", action="store_true", help="measure envpool only (and --peer-python)"
    )
    p.add_argument(
        "--peer-python",
        metavar="PATH",
        help="a Python interpreter with the original EnvPool installed (package envpool); "
        "adds it as a peer, run in a subprocess",
    )
    _add_report_options(p, "the results")


def _add_tune_command(sub: _Commands) -> None:
    """The parser of `envpool tune`."""
    p = _command(
        sub,
        "tune",
        "find the fastest threads, batch size and thread sharing for a task here",
        "Measure the candidate configurations of a pool of TASK on this machine and "
        "rank them by env steps per second: num_threads 1, 2, 4, ... up to "
        "min(num_envs, usable CPUs); sync (batch_size = num_envs) or async "
        "(batch_size num_envs/2, /4, /8); threads of the pool's own or a shared "
        "envpool.make_thread_pool(). Successive halving within --budget: every "
        "candidate briefly, the better half longer, and so on; the last 3 are "
        "measured 3 times in turn and ranked by the median. Prints a ranked table "
        "and the envpool.make(...) call of the fastest.",
        TUNE_EXAMPLES,
    )
    p.add_argument("task", metavar="TASK", help="a task id, e.g. Pong-v5")
    p.add_argument(
        "--num-envs",
        type=_positive_int,
        default=None,
        metavar="N",
        help="envs in the pool (default: 8)",
    )
    p.add_argument(
        "--budget",
        type=_seconds,
        default=None,
        metavar="S",
        help="seconds the search may take, pools opened included (default: 60); "
        "at least 0.1 s per candidate is measured whatever the budget",
    )
    p.add_argument(
        "--threads",
        type=_int_list,
        metavar="LIST",
        help="only these numbers of threads, comma-separated, e.g. 2,4 "
        "(default: 1, 2, 4, ... up to min(N, usable CPUs), and that number)",
    )
    p.add_argument(
        "--batch-sizes",
        type=_int_list,
        metavar="LIST",
        help="only these batch sizes, comma-separated; N is sync, less is async "
        "(default: N, N/2, N/4, N/8)",
    )
    p.add_argument(
        "--no-shared",
        action="store_true",
        help="leave out the candidates on a shared envpool.make_thread_pool()",
    )
    _add_report_options(p, "the machine, the settings, every candidate's measurements and the pick")


def build_parser() -> argparse.ArgumentParser:
    import envpool

    parser = argparse.ArgumentParser(
        prog="envpool",
        description="Batched RL environments on a C++ thread pool: list tasks, inspect one, "
        "or benchmark envpool against the alternatives installed here.",
    )
    parser.add_argument("--version", action="version", version=f"envpool {envpool.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    _add_list_command(sub)
    _add_info_command(sub)
    _add_build_dirs_command(sub)
    _add_distributed_command(sub)
    _add_bench_command(sub)
    _add_tune_command(sub)
    return parser


def cmd_list(args: argparse.Namespace) -> int:
    import envpool
    from envpool.registry import BUILTIN_FAMILIES, build_command, built_families, list_families

    families = list_families()
    built = built_families()
    missing = [f for f in BUILTIN_FAMILIES if f not in built]
    hint = (
        f"not built in this install: {', '.join(missing)}; to build them: "
        f"{build_command([*built, *missing])}"
    )
    if args.families:
        width = max(map(len, families))
        for name, ids in families.items():
            shown = ", ".join(ids[:3]) + (", ..." if len(ids) > 3 else "")
            status = "  (not built)" if name in missing else ""
            print(f"{name:<{width}}  {len(ids):>4}  {shown}{status}")
        if missing:
            print(hint)
        return 0
    tasks = envpool.list_all_envs()
    if missing:
        print(f"envpool list: {hint}", file=sys.stderr)
    if args.family is not None:
        if args.family not in families:
            print(
                f"envpool list: no family {args.family!r}; families: {', '.join(families)}",
                file=sys.stderr,
            )
            return 1
        if args.family in missing:
            return 1
        tasks = families[args.family]
    if args.pattern:
        pattern = args.pattern.lower()
        if any(c in pattern for c in "*?["):
            tasks = [t for t in tasks if fnmatch.fnmatchcase(t.lower(), pattern)]
        else:
            tasks = [t for t in tasks if pattern in t.lower()]
        if not tasks:
            print(f"envpool list: no task id matches {args.pattern!r}", file=sys.stderr)
            return 1
    print("\n".join(tasks))
    return 0


def _describe_dm(spec: Any) -> str:
    if isinstance(spec, dict):  # a dict observation: its keys in the env's order
        return "{" + ", ".join(f"{k}: {_describe_dm(v)}" for k, v in spec.items()) + "}"
    text = f"{type(spec).__name__}(shape={tuple(spec.shape)}, dtype={np.dtype(spec.dtype)}"
    if hasattr(spec, "num_values"):
        text += f", num_values={spec.num_values}"
    elif hasattr(spec, "minimum"):
        for name in ("minimum", "maximum"):
            bound = np.asarray(getattr(spec, name))
            if bound.size and (bound == bound.flat[0]).all():
                text += f", {name}={bound.flat[0]}"
            else:
                text += f", {name}={np.array2string(bound, precision=4)}"
    return text + ")"


def _jsonable(value: Any) -> Any:
    if isinstance(value, (np.generic,)):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def cmd_info(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import envpool
    from envpool.registry import get_task

    try:
        task = get_task(args.task)
        spec = envpool.make_spec(args.task)
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    except (ImportError, FileNotFoundError) as exc:
        print(f"envpool info: {exc}", file=sys.stderr)
        return 1
    # with the options the task's converter takes itself (DMC's n_poles picks a model)
    options = {**spec.options, **task.extra_options}
    info_arrays: dict[str, tuple[np.dtype, tuple[int, ...]]] = {
        "env_id": (np.dtype(np.int32), ()),
        "elapsed_step": (np.dtype(np.int32), ()),
    }
    info_arrays.update(spec.info)
    if args.json:
        out = {
            "task_id": spec.task_id,
            "entry_point": task.entry_point,
            "observation_space": repr(spec.observation_space),
            "action_space": repr(spec.action_space),
            "observation_spec": None
            if spec.is_multi_agent
            else _describe_dm(spec.observation_spec),
            "action_spec": None if spec.is_multi_agent else _describe_dm(spec.action_spec),
            "max_episode_steps": spec.config["max_episode_steps"],
            "info": {k: {"dtype": str(d), "shape": list(s)} for k, (d, s) in info_arrays.items()},
            "options": {
                k: _jsonable(task.option_notes[k].shown(v) if k in task.option_notes else v)
                for k, v in options.items()
            },
            "option_notes": {k: n.note for k, n in task.option_notes.items() if k in options},
        }
        print(json.dumps(out, indent=2))
        return 0
    if spec.is_multi_agent:  # env_type="dm" is refused: no dm specs to show
        dm_lines = ["  dm_env             none: a multi-agent task (env_type='dm' is refused)"]
    else:
        dm_lines = [
            f"  dm observation     {_describe_dm(spec.observation_spec)}",
            f"  dm action          {_describe_dm(spec.action_spec)}",
        ]
    lines = [
        f"{spec.task_id}  ({task.entry_point})",
        f"  observation space  {spec.observation_space}",
        f"  action space       {spec.action_space}",
        *dm_lines,
        f"  max_episode_steps  {spec.config['max_episode_steps']}",
        "  info arrays        "
        + ", ".join(f"{k} {d}{list(s) if s else ''}" for k, (d, s) in info_arrays.items()),
        "",
        "options (envpool.make keyword = default):" if options else "options: none",
    ]
    width = max((len(k) for k in options), default=0)
    # options an option hook or converter fills in itself (a ROM's path, a DMC model file)
    computed = (set(task.default_options()) - set(task.options)) | set(task.convert_options({}))
    for key, value in options.items():
        note = "  (filled in when a pool is made)" if key in computed else ""
        extra = task.option_notes.get(key)
        if extra is not None:
            value = extra.shown(value)
            note = f"  ({extra.note})"
        lines.append(f"  {key.ljust(width)} = {value!r}{note}")
    lines.append("")
    lines.append(
        "Pool arguments (num_envs, batch_size, num_threads, seed, max_episode_steps, "
        "autoreset_mode, ...): docs/api.md"
    )
    print("\n".join(lines))
    return 0


def _check_output_paths(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A usage error for a --json (or --plot) path whose folder does not exist."""
    for flag in ("--json", "--plot"):
        path = getattr(args, flag[2:], None)
        folder = os.path.dirname(os.path.abspath(path)) if path else None
        if folder is not None and not os.path.isdir(folder):
            parser.error(f"{flag} {path}: the folder {folder} does not exist")


def cmd_bench(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from envpool import bench
    from envpool.bench.runner import machine as bench_machine
    from envpool.registry import get_task

    tasks = list(dict.fromkeys(args.tasks or bench.DEFAULT_TASKS))
    for task in tasks:
        try:
            get_task(task)
        except (ValueError, TypeError) as exc:
            parser.error(f"--task: {exc}")
    num_envs = sorted(set(args.num_envs)) if args.num_envs else None
    if args.batch_size is not None:
        sizes = num_envs or [n for t in tasks for n in _default_sizes(t)]
        smaller = [n for n in sizes if n < args.batch_size]
        if smaller:
            parser.error(
                f"--batch-size {args.batch_size} is larger than num_envs {min(smaller)}; "
                f"give --num-envs values >= {args.batch_size}"
            )
    _check_output_paths(parser, args)
    if args.plot:
        problem = bench.check_plotting()
        if problem:
            parser.error(problem)
    peer_python = None
    if args.peer_python:
        peer_python = shutil.which(args.peer_python)
        if peer_python is None:
            parser.error(f"--peer-python {args.peer_python}: no such executable")
    for task in tasks:
        try:
            get_task(task).load()  # e.g. a MuJoCo task not built here, or no mujoco package
        except ImportError as exc:
            print(f"envpool bench: {exc}", file=sys.stderr)
            return 1
    settings = bench.Settings(
        tasks=tasks,
        num_envs=num_envs,
        batch_size=args.batch_size,
        num_threads=args.num_threads or None,
        seconds=args.seconds if args.seconds is not None else bench.DEFAULT_SECONDS,
        peers=not args.no_peers,
        peer_python=peer_python,
    )
    try:
        report = bench.run(settings, out=sys.stdout, progress=not args.no_progress)
    except KeyboardInterrupt:
        print("envpool bench: interrupted", file=sys.stderr)
        return 130
    machine = bench_machine()
    vers = ", ".join(f"{k} {v}" for k, v in report.versions.items())
    print(f"\n{machine['cpus']} CPUs ({machine['cpu']}), Python {machine['python']}; {vers}")
    print()
    print(bench.format_report(report))
    if args.json:
        bench.write_json(report, args.json)
        print(f"\nwrote {args.json}")
    if args.plot:
        bench.write_plot(report, args.plot)
        print(f"wrote {args.plot}")
    return 0


def cmd_tune(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from envpool import tune
    from envpool.registry import get_task

    try:
        get_task(args.task)
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    num_envs = args.num_envs or tune.DEFAULT_NUM_ENVS
    too_big = [b for b in args.batch_sizes or () if b > num_envs]
    if too_big:
        parser.error(
            f"--batch-sizes {too_big[0]} is larger than --num-envs {num_envs}; "
            f"batch sizes go from 1 to {num_envs} (= sync)"
        )
    _check_output_paths(parser, args)
    try:
        get_task(args.task).load()  # e.g. a MuJoCo task not built here
    except ImportError as exc:
        print(f"envpool tune: {exc}", file=sys.stderr)
        return 1
    try:
        report = tune.tune(
            args.task,
            num_envs=num_envs,
            budget=args.budget if args.budget is not None else tune.DEFAULT_BUDGET,
            threads=args.threads,
            batch_sizes=args.batch_sizes,
            shared=not args.no_shared,
            progress=not args.no_progress,
        )
    except KeyboardInterrupt:
        print("envpool tune: interrupted", file=sys.stderr)
        return 130
    print(report.format())
    if args.json:
        tune.write_json(report, args.json)
        print(f"\nwrote {args.json}")
    return 0


def _default_sizes(task: str) -> tuple[int, ...]:
    from envpool.bench import DEFAULT_NUM_ENVS
    from envpool.bench.engines import task_family

    return DEFAULT_NUM_ENVS[task_family(task)]


def cmd_distributed(argv: list[str]) -> int:
    try:
        from envpool.distributed.__main__ import build_parser as distributed_parser
        from envpool.distributed.__main__ import main as distributed_main
    except ImportError as exc:
        print(f"envpool distributed: {exc}", file=sys.stderr)
        return 2
    return distributed_main(distributed_parser().parse_args(argv))


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["distributed"]:
        return cmd_distributed(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    sub = args.command_parser
    try:
        if args.command == "list":
            return cmd_list(args)
        if args.command == "info":
            return cmd_info(args, sub)
        if args.command in ("cmake-dir", "include-dir"):
            from envpool import build_paths

            find = build_paths.cmake_dir if args.command == "cmake-dir" else build_paths.include_dir
            try:
                print(find())
            except FileNotFoundError as exc:
                sub.exit(1, f"envpool {args.command}: {exc}\n")
            return 0
        if args.command == "tune":
            return cmd_tune(args, sub)
        return cmd_bench(args, sub)
    except BrokenPipeError:  # e.g. envpool list | head: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())

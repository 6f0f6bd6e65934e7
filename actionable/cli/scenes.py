"""``actionable scenes``: list a registered world's scenes or show one scene (the world's
``scene_listing`` / ``scene_info``; VirtualHome: the merged default house and the 518 packaged
program scenes, their rooms and objects)."""

from __future__ import annotations

import json
from typing import Optional

import typer


def scenes_command(
    show: Optional[str] = typer.Argument(
        None, metavar="[SCENE]", help="Scene to describe: 'default' or a program id such as 1003_2. "
                                      "Without it, list all scenes."),
    task: Optional[str] = typer.Option(None, "--task", help="Only program scenes whose task contains this text "
                                                            "(case-insensitive), e.g. 'coffee'."),
    classes: bool = typer.Option(False, "--classes", help="With a scene: also list its object classes "
                                                          "and how many nodes each has."),
    admissible: bool = typer.Option(False, "--admissible", help="With a scene: also print the size of its "
                                                                "admissible action space."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    env: str = typer.Option("virtualhome", "--env", "-e",
                            help="World whose scenes to list: virtualhome (default), thor (AI2-THOR floor "
                                 "plans and TEACh episodes, for `actionable plan|verify --env thor --scene`), "
                                 "driving (SUMO road networks, for `actionable follow --env driving --scene`) "
                                 "or pddl (the shipped PDDL problems; yours as domain.pddl::problem.pddl)."),
) -> None:
    """List a world's scenes (VirtualHome: the default house, the house plus every packaged
    program's objects with duplicates merged, and the 518 packaged program scenes, with counts).
    Give a scene name to see its rooms, node counts and (with --classes) classes."""
    from actionable.core.errors import ConfigError, InputError, SceneError
    from actionable.core.registry import list_worlds, make

    if env not in list_worlds():
        raise ConfigError(f"--env: unknown world {env!r}; choose one of {', '.join(list_worlds())}")
    if show is None and (classes or admissible):
        raise InputError("--classes and --admissible describe one scene; name it, e.g. "
                         "'actionable scenes default --admissible'")
    if show is not None and task:
        raise InputError("--task filters the scene list; drop the scene name or the --task option")
    world = make(env)
    if show is None:
        listing = world.scene_listing(task)
        if as_json:
            typer.echo(json.dumps(listing if "programs" in listing else {"env": env, **listing}, indent=2))
        elif "programs" in listing:  # a dataset's program scenes: a table
            _print_programs(listing)
        else:
            _print_scene_lines(env, listing["scenes"])
        return
    name = world.resolve_scene(show)
    if name is None:
        try:
            world.scene_info(show)  # a world whose scene loader names the close scenes says so
        except SceneError as exc:  # name what the user typed: the SCENE argument
            raise SceneError(f"SCENE: {exc}") from None
        raise ConfigError(f"SCENE: unknown {env} scene {show!r}; `actionable scenes --env {env}` lists the "
                          f"{len(world.scenes())} scenes")
    info: dict = world.scene_info(name, classes, admissible)
    if "nodes" in info:  # a scene graph's summary
        if as_json:
            typer.echo(json.dumps(info, indent=2))
        else:
            _print_scene(info)
        return
    info = {"env": env, "name": name, **info}
    if name in world.scene_tasks():  # a demonstration's initial state: its task
        t, desc = world.scene_tasks()[name]
        info.update(task=t, description=desc)
    if as_json:
        typer.echo(json.dumps(info, indent=2))
        return
    lines = [f"scene {name} (world {env})" + (f": {info['objects']} objects of {info['types']} types, "
                                                f"from {info['source']}" if "objects" in info else "")]
    if "task" in info:
        lines.append(f"task: {info['task']} - {info['description']}")
    if "class_counts" in info:
        lines.append("classes: " + ", ".join(f"{c} x{n}" for c, n in info["class_counts"].items()))
    lines.append(f"use with {_use(env, show)}")
    typer.echo("\n".join(lines))


def _print_programs(listing: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    default, rows = listing["default"], listing["programs"]
    con = Console()
    # header lines are never wrapped (soft_wrap): piped to a file at 80 columns, a table title would
    # break mid-sentence ("(use the id" / "with --scene)")
    con.print(f"[bold]default[/bold]: {default['nodes']} nodes ({default['added_objects']} added objects "
              f"merged from all programs), {default['classes']} classes, rooms: "
              + ", ".join(f"{k} ({v})" for k, v in default["objects_per_room"].items()), soft_wrap=True)
    con.print(f"{len(rows)} program scenes over {listing['task_count']} tasks (use the id with --scene)",
              soft_wrap=True)
    table = Table()
    table.add_column("id")
    table.add_column("task")
    table.add_column("steps", justify="right")
    for r in rows:
        table.add_row(r["id"], r["task"], str(r["steps"]))
    con.print(table)


def _print_scene_lines(env: str, rows: list) -> None:
    for r in rows:
        extra = f"  {r['task']}: {r['desc']}" if r["task"] else ""
        typer.echo(f"{r['scene']}{extra}")
    tail = " (TEACh scenes also without the 'teach:' prefix)" if any(r["task"] for r in rows) else ""
    typer.echo(f"{len(rows)} scene(s) of world {env}; use with {_use(env, 'NAME')}{tail}")


def _use(env: str, scene: str) -> str:
    """The commands a scene of world ``env`` is for: ``verify`` only where the world has a
    plan-verification route (:func:`actionable.verify.worldsim.verify_route`), else ``follow``."""
    from actionable.core.errors import ConfigError
    from actionable.verify.worldsim import verify_route

    try:
        verify_route(env)
    except ConfigError:
        return f"`actionable follow --env {env} --scene {scene}`"
    return f"`actionable verify PLAN --env {env} --scene {scene}`"


def _print_scene(info: dict) -> None:
    lines = [f"scene {info['name']}: {info['nodes']} nodes, {info['edges']} edges, "
             f"{info['classes']} classes, {info['added_objects']} added objects (ids >= 1000)"]
    if "task" in info:
        lines.append(f"task: {info['task']} ({info['steps']} steps) - {info['description']}")
    lines.append("rooms: " + ", ".join(f"{k} ({v} objects)" for k, v in info["objects_per_room"].items()))
    if "admissible_actions" in info:
        lines.append(f"admissible actions: {info['admissible_actions']}")
    if "class_counts" in info:
        lines.append("classes: " + ", ".join(f"{c} x{n}" for c, n in info["class_counts"].items()))
    typer.echo("\n".join(lines))


def register(app, eval_app) -> None:
    """Add ``actionable scenes`` to the root app."""
    app.command("scenes")(scenes_command)

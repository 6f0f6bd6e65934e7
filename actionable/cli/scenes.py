"""``actionable scenes``: list the scenes (the merged default house and the 518
packaged program scenes) or show one scene's rooms and objects."""

from __future__ import annotations

import json
from collections import Counter
from typing import Optional

import typer


def _scene_summary(scene) -> dict:
    rooms = {}
    for r in scene.rooms:
        rooms[scene.class_of(r)] = 0
    for nid in scene.node_ids:
        room = scene.room_of(nid)
        if room is not None and room != nid:
            rooms[scene.class_of(room)] = rooms.get(scene.class_of(room), 0) + 1
    return {"name": scene.name, "nodes": len(scene), "edges": len(scene.edges),
            "classes": len(scene.class_names()),
            "added_objects": sum(1 for i in scene.node_ids if i >= 1000),
            "objects_per_room": rooms}


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
                                 "plans and TEACh episodes, for `actionable plan|verify --env thor --scene`) "
                                 "or driving (SUMO road networks, for `actionable follow --env driving --scene`)."),
) -> None:
    """List the scenes: the default house (the house plus every packaged program's
    objects, duplicates merged) and the 518 packaged program scenes, with counts.
    Give a scene name to see its rooms, node counts and (with --classes) classes."""
    if env != "virtualhome":
        if show is not None:
            _world_scene(env, show, task, classes, as_json)
        else:
            _world_scenes(env, task, as_json)
        return
    from actionable.worlds.virtualhome.scene import list_program_ids, load_program, load_scene
    from actionable.core.errors import InputError

    if show is None and (classes or admissible):
        raise InputError("--classes and --admissible describe one scene; name it, e.g. "
                         "'actionable scenes default --admissible'")
    if show is not None and task:
        raise InputError("--task filters the scene list; drop the scene name or the --task option")
    if show is not None:
        from actionable.core.errors import SceneError

        try:
            scene = load_scene(show)
        except SceneError as exc:  # name what the user typed: the SCENE argument
            raise SceneError(f"SCENE: {exc}") from None
        info = _scene_summary(scene)
        if classes:
            info["class_counts"] = {c: len(scene.nodes_of_class(c)) for c in scene.class_names()}
        if admissible:
            from actionable.worlds.virtualhome.admissible import admissible_actions

            acts = admissible_actions(scene)
            info["admissible_actions"] = len(acts)
            info["admissible_by_action"] = dict(sorted(Counter(s.action for s in acts).items()))
        if scene.name != "default":
            prog = load_program(scene.name)
            info.update(task=prog.task, description=prog.description, steps=len(prog))
        if as_json:
            typer.echo(json.dumps(info, indent=2))
            return
        _print_scene(info)
        return

    rows = []
    for pid in list_program_ids():
        prog = load_program(pid)
        if task and task.lower() not in prog.task.lower():
            continue
        rows.append({"id": pid, "task": prog.task, "steps": len(prog)})
    default = _scene_summary(load_scene(None))
    tasks = Counter(r["task"] for r in rows)
    if as_json:
        typer.echo(json.dumps({"default": default, "programs": rows, "program_count": len(rows),
                               "task_count": len(tasks)}, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    con = Console()
    con.print(f"[bold]default[/bold]: {default['nodes']} nodes ({default['added_objects']} added objects "
              f"merged from all programs), {default['classes']} classes, rooms: "
              + ", ".join(f"{k} ({v})" for k, v in default["objects_per_room"].items()))
    table = Table(title=f"{len(rows)} program scenes over {len(tasks)} tasks "
                        "(use the id with --scene)")
    table.add_column("id")
    table.add_column("task")
    table.add_column("steps", justify="right")
    for r in rows:
        table.add_row(r["id"], r["task"], str(r["steps"]))
    con.print(table)


def _world_scenes(env: str, task: Optional[str], as_json: bool) -> None:
    """Scenes of a registered world; scenes that are a demonstration's initial state with its task
    and description (:meth:`World.scene_tasks`: THOR's TEACh episodes)."""
    from actionable.core.errors import ConfigError
    from actionable.worlds import list_worlds, make

    if env not in list_worlds():
        raise ConfigError(f"--env: unknown world {env!r}; choose one of {', '.join(list_worlds())}")
    world = make(env)
    tasks = world.scene_tasks()
    rows = []
    for sc in world.scenes():
        t, desc = tasks.get(sc, (None, None))
        row = {"scene": sc, "task": t, "desc": desc}
        if task and task.lower() not in f"{row['task'] or ''} {row['desc'] or ''} {sc}".lower():
            continue
        rows.append(row)
    if as_json:
        typer.echo(json.dumps({"env": env, "scenes": rows, "count": len(rows)}, indent=2))
        return
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


def _world_scene(env: str, show: str, task: Optional[str], classes: bool, as_json: bool) -> None:
    """One scene of a world of :mod:`actionable.worlds` (``--env thor FloorPlan1``): its objects,
    and for a TEACh episode its task; an unknown name is an error naming the SCENE argument."""
    from actionable.core.errors import ConfigError, InputError
    from actionable.worlds import list_worlds, make

    if env not in list_worlds():
        raise ConfigError(f"--env: unknown world {env!r}; choose one of {', '.join(list_worlds())}")
    if task:
        raise InputError("--task filters the scene list; drop the scene name or the --task option")
    world = make(env)
    name = world.resolve_scene(show)
    if name is None:
        raise ConfigError(f"SCENE: unknown {env} scene {show!r}; `actionable scenes --env {env}` lists the "
                          f"{len(world.scenes())} scenes")
    info: dict = {"env": env, "name": name, **world.scene_info(name, classes)}
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

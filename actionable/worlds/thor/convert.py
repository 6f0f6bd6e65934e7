"""Build the THOR world's packaged data (run once by a maintainer, never at run time).

Sources (nothing here is read by the world itself; it reads ``data/``):

* PyPI ``alfworld`` 0.4.2 (MIT, © 2020 Mohit Shridhar and others):
  ``alfworld/data/alfred.pddl`` (ALFRED's PDDL domain, copied verbatim),
  ``alfworld/gen/constants.py`` (object / receptacle vocabularies, ``VAL_RECEPTACLE_OBJECTS``,
  ``VAL_ACTION_OBJECTS``, ``OPENABLE_CLASS_LIST``) and
  ``alfworld/gen/layouts/FloorPlan*-{objects,openable}.json`` (object types per floor plan,
  receptacle instances with the agent pose ALFRED uses to reach them).
* TEACh game files (Padmakumar et al., AAAI 2022; © Amazon.com, Inc. or its affiliates,
  CDLA-Sharing-1.0), as found in AnanthHariharan/Task-Agents: ``initial_state.objects``,
  ``custom_object_metadata``, the driver's object interactions and ``final_state``. The
  converted files are changed (fields dropped, parents reduced to the innermost one).

Usage::

    pip download --no-deps alfworld==0.4.2 -d /tmp/alf && (cd /tmp/alf && unzip -q *.whl -d x)
    python actionable/worlds/thor/convert.py /tmp/alf/x/alfworld /path/to/teach/games
"""

from __future__ import annotations

import ast
import gzip
import json
import shutil
import sys
from pathlib import Path

OUT = Path(__file__).parent / "data"

#: AI2-THOR capability flags kept per object (TEACh metadata names).
CAPS = ("receptacle", "pickupable", "openable", "toggleable", "sliceable", "dirtyable",
        "canFillWithLiquid", "cookable", "breakable", "moveable", "canChangeTempToHot",
        "canChangeTempToCold")
#: AI2-THOR state fields kept per object.
STATES = ("isOpen", "isToggled", "isDirty", "isFilledWithLiquid", "isCooked", "isSliced", "isBroken",
          "isUsedUp", "isPickedUp")
CUSTOM = ("simbotIsFilledWithCoffee", "simbotIsFilledWithWater", "simbotIsBoiled", "simbotIsCooked")
#: TEACh action ids of object interactions (``definitions.actions``).
INTERACTIONS = {200: "Pickup", 201: "Place", 202: "Open", 203: "Close", 204: "ToggleOn", 205: "ToggleOff",
                206: "Slice", 207: "Dirty", 208: "Clean", 209: "Fill", 210: "Empty", 211: "Pour", 212: "Break"}


def _constants(alfworld: Path) -> dict:
    """The literal assignments of alfworld/gen/constants.py we need (parsed, not executed)."""
    tree = ast.parse((alfworld / "gen" / "constants.py").read_text())
    want = {"OBJECTS", "RECEPTACLES", "MOVABLE_RECEPTACLES", "VAL_RECEPTACLE_OBJECTS",
            "VAL_ACTION_OBJECTS", "OPENABLE_CLASS_LIST"}
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in want:
                try:
                    val = ast.literal_eval(node.value)
                except ValueError:
                    continue
                if isinstance(val, dict):
                    val = {k: sorted(v) for k, v in val.items()}
                elif isinstance(val, (set, list)):
                    val = sorted(val) if isinstance(val, set) else list(val)
                out[name] = val
    out["VAL_RECEPTACLE_OBJECTS"].pop("TableTop", None)  # constants.py deletes it too
    return out


def _layouts(alfworld: Path) -> dict:
    lay = {}
    d = alfworld / "gen" / "layouts"
    for f in sorted(d.glob("FloorPlan*-objects.json")):
        plan = f.name.split("-")[0]
        rec = json.loads((d / f"{plan}-openable.json").read_text())
        lay[plan] = {"types": sorted(json.loads(f.read_text())),
                     "receptacles": {k: [round(float(x), 2) for x in v] for k, v in sorted(rec.items())}}
    return lay


def _innermost(parents: list[str] | None, by_id: dict) -> str | None:
    if not parents:
        return None
    ps = [p for p in parents if p in by_id] or list(parents)

    def depth(p: str) -> int:
        return sum(1 for q in (by_id.get(p, {}).get("parentReceptacles") or []) if q in ps)

    return max(ps, key=lambda p: (depth(p), bool(by_id.get(p, {}).get("pickupable"))))


def _objects(objs: list[dict], custom: dict) -> list[dict]:
    by_id = {o["objectId"]: o for o in objs}
    out = []
    for o in objs:
        c = dict(custom.get(o["objectId"], {}))
        rec = {"id": o["objectId"], "type": o["objectType"],
               "parent": _innermost(o.get("parentReceptacles"), by_id),
               "pos": [round(o["position"]["x"], 2), round(o["position"]["y"], 2), round(o["position"]["z"], 2)],
               "caps": [k for k in CAPS if o.get(k)],
               "states": [k for k in STATES if o.get(k)],
               "temp": o.get("ObjectTemperature", "RoomTemp")}
        for k in CUSTOM:
            if o.get(k) or c.get(k):
                rec["states"].append(k)
        out.append(rec)
    return out


def _episodes(games: Path) -> list[dict]:
    eps = []
    for f in sorted(games.glob("*.game.json")):
        g = json.loads(f.read_text())
        task = g["tasks"][0]
        ep = task["episodes"][0]
        init, final = ep["initial_state"], ep["final_state"]
        inter = []
        for it in ep["interactions"]:
            if it.get("agent_id") == 1 and it["action_id"] in INTERACTIONS:
                inter.append([INTERACTIONS[it["action_id"]], it.get("oid"), int(it.get("success", 0))])
        agent = [a for a in init["agents"] if a.get("name") == "agent"] or init["agents"][-1:]
        p = agent[0]["position"]
        eps.append({"game": f.name.replace(".game.json", ""), "task": task["task_name"], "desc": task["desc"],
                    "world": ep["world"], "agent": [round(p["x"], 2), round(p["y"], 2), round(p["z"], 2)],
                    "objects": _objects(init["objects"], init.get("custom_object_metadata", {})),
                    "final": _objects(final["objects"], final.get("custom_object_metadata", {})),
                    "interactions": inter})
    return eps


def _type_table(consts: dict, eps: list[dict]) -> dict:
    """Capabilities per object type: TEACh's observed AI2-THOR flags (union over all objects of a
    type), completed for types TEACh never shows from ALFRED's vocabularies."""
    table: dict[str, set] = {}
    for e in eps:
        for o in e["objects"]:
            table.setdefault(o["type"], set()).update(o["caps"])
    contents = {t for v in consts["VAL_RECEPTACLE_OBJECTS"].values() for t in v}
    every = set(consts["OBJECTS"]) | set(consts["RECEPTACLES"]) | set(consts["MOVABLE_RECEPTACLES"])
    for t in every:
        if t in table:
            continue
        caps = set()
        if t in consts["RECEPTACLES"] or t in consts["VAL_RECEPTACLE_OBJECTS"]:
            caps.add("receptacle")
        if t in contents or t in consts["MOVABLE_RECEPTACLES"]:
            caps |= {"pickupable", "moveable"}
        if t in consts["OPENABLE_CLASS_LIST"]:
            caps.add("openable")
        va = consts["VAL_ACTION_OBJECTS"]
        if t in va["Toggleable"]:
            caps.add("toggleable")
        if t in va["Sliceable"]:
            caps.add("sliceable")
        table[t] = caps
    return {t: sorted(c) for t, c in sorted(table.items())}


def _write_gz(path: Path, obj) -> None:
    raw = json.dumps(obj, separators=(",", ":"), sort_keys=True).encode("utf-8")
    path.write_bytes(gzip.compress(raw, mtime=0))  # reproducible bytes


def main(alfworld: str, games: str) -> None:
    alf, gm = Path(alfworld), Path(games)
    OUT.mkdir(exist_ok=True)
    shutil.copy(alf / "data" / "alfred.pddl", OUT / "alfred.pddl")
    consts = _constants(alf)
    eps = _episodes(gm)
    consts["TYPE_CAPS"] = _type_table(consts, eps)
    (OUT / "alfred_vocab.json").write_text(json.dumps(consts, indent=0, sort_keys=True) + "\n")
    _write_gz(OUT / "alfred_layouts.json.gz", _layouts(alf))
    _write_gz(OUT / "teach_episodes.json.gz", eps)
    lic = next(alf.parent.glob("alfworld-*.dist-info/LICENSE"), None)
    if lic:
        shutil.copy(lic, OUT / "LICENSE-alfworld-MIT.txt")
    shutil.copy(gm.parent / "DATALICENSE", OUT / "LICENSE-TEACh-CDLA-Sharing-1.0.txt")
    print(f"{len(eps)} TEACh episodes, {len(consts['TYPE_CAPS'])} object types -> {OUT}")


if __name__ == "__main__":  # pragma: no cover - maintainer tool
    main(*sys.argv[1:3])

"""Human-like slips on correct gold plans: a second labelled verification set (issue 26).

Written from scratch, apart from the judges and apart from ``verify_noise`` (the first set's
generator): it imports no judge module and nothing from ``actionable.verify``. The procedure
is ``benchmarks/data/verify_slips/README.md`` (written before any case was generated); the
output uses the case schema of ``benchmarks/data/verify_new`` so that the same loader and
metrics read it.

    python benchmarks/gen_verify_slips.py --seed 0 --out benchmarks/data/verify_slips/cases.jsonl

Facts come only from VirtualHome's evolving-graph simulator (each program's own initial
graph) and the annotated goals checked on the exact annotated node ids.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from actionable.core.goals import check_goals
from actionable.core.program import Program, parse_script_step

NAV = frozenset({"WALK", "RUN", "FIND", "TURNTO", "LOOKAT", "POINTAT", "LOOKAT_SHORT", "LOOKAT_LONG"})
STATE_CHANGING = ("SWITCHON", "SWITCHOFF", "OPEN", "CLOSE", "PUTBACK", "PUTIN", "PUTOBJBACK", "PLUGIN",
                  "PLUGOUT", "WASH", "RINSE", "SCRUB", "WIPE", "POUR", "PUSH", "PULL", "TYPE", "DRINK")
PREP = ("OPEN", "WALK", "FIND", "TURNTO", "SWITCHOFF", "PLUGIN", "STANDUP", "GRAB")
POSTURE = ("SIT", "LIE")

# slip -> the kind of verify_new's kind list it is recorded under (the shared loader checks kinds)
SLIP_KIND = {"redo_far": "far_twin", "errand": "side_effect", "forgot_prep": "missing",
             "forgot_final": "missing", "late_step": "swap", "other_instance": "wrong_instance",
             "sit_again": "posture", "wrong_room": "detour", "clean": "clean_gold"}
INSERT_SLIPS = ("redo_far", "errand", "sit_again", "wrong_room")
DELETE_SLIPS = ("forgot_prep", "forgot_final")
QUOTA = {"redo_far": 20, "errand": 22, "forgot_prep": 20, "forgot_final": 18, "late_step": 20,
         "other_instance": 18, "sit_again": 14, "wrong_room": 18, "two_slips": 20, "clean": 45}
SPLIT_SALT = "verify_new:v1:"
ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "benchmarks" / "data" / "verify_slips" / "cases.jsonl"
NEW_SET = ROOT / "benchmarks" / "data" / "verify_new" / "cases.jsonl"


def split_of(program_id: str) -> str:
    """README section 4 (the shared loader's rule): by program, sha256 parity."""
    h = int(hashlib.sha256((SPLIT_SALT + program_id).encode()).hexdigest(), 16)
    return "tune" if h % 2 == 0 else "report"


def t1_align(ref, plan) -> list[tuple[int, int]]:
    """Rule T1: an LCS of lines; each ``ref[i]`` takes the earliest ``plan[j]`` that keeps the
    alignment longest. Returns ``[(i_ref, j_plan)]``."""
    n, m = len(ref), len(plan)
    L = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            L[i][j] = L[i + 1][j + 1] + 1 if ref[i] == plan[j] else max(L[i + 1][j], L[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        hit = next((k for k in range(j, m) if ref[i] == plan[k] and 1 + L[i + 1][k + 1] == L[i][j]), None)
        if hit is None:
            i += 1
        else:
            out.append((i, hit))
            i, j = i + 1, hit + 1
    return out


def line(action: str, *objs: tuple[str, int]) -> str:
    return f"[{action}] " + " ".join(f"<{c}> ({i})" for c, i in objs)


@dataclass(frozen=True)
class Outcome:
    executes: bool
    met: frozenset
    total: int

    @property
    def correct(self) -> bool:
        return self.executes and len(self.met) == self.total


class Facts:
    """Executability and exact-id goals of plans in one program's own scene (memoised)."""

    def __init__(self, program_id: str, spec, sim=None):
        from actionable.worlds.virtualhome.simulator import Simulator

        self.pid, self.spec = program_id, spec
        self.sim = sim or Simulator()
        self.all_goals = frozenset(g.describe() for g in (*spec.states, *spec.relations, *spec.actions))
        self._memo: dict[tuple, Outcome] = {}
        self._init = None

    def outcome(self, lines) -> Outcome:
        key = tuple(lines)
        if key not in self._memo:
            from actionable.worlds.virtualhome.simulator import execute_program

            try:
                steps = tuple(parse_script_step(x) for x in key)
                r = execute_program(Program(steps), scene=self.pid, sim=self.sim)
                g = check_goals(self.spec, r.final_graph, steps[: r.steps_executed], match="id")
                self._memo[key] = Outcome(r.executable, self.all_goals - set(g.unmet), len(self.all_goals))
            except Exception:  # an unknown node or a malformed step: it does not execute
                self._memo[key] = Outcome(False, frozenset(), len(self.all_goals))
        return self._memo[key]

    def initial(self) -> dict:
        """The initial graph: ``{"nodes": {id: node}, "room": {id: room id}}``."""
        if self._init is None:
            from actionable.worlds.virtualhome.simulator import Simulator

            s = Simulator()
            view, _ = s.reset(options={"program": self.pid})
            g = view.to_dict()
            nodes = {n["id"]: n for n in g["nodes"]}
            self._init = {"nodes": nodes, "room": {i: view.room_of(i) for i in nodes},
                          "rooms": sorted(i for i, n in nodes.items() if n.get("category") == "Rooms")}
        return self._init

    def goal_ids(self) -> set[int]:
        s = self.spec
        return {g.node_id for g in s.states} | {g.from_id for g in s.relations} | {g.to_id for g in s.relations}


# --- edits --------------------------------------------------------------------------------

@dataclass
class Edit:
    """One slip as operations on R: ``ins`` [(R position p, lines)] inserted before ``R[p]``,
    ``dele`` R indices deleted, ``repl`` {R index: new line}."""

    slip: str
    ins: list = field(default_factory=list)
    dele: set = field(default_factory=set)
    repl: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return SLIP_KIND[self.slip]

    def touched(self) -> set:
        return set(self.dele) | set(self.repl) | {p for p, _ in self.ins}


def apply(ref, edits):
    """N and, per N index, ``("ref", i)`` or ``("ins"|"repl", edit index)``."""
    plan, origin = [], []
    for k in range(len(ref) + 1):
        for e_i, e in enumerate(edits):
            for p, lines in e.ins:
                if p == k:
                    plan += lines
                    origin += [("ins", e_i)] * len(lines)
        if k == len(ref):
            break
        who = next((e_i for e_i, e in enumerate(edits) if k in e.dele), None)
        if who is not None:
            continue
        rep = next(((e_i, e.repl[k]) for e_i, e in enumerate(edits) if k in e.repl), None)
        if rep is not None:
            plan.append(rep[1])
            origin.append(("repl", rep[0], k))
        else:
            plan.append(ref[k])
            origin.append(("ref", k))
    return plan, origin


def breaks(f: Facts, lines) -> bool:
    o = f.outcome(lines)
    return not o.executes or len(o.met) < o.total


def label(ref, edits, f: Facts):
    """Sections 3-7 of the README: the labelled case dict parts, or ``None`` (dropped) with a reason."""
    if not f.outcome(ref).correct:
        return None, "reference not correct"
    plan, origin = apply(ref, edits)
    if plan == list(ref) and edits:
        return None, "edit changes nothing"
    al = t1_align(ref, plan)
    try:  # the shared loader module's T1: a case both readings do not agree on is dropped (T5)
        from actionable.evaluation.verify_noise import t1_alignment
    except ImportError:  # pragma: no cover
        t1_alignment = None
    if t1_alignment is not None and [tuple(x) for x in t1_alignment(ref, plan)] != al:
        return None, "the two T1 implementations disagree (T5)"
    aligned_n = {j for _, j in al}
    aligned_r = {i for i, _ in al}
    rm = [j for j in range(len(plan)) if j not in aligned_n]
    deleted = [i for i in range(len(ref)) if i not in aligned_r]
    want_rm = [j for j, o in enumerate(origin) if o[0] != "ref"]
    want_del = sorted(set().union(*(e.dele | set(e.repl) for e in edits))) if edits else []
    if rm != want_rm or deleted != want_del:
        return None, "T1 reads the edit otherwise (T5)"
    # an insertion next to a step another edit deleted has no one place in R (T5)
    gone = set().union(*(e.dele for e in edits)) if edits else set()
    for e in edits:
        if e.ins and not e.dele and any(q - 1 in gone or q in gone for q, _ in e.ins):
            return None, "insertion next to a deleted step (T5)"
    # insertions: alone and together keep R correct
    ins_only = [e for e in edits if e.ins and not e.dele and not e.repl]
    for e in ins_only:
        if not f.outcome(apply(ref, [e])[0]).correct:
            return None, "insertion breaks R"
    if ins_only and not f.outcome(apply(ref, ins_only)[0]).correct:
        return None, "insertions together break R"
    # deletions / moves: each deleted step needed on its own; changes: the edit alone breaks R
    for e in edits:
        for i in e.dele:
            if not breaks(f, list(ref[:i]) + list(ref[i + 1:])):
                return None, "deleted step not needed"
        if (e.dele or e.repl) and not breaks(f, apply(ref, [e])[0]):
            return None, "edit alone does not break R"
    if any(e.dele or e.repl for e in edits) and not breaks(f, plan):
        return None, "an insertion stands in for a deleted step"
    labels = ["valid"] * len(plan)
    reasons = [""] * len(plan)
    edit_ids = [None] * len(plan)
    for j in rm:
        e_i = origin[j][1]
        labels[j], reasons[j], edit_ids[j] = "remove", edits[e_i].kind, e_i
    missing = []
    for i in deleted:
        e_i = next(k for k, e in enumerate(edits) if i in e.dele or i in e.repl)
        if i in edits[e_i].repl:
            pos = next(j for j, o in enumerate(origin) if o[0] == "repl" and o[2] == i)
        else:
            pos = next((j for j, o in enumerate(origin) if o[0] == "ref" and o[1] > i), len(plan))
        missing.append({"edit": e_i, "position": pos, "reason": edits[e_i].kind, "step": ref[i]})
    o = f.outcome(plan)
    facts = {"goals_total": o.total, "plan_executes": o.executes, "plan_goals_met": len(o.met),
             "slips": [e.slip for e in edits] or ["clean"]}
    ed = []
    for e_i, e in enumerate(edits):
        d = {"id": e_i, "kind": e.kind, "slip": e.slip, **e.info}
        d["inserted"] = [j for j, og in enumerate(origin) if og[0] == "ins" and og[1] == e_i]
        if e.dele:
            d["deleted"] = [[i, ref[i]] for i in sorted(e.dele)]
        if e.repl:
            d["replaced"] = [[i, ref[i], e.repl[i]] for i in sorted(e.repl)]
        ed.append(d)
    return {"plan": plan, "labels": labels, "reasons": reasons, "edit_ids": edit_ids, "missing": missing,
            "edits": ed, "facts": facts}, ""


# --- slip proposals (each yields candidate Edits, in the order they are tried) -------------

def _objs(step_line: str):
    s = parse_script_step(step_line)
    return [(a.name, a.id) for a in s.args], s.action


def prop_redo_far(ref, f, rng):
    cands = []
    for i, x in enumerate(ref):
        objs, act = _objs(x)
        if act in NAV or act in POSTURE or act == "STANDUP" or not objs:
            continue
        pref = 0 if act in ("SWITCHON", "SWITCHOFF", "OPEN", "CLOSE") else 1 if act in STATE_CHANGING else 2
        for p in range(i + 4, len(ref) + 1):
            cands.append((pref, -p, rng.random(), i, p))
    cands.sort()
    for _, _, _, i, p in cands[:40]:
        objs, _ = _objs(ref[i])
        yield Edit("redo_far", ins=[(p, [ref[i]])], info={"twin_of": i})
        yield Edit("redo_far", ins=[(p, [line("WALK", objs[0]), ref[i]])], info={"twin_of": i, "walk": True})


def prop_errand(ref, f, rng):
    init = f.initial()
    nodes = init["nodes"]
    used_cls = {c for x in ref for c, _ in _objs(x)[0]}
    used_ids = {i for x in ref for _, i in _objs(x)[0]}
    gids = f.goal_ids()
    goal_cls = {nodes[i]["class_name"] for i in gids if i in nodes}
    free = [n for i, n in sorted(nodes.items()) if i not in used_ids and i not in gids
            and n["class_name"] not in used_cls and n["class_name"] not in goal_cls
            and n.get("category") not in ("Rooms", "Characters")]
    surfaces = [n for n in free if "SURFACES" in n.get("properties", [])]
    opts = []
    for n in free:
        o = (n["class_name"], n["id"])
        props = set(n.get("properties", []))
        if "CAN_OPEN" in props and "GRABBABLE" not in props:
            opts.append(("open_close", o, [line("WALK", o), line("OPEN", o), line("CLOSE", o)]))
        if "HAS_SWITCH" in props:
            opts.append(("switch_on_off", o, [line("WALK", o), line("SWITCHON", o), line("SWITCHOFF", o)]))
        if "GRABBABLE" in props and surfaces:
            t = rng.choice(surfaces)
            tt = (t["class_name"], t["id"])
            opts.append(("move_object", o, [line("WALK", o), line("GRAB", o), line("WALK", tt),
                                            line("PUTBACK", o, tt)]))
            opts.append(("pick_put_back", o, [line("WALK", o), line("GRAB", o), line("PUTOBJBACK", o)]))
    rng.shuffle(opts)
    # vary the errand type: round-robin over types
    by_type: dict = {}
    for w, o, ls in opts:
        by_type.setdefault(w, []).append((o, ls))
    types = sorted(by_type)
    rng.shuffle(types)
    tried = 0
    while any(by_type.values()) and tried < 30:
        for w in types:
            if by_type[w]:
                o, ls = by_type[w].pop()
                p = rng.randrange(0, len(ref) + 1)
                tried += 1
                yield Edit("errand", ins=[(p, ls)], info={"errand": w, "object": o[0], "node": o[1]})


def prop_forgot_prep(ref, f, rng):
    by_act: dict = {}
    for i, x in enumerate(ref):
        objs, act = _objs(x)
        if act not in PREP:
            continue
        later = [_objs(y) for y in ref[i + 1:]]
        if act == "STANDUP":
            ok = any(a in ("WALK", "RUN") for _, a in later)
        else:
            ok = any(set(objs) & set(o) for o, _ in later)
        if ok:
            by_act.setdefault(act, []).append(i)
    acts = sorted(by_act)
    rng.shuffle(acts)
    # an appliance / container / posture prep first, then GRAB, then navigation
    acts.sort(key=lambda a: 2 if a in NAV else 1 if a == "GRAB" else 0)
    for a in acts:
        idx = by_act[a][:]
        rng.shuffle(idx)
        for i in idx:
            yield Edit("forgot_prep", dele={i}, info={"action": a})


def prop_forgot_final(ref, f, rng):
    for i in range(len(ref) - 1, -1, -1):
        r = list(ref[:i]) + list(ref[i + 1:])
        o = f.outcome(r)
        if o.executes and len(o.met) < o.total:
            yield Edit("forgot_final", dele={i}, info={"action": _objs(ref[i])[1]})
            return


def prop_late_step(ref, f, rng):
    cands = []
    for i, x in enumerate(ref):
        _, act = _objs(x)
        if ref.count(x) > 1:
            continue
        for d in (2, 3, 4):
            if i + 1 + d <= len(ref):
                cands.append((act in NAV, rng.random(), i, d))
    cands.sort()
    for _, _, i, d in cands[:40]:
        yield Edit("late_step", dele={i}, ins=[(i + 1 + d, [ref[i]])], info={"moved": ref[i], "by": d})


def prop_other_instance(ref, f, rng):
    init = f.initial()
    nodes, room = init["nodes"], init["room"]
    seen = []
    for x in ref:
        for o in _objs(x)[0]:
            if o not in seen and nodes.get(o[1], {}).get("category") not in ("Rooms", "Characters"):
                seen.append(o)
    rng.shuffle(seen)
    for c, i in seen:
        others = [j for j, n in nodes.items() if n["class_name"] == c and j != i]
        others.sort(key=lambda j: (room.get(j) == room.get(i), j))
        for j in others[:2]:
            repl = {k: x.replace(f"<{c}> ({i})", f"<{c}> ({j})") for k, x in enumerate(ref)
                    if f"<{c}> ({i})" in x}
            yield Edit("other_instance", repl=repl,
                       info={"object": c, "was": i, "now": j, "other_room": room.get(j) != room.get(i)})


def prop_sit_again(ref, f, rng):
    for i, x in enumerate(ref):
        objs, act = _objs(x)
        if act not in POSTURE:
            continue
        e = next((k for k in range(i + 1, len(ref)) if _objs(ref[k])[1] in ("STANDUP", "WAKEUP")), len(ref))
        ps = list(range(i + 2, e)) if e < len(ref) else list(range(i + 2, e + 1))
        rng.shuffle(ps)
        for p in ps + [i + 1]:
            if p <= len(ref) and (p >= len(ref) or _objs(ref[p])[1] != "STANDUP"):
                yield Edit("sit_again", ins=[(p, ["[STANDUP]", x])], info={"posture": act, "after": i})


def prop_wrong_room(ref, f, rng):
    init = f.initial()
    nodes, room, rooms = init["nodes"], init["room"], init["rooms"]
    walks = [i for i, x in enumerate(ref) if _objs(x)[1] in ("WALK", "RUN")]
    rng.shuffle(walks)
    for p in walks[:6]:
        objs = _objs(ref[p])[0]
        target_room = room.get(objs[0][1]) if objs else None
        cand = [r for r in rooms if r != target_room and line("WALK", (nodes[r]["class_name"], r)) not in ref]
        rng.shuffle(cand)
        for r in cand[:2]:
            rl = line("WALK", (nodes[r]["class_name"], r))
            furn = [n for j, n in sorted(nodes.items()) if room.get(j) == r and n.get("category") == "Furniture"]
            if furn and rng.random() < 0.3:
                fn = rng.choice(furn)
                ls = [rl, line("WALK", (fn["class_name"], fn["id"]))]
            else:
                ls = [rl]
            yield Edit("wrong_room", ins=[(p, ls)], info={"room": nodes[r]["class_name"], "before": p})


PROPOSERS = {"redo_far": prop_redo_far, "errand": prop_errand, "forgot_prep": prop_forgot_prep,
             "forgot_final": prop_forgot_final, "late_step": prop_late_step,
             "other_instance": prop_other_instance, "sit_again": prop_sit_again, "wrong_room": prop_wrong_room}


def first_good(ref, f, props, limit=60):
    n = 0
    for e in props:
        n += 1
        if n > limit:
            return None, None
        out, _ = label(ref, [e], f)
        if out is not None:
            return e, out
    return None, None


# --- the set -------------------------------------------------------------------------------

def references(seed: int = 0):
    """(program id, program, spec) of the gold references, in the README's order."""
    from actionable.worlds.virtualhome.dataset import load_program
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    ann = load_goal_annotations()
    used = set()
    if NEW_SET.exists():
        used = {json.loads(x)["program_id"] for x in NEW_SET.read_text(encoding="utf-8").splitlines() if x.strip()}
    ids = sorted(p for p in ann if p not in used)
    random.Random(f"verify_slips:{seed}").shuffle(ids)
    for pid in ids:
        yield pid, load_program(pid), ann[pid]


def make_case(pid, prog, edits, out, slip_name):
    name = "+".join(e.slip for e in edits) if edits else "clean"
    case = {"id": f"gold-{pid}-{name}", "source": "gold", "program_id": pid, "scene": pid,
            "goal": f"{prog.task}. {prog.description}".strip(), "kinds": [], "split": split_of(pid),
            "reference": [s.to_script() for s in prog.steps], "lm": None, **out}
    kinds = [e.kind for e in edits] or ["clean_gold"]
    case["kinds"] = list(dict.fromkeys(kinds))
    case["facts"]["slip_case"] = slip_name
    return case


def build(seed: int = 0, quota=None, log=None) -> list[dict]:
    quota = dict(QUOTA if quota is None else quota)
    rng = random.Random(f"verify_slips:{seed}")
    from actionable.worlds.virtualhome.simulator import Simulator

    sim = Simulator()
    cases, stats = [], {"walked": 0, "correct": 0, "short": 0, "dropped_two": 0}
    for pid, prog, spec in references(seed):
        if all(v <= 0 for v in quota.values()):
            break
        stats["walked"] += 1
        ref = [s.to_script() for s in prog.steps]
        if len(ref) <= 2:
            stats["short"] += 1
            continue
        f = Facts(pid, spec, sim)
        if not f.outcome(ref).correct:
            continue
        stats["correct"] += 1
        order = [k for k in quota if quota[k] > 0]
        rng.shuffle(order)
        made = 0
        for slip in order:
            if made >= 2:
                break
            if slip == "clean":
                if made == 0:  # a clean reference gets no error case of its own
                    out, _ = label(ref, [], f)
                    cases.append(make_case(pid, prog, [], out, "clean"))
                    quota["clean"] -= 1
                    break
                continue
            if slip == "two_slips":
                pair = [s for s in INSERT_SLIPS + DELETE_SLIPS]
                rng.shuffle(pair)
                a = pair[0]
                b = next(s for s in pair[1:] if not (s in DELETE_SLIPS and a in DELETE_SLIPS))
                ea, _ = first_good(ref, f, PROPOSERS[a](ref, f, rng))
                eb, _ = first_good(ref, f, PROPOSERS[b](ref, f, rng))
                if ea is None or eb is None or ea.touched() & eb.touched():
                    continue
                out, why = label(ref, [ea, eb], f)
                if out is None:
                    stats["dropped_two"] += 1
                    continue
                cases.append(make_case(pid, prog, [ea, eb], out, "two_slips"))
            else:
                e, out = first_good(ref, f, PROPOSERS[slip](ref, f, rng))
                if e is None:
                    continue
                cases.append(make_case(pid, prog, [e], out, slip))
            quota[slip] -= 1
            made += 1
    if log is not None:
        log.update(stats)
        log["quota_left"] = quota
    return cases


def write(cases, path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for c in cases:
            fh.write(json.dumps(c, sort_keys=True) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    a = ap.parse_args(argv)
    log: dict = {}
    cases = build(a.seed, log=log)
    write(cases, a.out)
    print(json.dumps(log), file=sys.stderr)
    print(f"{len(cases)} cases -> {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

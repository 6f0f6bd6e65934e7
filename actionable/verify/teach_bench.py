"""TEACh demonstrations as a plan-verification benchmark (the data of arXiv 2509.02761, Sec. 4).

Source (converted once by :func:`convert`; nothing reads it at run time or in tests):
``seq_shortest.json`` (the 100 shortest TEACh episodes as the paper's code flattened them into
lines such as ``Driver.PickUp('Mug')``) and ``seq_redundancies.json`` (the same episodes after the
paper's code had an LLM insert noise), both from the public repository AnanthHariharan/Task-Agents;
TEACh (Padmakumar et al., AAAI 2022), data (c) Amazon.com, Inc. or its affiliates,
CDLA-Sharing-1.0. The converted file is ``actionable/verify/data/teach_seq.json`` (licence text and
attribution beside it, ``data/README.md``).

**Labels.** Per episode, the *driver actions* (``Driver.*`` lines except ``Driver.Say``; 642 in
the shortest set) of the shortest and the noised sequence are aligned by a longest common
subsequence over exact line text (:func:`align`). Ties between equally long alignments are broken
deterministically by matching each shortest action to the *earliest* noised line that still
allows a longest alignment (forward greedy over the suffix LCS table), so in
``PickUp(N), PutAOnB(N, Bookshelf), PickUp(N), PutAOnB(N, CoffeeTable)`` against
``PickUp(N), PutAOnB(N, CoffeeTable)`` the misplacement and the second pick-up are the inserted
ones. Noised driver actions outside the alignment are **inserted** (errors made by a third
party's LLM); shortest driver actions outside it are **deleted** (the noiser also rewrote a few).

:func:`score_teach` scores the rule and LLM judges on a user's own labelled TEACh-style file
(``actionable eval verify --teach FILE``; read by :mod:`actionable.verify.teach`).

**Plans.** The judges see the driver's object interactions only (``PickUp``, ``PutAOnB``,
``PourFromAIntoB``, ``ToggleOn/Off``, ``Open``, ...), mapped to the project's steps by
:func:`actionable.verify.teach.parse_teach_action`; motion (``Move``, ``TurnLeft``,
``Navigation``) and speech are not plan steps (the worlds model no motion). Inserted motion
actions are therefore counted but cannot be scored; see :func:`TeachDemo.plan`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from actionable.core.program import Program
from actionable.core.errors import InputError

DATA_FILE = Path(__file__).with_name("data") / "teach_seq.json"
_LINE = re.compile(r"^\s*(Driver|Commander)\.(\w+)\((.*)\)\s*$")
#: driver actions that move the agent (no object; not plan steps)
MOTION = frozenset({"Move", "TurnLeft", "TurnRight", "Navigation", "Forward", "Backward", "Pan", "LookUp",
                    "LookDown"})
#: seq line action -> TEACh-style action name read by actionable.verify.teach
SEQ_ACTIONS = {"PickUp": "PickUp", "PutAOnB": "PutAOnB", "PourFromAIntoB": "Pour", "ToggleOn": "ToggleOn",
               "ToggleOff": "ToggleOff", "Open": "Open", "Close": "Close", "Slice": "Slice", "Place": "Place",
               "Pour": "Pour", "Clean": "Clean"}


def split_line(line: str) -> tuple[str, str, list[str]] | None:
    """``"Driver.PutAOnB('Mug', 'Sink')"`` -> ``("Driver", "PutAOnB", ["Mug", "Sink"])``;
    ``None`` for a line that is not ``Who.Action(args)``."""
    m = _LINE.match(line)
    if not m:
        return None
    args = [a.strip().strip("'\"") for a in re.findall(r"'[^']*'|\"[^\"]*\"|[^,]+", m.group(3)) if a.strip()]
    return m.group(1), m.group(2), args


def is_driver_action(line: str) -> bool:
    """A ``Driver.*`` line other than ``Driver.Say`` (the unit of the labels)."""
    p = split_line(line)
    return p is not None and p[0] == "Driver" and p[1] != "Say"


def is_object_action(line: str) -> bool:
    """A driver action on objects (a plan step), i.e. not motion and not speech."""
    p = split_line(line)
    return p is not None and p[0] == "Driver" and p[1] != "Say" and p[1] not in MOTION


def teach_text(line: str) -> str:
    """A seq line -> TEACh-style action text: ``Driver.PourFromAIntoB('Mug', 'Sink')`` -> ``Pour(Mug, Sink)``.

    Raises:
        InputError: not an object action of the driver.
    """
    p = split_line(line)
    if p is None or p[0] != "Driver" or p[1] not in SEQ_ACTIONS:
        raise InputError(f"not a driver object action: {line[:80]!r}")
    return f"{SEQ_ACTIONS[p[1]]}({', '.join(p[2])})"


def align(short: list[str], noised: list[str]) -> list[tuple[int, int]]:
    """Longest common subsequence of two line lists as ``[(i_short, j_noised)]`` pairs, ties broken
    by matching each ``short[i]`` to the earliest ``noised[j]`` that keeps the alignment longest.
    O(len(short) * len(noised))."""
    n, m = len(short), len(noised)
    L = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            L[i][j] = L[i + 1][j + 1] + 1 if short[i] == noised[j] else max(L[i + 1][j], L[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if short[i] == noised[j] and L[i][j] == L[i + 1][j + 1] + 1:
            out.append((i, j))
            i, j = i + 1, j + 1
        elif L[i][j + 1] >= L[i + 1][j]:
            j += 1
        else:
            i += 1
    return out


@dataclass(frozen=True)
class TeachDemo:
    """One converted TEACh episode.

    Attributes:
        id: TEACh game id (``7d2a79f43e605c36_1657``); ``scene`` is ``teach:<id>`` in the THOR world
            when the kitchen world has this episode's initial state.
        task / desc: TEACh task name and description from the game file (``None`` when the game
            file is not available, 21 of 100).
        instruction: the Commander's first utterance.
        shortest / noised: the raw lines (Commander and Driver).
        inserted: indices into ``noised`` of the inserted driver actions (the labels).
        deleted: indices into ``shortest`` of driver actions the noiser dropped or rewrote.
    """

    id: str
    task: str | None
    desc: str | None
    instruction: str
    shortest: tuple[str, ...]
    noised: tuple[str, ...]
    inserted: tuple[int, ...]
    deleted: tuple[int, ...]

    @property
    def goal(self) -> str:
        """Goal text for the judges: the task description, else the Commander's first instruction."""
        return (self.desc or self.instruction or self.task or self.id).strip()

    def plan(self, which: str = "noised") -> tuple[Program, list[int], list[bool]]:
        """The object-action plan of ``which`` (``"noised"`` or ``"shortest"``).

        Returns:
            ``(program, line_index, label)``: the class-level :class:`Program` (steps such as
            ``[GRAB] <mug>``), for each step the index of its line, and for each step whether it
            is an inserted action (always False for ``"shortest"``).
        """
        from actionable.verify.teach import parse_teach_action

        lines = self.noised if which == "noised" else self.shortest
        ins = set(self.inserted) if which == "noised" else set()
        steps, idx, lab = [], [], []
        held = None
        for k, ln in enumerate(lines):
            if not is_object_action(ln):
                continue
            st = parse_teach_action(teach_text(ln), held)
            if st.action == "GRAB":
                held = st.args[0].name
            elif st.action in ("PUTBACK", "PUTIN"):
                held = None
            steps.append(st)
            idx.append(k)
            lab.append(k in ins)
        return Program(tuple(steps), self.goal), idx, lab

    def to_dict(self) -> dict:
        return {"id": self.id, "task": self.task, "desc": self.desc, "instruction": self.instruction,
                "shortest": list(self.shortest), "noised": list(self.noised), "inserted": list(self.inserted),
                "deleted": list(self.deleted)}


def _demo(rec: dict) -> TeachDemo:
    return TeachDemo(rec["id"], rec.get("task"), rec.get("desc"), rec.get("instruction", ""),
                     tuple(rec["shortest"]), tuple(rec["noised"]), tuple(rec["inserted"]), tuple(rec["deleted"]))


@lru_cache(maxsize=1)
def load_demos() -> tuple[TeachDemo, ...]:
    """The 100 converted episodes, in the source's order (see the module doc).

    Raises:
        InputError: the packaged data file is missing or unreadable.
    """
    try:
        recs = json.loads(DATA_FILE.read_text(encoding="utf-8"))["episodes"]
    except (OSError, ValueError, KeyError) as exc:
        raise InputError(f"cannot read the TEACh benchmark data {DATA_FILE}: {exc}") from None
    return tuple(_demo(r) for r in recs)


def split_of(demo_id: str) -> str:
    """``"tune"`` for the episodes at even positions of the source order (0, 2, ...), ``"report"``
    for the odd ones. The judges' TEACh-specific choices (issue 14) were made looking at the
    tune half only; the report half is the held-out figure.

    Raises:
        InputError: an id that is not one of the 100 episodes.
    """
    order = {d.id: k for k, d in enumerate(load_demos())}
    if demo_id not in order:
        raise InputError(f"{demo_id!r} is not a converted TEACh episode id")
    return "tune" if order[demo_id] % 2 == 0 else "report"


def label_counts(demos=None) -> dict[str, int]:
    """Counts over the data: episodes, lines, driver actions, inserted (all / object / motion),
    deleted, and object actions of each sequence."""
    demos = load_demos() if demos is None else demos
    c = dict.fromkeys(["episodes", "with_game", "shortest_lines", "noised_lines", "shortest_driver",
                       "noised_driver", "inserted", "inserted_object", "inserted_motion", "deleted",
                       "shortest_object", "noised_object", "unchanged_episodes"], 0)
    for d in demos:
        c["episodes"] += 1
        c["with_game"] += d.task is not None
        c["shortest_lines"] += len(d.shortest)
        c["noised_lines"] += len(d.noised)
        c["shortest_driver"] += sum(map(is_driver_action, d.shortest))
        c["noised_driver"] += sum(map(is_driver_action, d.noised))
        c["inserted"] += len(d.inserted)
        c["inserted_object"] += sum(is_object_action(d.noised[j]) for j in d.inserted)
        c["inserted_motion"] += sum(not is_object_action(d.noised[j]) for j in d.inserted)
        c["deleted"] += len(d.deleted)
        c["shortest_object"] += sum(map(is_object_action, d.shortest))
        c["noised_object"] += sum(map(is_object_action, d.noised))
        c["unchanged_episodes"] += not d.inserted and not d.deleted
    return c


def convert(src_dir: str | Path, out: str | Path = DATA_FILE) -> dict[str, int]:
    """Build the benchmark file from the source folder (``seq_shortest.json``,
    ``seq_redundancies.json``, optional ``games/*.game.json`` for task names). Run by a
    maintainer; returns :func:`label_counts`.

    Raises:
        InputError: missing files, or the two sequences do not name the same episodes.
    """
    src = Path(src_dir)
    try:
        short = json.loads((src / "seq_shortest.json").read_text(encoding="utf-8"))
        noised = json.loads((src / "seq_redundancies.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the TEACh sequences in {src}: {exc}") from None
    if len(short) != len(noised):
        raise InputError(f"{len(short)} shortest vs {len(noised)} noised episodes")
    recs = []
    for a, b in zip(short, noised):
        if a["file"] != b["file"]:
            raise InputError(f"episode files differ: {a['file']} vs {b['file']}")
        gid = Path(a["file"]).name.removesuffix(".game.json")
        task = desc = None
        gf = src / "games" / f"{gid}.game.json"
        if gf.is_file():
            t = json.loads(gf.read_text(encoding="utf-8"))["tasks"][0]
            task, desc = t.get("task_name"), t.get("desc")
        sd = [k for k, ln in enumerate(a["actions"]) if is_driver_action(ln)]
        nd = [k for k, ln in enumerate(b["actions"]) if is_driver_action(ln)]
        pairs = align([a["actions"][k] for k in sd], [b["actions"][k] for k in nd])
        ms, mn = {sd[i] for i, _ in pairs}, {nd[j] for _, j in pairs}
        first = next((split_line(ln)[2] for ln in a["actions"]
                      if (split_line(ln) or ("",))[0] == "Commander"), [""])
        recs.append({"id": gid, "task": task, "desc": desc, "instruction": first[0] if first else "",
                     "shortest": a["actions"], "noised": b["actions"],
                     "inserted": [k for k in nd if k not in mn], "deleted": [k for k in sd if k not in ms]})
    doc = {"about": "TEACh demonstrations (Padmakumar et al., AAAI 2022; data (c) Amazon.com, Inc. or its "
                    "affiliates, CDLA-Sharing-1.0, see LICENSE-TEACh-CDLA-Sharing-1.0.txt) as flattened by "
                    "arXiv 2509.02761's code (seq_shortest.json) and noised by its LLM (seq_redundancies.json), "
                    "from github.com/AnanthHariharan/Task-Agents. Changed: task name/description added from the "
                    "game files, inserted/deleted driver actions labelled by alignment "
                    "(actionable/verify/teach_bench.py).",
           "episodes": recs}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
    load_demos.cache_clear()
    return label_counts(tuple(_demo(r) for r in recs))


# ---------------------------------------------------------------------------- benchmark
def thor_scene_of(demo: TeachDemo) -> str | None:
    """``teach:<id>`` when the THOR world has this episode's initial state, else None (21 of 100)."""
    from actionable.worlds import make

    scenes = _thor_scenes()
    sc = f"teach:{demo.id}"
    return sc if sc in scenes else None


@lru_cache(maxsize=1)
def _thor_scenes() -> frozenset[str]:
    from actionable.worlds import make

    return frozenset(make("thor").scenes())


def _score(plan: Program, lab: list[bool], removed_idx: list[int], missing_keys: list,
           deleted_keys: list) -> dict[str, int]:
    """Per-action counts; identical action lines of one plan are interchangeable (a REMOVE on any
    copy of an inserted line counts), so alignment ties cannot change a score."""
    from collections import Counter

    txt = [s.to_script() for s in plan.steps]
    ins = Counter(t for t, l in zip(txt, lab) if l)
    rem = Counter(txt[i] for i in set(removed_idx) if 0 <= i < len(txt))
    tp = sum(min(rem[t], ins[t]) for t in rem)
    strict = sum(1 for i in set(removed_idx) if 0 <= i < len(lab) and lab[i])
    dl = Counter(deleted_keys)
    ms = Counter(missing_keys)
    mtp = sum(min(ms[k], dl[k]) for k in ms)
    return {"tp": tp + mtp, "fp": sum(rem.values()) - tp + sum(ms.values()) - mtp,
            "fn": sum(ins.values()) - tp + sum(dl.values()) - mtp, "tp_strict": strict + mtp,
            "removed": sum(rem.values()), "missing": sum(ms.values())}


def run_demo(demo: TeachDemo, judge_name: str, *, which: str = "noised", lm=None, max_rounds: int = 5) -> dict:
    """Run one judge through the loop (apply planner) on one demonstration.

    Returns a JSON-able record: ``id``, ``judge``, ``which``, ``scene`` (or None), ``n_steps``,
    ``n_inserted``, round-1 counts ``r1`` and loop counts ``loop`` (``tp/fp/fn/tp_strict``),
    ``revisions``, ``converged``, ``rounds``, ``exec_before/after`` and ``goals_before/after``
    (``[met, total]``; None where the world cannot replay the episode), the round-1 critiques and
    the final plan.

    Raises:
        ConfigError: ``sim``/``hybrid`` on an episode the THOR world does not have.
    """
    from collections import Counter

    from actionable.core.errors import ConfigError
    from actionable.verify.critique import CritiqueKind
    from actionable.verify.judge import VerifyTask, make_judge
    from actionable.verify.loop import VerificationLoop
    from actionable.verify.worldsim import make_adapter

    plan, _, lab = demo.plan(which)
    scene = thor_scene_of(demo)
    adapter = make_adapter("thor", scene, demo.task) if scene else None
    if judge_name in ("sim", "hybrid") and adapter is None:
        raise ConfigError(f"episode {demo.id} has no THOR initial state; use the rule or llm judge")
    judge = make_judge(judge_name, lm=lm, world=adapter)
    task = VerifyTask(goal=demo.goal)
    res = VerificationLoop(judge, max_rounds=max_rounds).run(plan, task)
    deleted = []
    if which == "noised":
        held = None
        from actionable.verify.teach import parse_teach_action

        for k, ln in enumerate(demo.shortest):
            if is_object_action(ln):
                st = parse_teach_action(teach_text(ln), held)
                held = st.args[0].name if st.action == "GRAB" else (None if st.action in ("PUTBACK", "PUTIN") else held)
                if k in demo.deleted:
                    deleted.append(st.unresolved().to_script())
    first = res.first_critiques
    r1 = _score(plan, lab, [c.index for c in first if c.kind is CritiqueKind.REMOVE],
                [c.step.unresolved().to_script() for c in first if c.kind is CritiqueKind.MISSING and c.step],
                deleted)
    # loop: net edits, by multiset difference of the initial and final plan
    a = Counter(s.unresolved().to_script() for s in plan.steps)
    b = Counter(s.unresolved().to_script() for s in res.final.steps)
    gone, added = a - b, b - a
    removed_idx, used = [], Counter()
    for i, s in enumerate(plan.steps):
        t = s.unresolved().to_script()
        if used[t] < gone[t] and lab[i]:
            removed_idx.append(i)
            used[t] += 1
    for i, s in enumerate(plan.steps):
        t = s.unresolved().to_script()
        if used[t] < gone[t] and i not in removed_idx:
            removed_idx.append(i)
            used[t] += 1
    loop = _score(plan, lab, removed_idx, list(added.elements()), deleted)
    rec = {"id": demo.id, "task": demo.task, "judge": judge_name, "which": which, "scene": scene,
           "n_steps": len(plan), "n_inserted": sum(lab), "r1": r1, "loop": loop, "revisions": res.revisions,
           "converged": res.converged, "rounds": len(res.rounds),
           "critiques": [c.describe() for c in first], "final": [s.to_script() for s in res.final.steps],
           "model_notes": [n for r in res.rounds for n in r.model_notes]}
    if adapter is not None:
        goals, _ = adapter.goals(demo.goal)
        r0, r2 = adapter.replay(plan.steps, goals), adapter.replay(res.final.steps, goals)
        rec.update(exec_before=r0.executable, exec_after=r2.executable,
                   goals_before=[r0.goals_met, r0.goals_total], goals_after=[r2.goals_met, r2.goals_total])
    return rec


def summarize(recs: list[dict], by_split: bool = False) -> list[dict]:
    """One row per (which, judge[, split]): P/R/F1 of round 1 and of the loop (identical lines
    interchangeable; ``F1 strict`` by position), revisions, executability before/after.
    ``by_split``: one row per half of :func:`split_of` as well (``which`` gets ``/tune``,
    ``/report``)."""
    rows = []
    if by_split:
        recs = list(recs) + [{**r, "which": f"{r['which']}/{split_of(r['id'])}"} for r in recs]
    keys = sorted({(r["which"], r["judge"]) for r in recs})
    for which, j in keys:
        rs = [r for r in recs if r["which"] == which and r["judge"] == j]
        row = {"which": which, "judge": j, "episodes": len(rs)}
        for part in ("r1", "loop"):
            tp, fp, fn = (sum(r[part][x] for r in rs) for x in ("tp", "fp", "fn"))
            p = tp / (tp + fp) if tp + fp else 0.0
            rc = tp / (tp + fn) if tp + fn else 0.0
            row[f"{part}_P"], row[f"{part}_R"] = 100 * p, 100 * rc
            row[f"{part}_F1"] = 100 * (2 * p * rc / (p + rc) if p + rc else 0.0)
            ts = sum(r[part]["tp_strict"] for r in rs)
            ps, rcs = (ts / (tp + fp) if tp + fp else 0.0), (ts / (tp + fn) if tp + fn else 0.0)
            row[f"{part}_F1_strict"] = 100 * (2 * ps * rcs / (ps + rcs) if ps + rcs else 0.0)
            row[f"{part}_flagged"] = sum(r[part]["removed"] + r[part]["missing"] for r in rs)
        row["unchanged_r1"] = 100 * sum(r["revisions"] == 0 for r in rs) / len(rs)
        for k in (1, 2, 3):
            row[f"conv_le{k}"] = 100 * sum(r["converged"] and r["revisions"] <= k for r in rs) / len(rs)
        rep = [r for r in rs if "exec_before" in r]
        row["replayed"] = len(rep)
        if rep:
            row["exec_before"] = 100 * sum(r["exec_before"] for r in rep) / len(rep)
            row["exec_after"] = 100 * sum(r["exec_after"] for r in rep) / len(rep)
            g = [r for r in rep if r["goals_before"][1]]
            row["goal_eps"] = len(g)
            row["success_before"] = 100 * sum(r["goals_before"][0] == r["goals_before"][1] for r in g) / max(1, len(g))
            row["success_after"] = 100 * sum(r["goals_after"][0] == r["goals_after"][1] for r in g) / max(1, len(g))
        rows.append(row)
    return rows


def markdown(rows: list[dict]) -> str:
    """The summary rows as a markdown table."""
    head = ("| set | judge | eps | P r1 | R r1 | F1 r1 | F1 r1 strict | P loop | R loop | F1 loop | unchanged | "
            "conv<=1 | conv<=3 | replayed | exec before | exec after | goal eps | success before | success after |")
    out = [head, "|" + "---|" * head.count("|")[:-1] if False else "|" + "---|" * (head.count("|") - 1)]
    f = lambda r, k: "-" if k not in r else f"{r[k]:.1f}"  # noqa: E731
    for r in rows:
        out.append(f"| {r['which']} | {r['judge']} | {r['episodes']} | {f(r, 'r1_P')} | {f(r, 'r1_R')} | "
                   f"{f(r, 'r1_F1')} | {f(r, 'r1_F1_strict')} | {f(r, 'loop_P')} | {f(r, 'loop_R')} | "
                   f"{f(r, 'loop_F1')} | {f(r, 'unchanged_r1')} | {f(r, 'conv_le1')} | {f(r, 'conv_le3')} | "
                   f"{r['replayed']} | {f(r, 'exec_before')} | {f(r, 'exec_after')} | {r.get('goal_eps', '-')} | "
                   f"{f(r, 'success_before')} | {f(r, 'success_after')} |")
    return "\n".join(out)


def run_bench(judges, *, which=("noised",), lm=None, n: int | None = None, llm_n: int | None = None,
              max_rounds: int = 5, out: str | Path | None = None, progress=None,
              split: str | None = None) -> list[dict]:
    """Run ``judges`` on the converted demonstrations; ``sim``/``hybrid`` only where the THOR world
    replays the episode. ``n`` limits episodes (source order); ``llm_n`` limits those of the
    LM-based judges (``llm``, ``hybrid``); ``split`` (``tune``/``report``) keeps one half of
    :func:`split_of`. Writes ``out/run.jsonl`` (resumable) and
    ``out/summary.md`` when ``out`` is given. Returns the records."""
    demos = load_demos()[: n or None]
    if split is not None:
        if split not in ("tune", "report"):
            raise InputError(f"--split: {split!r}; choose tune or report")
        demos = tuple(d for d in demos if split_of(d.id) == split)
    done: dict[tuple, dict] = {}
    path = None
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        path = Path(out) / "run.jsonl"
        if path.is_file():
            for ln in path.read_text(encoding="utf-8").splitlines():
                if ln.strip():
                    r = json.loads(ln)
                    done[(r["which"], r["judge"], r["id"])] = r
    recs = []
    for w in which:
        for j in judges:
            lim = llm_n if j in ("llm", "hybrid") and llm_n else None
            pool = [d for d in demos if j not in ("sim", "hybrid") or thor_scene_of(d)]
            for d in pool[: lim or None]:
                key = (w, j, d.id)
                if key not in done:
                    done[key] = run_demo(d, j, which=w, lm=lm, max_rounds=max_rounds)
                    if path is not None:
                        with path.open("a", encoding="utf-8") as fh:
                            fh.write(json.dumps(done[key]) + "\n")
                    if progress:
                        progress(done[key])
                recs.append(done[key])
    if out is not None:
        Path(out, "summary.md").write_text(markdown(summarize(recs)) + "\n", encoding="utf-8")
    return recs


def score_teach(path: str | Path, judges, model: str = "embedded", out: str | Path | None = None) -> str:
    """Score judges on labelled TEACh-style episodes (round-1 critiques,
    per-action P/R/F1 as in arXiv 2509.02761). Writes ``out/summary.md`` when
    ``out`` is given and returns the markdown table.

    Raises:
        ConfigError: a judge that needs the VirtualHome simulator (sim, hybrid).
        InputError: unreadable file or no labelled episode.
    """
    from actionable.core.errors import ConfigError
    from actionable.verify.teach import load_teach, to_labelled
    from actionable.verify.judge import VerifyTask, make_judge
    from actionable.verify.metrics import Counts, score_critiques

    bad = [j for j in judges if j in ("sim", "hybrid")]
    if bad:
        names = ", ".join(bad)
        raise ConfigError(f"--judges: {'judges' if len(bad) > 1 else 'judge'} {names} need"
                          f"{'' if len(bad) > 1 else 's'} a VirtualHome scene; TEACh episodes can be scored "
                          "with --judges rule,llm")
    eps = [e for e in load_teach(path) if e.labelled]
    if not eps:
        raise InputError(f"{path} holds no labelled episode; add 'labels' (see docs/verify.md)")
    lm = None
    if "llm" in judges:
        from actionable.lm.registry import load_lm

        lm = load_lm(model)
    lines = ["| judge | episodes | P | R | F1 |", "|---|---|---|---|---|"]
    for name in judges:
        judge = make_judge(name, lm=lm)
        tot = Counts()
        for e in eps:
            res = judge.judge(e.plan, VerifyTask(goal=e.goal or e.name))
            tot += score_critiques(to_labelled(e), res.critiques)
        p, r, f = tot.prf()
        lines.append(f"| {name} | {len(eps)} | {100 * p:.1f} | {100 * r:.1f} | {100 * f:.1f} |")
    table = "\n".join(lines)
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        Path(out, "summary.md").write_text(f"# TEACh-style scoring of {path}\n\n{table}\n", encoding="utf-8")
    return table

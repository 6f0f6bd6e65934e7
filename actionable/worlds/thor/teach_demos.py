"""The 100 TEACh demonstrations of arXiv 2509.02761 (Sec. 4), converted: the THOR world's
labelled plan-verification data.

Source (converted once by :func:`convert`; nothing reads it at run time or in tests):
``seq_shortest.json`` (the 100 shortest TEACh episodes as the paper's code flattened them into
lines such as ``Driver.PickUp('Mug')``) and ``seq_redundancies.json`` (the same episodes after the
paper's code had an LLM insert noise), both from the public repository AnanthHariharan/Task-Agents;
TEACh (Padmakumar et al., AAAI 2022), data (c) Amazon.com, Inc. or its affiliates,
CDLA-Sharing-1.0. The converted file is ``actionable/worlds/thor/data/teach_seq.json`` (licence text
and attribution beside it, ``data/README.md``).

**Labels.** Per episode, the *driver actions* (``Driver.*`` lines except ``Driver.Say``; 642 in
the shortest set) of the shortest and the noised sequence are aligned by a longest common
subsequence over exact line text (:func:`align`). Ties between equally long alignments are broken
deterministically by matching each shortest action to the *earliest* noised line that still
allows a longest alignment (forward greedy over the suffix LCS table), so in
``PickUp(N), PutAOnB(N, Bookshelf), PickUp(N), PutAOnB(N, CoffeeTable)`` against
``PickUp(N), PutAOnB(N, CoffeeTable)`` the misplacement and the second pick-up are the inserted
ones. Noised driver actions outside the alignment are **inserted** (errors made by a third
party's LLM); shortest driver actions outside it are **deleted** (the noiser also rewrote a few).

**Plans.** The judges see the driver's object interactions only (``PickUp``, ``PutAOnB``,
``PourFromAIntoB``, ``ToggleOn/Off``, ``Open``, ...), mapped to the shared steps by
:func:`actionable.core.teach_lines.parse_teach_action`; motion (``Move``, ``TurnLeft``,
``Navigation``) and speech are not plan steps (the worlds model no motion). Inserted motion
actions are therefore counted but cannot be scored; see :func:`TeachDemo.plan`. The benchmark
that scores judges on them is :mod:`actionable.evaluation.verification.teach`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from actionable.core.program import Program
from actionable.core.teach_lines import SEQ_ACTIONS, align, is_driver_action, is_object_action, split_line, teach_text  # noqa: F401
from actionable.core.teach_lines import SEQ_MOTION as MOTION  # noqa: F401
from actionable.core.errors import InputError

DATA_FILE = Path(__file__).with_name("data") / "teach_seq.json"
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
        from actionable.core.teach_lines import parse_teach_action

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
                    "(actionable/worlds/thor/teach_demos.py).",
           "episodes": recs}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
    load_demos.cache_clear()
    return label_counts(tuple(_demo(r) for r in recs))

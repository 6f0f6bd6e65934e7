"""Goal conditions for a free-text goal (``actionable verify --goal "Turn on the TV"``).

The simulator judge checks a plan against goal conditions
(:mod:`actionable.core.goals`). A packaged program (``--program``)
brings its annotated conditions; a free-text goal has none. This module
derives them from the annotated goals of the *nearest packaged programs with
the same title*, matched by class:

1. the goal text is normalised (lower case, articles and filler words
   dropped, ``television`` -> ``tv``) and compared with the 342 annotated
   task titles: an exact match, else the title with the highest word overlap
   (Jaccard >= 0.6); the first sentence of the goal is tried too;
2. each annotated program of that title has its conditions rewritten over
   classes (``ON(television)``, ``INSIDE(mug, sink)``, ``did(WATCH)``); the
   nearest program is taken: the highest Jaccard similarity of its
   (action, object class) pairs to the plan's, then the largest share of its
   condition classes that the plan touches;
3. its conditions are mapped to the nodes the plan uses (same class). Only
   conditions on objects the plan names are kept (an object state, a relation
   between two plan objects, an action goal whose action the plan has):
   conditions about the agent itself (sitting, facing, close to) and about
   objects the plan never touches are dropped, so a derived condition protects
   and repairs what the plan does, and never invents a new errand.

When no title matches, simple phrases are read instead: "turn/switch on X"
-> ``ON(X)``, "turn off X" -> ``OFF(X)``, "open/close X", "plug in X", "put X
in/on Y" -> ``INSIDE/ON(X, Y)``, X and Y being objects of the plan; in each clause of a
conjunction too ("switch on the TV and the computer": ``ON`` of both;
:func:`actionable.grounding.clauses.clauses`).

The result says where the conditions came from; when none can be derived the
judge says so and checks executability only. This extends arXiv 2509.02761,
whose judge reads the goal text but checks no condition.
"""

from __future__ import annotations

import functools
import re

from actionable.core.goals import DerivedGoals, describe_spec

_FILLER = frozenset({"the", "a", "an", "my", "some", "please", "your", "to", "up", "of", "and", "for"})
_SYNONYM = {"television": "tv", "telly": "tv", "lights": "light", "tvs": "tv", "clothe": "clothes"}
_CHARACTER = "character"


def _words(text: str) -> tuple[str, ...]:
    out = []
    for w in re.findall(r"[a-z]+", text.lower()):
        w = _SYNONYM.get(w, w)
        if w not in _FILLER:
            out.append(w)
    return tuple(out)


@functools.lru_cache(maxsize=1)
def _annotations() -> dict:
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    return load_goal_annotations()


def match_title(goal: str, titles) -> str | None:
    """The annotated title nearest to ``goal`` (exact normalised match, else word
    Jaccard >= 0.6; the goal's first sentence is tried too), or ``None``."""
    return title_match(goal, titles)[0]


def title_match(goal: str, titles) -> tuple[str | None, bool]:
    """``(title, exact)``: :func:`match_title`'s title, and whether it is the goal itself once
    normalised (not only near it by word overlap)."""
    by_words: dict[tuple[str, ...], str] = {}
    for t in sorted(titles):
        by_words.setdefault(_words(t), t)
    tries = [goal, re.split(r"[.;!?\n]", goal, maxsplit=1)[0]]
    for g in tries:
        if _words(g) in by_words:
            return by_words[_words(g)], True
    best, score = None, 0.0
    for g in tries:
        gw = set(_words(g))
        if not gw:
            continue
        for tw, t in by_words.items():
            j = len(gw & set(tw)) / len(gw | set(tw))
            if j > score:
                best, score = t, j
    return (best if score >= 0.6 else None), False


@functools.lru_cache(maxsize=128)
def _class_conditions(pid: str) -> tuple[tuple, ...]:
    """The annotated conditions of ``pid`` over class names."""
    from actionable.worlds.virtualhome.scene import load_scene

    spec = _annotations()[pid]
    scene = load_scene(pid)
    cls = lambda i: _CHARACTER if i == scene.character_id else (scene.class_of(i) or "")  # noqa: E731
    out: list[tuple] = [("state", g.class_name or cls(g.node_id), g.state) for g in spec.states]
    out += [("rel", cls(g.from_id), g.relation, cls(g.to_id)) for g in spec.relations]
    out += [("action", g.alternatives) for g in spec.actions]
    return tuple(out)


def derive_goal_spec(goal: str, plan, scene, scene_objects: bool = False) -> DerivedGoals:
    """Goal conditions for ``goal`` over the nodes of a resolved ``plan`` in ``scene``.

    Args:
        goal: the instruction in words.
        plan: a resolved :class:`~actionable.core.program.Program` (node ids set).
        scene: the :class:`~actionable.worlds.virtualhome.scene.SceneGraph` the plan runs in.
        scene_objects: the phrases read from the text may also name objects the plan never
            touches (an instance of each scene class, after the plan's own): ``actionable plan``'s
            goal check, so that "switch on the TV and the computer" counts the computer the plan
            left off as unmet. The judge keeps ``False`` (never a new errand).

    Returns:
        :class:`DerivedGoals`; ``spec`` is ``None`` (never an exception) when no
        title matches, the annotations are unavailable, or no condition concerns
        an object of the plan.
    """
    from actionable.core.goals import ActionGoal, GoalSpec, RelationGoal, StateGoal

    try:
        ann = _annotations()
    except Exception as exc:  # noqa: BLE001 - annotations are optional for this judge
        return DerivedGoals(None, f"no goal annotations available ({type(exc).__name__})")
    node_of: dict[str, int] = {}
    for s in plan.steps:
        for a in s.args:
            if a.id is not None and a.id in scene:
                node_of.setdefault(scene.class_of(a.id) or a.name, a.id)
    title = match_title(goal, {s.task for s in ann.values()})
    if title is None:
        nodes = dict(node_of)
        if scene_objects:
            for nid in sorted(scene.node_ids):
                cls = scene.class_of(nid)
                if cls and cls != _CHARACTER:
                    nodes.setdefault(cls, nid)
        spec = _from_phrases(goal, nodes)
        if spec is not None:
            return DerivedGoals(spec, "read from the goal text (verb + object of the plan)")
        return DerivedGoals(None, f"no annotated task title matches {goal.strip()[:60]!r} and the text "
                                  "names no switch/open/close/put of an object in the plan")
    actions = {s.action for s in plan.steps}
    pids = sorted((p for p, s in ann.items() if s.task == title))

    mine = {(s.action, scene.class_of(a.id) if a.id in scene else a.name) for s in plan.steps for a in s.args[:1]}

    def score(pid: str) -> tuple[float, float]:
        from actionable.worlds.virtualhome.scene import load_program

        gold = {(s.action, a.name) for s in load_program(pid).steps for a in s.args[:1]}
        similar = len(mine & gold) / max(1, len(mine | gold))  # nearest demonstration first
        conds = _class_conditions(pid)
        classes = {c for g in conds if g[0] != "action" for c in (g[1], g[-1]) if c != _CHARACTER}
        return (similar, len(classes & set(node_of)) / len(classes) if classes else 0.0)

    best = max(pids, key=score)
    states, relations, acts = [], [], []
    for g in _class_conditions(best):
        if g[0] == "state" and g[1] in node_of and _undone_after_use(plan.steps, node_of[g[1]], g[2]):
            continue
        if g[0] == "state" and g[1] in node_of:
            states.append(StateGoal(node_of[g[1]], g[1], g[2]))
        elif g[0] == "rel" and _CHARACTER not in (g[1], g[3]) and g[1] in node_of and g[3] in node_of:
            relations.append(RelationGoal(node_of[g[1]], g[2], node_of[g[3]]))
        elif g[0] == "action" and actions & set(g[1]):
            acts.append(ActionGoal(g[1]))
    if not (states or relations or acts):
        return DerivedGoals(None, f"the annotated goals of {title!r} (program {best}) name no object "
                                  "of this plan")
    spec = GoalSpec(f"derived:{best}", title, tuple(dict.fromkeys(states)), tuple(dict.fromkeys(relations)),
                    tuple(dict.fromkeys(acts)))
    return DerivedGoals(spec, f"derived from the annotated goals of packaged program {best} "
                              f"({title!r}), matched by class")


_PHRASES = ((r"\b(?:turn|switch) on (?:the |a |my )?(\w+(?: \w+)?)", "ON"),
            (r"\b(?:turn|switch) (?:the |a |my )?(\w+(?: \w+)?) on\b", "ON"),
            (r"\b(?:turn|switch) off (?:the |a |my )?(\w+(?: \w+)?)", "OFF"),
            (r"\bopen (?:the |a |my )?(\w+(?: \w+)?)", "OPEN"),
            (r"\bclose (?:the |a |my )?(\w+(?: \w+)?)", "CLOSED"),
            (r"\bplug in (?:the |a |my )?(\w+(?: \w+)?)", "PLUGGED_IN"))
#: the verbs of the phrases above: never object words, even where a class ends with one (``light_switch``)
_PHRASE_VERBS = frozenset({"turn", "switch", "open", "close", "plug", "put"})
_PUT = re.compile(r"\bput (?:the |a |my )?(\w+(?: \w+)?) (in|into|inside|on|onto) (?:the |a |my )?(\w+(?: \w+)?)")


def _undone_after_use(steps, node: int, state: str) -> bool:
    """The plan deliberately undoes ``state`` of ``node`` after using the object
    (switch the TV on, watch it, switch it off): a derived condition on that
    state would contradict the user's plan, so it is not derived."""
    from actionable.core.actions import NAVIGATION
    from actionable.core.actions import STATE_FIX

    fix = STATE_FIX.get(state)
    if fix is None:
        return False
    from actionable.core.actions import INVERSE_ACTIONS

    inv = INVERSE_ACTIONS.get(fix)
    used = False
    for s in steps:
        if not s.args or s.args[0].id != node:
            if any(a.id == node for a in s.args) and s.action not in NAVIGATION:
                used = True
            continue
        if s.action == fix:
            used = False
        elif s.action == inv:
            if used:
                return True
        elif s.action not in NAVIGATION:
            used = True
    return False


def _plan_class(phrase: str, node_of: dict[str, int]) -> str | None:
    """The plan class a noun phrase names (``TV`` -> ``television``), or ``None``."""
    words = [_SYNONYM.get(w, w) for w in re.findall(r"[a-z]+", phrase.lower())]
    words = ["television" if w == "tv" else w for w in words]
    for n in (2, 1):
        for k in range(len(words) - n + 1):
            name = "_".join(words[k:k + n])
            for cls in node_of:
                if cls == name or cls.split("_")[-1] == name or cls.rstrip("s") == name.rstrip("s"):
                    return cls
    return None


def _from_phrases(goal: str, node_of: dict[str, int]):
    """State/relation conditions read from phrases like "turn on the TV" or "put the
    mug in the sink", over objects of the plan; ``None`` when there is none."""
    from actionable.core.goals import GoalSpec, RelationGoal, StateGoal

    from actionable.grounding.clauses import clauses

    # one text per conjoined object ("switch on the TV and the computer": both), and the whole
    objects = {w for w in re.findall(r"[a-z]+", goal.lower())
               if w not in _PHRASE_VERBS and _plan_class(w, node_of) is not None}
    states, rels = [], []
    for text in dict.fromkeys([goal.lower(), *clauses(goal, objects)]):
        for pat, state in _PHRASES:
            for m in re.finditer(pat, text):
                cls = _plan_class(m.group(1), node_of)
                if cls is not None:
                    states.append(StateGoal(node_of[cls], cls, state))
        for m in _PUT.finditer(text):
            a, b = _plan_class(m.group(1), node_of), _plan_class(m.group(3), node_of)
            if a and b and a != b:
                rels.append(RelationGoal(node_of[a], "INSIDE" if m.group(2).startswith("in") else "ON",
                                         node_of[b]))
    if not (states or rels):
        return None
    return GoalSpec("derived:text", goal.strip()[:60], tuple(dict.fromkeys(states)), tuple(dict.fromkeys(rels)))


__all__ = ["DerivedGoals", "derive_goal_spec", "match_title", "title_match", "describe_spec"]

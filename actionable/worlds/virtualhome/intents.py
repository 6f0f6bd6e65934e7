"""Intent readings of VirtualHome's goal interpreter: an instruction whose end state is a product or
an activity ("make coffee", "set the table") takes the annotated goals (EAI, Li et al. 2024) of the
packaged program whose title is nearest by the translation LM (cosine >=
:data:`~actionable.grounding.goal_reader.INTENT_SIMILARITY`), bound to this scene's instances.

:class:`AnnotatedIntents` is a mixin of
:class:`~actionable.worlds.virtualhome.interpret.VirtualHomeGoals` (it uses the interpreter's
``graph``, ``lex``, ``name``, ``embedder`` and ``_clause``); split out of interpret.py, which had
passed 800 lines.
"""

from __future__ import annotations

import functools

from actionable.core.conditions import CHARACTER, Clause, Condition, GoalReading, drop_undone, visits_on_the_way
from actionable.core.program import ACTION_ARITY
from actionable.grounding import goal_reader as G
from actionable.worlds import goal_phrases as P

#: VirtualHome's verbs beside the grammar's ("light the candle", "blow out the candle")
EXTRA_VERBS = (("light", "on"), ("put on", "on"), ("blow out", "off"), ("put out", "off"))

INTENT_SIMILARITY = G.INTENT_SIMILARITY
#: EAI action goals that name no object (the character sleeps, wakes up, stands up)
_NO_OBJECT = frozenset({"SLEEP", "WAKEUP", "STANDUP"})
#: VirtualHome's states that undo each other (:func:`~actionable.core.conditions.drop_undone`): a
#: state a later part reverses is a step on the way
OPPOSITE = {"ON": "OFF", "OFF": "ON", "OPEN": "CLOSED", "CLOSED": "OPEN", "PLUGGED_IN": "PLUGGED_OUT",
            "PLUGGED_OUT": "PLUGGED_IN"}
_POSTURES = frozenset({"SITTING", "LYING"})


def last_posture(clauses: list, notes: list) -> list:
    """``clauses`` without a posture that a later clause replaces by another ("sit on the couch and
    lie down": lying; "lie on the bed and then sit up": sitting), a note for each dropped one.
    Postures are not two-valued (standing is neither), so "stand up" (not sitting, not lying) keeps both."""
    def posture(c):
        vals = {o.value for o in c.options if o.kind == "state" and o.subject == CHARACTER and not o.negate}
        return vals if vals and len(vals) == len(c.options) and vals <= _POSTURES else None
    out = []
    for i, c in enumerate(clauses):
        mine = posture(c)
        if mine and any((p := posture(later)) and p != mine for later in clauses[i + 1:]):
            notes.append(f"'{c.text}' is replaced by a later posture of the task: only the end state is planned")
            continue
        out.append(c)
    return out


def _room_classes(view) -> frozenset:
    return frozenset({"bathroom", "bedroom", "kitchen", "livingroom", "dining_room", "home_office"})


class AnnotatedIntents:
    """The intent reading and the annotated goals' binding (see the module doc)."""

    def _intent(self, task: str, notes) -> GoalReading:
        from actionable.worlds.virtualhome.planning import match_objects

        m = match_objects(task, self.lex._classes, None)
        tw = G.words(task)
        after_det = {b for a, b in zip(tw, tw[1:]) if a in ("the", "a", "an", "my", "some", "your", "our")}
        # a missing word names an object when the world knows it or an article comes before it
        # ("feed the fish"); "I'm hungry" names none, so it goes on to the intent reading
        known_missing = [w for w, _ in m.missing if (w not in m.unknown or w in after_det) and G.names_an_object(w)]
        if known_missing and (not m.matched or after_det & set(known_missing)):  # "... in the aquarium"
            # the noun phrase the word begins ("the front door", not "front"), as the user said it
            what = ", ".join(dict.fromkeys(P.noun_phrase(tw, w) for w in known_missing))
            lead = ("" if G.has_verb(tw, EXTRA_VERBS)
                    else f"I can't tell what to do: '{task}' names no action I know, and ")
            return GoalReading(task, status="refuse", why=f"{lead}scene {self.name!r} has no {what}; run "
                                                          f"'actionable scenes {self.name} --classes' to list its objects")
        if self.embedder is None:
            return GoalReading(task, status="unclear", why="I can't tell what end state this asks for (no goal "
                                                           "conditions could be read from the words, and no "
                                                           "translation LM was given to compare it with known tasks)")
        titles, specs = _annotated_titles()
        import numpy as np

        from actionable.core.dataset import normalize_task

        ex_t, ex_p = getattr(self, "_exclude", (frozenset(), frozenset()))
        q = self.embedder.encode([P.activity(task)])[0]
        m = _title_matrix(self.embedder)
        sims = m @ q / (np.linalg.norm(m, axis=1) * np.linalg.norm(q) + 1e-9)
        for j, t in enumerate(titles):
            if normalize_task(t) in ex_t or all(pid in ex_p for pid, _ in specs[t]):
                sims[j] = -1.0
        k = int(np.argmax(sims))
        best, sim = titles[k], float(sims[k])
        room = self._activity_room(task)
        if sim < INTENT_SIMILARITY and room is not None:  # "read a book in the bedroom": "Read book", there
            q2 = self.embedder.encode([P.activity(room[0])])[0]
            sims2 = np.where(sims < -0.5, -1.0, m @ q2 / (np.linalg.norm(m, axis=1) * np.linalg.norm(q2) + 1e-9))
            k2 = int(np.argmax(sims2))
            if float(sims2[k2]) >= INTENT_SIMILARITY:
                best, sim = titles[k2], float(sims2[k2])
            else:
                room = None
        else:
            room = None
        if sim < INTENT_SIMILARITY:
            return GoalReading(task, status="unclear", closest=best,
                               why=f"I can't tell what end state this asks for; the closest known task is "
                                   f"'{best}' (similarity {sim:.2f} < {INTENT_SIMILARITY})")
        clauses = self._from_annotation(specs[best], best)
        if not clauses:
            return GoalReading(task, status="unclear", closest=best,
                               why=f"the nearest known task '{best}' has goal conditions on objects this scene lacks")
        extra = []
        if all(o.subject == CHARACTER and o.kind != "action" for c in clauses for o in c.options):
            # "take a shower": close to the shower; "brush teeth": holding the brush and the paste
            extra = [f"'{best}' ends, in VirtualHome's annotated programs, when {' and '.join(c.text for c in clauses)}: "
                     f"the simulator has no action for the activity itself, so that end state is what is checked"]
        if room is not None:  # the activity's end state, with the character in that room
            clauses = [*clauses, self._clause([Condition("relation", CHARACTER, "INSIDE", room[1])])]
            extra.append(f"'{room[2]}' is where it is done: the character ends in {self.name_of(room[1])}")
        return GoalReading(task, tuple(clauses), notes=notes + [
            f"end state of '{best}' (annotated goals of its packaged programs; similarity {sim:.2f})"] + extra)

    def _activity_room(self, task: str):
        """``(activity, room id, room phrase)`` of an activity said with the room it is done in ("read a
        book in the bedroom"), or ``None``."""
        ws = G.words(task)
        for k in range(len(ws) - 1, 0, -1):
            if ws[k] != "in":
                continue
            place = ws[k + 1:]
            rid = self.lex.room(place) if place else None
            if rid is not None and ws[:k]:
                return " ".join(ws[:k]), rid, " ".join(ws[k:])
            return None
        return None

    def _part_intent(self, task: str, part: str, parts, notes: list):
        """A part the grammar cannot read: the whole task's intent reading when it finds a known
        task; else, in a task of several parts, this part's own ("sit on the couch and watch TV":
        the end state of "Watch TV" beside the couch's clauses). Returns the part's clauses, or the
        :class:`GoalReading` to return for the whole task (the whole task's reading when the part
        is no known task either)."""
        whole = self._intent(task, notes)
        if whole.status == "goal":
            return whole
        if len(parts) < 2:  # "brush your teeth, then go to sleep": no part names an object, so the
            return self._chunks(task, whole)  # object splitter kept one part; read each chunk alone
        own = self._intent(part, [])
        if own.status != "goal":
            return whole
        notes.append(f"'{part}': " + own.notes[-1])
        return list(own.clauses)

    def _chunks(self, task: str, whole):
        """``task`` cut at "and" / "then" / commas and each chunk read alone, the clauses joined in
        order, when every chunk reads and none refers back ("it", "them": a chunk alone cannot
        bind them); else ``whole`` (the whole task's reading, or ``None``)."""
        chunks = P.chunks(task.lower())
        if len(chunks) < 2 or any({"it", "them", "they", "one"} & set(G.words(c)) for c in chunks):
            return whole
        ex_t, ex_p = getattr(self, "_exclude", (frozenset(), frozenset()))
        reads = []
        for c in chunks:  # "go to the bedroom, turn on the light": the chunks after it read in that room
            self._gone_to = next((o.target for r in reversed(reads) for cl in r.clauses for o in cl.options
                                  if o.kind == "relation" and o.subject == CHARACTER and o.value == "INSIDE"
                                  and not o.negate and o.target in self.graph.rooms), None)
            reads.append(self._read(c, ex_t, ex_p))
        self._gone_to = None
        self._exclude = (ex_t, ex_p)
        if any(r.status != "goal" or not r.clauses for r in reads):
            return whole
        notes = list(dict.fromkeys(n for r in reads for n in r.notes if " is read as " in n))  # "'kitchen' is read as ..."
        notes += [f"'{c}': " + (r.notes[-1] if r.notes else "read alone") for c, r in zip(chunks, reads)]
        clauses = [list(r.clauses) for r in reads]
        for k in range(1, len(chunks)):  # "put the pillow on the bed and lie down": on that bed
            seat = self._seat_after([c for cl in clauses[:k] for c in cl], clauses[k], chunks[k])
            if seat is not None:
                clauses[k].append(seat[0])
                notes.append(seat[1])
        out = list({c.options: c for c in reversed([c for cl in clauses for c in cl])}.values())[::-1]  # said twice: once
        out, undone = drop_undone(last_posture(out, notes), OPPOSITE)
        out, visits = visits_on_the_way(out)
        return GoalReading(task, tuple(out), notes=notes + undone + visits)

    def _from_annotation(self, spec_list, title) -> list[Clause]:
        """The annotated goals of the title's programs, by class, bound to this scene: a clause per
        goal with an option per instance (those in a room of the class the annotated node was in,
        when this scene has any); goals on classes this scene lacks are dropped (the first program
        whose goals all bind wins)."""
        from actionable.worlds.virtualhome.scene import load_scene

        g = self.graph
        ex_p = getattr(self, "_exclude", (frozenset(), frozenset()))[1]

        def in_room_of(ids, node_id):
            """The instances in a room of the class the annotated node stood in ("set the table": the
            dining room's table, so the plate, the fork and the cup go on one table), else all."""
            r = own.room_of(node_id)
            same = [i for i in ids if r is not None and g.class_of(g.room_of(i)) == own.class_of(r)]
            return same or ids
        for pid, spec in spec_list:
            if pid in ex_p:
                continue
            own = load_scene(pid)
            out: list[Clause] = []
            ok = True
            for s in spec.states:
                cls = own.class_of(s.node_id) or s.class_name
                if cls == "character":
                    out.append(Clause((Condition("state", CHARACTER, s.state),), f"the character is {s.state.lower()}",
                                      "annotation"))
                    continue
                ids = g.nodes_of_class(cls)
                if s.state in ("ON", "OFF"):  # an instance this scene can switch (a dvd player here has no switch)
                    ids = [i for i in ids if {"ON", "OFF"} & g.states_of(i)]
                elif s.state in ("OPEN", "CLOSED"):
                    ids = [i for i in ids if "CAN_OPEN" in g.properties_of(i)]
                ids = in_room_of(ids, s.node_id)
                if not ids:
                    ok = False
                    break
                out.append(self._clause([Condition("state", i, s.state) for i in ids], "annotation"))
            for rg in spec.relations if ok else ():
                a, b = own.class_of(rg.from_id), own.class_of(rg.to_id)
                fa = [CHARACTER] if a == "character" else in_room_of(g.nodes_of_class(a or ""), rg.from_id)
                fb = [CHARACTER] if b == "character" else in_room_of(g.nodes_of_class(b or ""), rg.to_id)
                if not fa or not fb:
                    ok = False
                    break
                rel = "HOLDS" if rg.relation in ("HOLDS_RH", "HOLDS_LH") else rg.relation
                out.append(self._clause([Condition("relation", x, rel, y) for x in fa for y in fb if x != y],
                                        "annotation"))
            if ok and spec.actions:  # EAI's action goals: did(WATCH|LOOKAT) on an object the goals name
                objs = [o.subject for c in out for o in c.options if o.subject != CHARACTER]
                objs += [o.target for c in out for o in c.options if o.target not in (None, CHARACTER)]
                objs += [i for w in G.words(title) for c in self.lex.classes([w]) for i in g.nodes_of_class(c)]
                objs = [o for o in dict.fromkeys(objs) if g.class_of(o) not in _room_classes(g)][:8]
                from actionable.worlds.virtualhome.dataset import load_program

                prog = load_program(pid)  # the annotated program's own steps say what the action is done on
                for a in spec.actions:
                    value = "|".join(a.alternatives)
                    opts = [Condition("action", None, value)] if set(a.alternatives) & _NO_OBJECT else []
                    for st in prog.steps:
                        if st.action in a.alternatives and st.args:
                            cand = [g.nodes_of_class(x.name)[:3] for x in st.args]
                            if len(cand) == 1:
                                opts += [Condition("action", i, value) for i in cand[0]]
                            elif len(cand) == 2:
                                opts += [Condition("action", i, value, j) for i in cand[0] for j in cand[1] if i != j]
                    two = any(ACTION_ARITY.get(x, 1) == 2 for x in a.alternatives)
                    opts += [Condition("action", o, value, t) for o in objs[:6] for t in (objs[:6] if two else (None,))
                             if o != t]
                    if not opts:
                        ok = False
                        break
                    out.append(self._clause(opts, "annotation"))
            if ok and out:
                return [Clause(c.options, c.text, f"annotation of '{title}' ({pid})") for c in out]
        return []


@functools.lru_cache(maxsize=1)
def _annotated_titles():
    """Packaged titles with annotated goals: ``(titles, {title: [(program id, GoalSpec)]})``."""
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    by: dict[str, list] = {}
    for pid, spec in sorted(load_goal_annotations().items()):
        if spec.total:
            by.setdefault(spec.task, []).append((pid, spec))
    titles = sorted(by)
    return titles, by


_MATRIX: dict = {}


def _title_matrix(embedder):
    key = getattr(embedder, "model_id", id(embedder))
    if key not in _MATRIX:
        import numpy as np

        _MATRIX[key] = np.asarray(embedder.encode(_annotated_titles()[0]), dtype=float)
    return _MATRIX[key]


__all__ = ["AnnotatedIntents", "INTENT_SIMILARITY", "OPPOSITE", "last_posture"]

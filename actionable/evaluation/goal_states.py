"""World states as the novel-goal checker reads them (:mod:`actionable.evaluation.novel_goals`).

Two read-only views with one small interface, so that the checker evaluates conditions without
importing any world package (it only reads the objects it is given):

* :class:`GraphView` — a VirtualHome graph dict ``{"nodes": [{id, class_name, category, states}],
  "edges": [{from_id, relation_type, to_id}]}`` as the evolving-graph simulator writes it (or any
  object with ``to_dict()`` returning one, e.g. a ``StateView``). Posture is a state of the
  character node (``SITTING``, ``LYING``); holding is a ``HOLDS_RH``/``HOLDS_LH`` edge from it.
* :class:`ThorView` — an ``actionable.worlds.thor.scene.ThorState`` (duck-typed: ``objects`` id ->
  object with ``type``, ``parent``, ``caps`` and ``states()``; ``held``). ``IN`` follows the parent
  chain (AI2-THOR's ``parentReceptacles`` do not tell *in* from *on*).

Interface: ``ids()``, ``ids_of_class(c)``, ``class_of(i)``, ``has(i)``, ``states(i)`` (a set of
upper-case names for VirtualHome, THOR's names as ``Obj.states()`` writes them), ``related(s, rel,
t)``, ``room_of(i)`` (VirtualHome only), ``character()`` (an id, or the token ``"agent"`` in THOR).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from actionable.core.errors import InputError

#: VirtualHome's object states (``virtualhome_eval`` ``State``)
VH_STATES = frozenset({"CLOSED", "OPEN", "ON", "OFF", "SITTING", "DIRTY", "CLEAN", "LYING",
                       "PLUGGED_IN", "PLUGGED_OUT"})
#: VirtualHome's graph relations plus ``HOLDS`` (either hand)
VH_RELATIONS = frozenset({"ON", "INSIDE", "BETWEEN", "CLOSE", "FACING", "HOLDS_RH", "HOLDS_LH", "HOLDS"})
#: THOR's object states as ``Obj.states()`` writes them
THOR_STATES = frozenset({"isOpen", "isToggled", "isDirty", "isFilledWithLiquid", "isCooked", "isBoiled",
                         "isSliced", "isClean", "isBroken", "filledWith:water", "filledWith:coffee",
                         "filledWith:liquid", "Hot", "Cold"})
THOR_RELATIONS = frozenset({"IN", "HOLDS"})
AGENT = "agent"


class GraphView:
    """Index of a VirtualHome graph dict (see the module doc). Cost: O(nodes + edges).

    Raises:
        InputError: the graph lacks ``nodes``/``edges`` or an item lacks its keys.
    """

    def __init__(self, graph: Any):
        g = graph.to_dict() if hasattr(graph, "to_dict") and not isinstance(graph, Mapping) else graph
        try:
            self._nodes = {int(n["id"]): n for n in g["nodes"]}
            edges = [(int(e["from_id"]), str(e["relation_type"]).upper(), int(e["to_id"])) for e in g["edges"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"a VirtualHome final state is a graph dict {{'nodes': [...], 'edges': [...]}} "
                             f"with node 'id'/'class_name'/'states' and edge 'from_id'/'relation_type'/'to_id'; "
                             f"got {type(graph).__name__} ({exc!r})") from None
        self._edges = set(edges)
        self._inside: dict[int, list[int]] = {}
        for a, r, b in edges:
            if r == "INSIDE":
                self._inside.setdefault(a, []).append(b)
        self._by_class: dict[str, list[int]] = {}
        for i in sorted(self._nodes):
            self._by_class.setdefault(str(self._nodes[i].get("class_name", "")), []).append(i)
        self._rooms = {i for i, n in self._nodes.items() if n.get("category") == "Rooms"}

    def ids(self) -> list[int]:
        return sorted(self._nodes)

    def has(self, i) -> bool:
        return isinstance(i, int) and i in self._nodes

    def ids_of_class(self, c: str) -> list[int]:
        return list(self._by_class.get(c, ()))

    def class_of(self, i) -> str:
        return str(self._nodes[i].get("class_name", ""))

    def states(self, i) -> set[str]:
        return {str(s).upper() for s in self._nodes[i].get("states") or ()}

    def character(self):
        chars = self._by_class.get("character")
        return chars[0] if chars else None

    def related(self, s, rel: str, t) -> bool:
        if rel == "HOLDS":
            return (s, "HOLDS_RH", t) in self._edges or (s, "HOLDS_LH", t) in self._edges
        return (s, rel, t) in self._edges

    def room_of(self, i) -> str | None:
        """Class name of the room ``i`` is INSIDE (transitively), or None."""
        seen, frontier = set(), [i]
        while frontier:
            n = frontier.pop(0)
            if n in self._rooms:
                return self.class_of(n)
            if n in seen:
                continue
            seen.add(n)
            frontier.extend(self._inside.get(n, ()))
        return None

    def rooms(self) -> set[str]:
        return {self.class_of(i) for i in self._rooms}

    def name(self, i) -> str:
        return f"{self.class_of(i)} {i}"


class ThorView:
    """Read-only view of a THOR ``ThorState`` (see the module doc).

    Raises:
        InputError: the object has no ``objects`` mapping.
    """

    def __init__(self, state: Any):
        objs = getattr(state, "objects", None)
        if not isinstance(objs, Mapping):
            raise InputError(f"a THOR final state is a ThorState (with .objects and .held), got {type(state).__name__}")
        self._s, self._o = state, objs

    def ids(self) -> list[str]:
        return sorted(self._o)

    def has(self, i) -> bool:
        return isinstance(i, str) and i in self._o

    def ids_of_class(self, c: str) -> list[str]:
        return sorted(i for i, o in self._o.items() if o.type == c)

    def class_of(self, i) -> str:
        return self._o[i].type

    def states(self, i) -> set[str]:
        return set(self._o[i].states())

    def caps(self, i) -> frozenset:
        return frozenset(getattr(self._o[i], "caps", ()))

    def character(self):
        return AGENT

    def related(self, s, rel: str, t) -> bool:
        if rel == "HOLDS":
            return s == AGENT and getattr(self._s, "held", None) == t
        if rel == "IN":
            if s == AGENT:
                return False
            p, seen = self._o[s].parent, {s}
            while p is not None and p not in seen:
                if p == t:
                    return True
                seen.add(p)
                p = self._o[p].parent if p in self._o else None
        return False

    def room_of(self, i) -> None:
        return None

    def rooms(self) -> set[str]:
        return set()

    def name(self, i) -> str:
        short = getattr(getattr(self._s, "scene", None), "short", {}) or {}
        return short.get(i, i)


@dataclass(frozen=True)
class CheckerVocabulary:
    """What the checker knows of one world's state representation: the type of its object ids,
    its state and relation names, whether selectors may name rooms, an example id (for checking a
    ``where`` filter's shape) and its view class."""

    id_type: type
    states: frozenset
    relations: frozenset
    rooms: bool
    example_id: Any
    view: type


#: the worlds the independent checker reads, as data (it imports no world package)
VOCABULARIES: dict[str, CheckerVocabulary] = {
    "virtualhome": CheckerVocabulary(int, VH_STATES, VH_RELATIONS, True, 0, GraphView),
    "thor": CheckerVocabulary(str, THOR_STATES, THOR_RELATIONS, False, "x", ThorView),
}


def vocabulary(world: str) -> CheckerVocabulary:
    """The :class:`CheckerVocabulary` of ``world``.

    Raises:
        InputError: a world the checker does not read.
    """
    try:
        return VOCABULARIES[world]
    except KeyError:
        raise InputError(f"world must be one of {', '.join(VOCABULARIES)}, got {world!r}") from None


def view_of(world: str, state: Any):
    """The view for ``world`` (one of :data:`VOCABULARIES`) over ``state``.

    Raises:
        InputError: unknown world, or a state of the wrong shape.
    """
    view = vocabulary(world).view
    return state if isinstance(state, view) else view(state)
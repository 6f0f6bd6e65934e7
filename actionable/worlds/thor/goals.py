"""Goals of kitchen tasks as predicates over a :class:`~actionable.worlds.thor.scene.ThorState`.

Written from TEACh's task definitions (``Coffee``: a clean mug filled with coffee; ``Water
Plant``: the plant filled with liquid; ``Boil X``: boiled in water on a heat source), as
:class:`~actionable.core.world.Goal` lists; ``World.check(goals, state)`` evaluates them.
"""

from __future__ import annotations

from actionable.core.errors import WorldGoalError
from actionable.core.world import Goal

WATER_VESSELS = ("Pot", "Kettle", "Bowl", "Pan", "Cup", "Mug")


def _any(s, types, pred) -> bool:
    return any(o.type in types and pred(o) for o in s.objects.values())


def _on_lit_heater(s, o) -> bool:
    p = o.parent
    while p is not None:
        x = s.objects[p]
        if x.type in ("StoveBurner", "Microwave") and x.on:
            return True
        p = x.parent
    return False


def make_coffee() -> list[Goal]:
    """TEACh ``Coffee``: some Mug holds coffee (``isFilledWithLiquid``, made by a CoffeeMachine)
    and is clean (``not isDirty``)."""
    return [Goal("a Mug is filled with coffee", lambda s: _any(s, ("Mug",), lambda o: o.filled and o.liquid == "coffee")),
            Goal("that Mug is clean", lambda s: _any(s, ("Mug",), lambda o: o.liquid == "coffee" and not o.dirty))]


def boil_water() -> list[Goal]:
    """Water boiled: a Pot/Kettle/Bowl/... filled with water stands on a lit StoveBurner (or in a
    Microwave that is on) and is ``Hot``."""
    return [Goal("a pot, kettle or bowl is filled with water",
                 lambda s: _any(s, WATER_VESSELS, lambda o: o.filled and o.liquid == "water")),
            Goal("the water is on a lit stove burner or in a running microwave",
                 lambda s: _any(s, WATER_VESSELS, lambda o: o.liquid == "water" and _on_lit_heater(s, o))),
            Goal("the water is hot",
                 lambda s: _any(s, WATER_VESSELS, lambda o: o.liquid == "water" and o.temp == "Hot"))]


def water_plant() -> list[Goal]:
    """TEACh ``Water Plant``: a HousePlant is filled with liquid."""
    return [Goal("a HousePlant is watered (isFilledWithLiquid)",
                 lambda s: _any(s, ("HousePlant",), lambda o: o.filled))]


TASKS = {"make coffee": make_coffee, "coffee": make_coffee, "boil water": boil_water,
         "water the plant": water_plant, "water plant": water_plant}


def task_goals(task) -> list[Goal]:
    """Goals of ``task`` (case-insensitive: "Make coffee", "Boil water", "Water the plant"), or
    ``task`` itself when it is already a list of goals.

    Raises:
        WorldGoalError: unknown task (the message lists the known ones).
    """
    if not isinstance(task, str):
        return list(task)
    fn = TASKS.get(task.strip().lower().rstrip("."))
    if fn is None:
        raise WorldGoalError(f"no THOR goal definition for {task!r}; known: Make coffee, Boil water, Water the plant")
    return fn()

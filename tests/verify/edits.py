"""Random edits of a plan's steps for the verification property tests (test_no_loss_property.py,
test_guard.py): what a careless planner or LM does to a plan."""

from __future__ import annotations


def apply_edits(items: list, ops) -> list:
    """``items`` (steps or lines) after ``ops``, each ``(op, i, j)``: ``"drop"`` step ``i`` (never the
    last one), ``"dup"`` it in place, ``"move"`` it to ``j``, anything else copies it to ``j``;
    indices wrap around the current length. Returns a new list."""
    items = list(items)
    for op, i, j in ops:
        if not items:
            break
        i, j = i % len(items), j % (len(items) + 1)
        if op == "drop" and len(items) > 1:
            del items[i]
        elif op == "dup":
            items.insert(i, items[i])
        elif op == "move":
            x = items.pop(i)
            items.insert(min(j, len(items)), x)
        else:
            items.insert(j, items[i])
    return items

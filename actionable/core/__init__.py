"""The core layer: what every other layer may import and nothing in it imports them.

Errors (:mod:`.errors`), configuration (:mod:`.config`), shared defaults (:mod:`.defaults`), the
step vocabulary all worlds and methods share (:mod:`.program`: ``Program`` / ``Step`` /
``Argument``), the world interface (:mod:`.world`: ``World``, ``Action``, ``Goal``,
``GoalResult``), the one world registry (:mod:`.registry`) and the capability protocols a world
implements for the methods (:mod:`.capabilities`). See docs/architecture.md, "Layers".
"""

"""Replays you can look at: self-contained HTML pages and PNG figures of plans, verifications
and continual episodes (issue 28).

:mod:`.document` turns what a command computed into a replay document (plain JSON), asking the
world's ``scene_map`` capability (:mod:`actionable.core.scene_map`) for its map and a symbolic
replay of the resolved steps; :mod:`.html` writes one HTML file with the data inline and no
network; :mod:`.png` draws the map with the path and an episode's timeline (matplotlib, Agg,
imported lazily); :mod:`.show` reads saved runs (``actionable show RUN``).

Layer: beside :mod:`actionable.evaluation` (it sees the core and the registry only; it never
imports a world package).
"""

from actionable.viz.document import follow_document, plan_document, verify_document
from actionable.viz.html import render_html, write_html

__all__ = ["follow_document", "plan_document", "render_html", "verify_document", "write_html"]

"""PNG figures of a replay document (matplotlib with the Agg backend, imported only here).

:func:`write_png` draws, for a plan or a verification, the map with the agent's path (the rooms
as areas, the objects touched, the path through the steps' places numbered) and, for an episode,
its timeline (one row per instruction: active, done, missed, cancelled) above the rooms visited.
"""

from __future__ import annotations

from pathlib import Path

_OUTCOME = {"success": "#43a047", "failure": "#e53935", "cancelled": "#9e9e9e", "open": "#fb8c00"}


def _places(doc: dict) -> list[tuple[float, float]]:
    m = doc.get("map") or {}
    pos = {r["id"]: (r["x"] + r["w"] / 2, r["y"] + r["h"] / 2) for r in m.get("rooms", [])}
    pos.update({i["id"]: (i["x"], i["y"]) for i in m.get("items", [])})
    pts, room = [], None
    for s in doc.get("steps", []):  # a step without a place of its own leaves the agent where it was
        p = pos.get(s.get("at")) or (pos.get(s.get("room")) if s.get("room") != room else None)
        room = s.get("room") or room
        if p is not None and (not pts or pts[-1] != p):
            pts.append(p)
    return pts


def _draw_map(ax, doc: dict) -> None:
    from matplotlib.patches import Rectangle

    m = doc.get("map") or {}
    for r in m.get("rooms", []):
        ax.add_patch(Rectangle((r["x"], r["y"]), r["w"], r["h"], facecolor="#f1f8e9", edgecolor="#7cb342"))
        ax.text(r["x"] + 3, r["y"] + 9, r["name"], fontsize=7, weight="bold")
    for rd in m.get("roads", []):
        xs, ys = zip(*rd["pts"]) if rd["pts"] else ((), ())
        ax.plot(xs, ys, color="#90a4ae", lw=1)
    for d in m.get("doors", []):
        ax.plot([d["x"]], [d["y"]], "s", color="#8d6e63", ms=4)
    for it in m.get("items", []):
        ax.plot([it["x"]], [it["y"]], "o", color="#1e88e5", ms=3)
        ax.text(it["x"] + 3, it["y"] + 2, it["name"], fontsize=6)
    pts = _places(doc)
    if pts:
        xs, ys = zip(*pts)
        ax.plot(xs, ys, "--", color="#e53935", lw=1.2)
        for k, (x, y) in enumerate(pts, 1):
            ax.text(x, y - 4, str(k), color="#e53935", fontsize=7)
        ax.plot([xs[-1]], [ys[-1]], "o", color="#e53935", ms=7)
    ax.set_xlim(-5, m.get("width", 100) + 5)
    ax.set_ylim(m.get("height", 60) + 5, -5)
    ax.set_aspect("equal")
    ax.axis("off")


def _draw_timeline(ax, doc: dict) -> None:
    ins = doc.get("instructions") or []
    L = max(1, int(doc.get("length") or len(doc.get("timeline") or [])))
    for k, x in enumerate(ins):
        ax.barh(k, L, left=0, color="#f5f5f5", height=0.7)
        for s in x["spans"]:
            end = L if s["end"] is None else s["end"]
            ax.barh(k, max(0.5, end - s["start"]), left=s["start"], color=_OUTCOME.get(s["outcome"], "#fb8c00"),
                    height=0.7)
    ax.set_yticks(range(len(ins)))
    ax.set_yticklabels([f"{k + 1}. {x['text'][:48]}" for k, x in enumerate(ins)], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, L)
    ax.set_xlabel("step")


def write_png(doc: dict, path: str | Path) -> Path:
    """Write the figure of ``doc`` to ``path`` (PNG, 120 dpi); returns the path.

    Raises:
        InputError: the file cannot be written (the message names it)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from actionable.core.errors import InputError

    follow = doc.get("kind") == "follow"
    if follow:
        fig, (ax, ax2) = plt.subplots(2, 1, figsize=(9, 2.0 + 0.3 * len(doc.get("instructions") or [])),
                                      gridspec_kw={"height_ratios": [3, 1]})
        _draw_timeline(ax, doc)
        tl = doc.get("timeline") or []
        rooms = sorted({r["room"] for r in tl})
        if tl:
            ax2.step([r["t"] for r in tl], [rooms.index(r["room"]) for r in tl], where="post", color="#3949ab")
            ax2.set_yticks(range(len(rooms)))
            ax2.set_yticklabels(rooms, fontsize=7)
            ax2.set_xlim(0, max(1, int(doc.get("length") or len(tl))))
        ax2.set_title("room per step", fontsize=8)
    else:
        fig, ax = plt.subplots(figsize=(8, 6))
        _draw_map(ax, doc)
    fig.suptitle(str(doc.get("title", ""))[:90], fontsize=10)
    fig.tight_layout()
    p = Path(path)
    try:
        fig.savefig(p, dpi=120)
    except OSError as exc:
        raise InputError(f"--png {p}: cannot write the file ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
    return p


__all__ = ["write_png"]

"""actionable: household instructions to executable plans, plan verification, and continual
instruction following, offline on a CPU.

The top-level API (imported lazily, so ``import actionable`` stays fast):

* :func:`actionable.plan` - plan a task and check it in the simulator;
* :func:`actionable.verify` - critique a plan with the Judge/Planner loop;
* :func:`actionable.follow` - follow standing instructions in a changing house;
* :func:`actionable.make` - build a registered world (``virtualhome``, ``thor``, ``driving``);
* :func:`actionable.list_worlds`.

See :mod:`actionable.api`; defaults are shared with the CLI (:mod:`actionable.core.defaults`).
"""

import sys as _sys
import types as _types

__all__ = ["plan", "verify", "follow", "make", "list_worlds", "FollowResult", "__version__"]

_API = {"plan", "verify", "follow", "make", "list_worlds", "FollowResult"}


class _CallableVerify(_types.ModuleType):
    """The ``actionable.verify`` subpackage, callable as :func:`actionable.api.verify`.

    ``actionable.verify`` names both a subpackage and an API function; importing any
    ``actionable.verify.*`` module rebinds the package attribute to the subpackage, so the
    subpackage itself is made callable: ``actionable.verify(plan, ...)`` and
    ``actionable.verify.judge`` both work, whatever was imported first."""

    def __call__(self, *args, **kwargs):
        from actionable.api import verify

        return verify(*args, **kwargs)


class _Package(_types.ModuleType):
    def __setattr__(self, name, value):
        if name == "verify" and type(value) is _types.ModuleType:
            value.__class__ = _CallableVerify
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    if name == "verify":
        import actionable.verify  # noqa: F401  (the import binds the callable subpackage)

        return globals()["verify"]
    if name in _API:
        from actionable import api

        value = getattr(api, name)
        globals()[name] = value  # later lookups skip __getattr__
        return value
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("actionable")
        except PackageNotFoundError:
            value = "unknown"
        globals()[name] = value
        return value
    raise AttributeError(f"module 'actionable' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _API | {"__version__"})

"""The one registry of worlds: ``register``, ``make``, ``spec``, ``list_worlds``, ``capability``.

A world is a plugin. It registers a :class:`WorldSpec`: its id, a factory of its
:class:`~actionable.core.world.World`, the **capabilities** it declares (each a ``"module:attr"``
string or an object, loaded on first use) and a default scene. The methods ask the registry for a
capability by world id and never import a world package:

==============  ==============================================================  ==============================
capability      what it is                                                      used by
==============  ==============================================================  ==============================
``planning``    ``factory(scene) -> PlanningDomain`` (:mod:`.planning`)            the grounded planner, ``plan``
``verify``      ``factory(scene, task) -> WorldAdapter`` or a ``GraphReplay``      the sim / hybrid judges, ``verify``
                object (:mod:`.replay`)
``continual``   a :class:`~actionable.core.continual.ContinualWorld`              ExRAP and the baselines, ``follow``
``dataset``     a :class:`~actionable.core.dataset.TaskDataset` (goal-annotated   ``eval sequencing`` and the
                programs with their scenes)                                         benchmarks
``goals``       ``factory(scene) -> GoalInterpreter`` (instruction -> goal          ``plan``, ``verify``, ``eval``
                conditions in the world's predicates)
==============  ==============================================================  ==============================

Built-in worlds register through ``register(registry)`` in their package
(``actionable/worlds/<id>/__init__.py``, collected by ``actionable.worlds.register_builtin``);
:meth:`Registry.load_plugins` calls those, then every entry point of the group
``actionable.worlds`` (third-party worlds, as Gymnasium's ``load_plugin_envs``): an entry point
names a callable ``register(registry)``, or a :class:`WorldSpec`. Plugins are loaded once per registry, lazily, on
the first lookup, so ``import actionable`` and ``actionable --help`` stay fast. Factories and
capabilities are imported only when used (an optional world whose extra is not installed is still
listed; using it raises the world's own "install ..." error).

No hidden global state beyond the registry itself (:data:`REGISTRY`, one per process, like
Gymnasium's); tests make their own :class:`Registry` (``plugins=False``: empty).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from actionable.core.errors import ConfigError, MissingCapabilityError, PluginError, UnknownWorldError

#: the capabilities a world may declare (see the module doc)
CAPABILITIES: tuple[str, ...] = ("planning", "verify", "continual", "dataset", "goals", "scene_map")
#: entry-point group of third-party worlds
ENTRY_POINT_GROUP = "actionable.worlds"
#: the package whose ``register_builtin(registry)`` registers the built-in worlds
BUILTIN_PACKAGE = "actionable.worlds"


def _load_ref(ref: Any, what: str) -> Any:
    """``"module:attr"`` -> the attribute (objects are returned as they are)."""
    if not isinstance(ref, str):
        return ref
    mod, _, attr = ref.partition(":")
    if not mod or not attr:
        raise PluginError(f"{what}: {ref!r} is not 'module:attribute'")
    obj = importlib.import_module(mod)
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise PluginError(f"{what}: module {mod!r} has no attribute {attr!r}") from None
    return obj


@dataclass(frozen=True)
class WorldSpec:
    """A registered world.

    Attributes:
        id: registry id (``"thor"``). factory: a World class or callable, or ``"module:attr"``.
        capabilities: capability name -> ``"module:attr"`` or object (names in :data:`CAPABILITIES`).
        kwargs: default keyword arguments of the factory. default_scene: the scene a command uses
            when none is given. description: one line for ``actionable doctor`` and listings.
        extra: the optional install extra the world needs (``"driving"``), or ``None``.
        requires: import names the world needs at run time (``actionable doctor`` checks them).
    """

    id: str
    factory: Callable[..., Any] | str
    capabilities: Mapping[str, Any] = field(default_factory=dict)
    kwargs: dict = field(default_factory=dict)
    default_scene: str | None = None
    description: str = ""
    extra: str | None = None
    requires: tuple[str, ...] = ()

    def load(self) -> Callable[..., Any]:
        """The world factory (imports its module)."""
        return _load_ref(self.factory, f"world {self.id!r}")

    def has(self, name: str) -> bool:
        """The world declares capability ``name``."""
        return name in self.capabilities

    def capability(self, name: str) -> Any:
        """The loaded capability ``name``.

        Raises:
            MissingCapabilityError: the world does not declare it.
        """
        if name not in self.capabilities:
            err = MissingCapabilityError(f"world {self.id!r} has no {name!r} capability")
            err.world, err.capability = self.id, name
            raise err
        return _load_ref(self.capabilities[name], f"world {self.id!r}, capability {name!r}")


class Registry:
    """Worlds by id. :data:`REGISTRY` is the process's registry; tests may build their own with
    ``Registry(plugins=False)``."""

    def __init__(self, plugins: bool = True):
        self._specs: dict[str, WorldSpec] = {}
        self._plugins = plugins
        self._loaded = not plugins
        self.plugin_errors: list[str] = []

    # ------------------------------------------------------------------ registration
    def register(self, id: str, factory: Callable[..., Any] | str, *, capabilities: Mapping[str, Any] | None = None,
                 kwargs: dict | None = None, default_scene: str | None = None, description: str = "",
                 extra: str | None = None, requires: tuple[str, ...] = (), replace: bool = False) -> WorldSpec:
        """Register a world (see :class:`WorldSpec`).

        Raises:
            ConfigError: empty id, an id already registered (without ``replace``), or an unknown
                capability name (the message lists :data:`CAPABILITIES`).
        """
        if not isinstance(id, str) or not id.strip():
            raise ConfigError("a world id is a non-empty string such as 'thor'")
        if id in self._specs and not replace:
            raise ConfigError(f"world {id!r} is already registered; pass replace=True to override it")
        caps = dict(capabilities or {})
        bad = sorted(set(caps) - set(CAPABILITIES))
        if bad:
            raise ConfigError(f"world {id!r}: unknown capability {bad[0]!r}; capabilities are {', '.join(CAPABILITIES)}")
        spec = WorldSpec(id, factory, caps, dict(kwargs or {}), default_scene, description, extra, tuple(requires))
        self._specs[id] = spec
        return spec

    def load_plugins(self) -> None:
        """Import the built-in worlds and every ``actionable.worlds`` entry point (once).

        A broken entry point does not hide the other worlds: its error is kept in
        :attr:`plugin_errors` and raised (as :class:`PluginError`) when its world is asked for."""
        if self._loaded:
            return
        self._loaded = True
        importlib.import_module(BUILTIN_PACKAGE).register_builtin(self)
        from importlib.metadata import entry_points

        for ep in entry_points(group=ENTRY_POINT_GROUP):
            try:
                obj = ep.load()
                if isinstance(obj, WorldSpec):
                    self._specs.setdefault(obj.id, obj)
                elif callable(obj):
                    obj(self)
                else:
                    raise PluginError(f"it is a {type(obj).__name__}, not a callable or a WorldSpec")
            except Exception as exc:  # noqa: BLE001 - a third party's bug must not hide the other worlds
                self.plugin_errors.append(f"entry point {ep.name!r} ({ep.value}): {type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------ lookup
    def spec(self, id: str) -> WorldSpec:
        """The :class:`WorldSpec` of ``id``.

        Raises:
            UnknownWorldError: no such id (``known`` lists the registered ids; a broken plugin's
                error is named when one failed to load).
        """
        if self._plugins:
            self.load_plugins()
        if id not in self._specs:
            broken = [e for e in self.plugin_errors if repr(id) in e]
            hint = f"; a plugin failed to load: {broken[0]}" if broken else ""
            err = UnknownWorldError(f"unknown world {id!r}; registered worlds: {', '.join(self.list()) or 'none'}{hint}")
            err.known = self.list()
            raise err
        return self._specs[id]

    def list(self, capability: str | None = None) -> list[str]:
        """Registered ids, sorted; with ``capability``, only the worlds that declare it."""
        if self._plugins:
            self.load_plugins()
        return sorted(i for i, s in self._specs.items() if capability is None or s.has(capability))

    def capability(self, id: str, name: str) -> Any:
        """World ``id``'s capability ``name``, loaded.

        Raises:
            UnknownWorldError: no such world. MissingCapabilityError: the world does not declare
            ``name``; the message names the capability and the worlds that have it.
        """
        spec = self.spec(id)
        if not spec.has(name):
            have = self.list(name)
            own = sorted(spec.capabilities)
            err = MissingCapabilityError(f"world {id!r} has no {name!r} capability (it has "
                                         f"{', '.join(own) or 'none'}); worlds with it: {', '.join(have) or 'none'}"
                                         + ("; a world with 'continual' runs instructions with `actionable follow "
                                            f"--env {id}`" if name == "planning" and "continual" in own else ""))
            err.world, err.capability, err.have = id, name, have
            raise err
        return spec.capability(name)

    def make(self, id: str, **kwargs: Any):
        """Build the world ``id`` (keyword arguments override the spec's defaults;
        ``floor_plan=`` is an alias of ``scene=``)."""
        spec = self.spec(id)
        args = {**spec.kwargs, **kwargs}
        if "floor_plan" in args:
            args["scene"] = args.pop("floor_plan")
        world = spec.load()(**args)
        world.id = id
        return world


#: the process's registry (built-in worlds and entry points, loaded on first lookup)
REGISTRY = Registry()


def register(id: str, factory: Callable[..., Any] | str, **kw: Any) -> WorldSpec:
    """Register a world in :data:`REGISTRY` (see :meth:`Registry.register`)."""
    return REGISTRY.register(id, factory, **kw)


def make(id: str, **kwargs: Any):
    """Build a registered world: ``make("thor", scene="FloorPlan1")`` (:meth:`Registry.make`).

    Raises:
        UnknownWorldError: no such id.
    """
    return REGISTRY.make(id, **kwargs)


def spec(id: str) -> WorldSpec:
    """The :class:`WorldSpec` of ``id`` (raises UnknownWorldError)."""
    return REGISTRY.spec(id)


def list_worlds(capability: str | None = None) -> list[str]:
    """Registered world ids, sorted (only those with ``capability`` when given)."""
    return REGISTRY.list(capability)


def capability(id: str, name: str) -> Any:
    """World ``id``'s capability ``name`` (raises UnknownWorldError, MissingCapabilityError)."""
    return REGISTRY.capability(id, name)


def planning_domain(world: str, scene: Any):
    """The planning domain of ``scene`` in ``world``: its ``planning`` capability called on the
    scene.

    Raises:
        UnknownWorldError, MissingCapabilityError, SceneError (the world does not know ``scene``, or
        it is an empty name).
    """
    if isinstance(scene, str) and not scene.strip():
        from actionable.core.errors import UnknownSceneError

        raise UnknownSceneError(f"the scene name is empty; give a scene (e.g. 'default'; 'actionable scenes --env "
                                f"{world}' lists them), or leave --scene out")
    return capability(world, "planning")(scene)


__all__ = ["CAPABILITIES", "ENTRY_POINT_GROUP", "REGISTRY", "Registry", "WorldSpec", "capability", "list_worlds",
           "make", "planning_domain", "register", "spec"]

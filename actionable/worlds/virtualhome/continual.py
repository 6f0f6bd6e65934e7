"""VirtualHome's ``continual`` capability: the house as ExRAP's non-stationary environment.

:data:`CONTINUAL_WORLD` (a :class:`~actionable.core.continual.ContinualWorld`) builds the
:class:`~.nonstationary.NonStationaryHouse` over a scene, samples instruction sets from the 24
templates (:func:`.instructions.sample_instructions`), reads instruction files
(:func:`.instructions.load_instructions`) and hands ExRAP's LM interpreter the house's
instruction vocabulary (:class:`.instructions.VirtualHomeVocabulary`). Default scene: 1003_2; a scene named
``<scene>:rooms=<k>`` is that house with ``k`` rooms (:mod:`.house_size`: rooms dropped, or copied
and renamed; the house-size sweep of issue 25).
"""

from __future__ import annotations

from actionable.core.continual import ContinualWorld


def _house(scene: str, level: str):
    from actionable.core.config import make_config
    from actionable.core.continual import DynamicsConfig
    from actionable.worlds.virtualhome.house_size import house_scene
    from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse

    dyn = make_config(DynamicsConfig, level=level)  # the level is checked before the scene loads
    return NonStationaryHouse(house_scene(scene), dyn)


def _sample(house, n: int, seed: int):
    from actionable.worlds.virtualhome.instructions import sample_instructions

    return sample_instructions(house, n, seed)


def _load(path, house):
    from actionable.worlds.virtualhome.instructions import load_instructions

    return load_instructions(path, house)


def _vocabulary(house):
    from actionable.worlds.virtualhome.instructions import VirtualHomeVocabulary

    return VirtualHomeVocabulary(house)


def _check_scene(scene: str) -> None:
    from actionable.worlds.virtualhome.house_size import house_scene

    house_scene(scene)


def _describe(level: str) -> str:
    from actionable.core.config import make_config
    from actionable.core.continual import DynamicsConfig

    return f"changes every {make_config(DynamicsConfig, level=level).steps_between_changes} steps"


CONTINUAL_WORLD = ContinualWorld(
    name="virtualhome", scene="1003_2", make_house=_house, sample=_sample, load=_load, interpret=None,
    vocabulary=_vocabulary, exclusive=(("on", "off"), ("open", "closed")), check_scene=_check_scene,
    describe=_describe, lm_interpreter=True, max_instructions=24, names_itself_in_runs=False,
    description="VirtualHome's evolving graph as a non-stationary house (default scene 1003_2)")

__all__ = ["CONTINUAL_WORLD"]

"""Grounding: the translation LM and the admissible-action index (Huang et al. 2022, Sec. 3.2)."""

from actionable.grounding.embedder import Embedder, load_embedder
from actionable.grounding.index import ActionIndex

__all__ = ["ActionIndex", "Embedder", "load_embedder"]

"""Names a user types -> the scene's object classes (issue 12, item 5).

"coffee maker" must find the dataset's ``coffe_maker``, "tv" must find
``television``, "fridge" whatever the scene has (``freezer`` in
TrimmedTestScene1). Sources, in order:

1. **Names**: a class's own name and the world's name equivalences (VirtualHome's
   ``class_name_equivalence.json``, e.g. ``television: [tv, walltv]``,
   ``freezer: [fridge]``, plus its extra aliases for the dataset's spelling
   ``coffe_maker``); matched as whole words (plural ``s`` allowed) in the task.
   A word the table lacks that ends a one-word class name (a closed compound: "shelf" of
   ``bookshelf`` and ``wallshelf``) names that class, and a word in no vocabulary also the
   last word of a longer name ("rack" of ``towel_rack``, not of ``basket_for_clothes``);
   among several, the one nearest the whole task (translation LM) is taken, so "Put the book
   on the shelf" finds the bookshelf, not the closer-sounding ``cupboard``, and "Put the
   towel on the rack" the towel rack.
2. **Translation LM**: for task words no name matches, the nearest scene class
   by cosine of sentence embeddings, kept at :data:`MIN_COSINE` or above.

A word that is the name of a VirtualHome object class (anywhere in the
dataset's vocabulary) but absent from this scene is reported as *missing*, with
the scene's closest classes, so a planner never maps it silently onto an
unrelated class. So is a word in *no* vocabulary ("bicycle", "car") that is not a
stopword, not a verb (:data:`VERBS`: the action vocabulary and common household
verbs), not an activity or generic noun (:data:`GENERIC_WORDS`: "music",
"dishes", "dinner"), not part of a scene class's name ("light" of
``light_switch``) and not half of a name written in two words ("trash can"):
it names a thing the scene cannot have.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import numpy as np

#: Cosine (MiniLM) at or above which a task word is taken to name a class.
MIN_COSINE = 0.65
_STOP = set("""a an the to of in on into onto at for from with and or my your his her their our some any this that
these those it its me you up down off out over under please then also just go get make do use let take put turn
open close switch find walk run look watch sit lie stand grab hold bring give set start stop have be is are
wash clean cook drink eat read write type listen play feed charge relax brush pour pick wipe rinse scrub
dry fold hang iron change prepare pet greet call browse check leave enter wake sleep work study
""".split())
#: Verbs that never name an object: the action vocabulary (VirtualHome's, as typed) and common
#: household verbs; a task word among them is never reported missing.
VERBS = frozenset("""
lookat glance stare point push pull move squeeze plug plugin plugout unplug cut drop lie sit
release type touch turnto find grab drink eat read watch wash rinse scrub wipe pour greet
slice toggle pickup place heat cool boil fry bake cook chop peel stir mix serve fill empty
ride drive fix repair paint mow sweep vacuum mop dust tidy organize arrange sort water plant
feed walk run go come bring carry fetch throw toss store keep hide show sing dance exercise
shave shower bathe dress undress relax rest nap lay making cooking washing cleaning doing
shut
""".split())
#: Activities and generic nouns that do not name one object of a scene (the planner plans
#: them from the example bank); never reported missing.
GENERIC_WORDS = frozenset("""
dish dishes music song songs news movie movies film show game games dinner lunch breakfast
meal meals snack food laundry chores chore homework housework bath nap rest break time morning
evening night day today tonight something everything thing things stuff room rooms house home
place way job hands hand face hair body mess everyone someone person people
""".split())


@dataclass
class ObjectMatch:
    """Task words mapped onto scene classes.

    Attributes:
        matched: ``[(words, class, how, score)]``; ``how`` is ``"name"``, ``"compound"`` (the
            word heads the class's name; ``"compound (of a, b)"`` when several do, the one nearest
            the task taken; score = its cosine to the task) or ``"translation"`` (score = cosine,
            1.0 for names).
        missing: ``[(word, [closest scene classes])]`` for object names absent here.
        unknown: the words of ``missing`` that are in no object vocabulary ("bicycle").
    """

    matched: list[tuple[str, str, str, float]] = field(default_factory=list)
    missing: list[tuple[str, list[str]]] = field(default_factory=list)
    unknown: set[str] = field(default_factory=set)

    @property
    def classes(self) -> list[str]:
        return list(dict.fromkeys(c for _, c, _, _ in self.matched))

    def to_dict(self) -> dict:
        return {"matched": [{"words": w, "class": c, "how": h, "score": round(float(s), 3)}
                            for w, c, h, s in self.matched],
                "missing": [{"word": w, "closest": c} for w, c in self.missing]}


def words(text: str) -> list[str]:
    """Lower-case words of ``text``, accents and punctuation dropped, ``_`` as a space."""
    return _norm(text).split()


def normalize_name(s: str) -> str:
    """``"Cömputer_Desk!"`` -> ``"computer desk"``: lower case, accents and punctuation dropped, ``_`` as a space."""
    # accents go, not the letter ("cömputer" -> "computer", not "c mputer")
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9 ]+", " ", s.replace("_", " ").lower()).strip()


def compact_name(name: str) -> str:
    """``coffee_machine`` / ``CoffeeMachine`` / ``Watch2`` -> ``coffeemachine`` / ``watch``."""
    return re.sub(r"\d+$", "", re.sub(r"[\s_\-]", "", name.lower())) or name.lower()


_norm = normalize_name


def alias_table(scene_classes, equivalence: dict[str, tuple[str, ...]], extra=None) -> dict[str, str]:
    """Typed name (normalised, spaces) -> scene class (``extra``: more ``{class: names}``, e.g. a
    world's spellings its own table lacks)."""
    present = set(scene_classes)
    out: dict[str, str] = {}
    for c in sorted(present):
        out.setdefault(_norm(c), c)
    for c, alts in list(equivalence.items()) + list((extra or {}).items()):
        targets = [c] if c in present else [a for a in alts if a in present]
        for t in targets:
            for name in (c, *alts):
                out.setdefault(_norm(name), t)
    return out


def match_task_objects(task: str, scene_classes, embedder=None, equivalence=None, vocabulary=None,
                       extra=None) -> ObjectMatch:
    """Map the objects a task names onto ``scene_classes`` (see the module doc).

    Args:
        task: the instruction.
        scene_classes: class names present in the scene.
        embedder: translation LM for words no name matches (``None``: names only).
        equivalence: ``{class: (names typed for it, ...)}`` of the world (``None``: none).
        vocabulary: the world's object names (normalised, spaces), for *missing*; ``None``: the
            scene's classes and the equivalence table's names.
        extra: more ``{class: names}`` aliases (a world's spellings its table lacks).

    The world supplies its tables through its planning domain (VirtualHome:
    :meth:`actionable.worlds.virtualhome.planning.VirtualHomeAffordance.match_objects`).

    Returns:
        :class:`ObjectMatch`.
    """
    classes = [c for c in scene_classes if c != "character"]
    table = alias_table(classes, equivalence or {}, extra=extra)
    words = _norm(task).split()
    out = ObjectMatch()
    used = [False] * len(words)
    for n in (3, 2, 1):  # longest names first ("coffee maker" before "coffee")
        for i in range(len(words) - n + 1):
            if any(used[i:i + n]):
                continue
            gram = " ".join(words[i:i + n])
            for form in (gram, gram[:-1] if gram.endswith("s") else None):
                if form and form in table and form not in _STOP:
                    out.matched.append((gram, table[form], "name", 1.0))
                    used[i:i + n] = [True] * n
                    break
    rest = [w for w, u in zip(words, used) if not u and w not in _STOP and len(w) > 2 and not w.isdigit()]
    if not rest:
        return out
    if vocabulary is None:
        vocabulary = {_norm(a) for c, alts in (equivalence or {}).items() for a in (c, *alts)} | {_norm(c) for c in classes}
    vocab = set(vocabulary)
    # halves of a name written in two words ("trash can" for trashcan) do not name things alone
    compound = {w for a, b in zip(words, words[1:]) if (a + b) in table or (a + b) in vocab for w in (a, b)}
    sims = None
    if embedder is not None and classes:
        mat = np.asarray(embedder.encode([_norm(c) for c in classes]), dtype=np.float32)
        sims = mat @ np.asarray(embedder.encode(rest), dtype=np.float32).T  # (classes, words)
        ctx = mat @ np.asarray(embedder.encode([_norm(task)])[0], dtype=np.float32)  # (classes,) vs the task
    else:
        ctx = None
    for j, w in enumerate(rest):
        in_vocab = w in vocab or (w.endswith("s") and w[:-1] in vocab)
        # a word of the dataset's vocabulary ("book", "coffee") keeps its own meaning: only closed
        # compounds; a word in no vocabulary ("rack", "shelf") also heads two-word names
        heads = _head_classes(w, classes, open_compounds=not in_vocab)
        if heads:  # "shelf" names the bookshelf and the wall shelf, not the closest-sounding cupboard
            best = max(heads, key=lambda c: ctx[classes.index(c)]) if ctx is not None else heads[0]
            others = [h for h in heads if h != best]
            out.matched.append((w, best, "compound" + (f" (of {', '.join([best, *others])})" if others else ""),
                                float(ctx[classes.index(best)]) if ctx is not None else 1.0))
            continue
        if sims is not None:
            order = np.argsort(-sims[:, j], kind="stable")
            best = int(order[0])
            if sims[best, j] >= MIN_COSINE and not in_vocab:
                out.matched.append((w, classes[best], "translation", float(sims[best, j])))
                continue
            closest = [classes[int(k)] for k in order[:3]]
        else:
            closest = []
        if in_vocab or (w not in compound and _names_thing(w, classes)):
            out.missing.append((w, closest))
            if not in_vocab:
                out.unknown.add(w)
    return out


def _head_classes(word: str, classes, open_compounds: bool = False) -> list[str]:
    """Scene classes whose name is a compound with ``word`` as its head: a one-word name that ends
    with it ("shelf" -> ``bookshelf``, ``wallshelf``), and with ``open_compounds`` a name of two
    or more words that ends with it and has no "for" / "of" ("rack" -> ``towel_rack``,
    ``shoe_rack``; never ``basket_for_clothes`` for "clothes"). A word of 3 letters or fewer never
    matches ("tub"); plural ``s`` allowed. Sorted."""
    forms = {f for f in (word, word[:-1] if word.endswith("s") else word) if len(f) > 3}
    out = []
    for c in classes:
        parts = _norm(c).split()
        if len(parts) == 1:
            if any(parts[0].endswith(f) and len(parts[0]) - len(f) >= 3 for f in forms):
                out.append(c)
        elif open_compounds and parts[-1] in forms and not {"for", "of"} & set(parts):
            out.append(c)
    return sorted(out)


def _names_thing(word: str, classes) -> bool:
    """Whether a task word in no vocabulary still names a thing (see the module doc)."""
    forms = {word, word[:-1] if word.endswith("s") else word}
    if forms & (VERBS | GENERIC_WORDS | _STOP):
        return False
    if word.endswith("ing") or word.endswith("ly"):
        return False
    parts = {p for c in classes for p in _norm(c).split()}
    return not forms & parts


__all__ = ["ObjectMatch", "match_task_objects", "words", "alias_table", "normalize_name", "compact_name", "MIN_COSINE", "VERBS",
           "GENERIC_WORDS"]

"""The instruction interpreter of ExRAP (Eq. 4): instruction text -> query + execution.

Three stages, every output logged in the run record:

1. **Planning LM** (ExRAP Eq. 4): a few-shot prompt, greedy decoding, asks the
   LM to rewrite the sentence as ``query: ...`` / ``execution: ...``.
2. **Translation** (Huang et al. 2022, Sec. 3 "admissible action parsing by
   semantic translation", applied to Eq. 4's output): each generated clause -
   each conjunct of the query, and the execution - is mapped to the nearest
   *admissible* clause by cosine similarity of sentence embeddings (the
   translation LM, all-MiniLM-L6-v2). Admissible clauses are built from the
   objects and rooms the instruction names (the vocabulary's ``clauses``; VirtualHome: :func:`~actionable.worlds.virtualhome.instructions.admissible_clauses`): state
   predicates of switchables / openables, placements of movables, and the
   matching skills. This repairs what a 135M model typically writes: bare class
   names (``faucet`` when the house has two), near-names (``cabinet`` for
   ``bathroom cabinet``) and dropped articles. A clause whose nearest admissible
   clause is less similar than :data:`MIN_SIMILARITY` (0.5) is rejected, like
   the cutoff of Huang et al.'s trajectory correction: an LM that names objects
   absent from the sentence (or writes code) falls back to the rule reader.
   When the vocabulary anchors the sentence (``anchored_clauses``; VirtualHome's
   :func:`~actionable.worlds.virtualhome.instructions.anchored_clauses` for ``If
   <condition>, <action>.``), the candidates are the sentence's own: each conjunct
   of the condition over its own subject with the state it states ("is still
   on" -> ``is on``), the execution over the action's own object (``it``: the
   condition's first object; "close the fridge": the fridge) with the verb and
   polarity it says ("turn it off to save power" -> ``switch off``); a reading
   that drops a stated conjunct is rejected (rule reader instead).
3. **Polarity check**: the query and the execution are re-ranked against their
   opposite polarity (``switch on`` / ``switch off``; ``is open`` / ``is
   closed``) by LM score, calibrated by the score under a content-free
   instruction (the domain-conditional PMI of Holtzman et al. 2021, "Surface
   Form Competition"), because the small model prefers ``on`` whatever the
   sentence says. A polarity the anchored sentence states is kept, not re-ranked.

The checked pair is parsed by the world's instruction vocabulary
(:class:`~actionable.core.continual.InstructionVocabulary`: ``parse_condition`` /
``parse_execution``). When any stage fails, the vocabulary's rule reader
(``parse_instruction``) is used and the
record says so (``source: "rule"``); an instruction neither can read is
dropped with its reason (``source: "none"``).
"""

from __future__ import annotations

import re

import numpy as np

from actionable.core.continual import Instruction, InstructionVocabulary, Task
from actionable.core.errors import InputError
from actionable.lm.base import GenerationParams

INTERPRET_PROMPT = (
    "Rewrite each instruction as a condition to check and an action to do.\n"
    "Instruction: If the light in the bedroom is on, switch it off.\n"
    "query: light in the bedroom is on\nexecution: switch off light in the bedroom\n"
    "Instruction: When the door in the bathroom is open, turn on the computer in the bedroom.\n"
    "query: door in the bathroom is open\nexecution: switch on computer in the bedroom\n"
    "Instruction: Whenever the cup is on the table in the bedroom, put it on the desk in the bedroom.\n"
    "query: cup is on table in the bedroom\nexecution: put cup on desk in the bedroom\n"
    "Instruction: {text}\nquery:"
)
#: Translations less similar than this are rejected (rule reader instead). In the committed
#: continual table every accepted translation had cosine >= 0.64; hostile or off-topic LM
#: clauses ("switch off unicorn_99", code) score 0.0-0.36 against the nearest admissible one.
MIN_SIMILARITY = 0.5
#: Content-free instruction for the PMI calibration of the polarity check.
NEUTRAL_TEXT = "N/A"


# ----------------------------------------------------------------------------- translation
def translate(clauses: list[str], candidates: list[str], embedder) -> list[tuple[str, float]]:
    """Nearest admissible clause for each generated clause (cosine similarity of
    translation-LM embeddings; Huang et al. 2022, Sec. 3). Returns ``(clause, cos)`` pairs."""
    if not clauses or not candidates:
        return []
    e = np.asarray(embedder.encode(list(clauses) + list(candidates)), dtype=np.float64)
    e /= np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)
    sims = e[: len(clauses)] @ e[len(clauses):].T
    best = sims.argmax(axis=1)
    return [(candidates[int(j)], float(sims[i, j])) for i, j in enumerate(best)]


# ----------------------------------------------------------------------------- polarity
_FLIP = {"on": "off", "off": "on", "open": "close", "close": "open", "closed": "open"}


def _flip(text: str) -> str:
    """Opposite polarity of a clause: ``switch off X`` <-> ``switch on X``, ``is open`` <-> ``is closed``."""
    words = text.split()
    for i, w in enumerate(words):
        if w in ("on", "off") and i > 0 and words[i - 1] in ("switch", "turn"):
            words[i] = _FLIP[w]
            return " ".join(words)
    if words and words[0] in ("open", "close"):
        return " ".join([_FLIP[words[0]]] + words[1:])
    if words and words[-1] in ("on", "off", "open", "closed"):
        return " ".join(words[:-1] + [{"open": "closed", "closed": "open"}.get(words[-1], _FLIP[words[-1]])])
    return text


def _pick(lm, head: str, neutral: str, options: list[str], calibrated: bool = True) -> str:
    """Option with the highest PMI: log P(o | instruction) - log P(o | content-free instruction);
    ``calibrated=False``: the highest log P(o | instruction)."""
    if len(options) == 1:
        return options[0]
    conts = [f" {c}" for c in options]
    s = lm.score(head, conts)
    z = lm.score(neutral, conts) if calibrated else [0.0] * len(conts)
    return options[max(range(len(options)), key=lambda i: s[i] - z[i])]


def _admissible_options(clause: str, allowed: set[str] | None) -> list[str]:
    """``clause`` and its opposite polarity, less the one the sentence rules out: when exactly one
    of the two is admissible under the sentence's anchors (every conjunct of it in ``allowed``),
    only that one ("is still on" states ``on``; "turn it off" says ``off``)."""
    options = list(dict.fromkeys([clause, _flip(clause)]))
    if allowed is None:
        return options
    ok = [o for o in options if all(c.strip() in allowed for c in re.split(r"\s+and\s+", o))]
    return ok if len(ok) == 1 else options


def _polarity_check(lm, text: str, q: str, e: str, calibrated: bool = True,
                    prompt: str = INTERPRET_PROMPT,
                    allowed: tuple[set[str], set[str]] | None = None) -> tuple[str, str]:
    """Re-rank the query / execution against their opposite polarity (calibrated LM score).
    ``allowed``: the (query conjuncts, executions) the sentence's words admit
    (:meth:`anchored_clauses`); a polarity the sentence states is kept, not re-ranked."""
    qs = _admissible_options(q, None if allowed is None else allowed[0])
    es = _admissible_options(e, None if allowed is None else allowed[1])
    if not getattr(lm, "supports_score", False):
        return qs[0], es[0]
    head, neutral = prompt.format(text=text), prompt.format(text=NEUTRAL_TEXT)
    q = _pick(lm, head, neutral, qs, calibrated)
    e = _pick(lm, f"{head} {q}\nexecution:", f"{neutral} {q}\nexecution:", es, calibrated)
    return q, e


# ----------------------------------------------------------------------------- interpreter
def _read_lm_output(raw: str) -> tuple[str, str]:
    lines = [ln.strip() for ln in ("query:" + raw).splitlines() if ln.strip()]
    q = next((ln.split(":", 1)[1].strip() for ln in lines if ln.lower().startswith("query:")), "")
    e = next((ln.split(":", 1)[1].strip() for ln in lines if ln.lower().startswith("execution:")), "")
    while q.lower().startswith("query:"):  # the LM repeated the prompt's "query:" prefix
        q = q[len("query:"):].strip()
    return q, e


def _lm_reading(ins: Instruction, vocab: InstructionVocabulary, lm, embedder, rec: dict,
                calibrated: bool = True) -> Task:
    prompt = getattr(vocab, "prompt", INTERPRET_PROMPT)  # a world's own few-shot prompt, else the household one
    out = lm.generate(prompt.format(text=ins.text),
                      GenerationParams(n=1, temperature=0.0, max_tokens=40, stop=("\nInstruction",),
                                       presence_penalty=0.0, frequency_penalty=0.0, seed=0))
    raw = out[0].text if out else ""
    rec["lm_output"] = raw
    q, e = _read_lm_output(raw)
    anchor = getattr(vocab, "anchored_clauses", None)
    anchored = anchor(ins.text) if anchor is not None else None
    if anchored is not None:
        # the candidates the sentence itself allows: each conjunct's own object and stated state,
        # the action's own object (``it``: the condition's) with its verb and polarity
        groups, cand_e = anchored
        cand_q = list(dict.fromkeys(c for g in groups for c in g))
    else:
        groups, (cand_q, cand_e) = None, vocab.clauses(ins.text)
    if embedder is not None:
        conj = [c for c in re.split(r"\s+and\s+", q) if c.strip()]
        tq = translate(conj, cand_q, embedder)
        complete = getattr(vocab, "complete_execution", None)
        if complete is not None and tq and e.strip():
            # a world whose actions are said without their object ("stop before the line") reads
            # the execution with its condition's object, as its rule reader reads "it" / "there"
            e = complete(e, tq[0][0])
        te = translate([e] if e.strip() else [], cand_e, embedder)
        if tq and te:
            for generated, (_, sim) in zip(conj + [e], tq + te):
                if sim < MIN_SIMILARITY:  # nothing admissible is close: not a reading of this sentence
                    raise InputError(f"{generated.strip()[:80]!r} is not close to any admissible clause of "
                                     f"this instruction (cosine {sim:.2f} < {MIN_SIMILARITY})")
            chosen = list(dict.fromkeys(c for c, _ in tq))
            if groups is not None:
                missing = [g for g in groups if not set(g) & set(chosen)]
                if missing:  # the LM dropped a conjunct the sentence states: not a reading of it
                    raise InputError(f"the reading leaves out the condition {missing[0][0]!r}")
                chosen = [next(c for c in chosen if c in g) for g in groups]  # the sentence's order
            q = " and ".join(dict.fromkeys(chosen))
            e = te[0][0]
            rec["translated"] = {"query": q, "execution": e,
                                 "similarity": round(min(s for _, s in tq + te), 3)}
    allowed = None if anchored is None else (set(cand_q), set(cand_e))
    q, e = _polarity_check(lm, ins.text, q, e, calibrated, prompt, allowed)
    rec["checked"] = {"query": q, "execution": e}
    preds = vocab.parse_condition(q)
    skills, _ = vocab.parse_execution(e)
    return Task(ins.text, q, skills, vocab.cloze(preds))


def interpret(instructions: list[Instruction], vocab: InstructionVocabulary, lm=None,
              embedder=None, calibrated: bool = True) -> tuple[list[Task], list[dict]]:
    """Map instruction texts to tasks (ExRAP Eq. 4; see the module docstring).

    Args:
        instructions: what the agent is told (only ``text`` is read).
        vocab: the world's instruction vocabulary on the episode's house
            (:class:`~actionable.core.continual.InstructionVocabulary`; VirtualHome's:
            :class:`~actionable.worlds.virtualhome.instructions.VirtualHomeVocabulary`).
        lm: planning LM; ``None`` reads with the rule-based reader only.
        embedder: translation LM (:func:`~actionable.grounding.embedder.load_embedder`);
            ``None`` skips the translation stage.
        calibrated: PMI-calibrated polarity check (default); ``False`` ranks by the
            raw LM score (the ablation in benchmarks/bench_interpreter.py).

    Returns:
        ``(tasks, log)``; the log has one record per instruction: ``text``,
        ``lm_output``, ``translated``, ``checked``, ``source`` (``lm`` / ``rule``
        / ``none``), ``query``, ``execution``, ``error``.
    """
    tasks, log = [], []
    for ins in instructions:
        rec = {"text": ins.text, "lm_output": None, "source": "none", "error": None}
        task = None
        if lm is not None:
            try:
                task, rec["source"] = _lm_reading(ins, vocab, lm, embedder, rec, calibrated), "lm"
            except InputError as exc:
                rec["error"] = f"LM interpretation unusable: {exc}"
        if task is None:
            try:
                parsed = vocab.parse_instruction(ins.text)
                task, rec["source"] = Task(ins.text, parsed.query_text, parsed.execution,
                                           vocab.cloze(parsed.query)), "rule"
            except InputError as exc:
                rec["error"] = f"{rec['error'] or ''} rule reading failed: {exc}".strip()
        if task is not None:
            rec["query"], rec["execution"] = task.query, [z.text for z in task.execution]
            tasks.append(task)
        log.append(rec)
    return tasks, log

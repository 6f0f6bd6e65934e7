"""Continual instruction following in a non-stationary house (ExRAP, arXiv 2509.08222).

Modules:
    instructions  conditional instructions (query + execution), 24 templates, seeded sets
    tekg          temporal embodied knowledge graph: quadruples, Eq. 2-3 update, BM25 retrieval
    query         memory-augmented query evaluation: Eq. 5 reuse, Eq. 6-7 temporal consistency
    agent         the ExRAP agent: Eq. 9 (v_T), Eq. 11 (v_R), Eq. 12 (skill choice)
    baselines     LLM-Planner-, SayCan-, ZSP-style, instruction-wise agents and the oracle
    metrics       activations, SR and PS, confidence intervals
    episode       instruction interpreter (Eq. 4), agents by name, one episode
    evaluate      the benchmark grid on the shared runner, table and figure

The environment lives in :mod:`actionable.worlds.virtualhome.nonstationary`.
"""

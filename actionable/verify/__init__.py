"""Plan verification: the Judge/Planner critique loop (arXiv 2509.02761) and our
simulator-grounded extension.

Modules:
    critique  ``Critique`` (REMOVE | MISSING), judge-output parser, deterministic revision
    judge     ``VerifyTask``, ``JudgeResult``, LLM judge, hybrid judge, ``make_judge``
    rules     rule-based baseline judge
    grounded  simulator-grounded judge (precondition repair, goal repair, relevance)
    replay    plan replay helpers over ``actionable.worlds.virtualhome.simulator``
    loop      planners (apply | LLM) and ``VerificationLoop``
    corrupt   labelled error injection into the gold programs
    metrics   per-action P/R/F1, plan edits, convergence shares
    teach     TEACh-style JSON demonstrations
    bench     the judges x planners benchmark (``actionable eval verify``)

Nothing heavy is imported here; import the submodules you need.
"""

"""Bad PDDL input gets one typed error naming the file, the line and what to fix
(actionable/worlds/pddl/checks.py); what UP's simulator does run loads and runs."""

from __future__ import annotations

import pytest

from actionable.core.errors import (PddlFileError, PddlMismatchError, PddlSyntaxError, PddlUnsupportedError,
                               SceneError, UnknownSceneError, WorldActionError)
from actionable.worlds import make

PROBLEM = """(define (problem two) (:domain blocksworld)
  (:objects a b)
  (:init (ontable a) (ontable b) (clear a) (clear b) (handempty))
  (:goal (on a b)))
"""


def world(domain, problem):
    w = make("pddl", domain=domain, problem=problem)
    w.reset()
    return w


def test_a_users_file_pair_loads_and_runs(write, bw_domain):
    w = world(bw_domain, write("two.pddl", PROBLEM))
    assert w.task.problem_name == "two" and w.scenes()[-1].endswith("two.pddl")
    assert w.step("(pick-up a)")[4]["executed"] and w.step("stack(a, b)")[2]  # terminated: goal met


def test_nonexistent_files_name_the_path(write, bw_domain):
    with pytest.raises(PddlFileError, match="nope.pddl") as ei:
        world(bw_domain, "/tmp/nope.pddl")
    assert isinstance(ei.value, SceneError) and ei.value.path == "/tmp/nope.pddl"
    with pytest.raises(PddlFileError, match="missing-domain.pddl"):
        world("missing-domain.pddl", write("p.pddl", PROBLEM))
    with pytest.raises(UnknownSceneError, match="domain.pddl::"):  # a scene is two files
        make("pddl", scene="only-one.pddl").reset()


def test_unbalanced_parenthesis_names_the_line_of_the_unclosed_one(write):
    text = ("; a comment\n(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
            "    :precondition (and (p ?x)\n    :effect (not (p ?x))))\n")
    d = write("d.pddl", text)
    with pytest.raises(PddlSyntaxError) as ei:
        world(d, write("p.pddl", "(define (problem q) (:domain d) (:objects o) (:init (p o)) (:goal (p o)))"))
    assert ei.value.path == d and ei.value.line == 2 and f"{d}:2:" in str(ei.value)  # (define never closed


def test_parser_error_gives_file_line_and_column(write, bw_domain):
    d = write("d.pddl", "(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
                        "    :precondition (p ?x) :effect (not (p ?x)) :bogus))\n")
    with pytest.raises(PddlSyntaxError, match=r"d\.pddl:4:") as ei:
        world(d, write("p.pddl", "(define (problem q) (:domain d) (:objects o) (:init (p o)) (:goal (p o)))"))
    assert ei.value.line == 4
    with pytest.raises(PddlSyntaxError, match="file is empty"):
        world(write("empty.pddl", "  ; nothing\n"), write("p.pddl", PROBLEM))


def test_domain_and_problem_swapped(write, bw_domain):
    with pytest.raises(PddlSyntaxError, match="this is a PDDL domain"):
        world(bw_domain, bw_domain)


def test_a_problem_for_another_domain(write, bw_domain):
    p = write("g.pddl", PROBLEM.replace("(:domain blocksworld)", "(:domain gripper)"))
    with pytest.raises(PddlMismatchError, match="for domain 'gripper'.*defines domain 'blocksworld'") as ei:
        world(bw_domain, p)
    assert ei.value.line == 1


@pytest.mark.parametrize("init, what, line", [
    ("(ontable a) (frobbed a)", "'frobbed' is no predicate", 3),
    ("(ontable zz)", "unknown object, constant or parameter 'zz'", 3),
    ("(on a)", "'on' takes 2 argument\\(s\\), given 1", 3),
])
def test_unknown_predicate_object_or_arity_in_the_problem(write, bw_domain, init, what, line):
    p = write("p.pddl", PROBLEM.replace("(ontable a) (ontable b)", init))
    with pytest.raises(PddlMismatchError, match=what) as ei:
        world(bw_domain, p)
    assert ei.value.path == p and ei.value.line == line and f"p.pddl:{line}" in str(ei.value)


@pytest.mark.parametrize("objects, init, what", [
    ("k - room\n   m - drink", "(hand-empty)", "unknown type 'drink'"),  # a type the domain lacks
    ("k - room m - item", "(hand-empty) (holding k)", "holding"),     # a room where an item goes
])
def test_unknown_type_or_wrong_argument_type_in_the_problem(write, objects, init, what):
    from actionable.worlds.pddl.scenes import DATA

    p = write("h.pddl", f"(define (problem h) (:domain household)\n (:objects {objects})\n"
                        f" (:init {init}) (:goal (hand-empty)))\n")
    with pytest.raises(PddlMismatchError, match=what) as ei:
        world(str(DATA / "household" / "domain.pddl"), p)
    assert ei.value.line == 3


@pytest.mark.parametrize("req, extra", [
    (":durative-actions", ""),
    (":derived-predicates", "(:derived (clear ?x) (not (exists (?y) (on ?y ?x))))"),
    (":timed-initial-literals", ""),
])
def test_an_unsupported_requirement_is_named(write, req, extra):
    d = write("d.pddl", f"(define (domain d)\n  (:requirements :strips {req})\n  (:predicates (on ?x ?y) (clear ?x))\n"
                        f"  {extra}\n  (:action a :parameters (?x) :precondition (clear ?x) :effect (not (clear ?x))))\n")
    with pytest.raises(PddlUnsupportedError, match=req) as ei:
        world(d, write("p.pddl", "(define (problem q) (:domain d) (:objects o) (:init (clear o)) (:goal (on o o)))"))
    assert ei.value.line == 2


def test_an_undeclared_durative_action_is_named(write):
    d = write("d.pddl", "(define (domain d) (:requirements :typing)\n (:types t) (:predicates (p ?x - t))\n"
                        " (:durative-action go :parameters (?x - t) :duration (= ?duration 1)\n"
                        "   :condition (at start (p ?x)) :effect (at end (not (p ?x)))))\n")
    with pytest.raises(PddlUnsupportedError, match=r"durative-action.*:durative-actions") as ei:
        world(d, write("p.pddl", "(define (problem q) (:domain d) (:objects o - t) (:init (p o)) (:goal (not (p o))))"))
    assert ei.value.line == 3


def test_adl_numeric_fluents_and_action_costs_run(write):
    """Measured: UP 1.3.0's simulator runs :adl (forall, when, or, =), numeric fluents and
    :action-costs (when the problem initialises (total-cost); see the next test)."""
    d = write("d.pddl", """(define (domain rich)
  (:requirements :adl :numeric-fluents :action-costs)
  (:types thing) (:predicates (p ?x - thing) (q ?x - thing))
  (:functions (level) - number (total-cost) - number)
  (:action a :parameters (?x ?y - thing)
    :precondition (and (not (= ?x ?y)) (forall (?z - thing) (or (p ?z) (q ?z))) (< (level) 2))
    :effect (and (when (p ?x) (q ?y)) (increase (level) 1) (increase (total-cost) 2))))""")
    p = write("p.pddl", "(define (problem r) (:domain rich) (:objects o1 o2 - thing)\n"
                        " (:init (p o1) (p o2) (= (level) 0) (= (total-cost) 0)) (:goal (q o2)) (:metric minimize (total-cost)))")
    w = world(d, p)
    info = w.step("a(o1, o2)")[4]
    assert info["executed"] and "(q o2)" in w.observe()["atoms"] and "(= (level) 1)" in w.observe()["atoms"]
    w.step("a(o1, o2)")
    info = w.step("a(o1, o2)")[4]  # level is 2 now
    assert not info["executed"] and info["unmet_preconditions"] == ["(< (level) 2)"]
    with pytest.raises(WorldActionError, match=r"a takes 2 argument\(s\) \(\?x - thing \?y - thing\), got 1"):
        w.step("a(o1)")


def test_not_utf8(write, bw_domain, tmp_path):
    p = tmp_path / "latin.pddl"
    p.write_bytes(PROBLEM.replace("two", "tw\xe9").encode("latin-1"))
    with pytest.raises(PddlFileError, match="not UTF-8"):
        world(bw_domain, str(p))


def test_an_uninitialised_action_cost_is_named_with_the_fix(write):
    """What refused ALFRED's domain with its costs (FIELD-NOTES): the problem never sets (total-cost)."""
    d = write("d.pddl", "(define (domain c) (:requirements :strips :action-costs)\n (:predicates (p ?x))\n"
                        " (:functions (total-cost) - number)\n"
                        " (:action a :parameters (?x) :precondition (p ?x) :effect (and (not (p ?x)) (increase (total-cost) 1))))")
    p = write("p.pddl", "(define (problem q) (:domain c) (:objects o)\n (:init (p o)) (:goal (not (p o))))")
    with pytest.raises(PddlMismatchError, match=r"total-cost have no initial value; add e.g. '\(= \(total-cost\) 0\)'") as ei:
        world(d, p)
    assert ei.value.line == 2
    w = world(d, write("p2.pddl", "(define (problem q) (:domain c) (:objects o)\n (:init (p o) (= (total-cost) 0))"
                                  " (:goal (not (p o))))"))
    assert w.step("(a o)")[2]  # the goal: reached

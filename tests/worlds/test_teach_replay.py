"""Replay of the 79 TEACh episodes' successful driver interactions (a check against AI2-THOR)."""

from actionable.worlds.thor.replay import replay_all
from actionable.worlds.thor.scene import knob_agreement

#: final-state differences left after a full replay, each explained (docs/worlds.md)
EXPLAINED_MISMATCHES = {
    # AI2-THOR reports no parentReceptacles for a potato boiled in a pot on a stove burner (the
    # pot's final metadata still lists the burner); we keep the potato in the pot.
    "01ced2f37b0b68f6_0042": ["Potato|-00.79|+01.07|+03.04: parent ours=Pot|-03.00|+01.13|+00.48 teach=None"],
    "5fceb114ca1450e6_f30d": ["Potato|-01.06|+00.96|-00.82: parent ours=Pot|+00.51|+00.94|-00.49 teach=None"],
    # The last success-flagged interaction is Pickup(Mug), yet TEACh's final_state has the mug
    # not picked up: the final snapshot predates it (or the pickup was undone without a record).
    "f33b56cdba2cb217_4758": ["Mug|+00.18|+00.91|-01.56: held ours=True teach=False"],
}


def test_every_episode_replays_to_the_end():
    results = replay_all()
    assert len(results) == 79
    incomplete = [(r.game, r.failed) for r in results if not r.complete]
    assert incomplete == []
    assert sum(r.n_actions for r in results) == 238
    assert sum(r.n_executed for r in results) == 238


def test_final_states_match_teach_except_explained():
    results = replay_all()
    got = {r.game: r.mismatches for r in results if r.mismatches}
    assert got == EXPLAINED_MISMATCHES


def test_knob_links_agree_with_burner_temperatures():
    ok, n = knob_agreement()
    assert n == 464 and ok >= 460

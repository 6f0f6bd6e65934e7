"""Verification benchmarks: labelled error injection into gold programs (:mod:`.corrupt`), the
judges x planners benchmark on it (:mod:`.bench`), the hand-labelled corpus (:mod:`.cases`), the
TEACh demonstrations (:mod:`.teach`) and the cleaning of real planners' plans (:mod:`.planners`)."""

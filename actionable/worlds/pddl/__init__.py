"""The ``pddl`` world: any PDDL domain + problem (a user's own files, or the shipped Blocksworld and
household examples), parsed and executed by unified-planning (:mod:`.world`, docs/worlds.md,
"Add a world"). Planning domain: :mod:`.planning`; the sim judge's adapter: :mod:`.verify_adapter`.
"""

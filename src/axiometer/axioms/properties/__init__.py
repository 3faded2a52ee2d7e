"""The relative (novelty) properties the seed papers claim, one module each (definitions §6).

:mod:`~axiometer.axioms.properties.base` says what a property is and how its
verdict is reached; Rev, Rarity, PriorSens and PriorMono, Bounded, Unique and
Finite each declare their cases and their judge in their own module. The
registry is :mod:`axiometer.axioms`.
"""

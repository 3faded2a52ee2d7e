"""Constraints as generative test oracles (SIGIR 2018's ten, Giner's intrinsic
properties, the relative metrics' properties): one constraint per module.

Empty until the constraint issue lands; the package exists so that the
dependency direction (core <- metrics <- generators/axioms <- runner <-
reports, CLI, plugin) is fixed from the start.
"""

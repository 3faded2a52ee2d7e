"""Case generators: hypothesis strategies and small exhaustive scopes.

:mod:`axiometer.generators.campaign` builds synthetic campaigns (topics and
runs) for benchmarks and differential tests.
"""

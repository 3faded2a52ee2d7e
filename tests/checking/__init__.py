"""Tests of the checking engine: the search, its budgets and what a verdict rests on."""

"""The ten constraints of Amigó, Spina & Carrillo-de-Albornoz (SIGIR 2018, section 3), one module each.

:mod:`~axiometer.axioms.constraints.base` says what a constraint is and
holds the universal procedure; :mod:`~axiometer.axioms.constraints.threshold`
the threshold procedure (DeepTh, CloseTh); Sat's ``rmax`` search lives with
Sat in :mod:`~axiometer.axioms.constraints.saturation`;
:mod:`~axiometer.axioms.constraints.conditions` restates each constraint's
conditions for the tests of the generators. The registry is
:mod:`axiometer.axioms`.
"""

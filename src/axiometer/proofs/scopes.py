"""Which case structures a proof decides for each constraint, at a proof size (definitions §3.12).

:func:`structures_for` gives, for a proof size ``size`` (``Budget.proof_docs``:
6 by default, 4 with ``--quick``), the structures of a constraint up to the
scope it can afford. The relevance constraints (one aspect) take every
structure of up to ``size`` documents. The diversity constraints multiply
structures by every relevant/not-relevant choice per document *and aspect*
(AspDiv has 12,422 structures of up to 3 documents and 3 aspects, millions
at 6 and 3), so their scopes are smaller and each is stated in the proof:

==========  ==============================================  ====================
constraint  scope at size 6 (size 4)                        structures
==========  ==============================================  ====================
Pri         up to 6 (4) documents, 1 aspect                 702 (60)
Deep        up to 6 (4) documents, 1 aspect                 62 (4)
Conf        up to 6 (4) documents, 1 aspect                 63 (15)
AspDiv      up to 3 (2) documents, 2 aspects, free weights  718 (118)
Red         prefixes of up to 2 (1) documents, 2-3 aspects  800 (140)
MRed        prefixes of up to 2 (1) documents, 2 aspects    240 (80)
AspRel      up to 4 (3) documents, 2-3 aspects              314 (114)
Sat         up to 3 (2) documents, 1-3 aspects, one rmax    96 (33 at 3 x 3)
==========  ==============================================  ====================
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from axiometer.proofs import diversity_structures as diversity
from axiometer.proofs import relevance_structures as relevance
from axiometer.proofs.structure import Structure

__all__ = ["structures_for", "PROVABLE"]

#: The constraints whose satisfied (or, for Sat, witness) verdicts a structure proof can back.
PROVABLE = ("Pri", "Deep", "Conf", "AspDiv", "Red", "MRed", "AspRel", "Sat")


def structures_for(constraint: str, rho: Fraction, size: int, last: int | None,
                   rmax: Fraction | None = None) -> Iterator[Structure] | None:
    """The structures of ``constraint`` at proof size ``size`` (``None``: the constraint has none;
    Sat needs its witness ``rmax``)."""
    if constraint == "Pri":
        return relevance.priority_structures(rho, size, last)
    if constraint == "Deep":
        return relevance.deepness_structures(rho, size, last)
    if constraint == "Conf":
        return relevance.confidence_structures(rho, size, last)
    if constraint == "AspDiv":
        return diversity.aspect_diversity_structures(rho, max(2, size - 3), 2, last)
    if constraint == "Red":
        return diversity.redundancy_structures(rho, max(1, size - 4), last)
    if constraint == "MRed":
        return diversity.monotonic_redundancy_structures(rho, max(1, size - 4), last)
    if constraint == "AspRel":
        return diversity.aspect_relevance_structures(rho, max(3, size - 2), 3, last)
    if constraint == "Sat" and rmax is not None:
        return diversity.saturation_structures(rmax, max(2, size - 3), 3, last)
    return None

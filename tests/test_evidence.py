"""What a holding verdict rests on, as tidy rows (``Evidence.to_rows``, ``Proof.to_rows``): one row
per proved or searched fact, the same columns with a proof or without."""

from __future__ import annotations

from fractions import Fraction

from axiometer.evidence import Evidence, Proof, Strength

PROOF = Proof(scope="every case of up to 6 documents and 1 aspect", procedure="z3", structures=702, paths=1911,
              seconds=2.5, rho=Fraction(1, 10), max_docs=6, aspects=1, formulas=("(assert false)",))


def test_a_proof_is_one_row_with_numbers_as_numbers():
    (row,) = PROOF.to_rows()
    assert row["proved_for"] == PROOF.scope and row["rho"] == 0.1 and type(row["rho"]) is float
    assert (row["structures"], row["paths"], row["formulas"]) == (702, 1911, 1)


def test_evidence_with_a_proof_or_without_has_the_same_columns():
    proved = Evidence(Strength.PROVED, "every case with up to 4 documents", 240, 1500, True, PROOF)
    searched = Evidence(Strength.SEARCHED, "every case with up to 3 documents", 60, 1500, False)
    (with_proof,), (without,) = proved.to_rows(), searched.to_rows()
    assert list(with_proof) == list(without)
    assert with_proof["strength"] == "proved" and with_proof["procedure"] == "z3"
    assert without["strength"] == "searched" and without["proved_for"] is None and without["exact"] is False
    assert len(proved.to_pandas()) == 1

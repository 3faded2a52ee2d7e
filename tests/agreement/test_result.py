"""``agree``'s and ``audit``'s results as tidy rows (``to_rows``): a row per property beside the
verdict, a row per peer measure."""

from __future__ import annotations

from axiometer.agreement.result import Agreement, AgreementResult, AuditResult, AuditRow, PropertyCheck

PROPERTIES = (PropertyCheck("range", "every value in [0, 1]", True),
              PropertyCheck("defined", "a number on every query", False, detail="raised ValueError"))


def _result(name: str = "my_rr") -> AgreementResult:
    return AgreementResult(implementation=name, provider=name, metric="RR", agree=Agreement.AGREES, convention=None,
                           case=None, properties=PROPERTIES, queries=5, searched=1, tolerance=1e-9, seed=0, seconds=0.1)


def test_an_agreement_has_a_row_per_property_beside_the_verdict():
    rows = _result().to_rows()
    assert [(r["property"], r["holds"], r["detail"]) for r in rows] == [(p.name, p.holds, p.detail) for p in PROPERTIES]
    assert {(r["agree"], r["convention"], r["difference"]) for r in rows} == {("agrees", None, None)}


def test_an_audit_has_a_row_per_peer_measure():
    audit = AuditResult(rows=(AuditRow("peer", "RR", "RR", _result("peer:RR")), AuditRow("peer", "P@5", "P@5", None, "boom")),
                        queries=5, seed=0)
    rows = audit.to_rows()
    assert len(rows) == len(audit.rows)
    assert (rows[0]["agree"], rows[0]["failing"], rows[0]["error"]) == ("agrees", ["defined"], None)
    assert (rows[1]["agree"], rows[1]["failing"], rows[1]["error"]) == (None, [], "boom")

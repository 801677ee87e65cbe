"""Reading the trusted server's Authentication-Results (pbp.mail.sender_auth), with the
header shapes real providers write. The full path through the ingest is in
tests/integration/test_sender_auth.py."""

from __future__ import annotations

from pbp.mail.sender_auth import refusal

GMAIL = (
    "mx.google.com; dkim=pass header.i=@example.org header.s=s1 header.b=Ab12; "
    "spf=pass (google.com: domain of a@example.org designates 192.0.2.1 as permitted sender) "
    "smtp.mailfrom=a@example.org; dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=example.org"
)
MICROSOFT = (
    "spf=pass (sender IP is 192.0.2.1) smtp.mailfrom=example.org; dkim=pass (signature was verified) "
    "header.d=example.org;dmarc=pass action=none header.from=example.org;compauth=pass reason=100"
)


def test_gmail_results_pass():
    assert refusal([(3, GMAIL)], "a@example.org", "mx.google.com") is None


def test_microsoft_365_results_have_no_authserv_id_and_are_named_so():
    assert refusal([(3, MICROSOFT)], "a@example.org", "no-authserv-id") is None
    assert "no authentication results" in refusal(
        [(3, MICROSOFT)], "a@example.org", "mx.google.com"
    )


def test_a_result_for_another_domain_does_not_vouch_for_the_from_domain():
    assert refusal([(0, GMAIL)], "a@victim.example", "mx.google.com") is not None


def test_relaxed_alignment_accepts_a_subdomain_but_not_a_bare_suffix():
    assert (
        refusal([(0, "mx.x; dkim=pass header.d=example.org")], "a@mail.example.org", "mx.x") is None
    )
    assert refusal([(0, "mx.x; dkim=pass header.d=org")], "a@example.org", "mx.x") is not None


def test_only_headers_adjacent_to_the_first_trusted_one_count():
    top = (0, "mx.x; dmarc=none header.from=example.org")
    adjacent = (1, "mx.x; dkim=pass header.d=example.org")
    forged = (4, "mx.x; dkim=pass header.d=example.org")
    assert refusal([top, adjacent], "a@example.org", "mx.x") is None
    assert refusal([top, forged], "a@example.org", "mx.x") is not None


def test_dmarc_fail_wins_over_passing_spf_and_dkim():
    header = "mx.x; spf=pass smtp.mailfrom=a@example.org; dkim=pass header.d=example.org; dmarc=fail header.from=example.org"
    assert "fails DMARC" in refusal([(0, header)], "a@example.org", "mx.x")


def test_an_unreadable_trusted_header_leaves_the_mail_unauthenticated():
    passing = (1, "mx.x; dmarc=pass header.from=example.org")
    assert "could not be read" in refusal([(0, "mx.x; ;;; ==="), passing], "a@example.org", "mx.x")
    assert refusal([(0, "other.example; ;;; ==="), passing], "a@example.org", "mx.x") is None

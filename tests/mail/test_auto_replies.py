"""Automatic mail is never answered, whoever sent it (docs/design.md: Reliability rules — Loops)."""

from __future__ import annotations

import email

import pytest

from pbp.mail.headers import auto_reply_reason, no_reply_reason

OWN = ("pbp@games.example",)


def message(headers: str, sender: str = "host@example.org"):
    return email.message_from_string(f"From: {sender}\n{headers}Subject: hi\n\nhello\n")


@pytest.mark.parametrize(
    "headers, sender",
    [
        ("Auto-Submitted: auto-replied\n", "host@example.org"),
        ("Auto-Submitted: auto-generated; owner=x\n", "alice@example.org"),
        ("Precedence: bulk\n", "host@example.org"),
        ("Precedence: junk\n", "host@example.org"),
        ("Precedence: list\n", "host@example.org"),
        ("List-Id: <games.lists.example>\n", "host@example.org"),
        ("Return-Path: <>\n", "host@example.org"),
        ("X-Autoreply: yes\n", "host@example.org"),
        ("", "MAILER-DAEMON@example.org"),
        ("", "pbp@games.example"),
    ],
)
def test_automatic_mail_is_recognised(headers, sender):
    mail = message(headers, sender)
    assert auto_reply_reason(mail, sender.lower(), OWN) is not None
    assert no_reply_reason(mail, sender.lower(), OWN) is not None


@pytest.mark.parametrize(
    "headers",
    ["", "Auto-Submitted: no\n", "Precedence: first-class\n", "Return-Path: <host@example.org>\n"],
)
def test_a_person_s_mail_may_be_answered(headers):
    assert no_reply_reason(message(headers), "host@example.org", OWN) is None

"""`pbp run`'s log lines (pbp.daemon.logs): one line per event with its level and game id; the
filter on the handler replaces every known secret, also inside a base64 word, and makes a
message of several lines one line. The whole daemon's log is searched for secrets in
tests/integration/test_run_log_secrets.py; this is the filter alone."""

from __future__ import annotations

import base64
import io
import logging

from pbp.daemon import logs
from pbp.daemon.logs import FORMAT, LogLineFilter


def lines_logged(secrets: set[str], write) -> list[str]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        logging.Formatter(FORMAT.removeprefix("%(asctime)s "))
    )  # no clock in the lines
    handler.addFilter(LogLineFilter(lambda: secrets))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        write()
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    return stream.getvalue().splitlines()


def test_each_event_is_one_line_with_its_level_and_game():
    lines = lines_logged(
        set(),
        lambda: (
            logs.info("resolved g1 D1", game="g1"),
            logs.error("cycle failed (Error: one\ntwo)"),
        ),
    )
    assert lines == ["INFO game=g1 resolved g1 D1", "ERROR game=- cycle failed (Error: one | two)"]


def test_known_secrets_are_replaced_plain_in_arguments_and_in_base64():
    secret = "at-Zm9vYmFyYmF6cXV4"
    sasl = base64.b64encode(
        f"user=pbp@example.org\x01auth=Bearer {secret}\x01\x01".encode()
    ).decode()
    lines = lines_logged(
        {secret, "hunter2"},
        lambda: (
            logging.getLogger("imapclient").debug("> AUTHENTICATE XOAUTH2 %s", sasl),
            logging.getLogger("urllib3").warning("login hunter2 refused for token %s", secret),
        ),
    )
    assert lines == [
        "DEBUG game=- > AUTHENTICATE XOAUTH2 [secret]",
        "WARNING game=- login [secret] refused for token [secret]",
    ]

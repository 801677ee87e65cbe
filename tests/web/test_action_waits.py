"""An action waits for `pbp run`'s cycle as a command does, and says so; a page never
waits (docs/design.md: The host's desk in the browser). The test holds the writer lock
itself and releases it explicitly once the action is seen waiting: no timing."""

from __future__ import annotations

import threading

import pytest

import pbp.web.acting
from pbp.composition import ComposedModerator
from pbp.web.app import make_app
from pbp.web.credentials import new_login_link
from pbp.web.folders import Waited

from tests.web.conftest import csrf_of
from tests.web.test_actions import notes_of

RELEASE_WITHIN = 30  # seconds: a bound on a broken test, never a wait for something to happen


class SeenWaiting(Waited):
    """A `Waited` that tells the test when the action begins to wait for the lock."""

    began = threading.Event()

    def begin(self) -> None:
        super().begin()
        SeenWaiting.began.set()


def logged_in_client(site):
    client = make_app(site.settings()).test_client()
    assert client.get(f"/login/{new_login_link(site.data)}").status_code == 302
    return client


@pytest.fixture
def seen_waiting(monkeypatch):
    SeenWaiting.began = threading.Event()
    monkeypatch.setattr(pbp.web.acting, "Waited", SeenWaiting)
    return SeenWaiting


def test_a_page_reads_at_once_while_an_action_waits_for_the_lock(site, seen_waiting):
    acting, reading = logged_in_client(site), logged_in_client(site)
    token = csrf_of(acting.get("/games/w1/actions").data)
    answers = []
    held = ComposedModerator(site.settings())  # the writer lock, as `pbp run` holds it in a cycle
    try:
        action = threading.Thread(
            target=lambda: answers.append(
                acting.post(
                    "/games/w1/actions/pause", data={"csrf_token": token, "reason": "a break"}
                )
            )
        )
        action.start()
        assert seen_waiting.began.wait(RELEASE_WITHIN), "the action did not wait for the lock"
        page = reading.get("/games/w1/actions")  # the reader takes no lock
        assert page.status_code == 200 and b"Pause the game" in page.data and not answers
    finally:
        held.close()
    action.join(RELEASE_WITHIN)
    (answer,) = answers
    notes = notes_of(acting.get(answer.headers["Location"]).data)
    assert "Game w1 is paused with" in notes
    assert "running pbp to finish its cycle" in notes


def test_an_action_that_did_not_wait_says_nothing_of_waiting():
    assert Waited().note == ""
    waited = Waited()
    waited.begin()
    assert waited.note == "This waited a moment for the running pbp to finish its cycle."
    waited.seconds = 12.4
    assert waited.note == "This waited 12 s for the running pbp to finish its cycle."

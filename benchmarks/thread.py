"""Thread-vote benchmark: reading a game thread of 5,000 posts and counting its votes,
against a bare fetch-and-parse of the same listing.

Run: python3 benchmarks/thread.py [--posts 5000] [--rounds 5]

It starts the local Discourse (pbp.demo.discourse_server, the forum `pbp demo --votes
thread` and the tests use) on loopback and fills one topic with `--posts` posts by the
nine players of a Werewolf game on Day 1, one in three a nomination in bold, the rest
talk (some quoting a nomination). A data folder with that game (`votes = thread`, the
topic as its thread) is the template. Every round then measures, in turn:

(a) pbp: a fresh copy of the template, and one read of its thread as the watch does it
    (`pbp.forum.thread.watch.read_game_thread` through pbp's Discourse client: every post fetched,
    its order lines read, each vote judged by the engine's parser and stored, every post
    kept for the activity counts, in one durable write);
(b) baseline: the same HTTP requests with `requests` and the JSON decoded, nothing more.

The two alternate, the order flipping each round; pbp's throughput is posts per second of
(a), the baseline's of (b). The median round's ratio (pbp's throughput over the
baseline's), printed last, must be at least 0.8.

Exit status: 0 when the ratio holds, 1 when it does not.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import requests  # noqa: E402

from pbp.composition import ComposedModerator  # noqa: E402
from pbp.demo.discourse_server import LocalDiscourse  # noqa: E402
from pbp.forum.discourse import CHUNK, DiscourseForum, DiscourseSettings  # noqa: E402
from pbp.forum.thread.watch import read_game_thread  # noqa: E402
from pbp.game.create import create_game  # noqa: E402
from pbp.game.record_parts import RosterPlayer
from pbp.game.resolution import resolve_phase  # noqa: E402
from pbp.game.stored import load  # noqa: E402
from pbp.settings import Settings  # noqa: E402
from pbp.storage.drafts import DraftBook  # noqa: E402

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Gita", "Hugo", "Ines")
TARGET = 0.8
GAME = "bench"


class Clock:
    def __init__(self, moment):
        self.moment = moment

    def __call__(self):
        return self.moment


def make_template(folder: Path, forum: LocalDiscourse, posts: int) -> int:
    """The game on Day 1 with its thread filled; returns the topic's id."""
    from datetime import datetime, timedelta, timezone

    clock = Clock(datetime(2030, 1, 1, 12, tzinfo=timezone.utc))
    moderator = ComposedModerator(
        Settings(data=folder, from_address="pbp@bench.invalid"), clock=clock
    )
    with moderator:
        roster = [RosterPlayer(n, f"{n.lower()}@example.org", "", f"{n.lower()}_f") for n in NAMES]
        create_game(
            moderator, "werewolf", roster, seed="bench", game_id=GAME, options={"votes": "thread"}
        )
        clock.moment += timedelta(days=2)
        resolve_phase(moderator, GAME, "N0")
        opened = clock.moment.timestamp()
        topic = forum.new_topic(
            "bench: Werewolf game thread", "opening", forum.username, at=opened
        ).topic_id
        for number in range(posts):
            author = NAMES[number % len(NAMES)]
            if number % 3 == 0:
                text = (
                    "I have thought about it.\n\n**NOMINATE"
                    f" {NAMES[(number * 7) % len(NAMES)]}**\n\nThat is all."
                )
            elif number % 3 == 1:
                text = (
                    f"> NOMINATE {NAMES[number % 4]}\n\nNo, that makes no sense to me. Think again,"
                    " all of you."
                )
            else:
                text = "Talk, talk, talk. " * 8
            forum.reply(topic, text, f"{author.lower()}_f", opened + 1 + number)
        game = load(moderator, GAME)
        with game.file.transaction():
            DraftBook(game.file).update_game_settings({"thread": str(topic)})
    return topic


def pbp_round(template: Path, work: Path, forum: LocalDiscourse) -> tuple[float, int]:
    """Seconds for pbp's read of the whole thread, and the votes it stored."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(template, work)
    from datetime import datetime, timezone

    clock = Clock(datetime(2030, 1, 3, 13, tzinfo=timezone.utc))
    moderator = ComposedModerator(
        Settings(data=work, from_address="pbp@bench.invalid"), clock=clock
    )
    reader = DiscourseForum(
        DiscourseSettings(url=forum.url, api_username=forum.username, api_key=forum.api_key)
    )
    with moderator:
        load(moderator, GAME)  # the game file opened, as the daemon holds it
        started = time.perf_counter()
        read = read_game_thread(moderator, GAME, reader)
        seconds = time.perf_counter() - started
    assert read is not None
    return seconds, len(read.votes.accepted)


def baseline_round(forum: LocalDiscourse, topic: int) -> tuple[float, int]:
    """Seconds for the same requests with `requests`, the JSON decoded; the posts seen."""
    session = requests.Session()
    session.headers.update({"Api-Key": forum.api_key, "Api-Username": forum.username})
    started = time.perf_counter()
    data = session.get(f"{forum.url}/t/{topic}.json", params={"include_raw": "true"}).json()
    stream = data["post_stream"]["stream"]
    posts = list(data["post_stream"]["posts"])
    have = {post["id"] for post in posts}
    missing = [i for i in stream if i not in have]
    for start in range(0, len(missing), CHUNK):
        params = [("post_ids[]", i) for i in missing[start : start + CHUNK]] + [
            ("include_raw", "true")
        ]
        posts += session.get(f"{forum.url}/t/{topic}/posts.json", params=params).json()[
            "post_stream"
        ]["posts"]
    return time.perf_counter() - started, len(posts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    forum = LocalDiscourse(api_key="bench-key").start()
    root = Path(tempfile.mkdtemp(prefix="pbp-thread-bench-"))
    try:
        topic = make_template(root / "template", forum, args.posts)
        pbp_round(root / "template", root / "work", forum)  # warm: imports, templates
        ratios, times = [], {"pbp": [], "baseline": []}
        for round_number in range(args.rounds):
            order = ("pbp", "baseline") if round_number % 2 == 0 else ("baseline", "pbp")
            measured = {}
            for which in order:
                if which == "pbp":
                    measured["pbp"], votes = pbp_round(root / "template", root / "work", forum)
                else:
                    measured["baseline"], seen = baseline_round(forum, topic)
            for which, seconds in measured.items():
                times[which].append(seconds)
            ratio = (
                measured["baseline"] / measured["pbp"]
            )  # throughput: posts per second, inverted times
            ratios.append(ratio)
            print(
                f"round {round_number + 1}: pbp {measured['pbp'] * 1000:.0f} ms ({votes} votes"
                f" stored), bare fetch-and-parse {measured['baseline'] * 1000:.0f} ms ({seen}"
                f" posts)   ratio {ratio:.2f}"
            )
        median = statistics.median(ratios)
        print(
            f"posts {args.posts}: pbp {statistics.median(times['pbp']) * 1000:.0f} ms, bare"
            f" {statistics.median(times['baseline']) * 1000:.0f} ms   rounds' ratios"
            f" {min(ratios):.2f}-{max(ratios):.2f}"
        )
        ok = median >= TARGET
        print(
            f"ratio of pbp's throughput to the bare fetch-and-parse {median:.2f} (need >="
            f" {TARGET}): {'OK' if ok else 'TOO SLOW'}"
        )
        return 0 if ok else 1
    finally:
        forum.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

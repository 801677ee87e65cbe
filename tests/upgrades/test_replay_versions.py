"""`pbp replay` on a game started under other rules than run now says which version
started it, which runs now, and the first place where the replay and the stored game part
(docs/design.md: Releases and upgrades): the step, and a field of the state."""

from __future__ import annotations

import json
from dataclasses import replace

from pbp.cli import main
from pbp.composition import ComposedModerator
from pbp.game.checkpoints import state_digest
from pbp.host.replay import replay_game
from pbp.settings import load_settings
from tests.upgrades.site import RELEASES, unpack


def test_a_game_of_an_earlier_release_replays_and_a_change_of_rules_is_named(
    tmp_path, capsys, monkeypatch
):
    settings_path = unpack(RELEASES[0], tmp_path)
    settings = load_settings(str(settings_path))
    with ComposedModerator(settings) as moderator:  # upgrades the folder
        for game_id in ("ww1", "inf1"):
            report = replay_game(moderator, game_id)
            assert report.reproduced and (report.started_under, report.runs) == (1, 1)
    # The stored game as another version of the rules would have played the first night.
    path = settings.data / "games" / "ww1.json"
    document = json.loads(path.read_text())
    record = document["game"]["1"]
    record["checkpoints"][1]["digest"] = state_digest({"another": "ruling"})
    record["state"]["day"] = 2
    path.write_text(json.dumps(document))
    with ComposedModerator(settings) as moderator:
        rules = moderator.rules("werewolf")
        monkeypatch.setattr(rules, "card", replace(rules.card, rules_version=2))
        report = replay_game(moderator, "ww1")
        assert not report.reproduced
        sentence = report.explained()
        assert sentence.startswith(
            "The game started under rules version 1 and this pbp runs version 2; "
            "replayed under version 2, after resolution of N0: "
        )
        assert (
            "in the current state, at .day the stored game has 2 but the replay gives 1."
            in sentence
            and sentence.count(". ") == 0
        )
    capsys.readouterr()
    assert main(["replay", "ww1", "--settings", str(settings_path)]) == 1
    assert "after resolution of N0" in capsys.readouterr().out

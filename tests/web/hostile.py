"""A desk whose game is full of hostile text (docs/design.md: The host's desk — as safe
as the mailbox): forum names and a draft with script tags, markup, `javascript:` links,
bidi overrides and zero-width characters. A player's own name cannot hold them (the
roster refuses anything but letters, digits, `_` and `-`), so the names a player writes
freely — forum names — and the posts carry them."""

from __future__ import annotations

from pathlib import Path

from tests.web.conftest import PLAYERS, DeskSite, desk_settings

RLO, ZWSP = "\u202e", "\u200b"
FORUM_NAMES = (
    '<script>alert("name")</script>',
    f"evil{RLO}gnp.exe",
    f"chl{ZWSP}oe",
    "[url=javascript:alert(2)]D[/url]",
    "<img src=x onerror=alert(3)>",
    '"><svg onload=alert(4)>',
    "[x](javascript:alert(5))",
    "hiro",
)
HOSTILE_DRAFT = (
    '<script>alert("draft")</script> <img src=x onerror=alert(6)>\n\n'
    "[click me](javascript:alert(7)) [url=javascript:alert(8)]here[/url]\n\n"
    f'<a href="javascript:alert(9)">a</a> {RLO}txet desrever{ZWSP} <iframe src="/"></iframe>\n\n'
    "</textarea></pre><script>alert(10)</script>\n"
)


def make_hostile_site(root: Path) -> DeskSite:
    """A data folder with game `w1` (8 players with hostile forum names), its first night
    resolved, and its draft `N0` edited by the host into hostile text."""
    from pbp.cli import main
    from pbp.composition import ComposedModerator
    from pbp.forum.publishing import review
    from pbp.game.stored import load
    from pbp.settings import load_settings

    root.mkdir(parents=True, exist_ok=True)
    settings_file = desk_settings(root)
    roster = root / "roster.csv"
    import csv

    with roster.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "email", "timezone", "forum_name"])
        for name, forum_name in zip(PLAYERS, FORUM_NAMES):
            writer.writerow([name, f"{name.lower()}@example.org", "Australia/Sydney", forum_name])
    site = DeskSite(root, settings_file)
    assert (
        site.pbp(
            "new-game",
            "--ruleset",
            "werewolf",
            "--roster",
            str(roster),
            "--seed",
            "7",
            "--id",
            "w1",
            "--no-send",
        )
        == 0
    )
    assert main(["advance", "w1", "--settings", str(settings_file)]) == 0
    with ComposedModerator(load_settings(str(settings_file))) as moderator:
        game = load(moderator, "w1")
        with game.file.transaction():
            review.edit(game, "N0", HOSTILE_DRAFT)
    return site

"""The substitutes' list (docs/design.md: Sign-ups): those who signed up beyond the
game's maximum, in order. `pbp substitute <game> <old> --next` hands the character to the
first of them who is not on the game's roster yet, and takes them off the list."""
from __future__ import annotations

from pbp.datafolder import DataFolder
from pbp.errors import UserError
from pbp.signups.book import find_open_game


def next_substitute(folder: DataFolder, game_id: str, roster_addresses: set[str]) -> dict:
    """The first sign-up on the substitutes' list who does not play in the game yet."""
    signups = find_open_game(folder, game_id)
    if signups is None:
        raise UserError(f"Game {game_id} was not opened for sign-ups, so it has no substitutes' list; "
                        f"name the newcomer: pbp substitute {game_id} <old> <new-name> <new-email>.")
    for entry in signups.substitutes:
        if entry["email"] not in roster_addresses:
            return dict(entry)
    raise UserError(f"The substitutes' list of {game_id} is empty; name the newcomer: "
                    f"pbp substitute {game_id} <old> <new-name> <new-email>.")


def strike_off(folder: DataFolder, game_id: str, email: str) -> None:
    """Take the substitute with address `email` off the list (they play now)."""
    signups = find_open_game(folder, game_id)
    if signups is None:
        return
    record = signups.record
    kept = record["entries"][: record["players_max"]] + [
        e for e in signups.substitutes if e["email"] != email]
    with signups.file.transaction():
        signups.file.update_record({"entries": kept})

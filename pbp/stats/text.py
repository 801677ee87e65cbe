"""The text tables of `pbp stats` (docs/balance.md: Statistics across games): a header row
per table, counts in words ("1 game", "2 games"), rulesets spelled out, each setup named
once above its teams, and columns aligned by display width, so that a name in wide
characters (CJK, two columns each) keeps the columns straight."""

from __future__ import annotations

from typing import Sequence

from wcwidth import wcswidth

from pbp.stats.tables import Row


def width(text: str) -> int:
    shown = wcswidth(text)
    return shown if shown >= 0 else len(text)  # a control character: count it as one


def table(
    header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool], indent: str = "  "
) -> list[str]:
    """Columns padded to the widest cell by display width; numbers aligned right."""
    widths = [max(width(cell) for cell in column) for column in zip(header, *rows)]

    def line(cells: Sequence[str]) -> str:
        padded = [
            " " * (w - width(c)) + c if r else c + " " * (w - width(c))
            for c, w, r in zip(cells, widths, right)
        ]
        return (indent + "  ".join(padded)).rstrip()

    return [line(header), *(line(row) for row in rows)]


def games(count: int, unit: str = "game") -> str:
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def percent(row: Row) -> str:
    return f"{100 * row['win_rate']:.1f} %"


def interval(row: Row) -> str:
    return f"[{100 * row['low']:.1f}, {100 * row['high']:.1f}]"


def spelled(name: str) -> str:
    """A ruleset or role as a person reads it: `werewolf` -> `Werewolf`."""
    return name.replace("_", " ").title()


RATE = ("games", "won", "95 % interval")


def text(tables: dict[str, list[Row]], finished: int, running: int) -> str:
    lines = [
        f"{finished} finished {'game' if finished == 1 else 'games'} ({running} still running, not"
        " counted); win rates with 95 % intervals"
    ]
    if not finished:
        return lines[0]
    lines.append("\nPlayers:")
    lines += table(
        ("player", *RATE, "survived", "roles"),
        [
            (
                row["player"],
                games(row["games"]),
                percent(row),
                interval(row),
                f"{100 * row['survival']:.0f} %",
                row["roles"],
            )
            for row in tables["players"]
        ],
        (False, True, True, True, True, False),
    )
    for name, key, unit in (
        ("Roles (counted in seats)", "role", "seat"),
        ("Teams", "team", "game"),
    ):
        lines.append(f"\n{name}:")
        lines += table(
            ("game", key, f"{unit}s", *RATE[1:]),
            [
                (
                    spelled(row["ruleset"]),
                    row[key],
                    games(row["games"], unit),
                    percent(row),
                    interval(row),
                )
                for row in tables[f"{key}s"]
            ],
            (False, False, True, True, True),
        )
    lines += _setup_lines(tables["setups"])
    return "\n".join(lines)


def _setup_lines(rows_of_setups: list[Row]) -> list[str]:
    """The setups part: each setup played, then its teams' win rates."""
    lines = ["\nSetups:"]
    setups: dict[str, list[Row]] = {}
    for row in rows_of_setups:
        setups.setdefault(row["setup"], []).append(row)
    for setup, rows in setups.items():
        ruleset, _, rest = setup.partition(" ")
        size, _, made_of = rest.partition(":")
        lines.append(f"  {spelled(ruleset)}, {size} players" + (f":{made_of}" if made_of else ""))
        lines += table(
            ("team", *RATE),
            [(row["team"], games(row["games"]), percent(row), interval(row)) for row in rows],
            (False, True, True, True),
            indent="    ",
        )
    return lines

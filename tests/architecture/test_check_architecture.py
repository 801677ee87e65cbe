"""`scripts/check-architecture` fails on each kind of planted violation and passes a tree
that keeps the rules (docs/design.md: The one rule of the architecture)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check-architecture"

# A small tree in the declared layers: the commands over a feature over the game.
CLEAN_TREE = {
    "pbp/__init__.py": "",
    "pbp/commands/__init__.py": "import engine\nfrom pbp.forum import post\n",
    "pbp/forum/__init__.py": "",
    "pbp/forum/post.py": "from pbp.game import status\n",
    "pbp/host/__init__.py": "",
    "pbp/game/__init__.py": "",
    "pbp/game/status.py": "from engine.core import Ruleset\nKIND = 'toy game'\n",
    "engine/__init__.py": "from engine.toy import rules\n",
    "engine/core.py": "class Ruleset: ...\n",
    "engine/toy/__init__.py": "",
    "engine/toy/rules.py": "from engine.core import Ruleset\n",
    "engine/other/__init__.py": "",
    "engine/other/rules.py": "from engine.core import Ruleset\n",
}


def check(tmp_path: Path, changes: dict[str, str]) -> subprocess.CompletedProcess:
    for relative, text in {**CLEAN_TREE, **changes}.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_tree_that_keeps_the_rules_passes(tmp_path):
    done = check(tmp_path, {})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no import cycle, layers kept, no package cycle" in done.stdout
    assert "no module over 300 lines" in done.stdout
    assert (
        "at most 15 modules in pbp/" in done.stdout and "touched only by its keepers" in done.stdout
    )
    assert "mail worded by templates" in done.stdout
    assert "no function over 50 lines or complexity 15" in done.stdout


def test_an_import_cycle_in_the_shell_fails_even_through_a_function_level_import(tmp_path):
    done = check(
        tmp_path,
        {
            "pbp/game/status.py": "def late():\n    from pbp.game import clock\n",
            "pbp/game/clock.py": "from pbp.game import status\n",
        },
    )
    assert done.returncode == 1
    assert "import cycle in pbp: pbp.game.clock <-> pbp.game.status" in done.stdout


def test_an_import_cycle_in_the_engine_fails_even_under_type_checking(tmp_path):
    """Two modules of one ruleset that need each other only for a type still form a circle:
    the shared type belongs in a module of its own."""
    done = check(
        tmp_path,
        {
            "engine/toy/rules.py": "from engine.core import Ruleset\nfrom engine.toy import cards\n",
            "engine/toy/cards.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from engine.toy.rules import Ruleset\n",
        },
    )
    assert done.returncode == 1
    assert "import cycle in engine: engine.toy.cards <-> engine.toy.rules" in done.stdout


def test_an_import_from_a_lower_layer_to_a_higher_one_fails_even_inside_a_function(tmp_path):
    done = check(tmp_path, {"pbp/game/status.py": "def late():\n    from pbp.forum import post\n"})
    assert done.returncode == 1
    assert (
        "layers: pbp.game imports pbp.forum, a layer above it: pbp.game.status -> pbp.forum.post"
        in done.stdout
    )


def test_an_import_between_independent_siblings_of_a_layer_fails(tmp_path):
    done = check(tmp_path, {"pbp/host/__init__.py": "from pbp.forum import post\n"})
    assert done.returncode == 1
    assert (
        "layers: pbp.host imports pbp.forum, its independent sibling: pbp.host -> pbp.forum.post"
        in done.stdout
    )


def test_a_package_in_no_declared_layer_fails(tmp_path):
    done = check(tmp_path, {"pbp/extras/__init__.py": "from pbp.game import status\n"})
    assert done.returncode == 1
    assert "layers: pbp.extras sits in no layer" in done.stdout


def test_a_cycle_between_packages_fails_though_no_module_cycle_exists(tmp_path):
    """engine.names reads a ruleset's words and the ruleset's rules read engine.names: no
    module imports itself back, but the two packages lean on each other."""
    done = check(
        tmp_path,
        {
            "engine/names.py": "import engine.toy.words\n",
            "engine/toy/words.py": "WORDS = ()\n",
            "engine/toy/rules.py": "from engine.core import Ruleset\nimport engine.names\n",
        },
    )
    assert done.returncode == 1
    assert "package cycle: engine.names <-> engine.toy" in done.stdout
    assert "import cycle" not in done.stdout


def test_the_shell_importing_a_ruleset_module_fails(tmp_path):
    done = check(tmp_path, {"pbp/game/status.py": "from engine.toy.rules import Ruleset\n"})
    assert done.returncode == 1
    assert (
        "the shell reaches past the registry: pbp.game.status imports engine.toy.rules"
        in done.stdout
    )


def test_a_ruleset_importing_another_fails(tmp_path):
    done = check(tmp_path, {"engine/other/rules.py": "from engine.toy.rules import Ruleset\n"})
    assert done.returncode == 1
    assert "a ruleset imports another: engine.other.rules imports engine.toy.rules" in done.stdout


def test_the_engine_importing_the_registry_fails(tmp_path):
    """A helper every ruleset uses that asked the registry would load every ruleset."""
    done = check(tmp_path, {"engine/names.py": "import engine\n"})
    assert done.returncode == 1
    assert (
        "the engine imports the registry, which loads every ruleset: engine.names imports engine"
        in done.stdout
    )


def test_the_shell_branching_on_a_ruleset_name_fails(tmp_path):
    done = check(
        tmp_path,
        {
            "pbp/game/status.py": "def kind(name):\n    return 2 if name == 'Toy' else 1\n",
            "pbp/forum/post.py": "from pbp.game import status\nPLAYERS = {'other': 3}\n",
        },
    )
    assert done.returncode == 1
    assert (
        "the shell knows a ruleset: pbp/game/status.py:2 branches on the ruleset name 'Toy'"
        in done.stdout
    )
    assert (
        "the shell knows a ruleset: pbp/forum/post.py:2 branches on the ruleset name 'other'"
        in done.stdout
    )


def test_the_shell_naming_a_ruleset_in_a_string_literal_fails_but_not_in_a_docstring(tmp_path):
    """A default or an argument that is a ruleset's name hard-codes the ruleset as surely as
    a branch does; a docstring's example and a longer text that mentions one do not."""
    done = check(
        tmp_path,
        {
            "pbp/game/status.py": '"""toy"""\nDEFAULT = "toy"\n',
            "pbp/forum/post.py": 'from pbp.game import status\n\n\ndef load(ruleset=" Other"):\n'
            '    """Other"""\n    return open_rules("toy games", ruleset)\n',
        },
    )
    assert done.returncode == 1
    assert "the shell knows a ruleset: pbp/game/status.py:2 names the ruleset 'toy'" in done.stdout
    assert (
        "the shell knows a ruleset: pbp/forum/post.py:4 names the ruleset ' Other'" in done.stdout
    )
    assert done.stdout.count("the shell knows a ruleset") == 2, done.stdout


def test_the_contract_importing_a_ruleset_fails(tmp_path):
    done = check(tmp_path, {"engine/core.py": "import engine.toy.rules\nclass Ruleset: ...\n"})
    assert done.returncode == 1
    assert "the contract imports a ruleset: engine.core imports engine.toy.rules" in done.stdout


def test_the_engine_importing_the_shell_fails(tmp_path):
    done = check(tmp_path, {"engine/toy/rules.py": "import pbp.game.status\n"})
    assert done.returncode == 1
    assert (
        "layers: engine imports pbp.game, a layer above it: engine.toy.rules -> pbp.game.status"
        in done.stdout
    )


def test_a_module_over_300_lines_fails_and_is_named_with_its_length(tmp_path):
    """Every module of `pbp` and `engine`, however deep, at most 300 lines; exactly 300 is
    allowed."""
    done = check(
        tmp_path,
        {
            "pbp/game/status.py": "x = 1\n" * 300,
            "pbp/game/deep/__init__.py": "",
            "pbp/game/deep/long.py": "x = 1\n" * 301,
            "engine/toy/rules.py": "from engine.core import Ruleset\n" + "x = 1\n" * 300,
        },
    )
    assert done.returncode == 1
    assert "module longer than 300 lines: pbp/game/deep/long.py (301)" in done.stdout
    assert "module longer than 300 lines: engine/toy/rules.py (301)" in done.stdout
    assert "pbp/game/status.py" not in done.stdout


def test_more_than_15_modules_directly_in_the_shell_fails(tmp_path):
    """Fifteen modules at pbp's top level pass (the clean tree's one and fourteen more);
    a sixteenth fails, and the message lists them; modules in folders do not count. (The
    planted modules sit in no layer, which the layers rule reports apart.)"""
    fifteen = {f"pbp/room{number:02}.py": "" for number in range(14)}
    folders = {
        "pbp/game/deep/__init__.py": "",
        **{f"pbp/game/deep/m{number}.py": "" for number in range(20)},
    }
    assert "modules directly in pbp/" not in check(tmp_path, {**fifteen, **folders}).stdout
    done = check(tmp_path, {**fifteen, **folders, "pbp/one_more.py": ""})
    assert done.returncode == 1
    assert (
        "16 modules directly in pbp/ (at most 15): __init__.py one_more.py room00.py" in done.stdout
    )


def test_reaching_a_game_records_json_outside_its_keepers_fails(tmp_path):
    """Reading the raw document (`file.record()`), writing it (`update_record(`) or reading
    the record by key (`game.record["…"]`, `game.record.get(`) is refused outside the
    storage, pbp/game/stored.py, pbp/game/record.py and pbp/game/record_parts.py; a ledger's
    `record(file, mail)` (it has arguments) and a plain dict's keys are not game records."""
    reaching = (
        "def f(game, file):\n"
        "    a = file.record()\n"
        "    update_record(file, a)\n"
        "    game.file.update_record({})\n"
        '    b = game.record["roster"]\n'
        '    return game.record.get("npcs")\n'
    )
    innocent = (
        "def g(ledger, file, mail, row):\n"
        "    ledger.record(file, mail)\n"
        '    return row["id"], row.get("status"), row.record\n'
    )
    keepers = {
        path: reaching
        for path in (
            "pbp/storage/__init__.py",
            "pbp/game/stored.py",
            "pbp/game/record.py",
            "pbp/game/record_parts.py",
        )
    }
    done = check(
        tmp_path,
        {
            "pbp/host/status.py": "from engine.core import Ruleset\n" + reaching + innocent,
            **keepers,
        },
    )
    assert done.returncode == 1, done.stdout
    problems = [
        line for line in done.stdout.splitlines() if line.startswith("only the record's keepers")
    ]
    assert problems == [
        "only the record's keepers touch its JSON: pbp/host/status.py:3 reads a game file's raw record (.record())",
        "only the record's keepers touch its JSON: pbp/host/status.py:4 writes a game's raw record (update_record)",
        "only the record's keepers touch its JSON: pbp/host/status.py:5 writes a game's raw record (update_record)",
        "only the record's keepers touch its JSON: pbp/host/status.py:6 reads a game record by key (.record[...])",
        "only the record's keepers touch its JSON: pbp/host/status.py:7 reads a game record by key (.record.get)",
    ]


def test_reading_a_drafts_own_key_outside_the_storage_fails(tmp_path):
    """A draft read by its own keys past the storage edge (`row["generated"]`,
    `row.get("next_try")`) is a raw row that should have been a `DraftRow`; the storage,
    which makes the typed value, may."""
    reading = (
        "def f(row):\n"
        '    a = row["generated"]\n'
        '    return a, row.get("next_try", 0.0), row["phase"]\n'
    )
    done = check(tmp_path, {"pbp/web/__init__.py": reading, "pbp/storage/__init__.py": reading})
    assert done.returncode == 1, done.stdout
    problems = [
        line for line in done.stdout.splitlines() if line.startswith("only the record's keepers")
    ]
    assert problems == [
        "only the record's keepers touch its JSON: pbp/web/__init__.py:2 reads a typed row's key "
        "'generated' by key; use pbp.storage.drafts.DraftRow",
        "only the record's keepers touch its JSON: pbp/web/__init__.py:3 reads a typed row's key "
        "'next_try' by key; use pbp.storage.drafts.DraftRow",
    ]


def test_reading_an_index_entrys_own_key_outside_the_storage_fails(tmp_path):
    """An entry of the index of wake-ups read by its own keys past the storage edge
    (`entry["unsent"]`, `entry.get("reminded")`) is a raw row that should have been an
    `IndexEntry`."""
    reading = 'def due(entry):\n    return entry["unsent"] or entry.get("reminded", 0.0)\n'
    done = check(tmp_path, {"pbp/game/__init__.py": reading, "pbp/storage/__init__.py": reading})
    assert done.returncode == 1, done.stdout
    problems = [
        line for line in done.stdout.splitlines() if line.startswith("only the record's keepers")
    ]
    assert sorted(problems) == [
        "only the record's keepers touch its JSON: pbp/game/__init__.py:2 reads a typed row's key "
        f"{key!r} by key; use pbp.storage.index_moments.IndexEntry"
        for key in ("reminded", "unsent")
    ]


def test_reading_a_typed_rows_key_outside_the_keepers_fails(tmp_path):
    """A row that has a typed value (a paused clock, a result, a sign-up record) read by
    its own key, by subscript or `.get`, outside the storage edge: a raw row leaked past
    it. The sign-ups are no keeper any more, and a key of no typed row is innocent."""
    reading = (
        "def f(record, row, signups):\n"
        '    a = record.paused["remaining_seconds"]\n'
        '    b = row.get("players_min", 0)\n'
        '    return signups.record["entries"], row["winners"], row["status"]\n'
    )
    done = check(tmp_path, {"pbp/signups/__init__.py": reading, "pbp/storage/__init__.py": reading})
    assert done.returncode == 1, done.stdout
    problems = [
        line for line in done.stdout.splitlines() if line.startswith("only the record's keepers")
    ]
    assert problems == [
        "only the record's keepers touch its JSON: pbp/signups/__init__.py:2 reads a typed row's key "
        "'remaining_seconds' by key; use PausedClock",
        "only the record's keepers touch its JSON: pbp/signups/__init__.py:3 reads a typed row's key "
        "'players_min' by key; use SignupRecord",
        "only the record's keepers touch its JSON: pbp/signups/__init__.py:4 reads a game record by key (.record[...])",
        "only the record's keepers touch its JSON: pbp/signups/__init__.py:4 reads a typed row's key "
        "'winners' by key; use engine.core.Result",
    ]


def test_a_mail_built_by_hand_outside_the_renderer_fails(tmp_path):
    """A mail's subject and body come from a template (docs/design.md: Extension points —
    re-theming): only the renderer and the ports, which declare it, build a `RenderedMail`;
    one that edits a rendered mail (`replace(mail, …)`) or names the type builds nothing."""
    by_hand = (
        "from dataclasses import replace\n"
        "from pbp import ports\n"
        "from pbp.ports import RenderedMail\n"
        "def tell(mail: RenderedMail) -> RenderedMail:\n"
        "    first = RenderedMail('[g1] Hello', 'text')\n"
        "    return ports.RenderedMail(first.subject, mail.body)\n"
        "def named(mail: RenderedMail) -> RenderedMail:\n"
        "    return replace(mail, subject=mail.subject + ' (NPC)')\n"
    )
    makers = {
        "pbp/ports.py": "class RenderedMail: ...\nBLANK = RenderedMail()\n",
        "pbp/render/__init__.py": "",
        "pbp/render/renderer.py": "from pbp.ports import RenderedMail\nMAIL = RenderedMail()\n",
    }
    done = check(
        tmp_path,
        {
            "pbp/forum/post.py": "from pbp.game import status\n",
            "pbp/game/notifying/notices.py": by_hand,
            **makers,
        },
    )
    assert done.returncode == 1, done.stdout
    problems = [
        line for line in done.stdout.splitlines() if line.startswith("mail is worded by templates")
    ]
    assert problems == [
        "mail is worded by templates: pbp/game/notifying/notices.py:5 builds a RenderedMail by hand",
        "mail is worded by templates: pbp/game/notifying/notices.py:6 builds a RenderedMail by hand",
    ]


def test_a_backoff_computed_outside_the_one_helper_fails(tmp_path):
    """One backoff (pbp.schedule.Backoff): a module that makes a doubling wait itself (a
    power of two, or a `min` of a doubling or a shift) is named; the helper's own module, a
    `min` of anything else and a shifted constant pass."""
    by_hand = (
        "def wait(attempts, pause):\n"
        "    first = min(60.0 * 2 ** (attempts - 1), 3600.0)\n"
        "    second = min(pause * 2, 300.0)\n"
        "    third = min(1 << attempts, 64)\n"
        "    doublings = 2 ** attempts\n"
        "    return first, second, third, doublings, min(attempts + 1, 5), 1 << 20\n"
    )
    keeper = (
        "def seconds(first, failures, longest):\n    return min(first * 2.0 ** failures, longest)\n"
    )
    done = check(tmp_path, {"pbp/game/status.py": by_hand, "pbp/schedule.py": keeper})
    assert done.returncode == 1, done.stdout
    problems = [line for line in done.stdout.splitlines() if line.startswith("one backoff")]
    assert problems == [
        f"one backoff: pbp/game/status.py:{line} doubles a wait itself; use pbp.schedule.Backoff"
        for line in (2, 3, 4, 5)
    ]
    assert (
        "one backoff"
        in check(tmp_path, {"pbp/game/status.py": "", "pbp/schedule.py": keeper}).stdout
    )


def test_a_function_over_50_lines_or_too_complex_fails_unless_allowed_with_a_reason(tmp_path):
    """Rule 10: a long function and a branching one are named with their measures; an
    allowance whose function is back within the limits is reported, so it is removed."""
    long_body = "".join(f"    x{n} = {n}\n" for n in range(52))
    branches = "".join(f"        if x == {n}:\n            return {n}\n" for n in range(16))
    done = check(
        tmp_path,
        {
            "pbp/game/status.py": f"def long():\n{long_body}\n\nclass Game:\n"
            f"    def branching(self, x):\n{branches}        return -1\n"
        },
    )
    assert done.returncode == 1
    assert "function too large: pbp/game/status.py:long (53 lines, complexity 1;" in done.stdout
    assert (
        "function too large: pbp/game/status.py:Game.branching (" in done.stdout
        and "complexity 17;" in done.stdout
    )
    done = check(tmp_path, {"pbp/game/resolution.py": "def resolve_phase():\n    return None\n"})
    assert done.returncode == 1
    assert (
        "pbp/game/resolution.py:resolve_phase is within the limits now, or gone: remove it from "
        "LARGE_FUNCTIONS"
    ) in done.stdout


def test_the_storage_importing_what_sends_mail_fails(tmp_path):
    """The storage keeps the outbox; sending it is the daemon's job (docs/design.md:
    Outbox): a storage module that imports the sender, the SMTP client or the mail builder,
    even inside a function, is reported; the queue's own imports are not."""
    storage = {
        "pbp/storage/__init__.py": "",
        "pbp/storage/outbox_queue.py": "from pbp.mail.limits import MAX_REFERENCES\n",
        "pbp/storage/outbox.py": (
            "import smtplib\n"
            "from pbp.mail import smtp\n"
            "def send():\n"
            "    from pbp.daemon.outbox_sending import send_due\n"
            "    from pbp.mail.compose import compose\n"
        ),
        "pbp/mail/__init__.py": "",
        "pbp/mail/limits.py": "",
        "pbp/mail/smtp.py": "",
        "pbp/mail/compose.py": "",
        "pbp/daemon/__init__.py": "",
        "pbp/daemon/outbox_sending.py": "",
    }
    done = check(tmp_path, storage)
    assert done.returncode == 1, done.stdout
    problems = [
        line for line in done.stdout.splitlines() if line.startswith("the storage sends mail")
    ]
    sending = "; sending is the daemon's (pbp.daemon.outbox_sending)"
    assert problems == [
        "the storage sends mail: pbp/storage/outbox.py:1 imports smtplib" + sending,
        "the storage sends mail: pbp/storage/outbox.py:2 imports pbp.mail.smtp" + sending,
        "the storage sends mail: pbp/storage/outbox.py:4 imports pbp.daemon.outbox_sending"
        + sending,
        "the storage sends mail: pbp/storage/outbox.py:5 imports pbp.mail.compose" + sending,
    ]


def test_reading_an_outbox_rows_key_outside_the_storage_fails(tmp_path):
    """An outbox row travels past the storage as an `OutboxRow` (docs/design.md: Typed
    rows): its own keys read by subscript or `.get` elsewhere are reported; inside the
    storage, and read as attributes, they are not."""
    reading = (
        "def f(row, typed):\n"
        '    a = row["next_attempt"]\n'
        '    b = row.get("in_reply_to", "")\n'
        '    return a, b, row["sequence_of"], typed.next_attempt\n'
    )
    done = check(tmp_path, {"pbp/host/__init__.py": reading, "pbp/storage/__init__.py": reading})
    assert done.returncode == 1, done.stdout
    problems = [
        line for line in done.stdout.splitlines() if line.startswith("only the record's keepers")
    ]
    use = "by key; use pbp.storage.outbox.OutboxRow"
    assert problems == [
        f"only the record's keepers touch its JSON: pbp/host/__init__.py:2 reads a typed row's key 'next_attempt' {use}",
        f"only the record's keepers touch its JSON: pbp/host/__init__.py:3 reads a typed row's key 'in_reply_to' {use}",
        f"only the record's keepers touch its JSON: pbp/host/__init__.py:4 reads a typed row's key 'sequence_of' {use}",
    ]

"""Golden transcripts: a scripted demo game's complete thread and mail, and a small
simulation, in text that stays byte-identical while behaviour stays the same.

`scripts/golden` writes them under tests/golden/<ruleset>/; `test_golden.py` plays the same
games again and compares. What a run cannot fix is masked: each player's secret token
(drawn from `secrets`) becomes `<token of NAME>` and the host token `<host token>`; the
clock is frozen, so deadlines and `Date` headers are the same on every run.
"""

from __future__ import annotations

import email
import hashlib
import json
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from email import policy
from pathlib import Path

from pbp.storage.game_storage import game_tables
from pbp.demo import play_demo

GOLDEN = Path(__file__).resolve().parent
REPO = GOLDEN.parents[1]
RULESETS = ("infiltration", "werewolf")
FROZEN = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)
# (In-Reply-To is left out: it echoes the scripted players' own random Message-IDs.)
# The player whose whole mailbox is checked in to be read; every other mailbox is digested.
READ_PLAYER = "alice@players.invalid"
SIMULATION = {
    "infiltration": ["--players", "8", "--games", "3", "--seed", "golden"],
    "werewolf": ["--players", "9", "--games", "3", "--seed", "golden"],
}


def _masks(data: Path) -> dict[str, str]:
    masks = {}
    for path in (data / "games").glob("*.json"):
        document = json.loads(path.read_text())
        for row in document.get("game", {}).values():
            for name, token in row.get("tokens", {}).items():
                masks[token] = f"<token of {name}>"
            if row.get("host_token"):
                masks[row["host_token"]] = "<host token>"
    return masks


def _masked(text: str, masks: dict[str, str]) -> str:
    for secret, label in masks.items():
        text = text.replace(secret, label)
    return text


def _mail_text(raw: bytes) -> tuple[str, str]:
    message = email.message_from_bytes(raw, policy=policy.default)
    headers = [
        f"{name}: {message[name]}"
        for name in ("Message-ID", "To", "Subject")
        if message[name] is not None
    ]
    parts = []
    for part in message.walk():
        if part.get_content_maintype() == "multipart":
            continue
        if part.get_content_type().startswith("text/"):
            parts.append(f"[{part.get_content_type()}]\n{part.get_content()}")
        else:
            payload = part.get_payload(decode=True) or b""
            parts.append(
                f"[{part.get_content_type()} {part.get_filename()}: "
                f"sha256 {hashlib.sha256(payload).hexdigest()[:16]}]"
            )
    return str(message["Message-ID"]), "\n".join(headers) + "\n\n" + "\n".join(parts)


def _sending_order(data: Path) -> dict[str, tuple[str, int]]:
    """Message-ID -> (game, place in its outbox): pbp queues mail in the order it sends it,
    and its Message-IDs hold no number to sort by, so mail is read in the outboxes' order."""
    order = {}
    for path in sorted((data / "games").glob("*.json")):
        for doc_id, row in game_tables(path).get("outbox", {}).items():
            order[row["message_id"]] = (path.stem, int(doc_id))
    return order


def mailbox_transcript(
    folder: Path, masks: dict[str, str], order: dict[str, tuple[str, int]]
) -> str:
    mails = []
    for path in sorted(p for sub in ("new", "cur") for p in (folder / sub).glob("*")):
        mails.append(_mail_text(path.read_bytes()))
    mails.sort(key=lambda mail: (order.get(mail[0], ("", -1)), mail[0]))
    return _masked("\n\n========\n".join(text for _, text in mails) + "\n", masks)


def thread_transcript(data: Path, masks: dict[str, str]) -> str:
    posts = []
    for path in sorted((data / "games").glob("*.json")):
        drafts = json.loads(path.read_text()).get("drafts", {}).values()
        for draft in sorted(drafts, key=lambda d: d["sequence"]):
            posts.append(
                f"## {draft['title']}\n({draft['kind']}, {draft['phase']})\n\n{draft['text']}"
            )
    return _masked("\n\n--------\n".join(posts) + "\n", masks)


def demo_transcripts(ruleset: str) -> dict[str, str]:
    """File name -> text for one scripted demo game of `ruleset` on a frozen clock."""
    with tempfile.TemporaryDirectory(prefix="pbp-golden-") as folder:
        data = Path(folder) / "data"
        play_demo(ruleset, seed="golden", data=data, say=lambda line: None, clock=lambda: FROZEN)
        masks = _masks(data)
        mail_root = data / "mail"
        order = _sending_order(data)
        mailboxes = {
            box.name: mailbox_transcript(box, masks, order)
            for box in sorted(mail_root.iterdir())
            if (box / "cur").is_dir() or (box / "new").is_dir()
        }
        digests = "".join(
            f"{hashlib.sha256(text.encode()).hexdigest()}  {name}\n"
            for name, text in sorted(mailboxes.items())
        )
        return {
            "thread.md": thread_transcript(data, masks),
            f"mailbox-{READ_PLAYER.split('@')[0]}.txt": mailboxes[READ_PLAYER],
            "all-mailboxes.sha256": digests,
        }


def simulation_transcript(ruleset: str) -> str:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pbp",
            "simulate",
            ruleset,
            *SIMULATION[ruleset],
            "--json",
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        check=True,
    )
    return done.stdout


def transcripts(ruleset: str) -> dict[str, str]:
    return {**demo_transcripts(ruleset), "simulate.json": simulation_transcript(ruleset)}


def write_all() -> None:
    for ruleset in RULESETS:
        folder = GOLDEN / ruleset
        folder.mkdir(exist_ok=True)
        for name, text in transcripts(ruleset).items():
            (folder / name).write_text(text)
            print(f"wrote {folder.relative_to(REPO) / name}")

"""No line pbp writes in a mail is longer than 72 characters (docs/design.md: Order mail
format — mail is read on phones and answered from programs that wrap at about 76 columns).

Two games of 48 players with names of the longest allowed length, in several alphabets,
are played for a few phases through the desk (every player mailing orders), with every
other mail a game sends along the way: HELP, FORM, STATUS, refusals, team messages,
questions to the host and their answers, notices of a moved, paused and resumed deadline,
reminders, a substitution, a host kill, spectators' mail, NPC mail and drafts for the host,
sign-ups, a bounce, what a reading of the thread mails. Every mail kind of templates/mail/ must be among them, and every
line of every mail sent must fit, in every language pbp writes (docs/design.md: Catalog
checks: a translation is longer than the English it replaces)."""

from __future__ import annotations

import configparser
import hashlib
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from engine import roster_problems
from pbp.signups.substitutes import RELEASED
from pbp.signups.spectators import OUTSIDE_SEQUENCE
from pbp.cli import main
from pbp.composition import ComposedModerator
from pbp.conversations.host_side import answer
from pbp.desk import Desk
from pbp.forum.thread.forum_names import mail_link_codes
from pbp.forum.thread.thread_mail import note_for_host, tell_player
from pbp.game.create import create_game
from pbp.game.deadlines import extend, pause, resume
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.host.removal import modkill
from pbp.host.substitute import substitute
from pbp.mail.ingest.inbound import parse_inbound
from pbp.mail.wrapping import WIDTH
from pbp.ports import Bounce, RawMail
from pbp.game.notifying.reminders import queue_reminders
from pbp.release import templates_folder
from pbp.render.languages import languages
from pbp.render.renderer import Renderer
from pbp.render.verdicts import Note
from pbp.game.record_parts import Npc, RosterPlayer
from pbp.settings import load_settings
from pbp.signups.opening import open_for_signups
from tests.fixtures.clocks import Clock
from tests.fixtures.languages import write_everything_in
from tests.fixtures.harness import MemorySender
from pbp.daemon.outbox_sending import send_due

PLAYERS = 48
ZONE = "America/Argentina/ComodRivadavia"  # a long zone name: deadlines are written in it
HOST = "host@example.org"
OWN = ("pbp@example.org",)


def long_names(count: int) -> list[str]:
    """Names of 20 letters, each in one alphabet, distinct when case and accents are ignored."""
    latin, cyrillic, greek = "bcdfghjklmnpqrstvwxz", "бвгджзклмнпрстфхцчшщ", "βγδζθκλμνξπρστφχψω"
    tails = {
        "latin": "éèêëàâäôöûüçñõãåøïî",
        "cyrillic": "аеиоуыэюяаеиоуыэюя",
        "greek": "αεηιουωαεηιουωαεηι",
    }
    names = []
    for index in range(count):
        script = ("latin", "cyrillic", "greek")[index % 3]
        letters = {"latin": latin, "cyrillic": cyrillic, "greek": greek}[script]
        first, second = (
            letters[index % len(letters)],
            letters[(index // len(letters)) % len(letters)],
        )
        names.append((first.upper() + second + tails[script])[:20])
    assert not roster_problems(names) and all(len(name) == 20 for name in names)
    return names


class Table:
    """One game of 48 long-named players, its desk, and a way to mail as each of them."""

    def __init__(
        self, tmp_path: Path, ruleset: str, renderer_kinds: set[str], language: str = "en"
    ):
        settings_file = tmp_path / "pbp.ini"
        assert (
            main(["init", "--settings", str(settings_file), "--data", str(tmp_path / "data")]) == 0
        )
        config = configparser.ConfigParser(interpolation=None)
        config.read(settings_file)
        config["pbp"]["from_address"] = OWN[0]
        config["pbp"]["replies_per_sender_per_day"] = "10000"
        config["forum"]["host_address"] = HOST
        config["forum"]["posts"] = str(tmp_path / "posts")
        with open(settings_file, "w") as handle:
            config.write(handle)
        self.clock = Clock()
        self.moderator = ComposedModerator(load_settings(str(settings_file)), clock=self.clock)
        write_everything_in(self.moderator, language, _SpyRenderer(renderer_kinds, language))
        self.names = long_names(PLAYERS)
        roster = [
            RosterPlayer(name, f"p{index}@players.example", ZONE)
            for index, name in enumerate(self.names)
        ]
        # A Red NPC shares the Reds' channel: its copy of their messages goes to the host.
        npcs = [Npc("Ωμεγαλυψιςεπτακαιδεκ", "warrior", "red")] if ruleset == "infiltration" else []
        options = {"spectators": "dead"}
        if ruleset == "werewolf":  # past the built-in setups: every role, the rest villagers
            roles = (
                "werewolf,werewolf,werewolf,werewolf,werewolf,werewolf,howler,seer,witch,bodyguard,"
                "apothecary,wench,romantic,ninja,rabble rouser,mason,mason,mason,succubus,werehamster,"
                "weregerbil"
            ).split(",")
            options["roles"] = ",".join(roles + ["villager"] * (PLAYERS - len(roles)))
        self.game_id = create_game(
            self.moderator,
            ruleset,
            roster,
            npcs=npcs,
            seed="wide",
            options=options,
            schedule_text="default=1d",
        ).id
        self.desk = Desk(self.moderator)
        self.sent = 0
        self.forms: list[str] = []  # order forms as rendered, before any wrapping

    def game(self):
        return load(self.moderator, self.game_id)

    def address(self, name: str) -> str:
        return f"p{self.names.index(name)}@players.example"

    def mail(self, sender: str, body: str, bounce: Bounce | None = None) -> None:
        self.sent += 1
        message = EmailMessage()
        message["From"] = sender
        message["To"] = OWN[0]
        message["Subject"] = f"Re: [{self.game_id}] orders"
        message["Message-ID"] = f"<m{self.sent}@players.example>"
        message.set_content(body)
        data = message.as_bytes()
        inbound = parse_inbound(
            RawMail(f"k{self.sent}", data, hashlib.sha256(data).hexdigest()), OWN, 10**6
        )
        if bounce is not None:
            inbound = type(inbound)(
                **{**inbound.__dict__, "bounce": bounce, "no_reply_reason": "a bounce"}
            )
        self.desk.receive(inbound)

    def block(self, name: str, *lines: str, kind: str = "ORDERS", what: str | None = None) -> str:
        game = self.game()
        head = f"BEGIN {kind} {self.game_id} {what or game.phase.id}"
        return "\n".join([head, f"TOKEN: {game.token(name)}", *lines, f"END {kind}"])

    def everyone_orders(self) -> None:
        game = self.game()
        self.forms.extend(
            self.moderator.renderer.order_form(game.form(name), game.game_facts())
            for name in game.phase.actors
            if name in self.names
        )
        for name in game.phase.awaited:
            if name in self.names:
                orders = game.rules.scripted_orders(game.state, name, "wide").splitlines()
                self.mail(self.address(name), self.block(name, *orders))


class _SpyRenderer(Renderer):
    """The renderer, noting the kind of every mail it renders."""

    def __init__(self, kinds: set[str], language: str):
        super().__init__(language=language)
        self.kinds = kinds

    def render(self, kind, ruleset, **context):
        self.kinds.add(kind)
        return super().render(kind, ruleset, **context)


def play(table: Table) -> None:
    first, second, third = table.names[:3]
    table.mail(table.address(first), "HELP")
    table.mail(table.address(first), "FORM")
    table.mail(table.address(first), "STATUS")
    table.mail(table.address(first), "Hi, here are my orders:\nVOTE " + second + "\nthanks")
    table.mail(
        table.address(second), table.block(second, "NONSENSE order").replace("TOKEN: ", "TOKEN: x")
    )
    table.mail(
        table.address(third), table.block(third, "a question " * 20, kind="MESSAGE", what="host")
    )
    answer(table.moderator, table.game(), third, "An answer " * 20)
    for channel_member in table.names:
        channels = table.game().status(channel_member).channels
        if channels:
            table.mail(
                table.address(channel_member),
                table.block(channel_member, "a plan " * 30, kind="MESSAGE", what=channels[0]),
            )
            break
    extend(table.moderator, table.game_id, "2d", reason="a reason " * 12)
    pause(table.moderator, table.game_id, reason="a pause " * 12)
    resume(table.moderator, table.game_id, reason="back " * 12)
    table.clock.moment = table.game().clock.deadline - timedelta(minutes=30)
    queue_reminders(table.moderator)
    # A report quoting the Message-ID of a mail pbp sent the player: the host is told (host_note.j2).
    sent = table.moderator.folder.game(table.game_id).outbox.briefs(
        lambda row: row["recipient"] == third
    )
    table.mail(
        "mailer-daemon@players.example",
        "bounced",
        bounce=Bounce((table.address(third),), (sent[0]["message_id"],)),
    )
    table.mail(
        HOST, "What do I do now? " * 10
    )  # no approval in it: the host gets help (host_reply.j2)
    # What a reading of the thread mails (player_note.j2, host_note.j2): LINK codes, a prod,
    # the posts not counted.
    game = table.game()
    with game.file.transaction():
        mail_link_codes(table.moderator, game)
        tell_player(
            table.moderator,
            game,
            third,
            "prod",
            Note(
                "prod",
                game_id=table.game_id,
                day="Day 1",
                posts=0,
                wanted=3,
                phase_words="Night 0",
                deadline="Saturday 12 December 2026 at 23:59 (" + ZONE + ")",
            ),
        )
        dead_votes = [
            f"{name} (u/{name}) voted although dead: " + "VOTE x " * 20 for name in table.names[:12]
        ]
        note_for_host(table.moderator, game, dead_votes)
    for _phase in range(6):
        if table.game().phase is None:
            break
        table.everyone_orders()
        resolve_phase(table.moderator, table.game_id)
    living = [name for name in table.names if table.game().status(name).alive]
    substitute(
        table.moderator, table.game_id, living[0], "Ψηφοφορίαμεγάληδύσκ", "new@players.example"
    )
    modkill(table.moderator, table.game_id, living[1], "gone " * 20)
    # What pbp.signups.substitutes.release_substitutes queues for each substitute left on a
    # signed-up game's list when it ends, queued here the same way (this game had no sign-ups).
    game = table.game()
    with game.file.transaction():
        table.moderator.outbox.queue(
            game.file,
            phase=game.filed_phase,
            recipient="Spare",
            address="spare@players.example",
            kind=RELEASED,
            sequence_key=OUTSIDE_SEQUENCE,
            mail=table.moderator.renderer.render(
                RELEASED, game.record.ruleset, game=game.game_facts(), name="Ψηφοφορίαμεγάληδύσκα"
            ),
        )
    open_for_signups(table.moderator, f"{table.game_id}x", "werewolf", "8..12", "3d")
    table.mail("joiner@players.example", f"JOIN {table.game_id}x Ψηφοφορίαμεγάληδύσκα")


@pytest.fixture(scope="module", params=languages())
def sent_mail(tmp_path_factory, request):
    kinds: set[str] = set()
    messages, forms = [], []
    for ruleset in ("werewolf", "infiltration"):
        table = Table(tmp_path_factory.mktemp(ruleset), ruleset, kinds, request.param)
        play(table)
        sender = MemorySender()
        send_due(table.moderator.outbox, sender)
        messages.extend(sender.sent)
        forms.extend(table.forms)
        table.moderator.close()
    return kinds, messages, forms


def test_every_mail_kind_is_among_those_checked(sent_mail):
    kinds, _messages, _forms = sent_mail
    templates = {
        path.stem
        for path in (templates_folder() / "mail").glob("*.j2")
        if not path.stem.startswith(("_", "generic_"))
    }
    assert templates <= kinds, f"not rendered: {sorted(templates - kinds)}"


def test_no_line_of_any_mail_is_longer_than_72_characters(sent_mail):
    _kinds, messages, _forms = sent_mail
    assert len(messages) > 500
    too_long = []
    for message in messages:
        body = message.get_body(("plain",))
        for line in body.get_content().splitlines():
            if len(line) > WIDTH:
                too_long.append(f"{message['Subject']}: {line!r}")
    assert not too_long, "\n".join(too_long[:20])


def test_order_forms_fit_as_written_so_no_line_of_a_block_is_ever_wrapped(sent_mail):
    """A form's lines are short by design (choices over several `#` lines): the wrapping
    that keeps prose short never has to touch a block."""
    _kinds, _messages, forms = sent_mail
    assert len(forms) > 100
    too_long = [line for form in forms for line in _block_lines(form) if len(line) > WIDTH]
    assert not too_long, too_long[:10]


def _block_lines(text: str) -> list[str]:
    lines, inside = [], False
    for line in text.splitlines():
        inside = inside or line.startswith("BEGIN ")
        if inside:
            lines.append(line)
        inside = inside and not line.startswith("END ")
    return lines

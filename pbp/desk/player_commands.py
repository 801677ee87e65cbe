"""A player's commands by mail for their game (docs/design.md: Order mail format): FORM,
STATUS, LANGUAGE and HELP, each answered with a `Decision` (pbp.desk.decision); any other
word gets the help with a note that it was not understood. Nothing is written here."""

from __future__ import annotations

from pbp.desk.decision import Decision, receipt
from pbp.desk.help import help_facts
from pbp.game.options import stated_options
from pbp.game.stored import StoredGame
from pbp.game.tally import running_tally
from pbp.moderator import Moderator
from pbp.ports import RenderedMail
from pbp.render.keyword_names import canonical_words, english_word
from pbp.render.languages import language_problem, languages
from pbp.render.moments import render_received
from pbp.render.verdicts import Note, Refused, Verdict


def decide_command(moderator: Moderator, game: StoredGame, name: str, command: str) -> Decision:
    word = english_word(command.split()[0], game.rules.card) if command.split() else ""
    renderer = game.renderer_of(moderator, name)
    facts = dict(game=game.game_facts(), player=name, form=game.form(name))
    if word == "FORM":
        reply = receipt(moderator, game, name, "form", [Note("form_sent")])
        return Decision("processed", reason="FORM", reply=reply, reply_kind="form")
    if word == "STATUS":
        phase = game.record.phase_id
        latest = game.latest_order(phase, name) if phase else None
        accepted = (
            {
                "received": render_received(
                    latest.received, game.zone_of(name), game.roster.language_of(name)
                ),
                "lines": latest.lines,
            }
            if latest
            else None
        )
        reply = renderer.render(
            "status_reply",
            game.record.ruleset,
            phase=phase,
            deadline=game.deadline_text(name),
            accepted=accepted,
            tally=running_tally(game),
            view=game.rules.view(game.state, name),
            **facts,
        )
        return Decision("processed", reason="STATUS", reply=reply, reply_kind="status")
    if word == "LANGUAGE":
        return _set_language(moderator, game, name, command.split()[1:])
    note = None if word == "HELP" else Refused("not_understood", command=command, game_id=game.id)
    return Decision(
        "processed",
        reason=word or "HELP",
        reply=help_mail(moderator, game, name, note),
        reply_kind="help",
    )


def _set_language(moderator: Moderator, game: StoredGame, name: str, code: list[str]) -> Decision:
    """`LANGUAGE de`: the player's mail is written in German from now on, this receipt
    first; a language pbp does not write in changes nothing (docs/design.md: Each
    reader's language)."""
    if not code or language_problem(code[0]):
        note = Refused("language_unknown", language=code[0] if code else "", languages=languages())
        return Decision(
            "rejected",
            reason="LANGUAGE refused",
            reply_kind="rejection",
            reply=receipt(moderator, game, name, "form", [note]),
        )
    reply = moderator.renderer_for(code[0]).render(
        "receipt",
        game.record.ruleset,
        game=game.game_facts(),
        player=name,
        phase=game.filed_phase,
        headline="form",
        notes=[Note("language_set", language=code[0])],
        form=game.form(name),
    )
    return Decision(
        "processed", reason=f"LANGUAGE {code[0]}", reply=reply, reply_kind="form", language=code[0]
    )


def help_mail(
    moderator: Moderator, game: StoredGame, name: str, note: Verdict | None
) -> RenderedMail:
    """The help mail (templates/mail/help.j2) for `name`, with `note` saying why it was
    sent, if anything but HELP asked for it."""
    return game.renderer_of(moderator, name).render(
        "help",
        game.record.ruleset,
        game=game.game_facts(),
        player=name,
        note=note,
        form=game.form(name),
        token=game.token(name),
        votes=game.votes,
        options=stated_options(game.rules, game.state, game.record.moderator_options),
        **help_facts(game.rules, game.phase, name, game.record.npcs),
    )


def as_english(word: str, game: StoredGame) -> str:
    """A player command's word as written, or the English word it names in another
    language (`HILFE` -> `HELP`)."""
    return canonical_words(game.rules.card).get(word.upper(), word)

# Names the dead-code pass (vulture, in .ci/run) cannot see used: vulture reads this file
# with the code, and each name here counts as used. It is never run. Add a name only with
# where it is used; code that nothing uses is removed instead.
# ruff: noqa
_ = object()

# Called by a library through its hook, never by name in pbp.
_._check_value  # argparse calls it for a word outside `choices` (pbp.cli.OneLineErrors)
_.handle_starttag  # html.parser.HTMLParser's hooks (pbp.mail.html_text)
_.handle_startendtag
_.handle_endtag
_.handle_data
_.do_GET  # http.server's hooks (pbp.mail.sign_in.oauth_flows)
_.log_message
_.do_POST  # http.server's hooks (pbp.demo.discourse_server)
_.daemon_threads  # read by socketserver (pbp.demo.discourse_server)
_.protocol_version
_.close_connection
_.comment_sort  # praw's attribute, set before reading (pbp.forum.reddit_thread)
_.handle_DATA  # aiosmtpd's hook (benchmarks/ingest.py)
_.make_globals  # Jinja's environment hook (pbp.render.view_environment.ViewEnvironment)
_.table_class  # TinyDB's table class (pbp.storage.game_storage.GameDatabase)
_.exc_text  # read by logging's formatter (pbp.daemon.logs.LogLineFilter)
_.converter  # read by logging's formatter: the log's times in UTC (pbp.daemon.logs.LogToStdout)
exc  # the arguments of __exit__ (pbp.durable, pbp.moderator, pbp.storage.datafolder)
attrs  # HTMLParser's argument (pbp.mail.html_text)
challenge  # smtplib's authentication callback argument (pbp.mail.smtp)
_SubParsersAction  # named in the string of a type alias (pbp.commands.common.Subparsers)

# Called from templates.
_.bold  # the dialects' markup helpers, as `fmt.bold(x)` (templates/public/)
_.italic
_.list_open
_.list_close

# Looked up by a computed name.
_._on_dawn  # `getattr(self, f"_on_{event.kind}")` (engine.werewolf.players.record)
_._on_nominations
_._on_votes
_._on_lynch
_.oauth_url  # read with getattr over the setting names (pbp.forum.reddit.connect)
_._content_type  # read back through `__dict__` (pbp.mail.ingest.inbound)

# Public API read by the test suite, tools and docs/design.md.
resolve_combat  # kept stable for outside use (docs/design.md: The engine)
EVENT_KINDS  # each ruleset's event vocabulary (tests/engine/test_rulesets_alike.py)
ON_OFF_OPTIONS  # the moderator's on/off options (tests/game/test_options.py)
_.substitutions  # GameRecord's substitutions (tests/integration/test_substitution_mail.py)
_.player_written  # a draft's player-written words (tests/forum/test_posts.py)
_.refreshes  # how many access tokens a token source fetched (tests/mail/test_oauth_logins.py)
poll_once  # one ingest cycle, as the ingest tests and crash scripts run it (tests/mail/test_ingest.py)
game_tables  # a game's tables read without the lock (tests/golden/transcript.py, tests/fixtures/harness.py)
_.fail_next  # the local Discourse's fault injection (tests/forum/thread_forums.py)
_.clear_faults
_.delete  # a post deleted on the local Discourse (tests/forum/thread_forums.py)

# Attributes read by the libraries they configure (the desk: pbp.web, pbp.commands.web).
_.ssl_adapter  # cheroot's server serves HTTPS through it
_.autoescape  # Jinja's environment escapes every page
_.permanent  # Flask's session keeps its lifetime (PERMANENT_SESSION_LIFETIME)

# The drafts pages (pbp.web.draft_desk): views Flask routes to, fields their templates read.
game_page
draft_page
_.preview
_.held_by
_.editable
enter  # the desk's orders form posts to it (pbp.web.orders_form; Flask routes by decorator)
READING  # the twin table of the commands and the desk, held to pbp.command_table.COMMANDS by tests/web/test_twins.py
TWINS
WITHOUT_TWIN
game_map  # the route of the game page's map picture (Flask calls it; templates/web/game.html names it)
GRAMMAR_HELP  # the Validity check grammar's English text, which the tests find in English mail

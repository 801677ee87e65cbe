"""The host's operations around the mail loop: the orders overview and submit
(`orders`), substitution (`substitute`), modkill and option changes (`operations`), replay
(`replay`) and HELP's text (`help`); the clock's changes (extend, pause, resume) are the
game's own (`pbp.game.deadlines`). The command modules in `pbp/commands/` are thin: they
parse arguments and call these."""

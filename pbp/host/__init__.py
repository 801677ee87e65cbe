"""The host's operations around the mail loop: the orders overview and submit (`orders`),
substitution (`substitute`), a character's removal (`removal`), option changes
(`options_change`), replay (`replay`); the clock's changes (extend, pause, resume) are the
game's own (`pbp.game.deadlines`). The command modules in `pbp/commands/` are thin: they
parse arguments and call these."""

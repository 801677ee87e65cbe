"""What the balance study plays of Werewolf (engine.core.BalanceStudy; docs/balance.md): the
study's setups and anchors, the anchor server's extra role, and the setups one step away
from a host's for `pbp balance`."""

"""Balance estimates from simulated games (docs/balance.md): the exact random-lynch law,
intervals, runs of many games over every core, and their plots."""

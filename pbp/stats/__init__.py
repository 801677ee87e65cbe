"""Statistics across the finished games of a data folder (`pbp stats`, docs/balance.md)."""

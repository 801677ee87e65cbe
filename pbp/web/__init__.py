"""The host's desk in the browser (`pbp web`): pages that read the data folder as `pbp
status` does, and forms that act through the same operations as the command line
(docs/design.md: The host's desk in the browser)."""

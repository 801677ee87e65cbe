"""Upgrading a data folder written by an earlier release (docs/design.md: Releases and
upgrades): the steps from one data format to the next, each run once, under the writer's
lock, before anything else reads the folder."""

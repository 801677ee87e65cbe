"""The host's address ([forum] host_address) is read with the settings, once per load:
every inbound mail asks for it, so within one cycle the file is not read again; `pbp run`
loads its settings anew each cycle, and an edit is used from then on (docs/design.md:
Public posts)."""
from __future__ import annotations

from pbp.settings import load_settings


def test_the_host_address_is_read_once_per_loaded_settings_and_an_edit_counts_from_the_next_load(tmp_path):
    path = tmp_path / "pbp.ini"
    path.write_text(f"[pbp]\ndata = {tmp_path / 'data'}\n\n[forum]\nhost_address = Host@example.org\n")
    first = load_settings(str(path))
    assert first.host_address == "host@example.org"
    path.write_text(f"[pbp]\ndata = {tmp_path / 'data'}\n\n[forum]\nhost_address = new-host@example.org\n")
    assert first.host_address == "host@example.org"  # the same cycle: not read again
    assert load_settings(str(path)).host_address == "new-host@example.org"  # the next cycle's settings
    path.write_text(f"[pbp]\ndata = {tmp_path / 'data'}\n")
    assert load_settings(str(path)).host_address == ""  # none set: ""

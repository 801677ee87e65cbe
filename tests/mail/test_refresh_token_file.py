"""The refresh token file is written by the one crash-safe write (pbp.durable), readable
by the host alone even where an interrupted earlier write left a wider temp file."""

from __future__ import annotations

import stat

from pbp.mail.sign_in.oauth import read_refresh_token, save_refresh_token


def test_refresh_token_is_private_even_over_a_wide_leftover(tmp_path):
    path = tmp_path / "secrets" / "oauth-refresh-token"
    path.parent.mkdir()
    leftover = path.with_name(f".{path.name}.tmp")  # what durable_write names its temp file
    leftover.write_text("old")
    leftover.chmod(0o644)
    save_refresh_token(path, "rt-new")
    assert read_refresh_token(path) == "rt-new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not leftover.exists()


def test_refresh_token_folder_is_made_private(tmp_path):
    path = tmp_path / "new-folder" / "oauth-refresh-token"
    save_refresh_token(path, "rt")
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

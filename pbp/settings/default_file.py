"""The settings file `pbp init` writes (docs/design.md: Embedded default): the example
file, templates/settings.example.ini, with the data folder and a mail provider's servers
filled in."""

from __future__ import annotations

from pbp.release import settings_example
from pbp.settings.providers import MAIL_PRESETS


def default_settings_text(data: str, provider: str | None = None) -> str:
    """The file `pbp init` writes: the example with the data folder filled in and, with a
    `provider` (pbp.settings.providers.MAIL_PRESETS), its servers, ports, TLS and login."""
    text = settings_example().read_text(encoding="utf-8")
    values = {("pbp", "data"): data}
    if provider is not None:
        preset = MAIL_PRESETS[provider]
        values |= {
            ("pbp", "transport"): "imap",
            ("imap", "host"): preset.imap_host,
            ("imap", "port"): str(preset.imap_port),
            ("imap", "security"): preset.imap_security,
            ("imap", "login"): preset.login,
            ("smtp", "host"): preset.smtp_host,
            ("smtp", "port"): str(preset.smtp_port),
            ("smtp", "security"): preset.smtp_security,
            ("smtp", "login"): preset.login,
            ("oauth", "provider"): preset.oauth_provider,
        }
    lines, section = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1]
        key = (
            stripped.partition("=")[0].strip()
            if "=" in stripped and not stripped.startswith("#")
            else ""
        )
        if (section, key) in values:
            line = f"{key} = {values[(section, key)]}"
        lines.append(line)
    return "\n".join(lines) + "\n"

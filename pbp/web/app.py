"""The desk's web application: Flask, its pages rendered from templates/web/, every page
behind the host's login, every form behind a CSRF token, and headers that forbid inline
scripts and framing (docs/design.md: The host's desk in the browser).

Each page is a blueprint of its own module; `PAGES` lists them, and `make_app` registers
them all."""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module
from typing import Any

from flask import Flask, redirect, request, session, url_for
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

from pbp.release import templates_folder
from pbp.render.glossary_words import filters_in
from pbp.render.languages import translations
from pbp.render.moments import render_moment
from pbp.settings import Settings
from pbp.web.credentials import session_key
from pbp.web.inert import register_filters

# The modules whose `pages` blueprint the desk serves, in its menu's order.
PAGES = (
    "pbp.web.login",
    "pbp.web.games",
    "pbp.web.game",
    "pbp.web.draft_desk",
    "pbp.web.actions",
    "pbp.web.orders_form",
    "pbp.web.starting",
)
# Pages a visitor without a session may open.
OPEN_ENDPOINTS = {"login.form", "login.check", "login.link", "static"}
SESSION_LIFETIME = timedelta(hours=12)
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}

# Login attempts are counted per address, in this process (the desk is one process).
limiter = Limiter(get_remote_address, storage_uri="memory://", default_limits=[])


def make_app(settings: Settings, *, over_tls: bool = False) -> Flask:
    """The desk for `settings`' data folder. `over_tls`: the page is served over HTTPS (by
    pbp itself or a reverse proxy), so cookies are marked Secure."""
    folder = templates_folder() / "web"
    app = Flask("pbp.web", template_folder=str(folder), static_folder=str(folder / "static"))
    app.config.update(
        SECRET_KEY=session_key(settings.data),
        SESSION_COOKIE_NAME="pbp_desk",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_SECURE=over_tls,
        PERMANENT_SESSION_LIFETIME=SESSION_LIFETIME,
        WTF_CSRF_TIME_LIMIT=None,
        PBP_SETTINGS=settings,
        MAX_CONTENT_LENGTH=1024 * 1024,
    )
    app.jinja_env.autoescape = True
    # The desk's pages in the host's language (docs/design.md: Each reader's language).
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_translations(  # type: ignore[attr-defined]
        translations(settings.host_language), newstyle=True
    )
    register_filters(app.jinja_env)
    # ruleset, role, team and phase names as the glossary words them for the host
    app.jinja_env.filters.update(filters_in(settings.host_language))
    app.jinja_env.filters["host_time"] = host_time
    CSRFProtect(app)
    limiter.init_app(app)
    for module in PAGES:
        app.register_blueprint(import_module(module).pages)
    app.before_request(_require_login)
    app.after_request(_secure_headers)
    app.context_processor(_menu)
    return app


def settings_here() -> Settings:
    """The settings of the desk serving this request."""
    from flask import current_app

    settings: Settings = current_app.config["PBP_SETTINGS"]
    return settings


def host_time(moment: str | None) -> str:
    """A stored time in the host's zone (`[pbp] host_timezone`) and in UTC, in the host's
    language; "" for none."""
    settings = settings_here()
    return render_moment(moment, settings.host_timezone, settings.host_language) if moment else ""


def _require_login() -> Any:
    if request.endpoint in OPEN_ENDPOINTS:
        return None
    if session.get("host") != str(settings_here().data):
        return redirect(url_for("login.form", next=request.path))
    return None


def _secure_headers(response: Any) -> Any:
    response.headers.update(SECURITY_HEADERS)
    return response


def _menu() -> dict[str, Any]:
    return {"logged_in": session.get("host") == str(settings_here().data)}

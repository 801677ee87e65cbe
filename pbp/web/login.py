"""Logging in to the desk: with the password `pbp web --set-password` stored, or with a
one-time link `pbp web` prints; attempts are rate-limited per address; logging out ends
the session (docs/design.md: The host's desk — as safe as the mailbox)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, redirect, render_template, request, session, url_for

from pbp.web.app import limiter, settings_here
from pbp.web.credentials import has_password, password_matches, use_login_link

pages = Blueprint("login", __name__)
LOGIN_ATTEMPTS = "5 per minute;30 per hour"


@pages.get("/login")
def form() -> Any:
    return render_template(
        "login.html",
        has_password=has_password(settings_here().data),
        next=_safe_next(request.args.get("next", "")),
    )


@pages.post("/login")
@limiter.limit(LOGIN_ATTEMPTS)
def check() -> Any:
    data = settings_here().data
    if not password_matches(data, request.form.get("password", "")):
        return (
            render_template(
                "login.html",
                has_password=has_password(data),
                next=_safe_next(request.form.get("next", "")),
                refused=(
                    "That password is not the desk's; try again, or log in "
                    "with the link `pbp web` printed."
                ),
            ),
            403,
        )
    return _logged_in(request.form.get("next", ""))


@pages.get("/login/<token>")
@limiter.limit(LOGIN_ATTEMPTS)
def link(token: str) -> Any:
    data = settings_here().data
    if not use_login_link(data, token):
        return (
            render_template(
                "login.html",
                has_password=has_password(data),
                next="/",
                refused=(
                    "That login link was used already or has expired; run `pbp web --login-link`"
                    " for a new one."
                ),
            ),
            403,
        )
    return _logged_in("/")


@pages.post("/logout")
def logout() -> Any:
    session.clear()
    return redirect(url_for("login.form"))


def _logged_in(next_path: str) -> Any:
    session.clear()
    session.permanent = True
    session["host"] = str(settings_here().data)
    return redirect(_safe_next(next_path))


def _safe_next(path: str) -> str:
    """Only a path on this desk: never another site, a scheme or a protocol-relative URL."""
    parts = urlsplit(path)
    if (
        parts.scheme
        or parts.netloc
        or not path.startswith("/")
        or path.startswith("//")
        or "\\" in path
    ):
        return "/"
    return path

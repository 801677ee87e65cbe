"""`pbp auth`: get the OAuth2 refresh token pbp logs in to IMAP and SMTP with, and keep it
in a file readable by the host alone (pbp.mail.sign_in.oauth_flows, pbp.mail.sign_in.oauth)."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import add_settings_arguments, settings_of, Subparsers
from pbp.mail.sign_in.oauth import save_refresh_token


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "auth", help="allow pbp to use the mailbox with OAuth2 (Gmail, Microsoft 365, …)"
    )
    add_settings_arguments(parser)
    parser.add_argument(
        "--flow",
        choices=("loopback", "device"),
        help=(
            "loopback: consent in a browser on this machine; device: type a code on any device "
            "(default: loopback when [oauth] has an authorization_endpoint)"
        ),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=0,
        help="the loopback port for the browser's answer (default: any)",
    )
    parser.add_argument("--no-browser", action="store_true", help="only print the address to open")
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    from pbp.mail.sign_in.oauth_flows import (
        authorization_code_flow,
        device_flow,
    )  # loads authlib: only here

    settings = settings_of(args)
    oauth = settings.oauth

    def show(text: str) -> None:
        print(text, flush=True)

    flow = args.flow or ("loopback" if oauth.authorization_endpoint else "device")
    if flow == "loopback":
        refresh_token = authorization_code_flow(
            oauth, show, port=args.port, open_browser=not args.no_browser
        )
    else:
        refresh_token = device_flow(oauth, show)
    save_refresh_token(settings.refresh_token_path, refresh_token)
    print(
        f"Saved the refresh token in {settings.refresh_token_path} (readable by you alone). "
        "pbp logs in with it when [imap] and [smtp] login is xoauth2 or oauthbearer."
    )
    return 0

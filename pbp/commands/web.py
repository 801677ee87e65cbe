"""`pbp web [--port 8080]`: serve the host's desk for the data folder in the browser, on
127.0.0.1 unless told otherwise; `--set-password` and `--login-link` give the host a way
in (pbp.web; docs/design.md: The host's desk in the browser)."""

from __future__ import annotations

import getpass
import ipaddress
import signal
import sys
from argparse import Namespace
from pathlib import Path
from typing import Any

from pbp.commands.common import add_settings_arguments, settings_of, Subparsers
from pbp.errors import UserError

DEFAULT_PORT = 8080


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "web",
        help="serve the host's desk in the browser: games, drafts and host actions",
        description=(
            "Serve the host's desk for the data folder on http://127.0.0.1:8080/. It runs beside "
            "`pbp run`: pages only read; actions wait for the daemon's cycle as commands do. "
            "Log in with the one-time link it prints or the password set by --set-password."
        ),
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help="the port (default: 8080; 0: any free one)"
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this machine alone)",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help=(
            "allow an address other than loopback (then give --tls-cert and --tls-key, "
            "or --behind-proxy)"
        ),
    )
    parser.add_argument("--tls-cert", metavar="PEM", help="serve HTTPS with this certificate chain")
    parser.add_argument("--tls-key", metavar="PEM", help="the private key of --tls-cert")
    parser.add_argument(
        "--behind-proxy",
        action="store_true",
        help="a reverse proxy in front serves HTTPS (docs: the host's desk behind a proxy)",
    )
    parser.add_argument(
        "--set-password",
        action="store_true",
        help="set the desk's password (asked twice; or one line on standard input) and stop",
    )
    parser.add_argument(
        "--login-link",
        action="store_true",
        help="print a new one-time login link for a desk already running, and stop",
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    settings = settings_of(args)
    if args.set_password:
        from pbp.web.credentials import set_password

        set_password(settings.data, _new_password())
        print("The desk's password is set; sessions opened before are closed.")
        return 0
    problems = _listening_problems(args)
    if problems:
        raise UserError(" ".join(problems))
    from pbp.web.credentials import new_login_link

    if args.login_link:
        print(
            "Log in once, within 15 minutes:"
            f" {_base_url(args, args.port)}/login/{new_login_link(settings.data)}"
        )
        return 0
    return _serve(args, settings)


def _serve(args: Namespace, settings: Any) -> int:
    from cheroot.wsgi import Server

    from pbp.web.app import make_app
    from pbp.web.credentials import new_login_link

    over_tls = bool(args.tls_cert) or args.behind_proxy
    app: Any = make_app(settings, over_tls=over_tls)
    if args.behind_proxy:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app = ProxyFix(app, x_for=1, x_proto=1, x_host=1)
    server = Server((args.host, args.port), app, numthreads=8, server_name="pbp")
    if args.tls_cert:
        from cheroot.ssl.builtin import BuiltinSSLAdapter

        server.ssl_adapter = BuiltinSSLAdapter(args.tls_cert, args.tls_key)
    try:
        server.prepare()
    except OSError as error:
        raise UserError(
            f"Cannot listen on {args.host} port {args.port} ({error.strerror or error}); "
            "choose another with --port."
        ) from None
    port = server.socket.getsockname()[1]
    base = _base_url(args, port)
    print(f"The host's desk for {settings.data}: {base}/", flush=True)
    print(
        f"Log in once, within 15 minutes: {base}/login/{new_login_link(settings.data)}", flush=True
    )
    signal.signal(signal.SIGTERM, _stop)
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    print("The desk is closed.")
    return 0


def _stop(*_: object) -> None:
    raise KeyboardInterrupt


def _listening_problems(args: Namespace) -> list[str]:
    problems = []
    if not 0 <= args.port <= 65535:
        problems.append(
            f"--port {args.port} is not a port; give one from 1 to 65535 (or 0 for any free one)."
        )
    if bool(args.tls_cert) != bool(args.tls_key):
        problems.append("--tls-cert and --tls-key go together; give both, or neither.")
    for given in (args.tls_cert, args.tls_key):
        if given and not Path(given).is_file():
            problems.append(f"{given} is not a file; give the PEM file's path.")
    if not _is_loopback(args.host):
        if not args.allow_remote:
            problems.append(
                f"{args.host} is not this machine alone: add --allow-remote to listen there."
            )
        elif not (args.tls_cert or args.behind_proxy):
            problems.append(
                f"Listening on {args.host} needs HTTPS: give --tls-cert and --tls-key, or "
                "--behind-proxy when a reverse proxy serves HTTPS."
            )
    return problems


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _base_url(args: Namespace, port: int) -> str:
    scheme = "https" if args.tls_cert else "http"
    host = f"[{args.host}]" if ":" in args.host else args.host
    return f"{scheme}://{host}:{port}"


def _new_password() -> str:
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("The desk's new password: ")
    if getpass.getpass("Once more: ") != first:
        raise UserError("The two passwords differ; run `pbp web --set-password` again.")
    return first

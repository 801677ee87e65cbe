"""The plumbing of pbp's local stand-ins for a forum's HTTP API (docs/design.md: Testing):
the local Discourse (pbp.demo.discourse_server) and the tests' local Reddit
(tests/forum/reddit_server.py) differ only in what they answer.

A `LocalServer` runs a threading HTTP server on 127.0.0.1 (port 0: any free one), keeps
every request's (method, path), and takes faults programmed by count and released
explicitly, never by a delay racing the client's timeout: `fail_next(kind, path=…,
count=N)` makes the next N requests whose path starts with `path`
- answer at once with the server's own error for that kind (`INSTANT_FAULTS`, e.g. `503`);
- `drop`: do the request, then close the connection without an answer;
- `hold`: do the request, then answer nothing until `release()` (the client's own
  timeout ends its wait, however loaded the machine is).
A `JsonHandler` routes each request through that and answers JSON; a server's handler
says only what it answers (`answer`) and what it refuses before any fault (`refusal`).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Mapping, Self
from urllib.parse import urlsplit

LOOPBACK = "127.0.0.1"
AFTER_THE_REQUEST = ("drop", "hold")  # faults that let the request be done first


@dataclass
class Fault:
    kind: str
    path: str  # a request path prefix, e.g. "/api/submit"; "" matches any request
    count: int = 1  # how many more matching requests it takes


class JsonHandler(BaseHTTPRequestHandler):
    """One request: recorded, refused, failed as programmed, or answered with JSON."""

    server_state: "LocalServer"
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:  # keep the test's and the demo's output clean
        pass

    def refusal(self) -> tuple[int, object] | None:
        """The answer to a request refused before anything else (a wrong API key), or None."""
        return None

    def answer(self, method: str, path: str, query: str, body: bytes) -> tuple[int, object]:
        """The status and JSON payload for a request (`path` without a trailing slash)."""
        raise NotImplementedError

    def send_json(self, status: int, payload: object) -> None:
        body = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            if self.close_connection:
                # The client asked to close (prawcore does for the token request). Saying so
                # keeps it from reusing a connection this server is about to close, which
                # on a loaded machine it may try before it notices the close.
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting (the hold fault)

    def _route(self, method: str) -> None:
        server = self.server_state
        split = urlsplit(self.path)
        path = split.path.rstrip("/") or "/"
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with server.lock:
            server.requests.append((method, path))
        refused = self.refusal()
        if refused is not None:
            return self.send_json(*refused)
        fault = server.take_fault(path)
        if fault and fault.kind in server.INSTANT_FAULTS:
            return self.send_json(*server.INSTANT_FAULTS[fault.kind])
        status, payload = self.answer(method, path, split.query, body)
        if fault and fault.kind == "drop":  # done above; the client never hears of it
            self.close_connection = True
            return
        if fault and fault.kind == "hold":  # done above; silent until the test releases
            server.released.wait()
        self.send_json(status, payload)

    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")


class LocalServer:
    """The server, its requests and its faults; thread-safe: handlers take `self.lock`."""

    # Faults answered at once instead of the request: kind -> (status, payload).
    INSTANT_FAULTS: ClassVar[Mapping[str, tuple[int, object]]] = {}
    HANDLER: ClassVar[type[JsonHandler]] = JsonHandler

    def __init__(self, port: int = 0):
        self.port = port  # 0: any free port
        self.lock = threading.RLock()
        self.faults: list[Fault] = []
        self.released = threading.Event()  # set by release(): held requests may answer
        self.requests: list[tuple[str, str]] = []  # (method, path) of every request
        self._server: ThreadingHTTPServer | None = None

    def start(self) -> Self:
        handler = type("Handler", (self.HANDLER,), {"server_state": self})
        self._server = ThreadingHTTPServer((LOOPBACK, self.port), handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.release()
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://{LOOPBACK}:{self._server.server_address[1]}"

    def fail_next(self, kind: str, path: str = "", count: int = 1) -> None:
        """The next `count` requests whose path starts with `path` fail as `kind`."""
        assert (kind in self.INSTANT_FAULTS or kind in AFTER_THE_REQUEST) and count > 0, (
            kind,
            count,
        )
        with self.lock:
            if kind == "hold":
                self.released.clear()
            self.faults.append(Fault(kind, path, count))

    def clear_faults(self) -> None:
        with self.lock:
            self.faults.clear()

    def release(self) -> None:
        """Let every held request answer (they answer a client that gave up long ago)."""
        self.released.set()

    def take_fault(self, path: str) -> Fault | None:
        with self.lock:
            for index, fault in enumerate(self.faults):
                if path.startswith(fault.path):
                    fault.count -= 1
                    if not fault.count:
                        del self.faults[index]
                    return fault
        return None

"""A small fake Ollama server speaking the real HTTP wire protocol, for tests.

Standard library only: a ``ThreadingHTTPServer`` on 127.0.0.1 (OS-chosen port) in a daemon thread, so the real
``ollama`` client and ``langchain_ollama.ChatOllama`` work against it unchanged::

    with FakeOllama(models=["tiny:latest"]) as fake:
        fake.script("Hello there.", {"status": 500, "error": "boom"}, {"delay": 3.0, "content": "late"})
        ChatOllama(model="tiny:latest", base_url=fake.url).invoke("hi")
        fake.chat_requests[-1]["options"]["num_ctx"]

A scripted reply is a string (the assistant content) or a dict with any of: ``content``, ``status`` + ``error``
(HTTP error with JSON ``{"error": ...}``), ``delay`` (seconds to sleep before answering), ``hang_after_first``
(stream the first piece, then stall that many seconds, ``True`` = until closed) and ``tool_calls``.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = str | dict[str, Any]
DEFAULT_SENTENCE = "This is a reply from the fake Ollama server."
VERSION = "0.11.0"


def free_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (the port was free a moment ago)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that gave up (timeout) is expected
            super().handle_error(request, client_address)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _pieces(text: str) -> list[str]:
    """Split into word-sized pieces keeping their whitespace, so streaming sends several chunks."""
    return re.findall(r"\s*\S+\s*", text) or [text]


def _details(name: str) -> dict[str, Any]:
    family = name.split(":")[0].split("/")[-1] or "fake"
    return {"format": "gguf", "family": family, "parameter_size": "1B", "quantization_level": "Q4_0"}


class FakeOllama:
    """Fake Ollama server; see the module docstring. Use as a context manager or call ``close()``."""

    def __init__(
        self,
        models: Iterable[str] = ("tiny:latest",),
        default_reply: str | Callable[[dict[str, Any]], str] | None = None,
        responder: Callable[[dict[str, Any]], Reply] | None = None,
    ) -> None:
        self.models: list[str] = list(models)
        self.default_reply = default_reply
        self.responder = responder
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.chat_requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self._queue: deque[Reply] = deque()
        self._closing = threading.Event()
        self._server = _Server(("127.0.0.1", 0), self._handler_class())
        self.port: int = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-ollama", daemon=True
        )
        self._thread.start()

    def __enter__(self) -> FakeOllama:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def script(self, *replies: Reply) -> None:
        """Queue replies (FIFO) for the next /api/chat calls."""
        with self.lock:
            self._queue.extend(replies)

    @property
    def pending(self) -> int:
        """How many scripted replies are still queued."""
        with self.lock:
            return len(self._queue)

    def down(self) -> None:
        """Stop listening: later connections are refused. Same as ``close()``."""
        self.close()

    def close(self) -> None:
        if self._closing.is_set():
            return
        self._closing.set()  # wakes handlers sleeping on a delay or a hang
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def has(self, name: str) -> bool:
        """Like Ollama, a name without a tag means ``:latest``."""
        tagged = lambda n: n if ":" in n else f"{n}:latest"  # noqa: E731
        return tagged(name) in {tagged(m) for m in self.models}

    def _next_reply(self, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            reply: Reply | None = self._queue.popleft() if self._queue else None
        if reply is None and self.responder is not None:
            reply = self.responder(body)
        if reply is None:
            default = self.default_reply
            reply = default(body) if callable(default) else (default or DEFAULT_SENTENCE)
        return {"content": reply} if isinstance(reply, str) else dict(reply)

    def _record(self, path: str, body: dict[str, Any]) -> None:
        with self.lock:
            self.requests.append((path, body))
            if path == "/api/chat":
                self.chat_requests.append(body)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # silence stderr
                pass

            def do_GET(self) -> None:
                fake._record(self.path, {})
                if self.path == "/":
                    self._send(200, "Ollama is running", "text/plain; charset=utf-8")
                elif self.path == "/api/version":
                    self._json(200, {"version": VERSION})
                elif self.path == "/api/tags":
                    self._json(200, {"models": [self._tag(name) for name in list(fake.models)]})
                else:
                    self._json(404, {"error": "404 page not found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    self._json(400, {"error": "invalid JSON body"})
                    return
                fake._record(self.path, body)
                name = str(body.get("model") or body.get("name") or "")
                if self.path == "/api/show":
                    if not fake.has(name):
                        self._json(404, {"error": f"model '{name}' not found"})
                        return
                    self._json(200, self._show(name))
                elif self.path == "/api/chat":
                    if not fake.has(name):
                        self._json(404, {"error": f'model "{name}" not found, try pulling it first'})
                        return
                    self._chat(name, body)
                else:
                    self._json(404, {"error": "404 page not found"})

            def _tag(self, name: str) -> dict[str, Any]:
                digest = hashlib.sha256(name.encode()).hexdigest()
                return {
                    "name": name,
                    "model": name,
                    "modified_at": "2025-01-01T00:00:00Z",
                    "size": 1_000_000,
                    "digest": digest,
                    "details": _details(name),
                }

            def _show(self, name: str) -> dict[str, Any]:
                return {
                    "modelfile": f"FROM {name}\n",
                    "parameters": "num_ctx 2048",
                    "template": "{{ .Prompt }}",
                    "details": _details(name),
                    "model_info": {"general.architecture": _details(name)["family"], "general.parameter_count": 10**9},
                    "capabilities": ["completion"],
                    "modified_at": "2025-01-01T00:00:00Z",
                }

            def _chat(self, name: str, body: dict[str, Any]) -> None:
                reply = fake._next_reply(body)
                if reply.get("delay") and fake._closing.wait(float(reply["delay"])):
                    return
                if "status" in reply:
                    self._json(int(reply["status"]), {"error": reply.get("error", "error")})
                    return
                content = str(reply.get("content", ""))
                message: dict[str, Any] = {"role": "assistant", "content": content}
                if reply.get("tool_calls"):
                    message["tool_calls"] = reply["tool_calls"]
                stats = {
                    "done_reason": "stop",
                    "total_duration": 1_000_000,
                    "load_duration": 100_000,
                    "prompt_eval_count": 10,
                    "prompt_eval_duration": 200_000,
                    "eval_count": max(1, len(_pieces(content))),
                    "eval_duration": 700_000,
                }
                base = {"model": name, "created_at": _now()}
                if body.get("stream", True) is False:
                    self._json(200, {**base, "message": message, "done": True, **stats})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")  # no keep-alive, so down() really cuts clients off
                self.end_headers()
                self.close_connection = True
                hang = reply.get("hang_after_first")
                for i, piece in enumerate(_pieces(content)):
                    chunk: dict[str, Any] = {"role": "assistant", "content": piece}
                    self._chunk({**base, "message": chunk, "done": False})
                    if i == 0 and hang and fake._closing.wait(None if hang is True else float(hang)):
                        return
                final: dict[str, Any] = {"role": "assistant", "content": ""}
                if "tool_calls" in message:
                    final["tool_calls"] = message["tool_calls"]
                self._chunk({**base, "created_at": _now(), "message": final, "done": True, **stats})
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

            def _chunk(self, obj: dict[str, Any]) -> None:
                data = json.dumps(obj).encode() + b"\n"
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _json(self, status: int, obj: dict[str, Any]) -> None:
                self._send(status, json.dumps(obj), "application/json; charset=utf-8")

            def _send(self, status: int, text: str, content_type: str) -> None:
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
                self.close_connection = True

        return Handler

"""The JSON-RPC side pygls leaves to its servers: a request that fails answers with an error, and
incoming messages are structured leniently (docs/editors.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
from typing import Any

from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol


class RequestFailed(JsonRpcException):
    """LSP's ``RequestFailed``: the request was valid, the note is not (the CLI would exit 2)."""

    CODE = -32803
    MESSAGE = "RequestFailed"


class NotesProtocol(LanguageServerProtocol):
    """pygls' protocol, but a request whose parameters cannot be read still gets an answer (an error);
    pygls only logs it, and a client waiting for that answer waits for ever. And a handler's future
    is let go once it is done: pygls (2.1) files the future of each handler it runs as a coroutine,
    a thread or a generator under the message's id — a made-up one for a notification (``didChange``)
    and for each step of its built-in generator handlers — and only a request's answer removes its
    own, so a server kept every keystroke's futures (about 1 KB each)."""

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        futures = getattr(self, "_request_futures", None)
        if not isinstance(futures, dict) or (future := futures.get(msg_id)) is None:
            return
        filed: dict[Any, Any] = futures  # a request's answer removes its own first; a cancelled one, pygls
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return

        def remove(done: Any) -> None:
            if filed.get(msg_id) is done:
                del filed[msg_id]

        # removed on the loop's thread, later: a thread's future runs its callbacks in the worker, or at
        # once when cancelled, and pygls' shutdown cancels them while it walks this very dict
        def let_go(done: Any) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(remove, done)

        future.add_done_callback(let_go)

    #: when the message being handled came in (the event loop's clock), taken before pygls structures it
    #: and applies an edit: the editor's pause is counted from there (``NotesServer.changed``)
    arrived: float | None = None

    def handle_message(self, message: Any) -> None:
        try:
            super().handle_message(message)
        finally:
            self.arrived = None

    def structure_message(self, data: dict[str, Any]) -> Any:
        if "jsonrpc" in data:  # the message itself (json calls this for each object in it, the message last)
            with contextlib.suppress(RuntimeError):  # no loop: structured outside the server
                self.arrived = asyncio.get_running_loop().time()
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                self._send_response(data["id"], error=exc.to_response_error())
            raise

    def serialised(self, message: Any) -> str:
        """``message`` as ``_send_data`` would write it (pygls' converter, then JSON); safe to call from
        the analysis worker, so the event loop only writes the text (``send_serialised``)."""
        return json.dumps(self._converter.unstructure(message))

    def send_serialised(self, body: str) -> None:
        """Write a message ``serialised`` made: what pygls' ``_send_data`` does after its ``json.dumps``."""
        if self.writer is None:
            return
        header = f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        written = self.writer.write((header + body if self._include_headers else body).encode(self.CHARSET))
        if inspect.isawaitable(written):
            asyncio.ensure_future(written)

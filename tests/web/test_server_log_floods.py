"""What a client gets wrong is answered, and not written to the server's log with a
traceback: a request's or a socket's every such mistake (no token needed) would let a
client flood the log (docs/web-server.md).  A live `wasserspiele serve` (uvicorn's own
WebSocket protocol is what logged)."""

from __future__ import annotations

import base64
import os
import socket
import struct

import pytest

from .browser_support import serving


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "log_floods")


def _frame(opcode: int, payload: bytes) -> bytes:
    """A client's frame (masked, as a client must), payload under 126 bytes."""
    mask = os.urandom(4)
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_text_frame_that_is_not_utf_8_closes_the_socket_1007_and_logs_nothing(server):
    """uvicorn logged each such frame with a traceback ("Invalid UTF-8 sequence received
    from client."), one per connection, before closing the socket with 1007."""
    table = server.post("/api/tables", {"game": "wasserloch", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    before = open(server.log_path, encoding="utf-8", errors="replace").read()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /ws/tables/{table['id']} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                   f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        rest = answer.split(b"\r\n\r\n", 1)[1]
        s.sendall(_frame(0x1, b"\xff\xfe"))
        while len(rest) < 4:
            chunk = s.recv(4096)
            if not chunk:
                break
            rest += chunk
    assert rest[0] & 0x0F == 0x8 and struct.unpack("!H", rest[2:4])[0] == 1007, rest
    after = open(server.log_path, encoding="utf-8", errors="replace").read()[len(before):]
    assert "Traceback" not in after and "Invalid UTF-8" not in after, after
    assert server.get("/api/tables")["tables"] is not None

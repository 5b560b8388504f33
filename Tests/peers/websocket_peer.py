#!/usr/bin/env python3
"""A WebSocket server from Python's `websockets` library (an implementation independent of
libwebsockets), for the WebSocket client's tests.

Listens on 127.0.0.1, port 0, and prints the port on stdout; stops when stdin closes.

    websocket_peer.py [--cert CERT --key KEY] [--no-compression]

What it does depends on the path:
  /echo?id=ID        echoes every message; remembers how the client closed (see /closed)
  /closed?id=ID      sends "CODE REASON" of the close /echo?id=ID received, once it has
  /fragmented        sends one text message in three fragments, then echoes
  /big?bytes=N       sends one binary message of N bytes (byte i is i % 251), then echoes
  /burst?count=N     sends the texts "0" to "N-1" as fast as it can, then echoes
  /close?code=C&reason=R   closes with code C and reason R
  /silent            stops reading the socket: pings go unanswered, closes are not seen
  /headers           sends the handshake's request headers as a JSON list of [name, value]
  /extensions        sends the negotiated extensions as a JSON list of names
  /bad-utf8          sends a text frame that is not UTF-8
  /reject            answers the handshake with 403
"""

import argparse
import asyncio
import http
import json
import ssl
import sys
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

closes: dict[str, tuple[int, str]] = {}
close_seen = asyncio.Condition()


def query(websocket) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(websocket.request.path).query).items()}


async def echo(websocket) -> None:
    try:
        async for message in websocket:
            await websocket.send(message)
    except ConnectionClosed:
        pass


async def handler(websocket) -> None:
    path = urlsplit(websocket.request.path).path
    args = query(websocket)
    if path == "/echo":
        await echo(websocket)
        received = websocket.protocol.close_rcvd
        async with close_seen:
            closes[args.get("id", "")] = (received.code, received.reason) if received else (1006, "")
            close_seen.notify_all()
    elif path == "/closed":
        async with close_seen:
            await close_seen.wait_for(lambda: args.get("id", "") in closes)
            code, reason = closes[args.get("id", "")]
        await websocket.send(f"{code} {reason}")
        await echo(websocket)
    elif path == "/fragmented":
        await websocket.send(["frag", "ment", "ed"])
        await echo(websocket)
    elif path == "/big":
        size = int(args.get("bytes", "0"))
        await websocket.send(bytes(i % 251 for i in range(size)))
        await echo(websocket)
    elif path == "/burst":
        for index in range(int(args.get("count", "0"))):
            await websocket.send(str(index))
        await echo(websocket)
    elif path == "/close":
        await websocket.close(int(args.get("code", "1000")), args.get("reason", ""))
    elif path == "/silent":
        websocket.transport.pause_reading()
        await websocket.wait_closed()
    elif path == "/headers":
        await websocket.send(json.dumps(list(websocket.request.headers.raw_items())))
        await echo(websocket)
    elif path == "/extensions":
        await websocket.send(json.dumps([e.name for e in websocket.protocol.extensions]))
        await echo(websocket)
    elif path == "/bad-utf8":
        await websocket.send(b"ok \xff\xfe", text=True)
        await echo(websocket)
    else:
        await websocket.close(4404, "no such path")


def process_request(connection, request):
    if urlsplit(request.path).path == "/reject":
        return connection.respond(http.HTTPStatus.FORBIDDEN, "refused\n")
    return None


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--no-compression", action="store_true")
    options = parser.parse_args()
    context = None
    if options.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.cert, options.key)
    async with serve(
        handler,
        "127.0.0.1",
        0,
        ssl=context,
        compression=None if options.no_compression else "deflate",
        process_request=process_request,
        max_size=16 * 1024 * 1024,
        ping_interval=None,
    ) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        # Runs until the test closes stdin (or ends).
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())

"""A WebSocket client built on Python's `websockets` library, an independent implementation the
Swift server is tested against. Runs one scenario and prints its result as one JSON line.

    Tests/peers/websocket_client_peer.py URL SCENARIO [--header Name:Value] [--no-compression]

Scenarios:
  echo        sends a text, a binary, a fragmented and a 300 KB text message, then closes;
              reports what came back
  open        closes as soon as it is open; reports the negotiated extensions
  close       sends nothing, waits for the server to close; reports the close code and reason
  closeself   closes with code 4000 and reason "client done"; reports what the server echoed

A handshake the server answers with anything but 101 reports {"handshake_status": status}.
"""
import asyncio
import json
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus


async def run(url, scenario, headers, compression):
    result = {}
    async with connect(url, additional_headers=headers,
                       compression="deflate" if compression else None,
                       max_size=8 * 1024 * 1024, open_timeout=10) as ws:
        result["extensions"] = [type(e).__name__ for e in ws.protocol.extensions]
        if scenario == "echo":
            await ws.send("héllo")
            result["text"] = await ws.recv()
            await ws.send(bytes(range(256)) * 4)
            got = await ws.recv()
            result["binary_ok"] = got == bytes(range(256)) * 4
            await ws.send(["frag", "mented ", "message"])
            result["fragmented"] = await ws.recv()
            big = "x" * 300_000
            await ws.send(big)
            result["large_ok"] = (await ws.recv()) == big
            await ws.send("")
            result["empty"] = await ws.recv()
            await ws.close()
        elif scenario == "open":
            await ws.close()
        elif scenario == "closeself":
            await ws.close(code=4000, reason="client done")
        try:
            while True:
                message = await ws.recv()
                result.setdefault("received", []).append(message if isinstance(message, str) else message.hex())
        except ConnectionClosed:
            pass
        result["close_code"] = ws.protocol.close_code
        result["close_reason"] = ws.protocol.close_reason
    return result


async def run_or_refused(url, scenario, headers, compression):
    try:
        return await run(url, scenario, headers, compression)
    except InvalidStatus as refused:
        return {"handshake_status": refused.response.status_code}


def main():
    url, scenario = sys.argv[1], sys.argv[2]
    headers, compression = [], True
    args = sys.argv[3:]
    while args:
        arg = args.pop(0)
        if arg == "--header":
            name, value = args.pop(0).split(":", 1)
            headers.append((name, value))
        elif arg == "--no-compression":
            compression = False
    print(json.dumps(asyncio.run(run_or_refused(url, scenario, headers, compression))), flush=True)


if __name__ == "__main__":
    main()

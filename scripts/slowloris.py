#!/usr/bin/env python3
"""Measures how a Courier server on loopback serves legitimate requests while slow clients attack.

Two attacks, each bounded in time and count, only against 127.0.0.1:
  drip  N connections that send a request body one byte every 2 s
  idle  N connections that open and send nothing
Meanwhile one legitimate batch (or /healthz) is sent every second with a 5 s timeout; the script
prints how many were answered and their median latency.

  scripts/slowloris.py --port 8080 --attack drip --connections 32 --seconds 40
"""
import argparse
import base64
import json
import socket
import statistics
import threading
import time


def dripper(port, stop, body_length):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(("POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {body_length}\r\n\r\n").encode())
        while not stop.is_set():
            s.sendall(b" ")
            stop.wait(2.0)
    except OSError:
        pass


def idler(port, stop, sockets):
    try:
        sockets.append(socket.create_connection(("127.0.0.1", port), timeout=5))
    except OSError:
        pass


def legitimate(port, write_key, index):
    body = json.dumps({"batch": [{"type": "track", "event": "Probe", "userId": "u",
                                  "messageId": f"probe-{time.time_ns()}-{index}"}]}).encode()
    auth = base64.b64encode(f"{write_key}:".encode()).decode()
    request = (f"POST /v1/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Basic {auth}\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.settimeout(5)
            s.sendall(request + body)
            answer = s.recv(64)
            if answer.startswith(b"HTTP/1.1 200"):
                return time.monotonic() - started
    except OSError:
        pass
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--write-key", default="dev-write-key")
    parser.add_argument("--attack", choices=["drip", "idle"], default="drip")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=int, default=40)
    args = parser.parse_args()
    stop = threading.Event()
    sockets = []
    threads = []
    for _ in range(min(args.connections, 5000)):
        target = dripper if args.attack == "drip" else idler
        extra = (1000,) if args.attack == "drip" else (sockets,)
        t = threading.Thread(target=target, args=(args.port, stop) + extra, daemon=True)
        t.start()
        threads.append(t)
    time.sleep(1)
    latencies = []
    sent = 0
    deadline = time.monotonic() + min(args.seconds, 300)
    while time.monotonic() < deadline:
        sent += 1
        latency = legitimate(args.port, args.write_key, sent)
        if latency is not None:
            latencies.append(latency)
        time.sleep(1)
    stop.set()
    for s in sockets:
        s.close()
    median = f"{statistics.median(latencies) * 1000:.1f} ms" if latencies else "-"
    print(f"{args.attack} x{args.connections}: {len(latencies)} of {sent} legitimate requests answered, "
          f"median {median}")


if __name__ == "__main__":
    main()

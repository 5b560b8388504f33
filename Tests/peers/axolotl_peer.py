"""An independent messenger client on python-axolotl (the libsignal-protocol-java lineage), which
talks to Courier's messenger server only through its documented API (`/openapi.json`,
docs/messenger-server.md): the Swift tests hold Courier's server and client to it.

    Tests/peers/axolotl_peer.py SERVER_URL

Reads one command a line on standard input and answers each with JSON lines on standard output
(the last one of a command has "done": true; a failure is {"event": "error", "done": true}):

  register NAME         POST /v1/accounts, then PUT /v2/keys (identity, signed prekey, 20 one-time
                        prekeys) -> {"event": "registered", "account", "device"}
  send ACCOUNT TEXT     fetches ACCOUNT's bundles when it has no session (GET /v2/keys/ACCOUNT/*),
                        sends TEXT to every device -> {"event": "sent", "types", "serverSeq"}
  tamper ACCOUNT TEXT   the same with one ciphertext byte flipped (the MAC no longer matches)
  signal-numbering ACCOUNT TEXT
                        the same, its envelopes typed as Signal-Server numbers them (1, CIPHERTEXT)
  replay-same           the last genuine send again, the same clientMessageId -> {"event": "replayed"}
  replay-fresh          the last genuine send's ciphertext again under a new clientMessageId
  fetch-reversed        GET /v1/messages, decrypts the page newest first (out of order), acks each
                        with DELETE /v1/messages/{id} -> {"event": "message"|"control", ...} each
  socket COUNT          opens /v1/websocket, acks every request with 200, until COUNT text
                        messages have arrived; sends a keepalive (GET /v1/keepalive) and prints
                        {"event": "socket-open", "keepalive": status} after /api/v1/queue/empty
                        and its answer, then each message as it comes
  socket COUNT noack    the same without acking the messages (as if it died before the acks):
                        the server sends them again on the next connection, where the peer drops
                        them by clientMessageId -> {"event": "repeat"} each
  socket-send ACCOUNT TEXT
                        sends TEXT as a PUT /v1/messages request on the delivery socket
                        -> {"event": "sent", "status", "types", "serverSeq"}
  quit
"""
import base64
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid

from axolotl.ecc.curve import Curve
from axolotl.identitykey import IdentityKey
from axolotl.protocol.ciphertextmessage import CiphertextMessage
from axolotl.protocol.prekeywhispermessage import PreKeyWhisperMessage
from axolotl.protocol.whispermessage import WhisperMessage
from axolotl.sessionbuilder import SessionBuilder
from axolotl.sessioncipher import SessionCipher
from axolotl.state.prekeybundle import PreKeyBundle
from axolotl.tests.inmemoryaxolotlstore import InMemoryAxolotlStore
from axolotl.util.keyhelper import KeyHelper
from websockets.sync.client import connect


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


def unb64(text):
    return base64.b64decode(text + "=" * (-len(text) % 4))


def emit(**fields):
    sys.stdout.write(json.dumps(fields, ensure_ascii=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class Peer:
    def __init__(self, base):
        self.base = base.rstrip("/")
        self.store = InMemoryAxolotlStore()
        self.account = None
        self.device = None
        self.password = None
        self.last_send = None
        self.seen = set()

    # HTTP

    def call(self, method, path, body=None, auth=True, expect=(200,)):
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if auth:
            request.add_header("Authorization", self.authorization())
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        if status not in expect:
            raise RuntimeError("%s %s answered %d: %s" % (method, path, status, raw[:300]))
        return status, (json.loads(raw) if raw else None)

    def authorization(self):
        token = "%s.%d:%s" % (self.account, self.device, self.password)
        return "Basic " + b64(token.encode("utf-8"))

    # Accounts and keys

    def register(self, name):
        # Courier's device secret: base64 of 16-64 random bytes the device draws itself.
        self.password = b64(os.urandom(32))
        registration_id = self.store.getLocalRegistrationId()
        _, answer = self.call("POST", "/v1/accounts", {
            "password": self.password, "registrationId": registration_id, "name": name}, auth=False)
        self.account, self.device = answer["accountId"], answer["deviceId"]
        identity = self.store.getIdentityKeyPair()
        signed = KeyHelper.generateSignedPreKey(identity, 1)
        self.store.storeSignedPreKey(signed.getId(), signed)
        one_time = KeyHelper.generatePreKeys(1, 20)
        for record in one_time:
            self.store.storePreKey(record.getId(), record)
        # Keys are libsignal's 33-byte form (0x05 then the X25519 key), base64; the signature is
        # XEdDSA over the signed prekey's 33 bytes, as Curve.calculateSignature makes it.
        self.call("PUT", "/v2/keys", {
            "identityKey": b64(identity.getPublicKey().serialize()),
            "signedPreKey": {
                "keyId": signed.getId(),
                "publicKey": b64(signed.getKeyPair().getPublicKey().serialize()),
                "signature": b64(signed.getSignature()),
            },
            "preKeys": [{"keyId": r.getId(), "publicKey": b64(r.getKeyPair().getPublicKey().serialize())}
                        for r in one_time],
        }, expect=(204,))
        emit(event="registered", account=self.account, device=self.device, done=True)

    def cipher(self, account, device):
        s = self.store
        return SessionCipher(s, s, s, s, account, device)

    def devices_of(self, account):
        """The devices this peer has a session with, or the bundles' devices after building one each."""
        _, answer = self.call("GET", "/v2/keys/%s/*" % account)
        identity = IdentityKey(bytearray(unb64(answer["identityKey"])), 0)
        devices = []
        for entry in answer["devices"]:
            device = entry["deviceId"]
            devices.append((device, entry["registrationId"]))
            if self.store.containsSession(account, device):
                continue
            signed = entry["signedPreKey"]
            one_time = entry.get("preKey")
            bundle = PreKeyBundle(
                entry["registrationId"], device,
                one_time["keyId"] if one_time else None,
                Curve.decodePoint(bytearray(unb64(one_time["publicKey"])), 0) if one_time else None,
                signed["keyId"], Curve.decodePoint(bytearray(unb64(signed["publicKey"])), 0),
                unb64(signed["signature"]), identity)
            s = self.store
            SessionBuilder(s, s, s, s, account, device).processPreKeyBundle(bundle)
        return devices

    # Sending

    def conversation(self, other):
        first, second = sorted([self.account, other])
        return "dm:%s:%s" % (first, second)

    def envelopes(self, account, text, tamper=False, signal_numbering=False):
        """The body of PUT /v1/messages/{account} carrying TEXT, and its envelopes' types."""
        content = json.dumps({"v": 1, "kind": "text", "body": text, "sentAt": int(time.time() * 1000)},
                             ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        envelopes, types = [], []
        for device, registration_id in self.devices_of(account):
            message = self.cipher(account, device).encrypt(content)
            # python-axolotl's CiphertextMessage numbers are Courier's envelope types: 3 prekey, 2 whisper.
            kind = message.getType()
            serialized = bytearray(message.serialize())
            if tamper:
                # A byte of the AES ciphertext, well before the 8-byte MAC at the end.
                serialized[len(serialized) - 12] ^= 0x01
            if signal_numbering:
                kind = 1
            types.append(kind)
            envelopes.append({"destinationDeviceId": device, "destinationRegistrationId": registration_id,
                              "type": kind, "content": b64(serialized)})
        body = {"messages": envelopes, "conversationId": self.conversation(account),
                "clientMessageId": str(uuid.uuid4()), "timestamp": int(time.time() * 1000)}
        return body, types

    def send(self, account, text, tamper=False, signal_numbering=False):
        body, types = self.envelopes(account, text, tamper, signal_numbering)
        _, answer = self.call("PUT", "/v1/messages/%s" % account, body)
        if not tamper and not signal_numbering:
            self.last_send = (account, body)
        emit(event="sent", types=types, serverSeq=answer["serverSeq"], tampered=tamper, done=True)

    def replay(self, fresh):
        account, body = self.last_send
        body = dict(body)
        if fresh:
            body["clientMessageId"] = str(uuid.uuid4())
        _, answer = self.call("PUT", "/v1/messages/%s" % account, body)
        emit(event="replayed", fresh=fresh, serverSeq=answer["serverSeq"],
             duplicate=answer.get("duplicate", False), done=True)

    # Receiving

    def open(self, envelope):
        """Decrypts one envelope and prints what it held."""
        source, device = envelope["sourceAccount"], envelope["sourceDevice"]
        # A redelivery (its ack never reached the server) repeats the clientMessageId; the ratchet
        # would refuse it as a duplicate, so it is dropped before it gets there.
        key = (source, device, envelope["clientMessageId"])
        if key in self.seen:
            emit(event="repeat", serverSeq=envelope.get("serverSeq"))
            return False
        self.seen.add(key)
        raw = bytes(unb64(envelope["content"]))
        cipher = self.cipher(source, device)
        try:
            if envelope["type"] == CiphertextMessage.PREKEY_TYPE:
                plaintext = cipher.decryptPkmsg(PreKeyWhisperMessage(serialized=raw))
            elif envelope["type"] == CiphertextMessage.WHISPER_TYPE:
                plaintext = cipher.decryptMsg(WhisperMessage(serialized=raw))
            else:
                raise ValueError("envelope type %s" % envelope["type"])
        except Exception as error:  # a bad MAC, a repeat, an unknown type: reported, then acked
            emit(event="undecryptable", serverSeq=envelope.get("serverSeq"), error=repr(error))
            return False
        if isinstance(plaintext, str):
            plaintext = plaintext.encode("latin-1")
        content = json.loads(bytes(plaintext).decode("utf-8"))
        fields = dict(serverSeq=envelope["serverSeq"], type=envelope["type"], source=source,
                      conversationId=envelope["conversationId"], kind=content.get("kind"))
        if content.get("kind") == "text":
            emit(event="message", body=content["body"], sentAt=content.get("sentAt"), **fields)
            return True
        emit(event="control", **fields)
        return False

    def fetch_reversed(self):
        page = []
        cursor = 0
        while True:
            _, answer = self.call("GET", "/v1/messages?after=%d&limit=100" % cursor)
            page += answer["messages"]
            cursor = answer["cursor"]
            if not answer["more"] or not answer["messages"]:
                break
        for entry in reversed(page):
            self.open(entry["envelope"])
            self.call("DELETE", "/v1/messages/%d" % entry["id"], expect=(200, 204, 404))
        emit(event="fetched", count=len(page), done=True)

    def socket_url(self):
        return self.base.replace("http://", "ws://", 1) + "/v1/websocket"

    def serve(self, ws, frame, ack=True):
        """Answers one server request on the socket; true when it was a new text message."""
        path = frame.get("path")
        is_text = path == "/api/v1/message" and self.open(frame["body"])
        # Every server request gets a 200; for a message that is its ack.
        if ack or path != "/api/v1/message":
            ws.send(json.dumps({"type": "response", "id": frame["id"], "status": 200}))
        return is_text

    def socket(self, count, ack=True):
        texts = 0
        keepalive_id = 1
        with connect(self.socket_url(), additional_headers={"Authorization": self.authorization()},
                     open_timeout=30) as ws:
            while texts < count:
                frame = json.loads(ws.recv(timeout=60))
                if frame.get("type") == "response" and frame.get("id") == keepalive_id:
                    emit(event="socket-open", keepalive=frame.get("status"))
                if frame.get("type") != "request":
                    continue
                if self.serve(ws, frame, ack):
                    texts += 1
                if frame.get("path") == "/api/v1/queue/empty":
                    # The app-level ping; its answer says the socket is ready.
                    ws.send(json.dumps({"type": "request", "id": keepalive_id, "verb": "GET",
                                        "path": "/v1/keepalive"}))
        emit(event="socket-done", count=texts, done=True)

    def socket_send(self, account, text):
        """Sends TEXT as a request on the delivery socket instead of over HTTP."""
        body, types = self.envelopes(account, text)
        request_id = 1
        with connect(self.socket_url(), additional_headers={"Authorization": self.authorization()},
                     open_timeout=30) as ws:
            ws.send(json.dumps({"type": "request", "id": request_id, "verb": "PUT",
                                "path": "/v1/messages/%s" % account, "body": body}))
            while True:
                frame = json.loads(ws.recv(timeout=60))
                if frame.get("type") == "request":
                    self.serve(ws, frame)
                elif frame.get("id") == request_id:
                    answer = frame.get("body") or {}
                    emit(event="sent", types=types, status=frame.get("status"),
                         serverSeq=answer.get("serverSeq"), done=True)
                    return


def main():
    peer = Peer(sys.argv[1])
    for line in sys.stdin:
        words = line.rstrip("\n").split(" ", 2)
        command = words[0]
        try:
            if command == "register":
                peer.register(words[1])
            elif command in ("send", "tamper", "signal-numbering"):
                peer.send(words[1], words[2], tamper=command == "tamper",
                          signal_numbering=command == "signal-numbering")
            elif command == "replay-same":
                peer.replay(fresh=False)
            elif command == "replay-fresh":
                peer.replay(fresh=True)
            elif command == "fetch-reversed":
                peer.fetch_reversed()
            elif command == "socket":
                peer.socket(int(words[1]), ack=words[2:] != ["noack"])
            elif command == "socket-send":
                peer.socket_send(words[1], words[2])
            elif command == "quit":
                break
            elif command:
                raise ValueError("unknown command %r" % command)
        except Exception as error:
            emit(event="error", command=command, error=repr(error), done=True)


if __name__ == "__main__":
    main()

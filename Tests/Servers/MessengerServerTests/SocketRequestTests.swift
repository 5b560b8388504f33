import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

@testable import MessengerServer

/// Requests a device sends on its delivery socket: keepalive, sends and catch-up, answered with
/// responses carrying the request's id.
@Suite(.timeLimit(.minutes(1)))
struct SocketRequestTests {
    /// Sends a request frame and reads frames until its response.
    static func request(
        _ id: Int64, _ verb: String, _ path: String, body: JSONValue? = nil, on socket: WebSocket,
        reader: inout DeliveryReader
    ) async throws -> JSONValue {
        try await post(id, verb, path, body: body, on: socket)
        while let next = await reader.next() {
            if next["type"] == "response", next["id"]?.intValue == id { return next }
        }
        throw HTTPClientError(message: "the socket closed before the response", isTimeout: false)
    }

    static func send(to bob: TestDevice, clientMessageId: String) -> JSONValue {
        [
            "conversationId": "c1", "clientMessageId": .string(clientMessageId), "timestamp": 1,
            "messages": [
                [
                    "destinationDeviceId": 1, "destinationRegistrationId": .int(Int64(bob.registrationId)), "type": 1,
                    "content": .string(Base64.encode(Array("hi".utf8))),
                ]
            ],
        ]
    }

    @Test(arguments: StoreBackend.allCases) func keepaliveSendAndCatchUpAreAnsweredOnTheSocket(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend) { $0.sendRate = nil }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await harness.connect(alice, client: client)
        var reader = DeliveryReader(socket)
        let pong = try await Self.request(1, "GET", "/v1/keepalive", on: socket, reader: &reader)
        #expect(pong["status"] == 200)
        let sent = try await Self.request(
            2, "PUT", "/v1/messages/\(bob.accountId)", body: Self.send(to: bob, clientMessageId: "x1"), on: socket,
            reader: &reader)
        #expect(sent["status"] == 200)
        #expect(sent["body"]?["serverSeq"] == 1)
        #expect(sent["body"]?["duplicate"] == false)
        let again = try await Self.request(
            3, "PUT", "/v1/messages/\(bob.accountId)", body: Self.send(to: bob, clientMessageId: "x1"), on: socket,
            reader: &reader)
        #expect(again["body"]?["serverSeq"] == 1)
        #expect(again["body"]?["duplicate"] == true)

        let bobSocket = try await harness.connect(bob, client: client)
        var bobReader = DeliveryReader(bobSocket)
        let page = try await Self.request(
            9, "GET", "/v1/messages?after=0&limit=10", on: bobSocket, reader: &bobReader)
        #expect(page["body"]?["messages"]?.arrayValue?.count == 1)
        #expect(page["body"]?["messages"]?.arrayValue?.first?["envelope"]?["clientMessageId"] == "x1")
    }

    /// Sends a request frame without waiting for its answer.
    static func post(_ id: Int64, _ verb: String, _ path: String, body: JSONValue? = nil, on socket: WebSocket)
        async throws
    {
        var frame: [String: JSONValue] = [
            "type": "request", "id": .int(id), "verb": .string(verb), "path": .string(path),
        ]
        if let body { frame["body"] = body }
        try await socket.outbound.send(text: JSONWriter.string(.object(frame)))
    }

    @Test func sendsWaitingForTheirCommitLeaveTheSocketReadingAndCommitTogetherInOrder() async throws {
        let held = try await CommitsHeld.start()
        defer { held.stop() }
        let (socket, bob, holder, path) = (held.socket, held.bob, held.holder, held.path)
        var reader = held.reader
        let store = try #require(held.harness.store as? SQLiteMessengerStore)
        let commitsBefore = store.sendGroupCommits
        try await Self.post(1, "PUT", path, body: Self.send(to: bob, clientMessageId: "a"), on: socket)
        // The socket still answers while that send waits for its commit.
        let pong = try await Self.request(2, "GET", "/v1/keepalive", on: socket, reader: &reader)
        #expect(pong["status"] == 200)
        try await Self.post(3, "PUT", path, body: Self.send(to: bob, clientMessageId: "b"), on: socket)
        try await Self.post(4, "PUT", path, body: Self.send(to: bob, clientMessageId: "c"), on: socket)
        // Requests are read in order: once this is answered, "b" and "c" are queued behind "a".
        _ = try await Self.request(5, "GET", "/v1/keepalive", on: socket, reader: &reader)
        try holder.execute("ROLLBACK")

        var seqs: [Int64: Int64] = [:]
        while seqs.count < 3, let frame = await reader.next() {
            guard frame["type"] == "response", let id = frame["id"]?.intValue else { continue }
            #expect(frame["status"] == 200)
            seqs[id] = frame["body"]?["serverSeq"]?.intValue
        }
        // Stored in the order sent, and "b" and "c" in one commit (with or without "a").
        #expect(seqs == [1: 1, 3: 2, 4: 3])
        #expect(store.sendGroupCommits - commitsBefore <= 2)
    }

    /// A socket with `SocketRequestWindow.limit` sends waiting for their commit is not read
    /// further: the request after them is answered only once a send has been answered (by the
    /// committer, after the commit), never while the sends wait.
    @Test func aSocketWithAFullWindowOfSendsIsReadAgainOnlyAfterOneIsAnswered() async throws {
        let held = try await CommitsHeld.start()
        defer { held.stop() }
        let (socket, bob, holder, path) = (held.socket, held.bob, held.holder, held.path)
        var reader = held.reader
        let sends = Array(Int64(1)...Int64(SocketRequestWindow.limit))
        for id in sends {
            try await Self.post(id, "PUT", path, body: Self.send(to: bob, clientMessageId: "w\(id)"), on: socket)
        }
        try await Self.post(50, "GET", "/v1/keepalive", on: socket)
        try holder.execute("ROLLBACK")

        var order: [Int64] = []
        while order.count < sends.count + 1, let frame = await reader.next() {
            guard frame["type"] == "response", let id = frame["id"]?.intValue else { continue }
            #expect(frame["status"] == 200)
            order.append(id)
        }
        // The first send is answered before the socket reads the keepalive; every send is answered.
        #expect(order.first == 1)
        #expect(Set(order) == Set(sends + [50]))
    }

    /// More sends wait for their commit than the store has queues for blocking calls: a catch-up
    /// read (which runs on those queues) is still answered before any of them, since a waiting
    /// send holds no thread. When each waiting send blocked a queue, the read came after them.
    @Test func sendsWaitingForTheirCommitDoNotHoldUpACatchUpRead() async throws {
        let held = try await CommitsHeld.start()
        defer { held.stop() }
        let (socket, bob, holder, path) = (held.socket, held.bob, held.holder, held.path)
        var reader = held.reader
        let sends: [Int64] = Array(1...8)
        for id in sends {
            try await Self.post(id, "PUT", path, body: Self.send(to: bob, clientMessageId: "m\(id)"), on: socket)
        }
        try await Self.post(20, "GET", "/v1/messages?after=0&limit=10", on: socket)
        var first: JSONValue?
        while first == nil, let frame = await reader.next() {
            if frame["type"] == "response" { first = frame }
        }
        #expect(first?["id"] == 20)
        #expect(first?["status"] == 200)
        try holder.execute("ROLLBACK")

        var seqs: [Int64: Int64] = [:]
        while seqs.count < sends.count, let frame = await reader.next() {
            guard frame["type"] == "response", let id = frame["id"]?.intValue else { continue }
            #expect(frame["status"] == 200)
            seqs[id] = frame["body"]?["serverSeq"]?.intValue
        }
        #expect(seqs == Dictionary(uniqueKeysWithValues: sends.map { ($0, $0) }))
    }

    @Test(arguments: StoreBackend.allCases) func badSocketRequestsGetAClearAnswer(backend: StoreBackend) async throws {
        let harness = try await MessengerHarness(backend: backend) { $0.sendRate = nil }
        defer { harness.stop() }
        let alice = try await harness.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await harness.connect(alice, client: client)
        var reader = DeliveryReader(socket)
        let unknown = try await Self.request(1, "GET", "/v1/nothing", on: socket, reader: &reader)
        #expect(unknown["status"] == 404)
        #expect(unknown["body"]?["code"] == "not_found")
        let noAccount = try await Self.request(
            2, "PUT", "/v1/messages/nobody",
            body: [
                "conversationId": "c", "clientMessageId": "y", "timestamp": 1,
                "messages": [["destinationDeviceId": 1, "destinationRegistrationId": 1, "type": 1, "content": "AA=="]],
            ],
            on: socket, reader: &reader)
        #expect(noAccount["status"] == 404)
        let malformed = try await Self.request(
            3, "PUT", "/v1/messages/nobody", body: ["x": 1], on: socket, reader: &reader)
        #expect(malformed["status"] == 400)
        // A request without an id cannot be answered: the socket is closed.
        try await socket.outbound.send(text: #"{"type":"request","verb":"GET","path":"/v1/keepalive"}"#)
        while await reader.next() != nil {}
        #expect(socket.closeInfo?.code == .policyViolation)
    }

    /// Alice's socket, set up (its session answered a keepalive), Bob to send to, and another
    /// connection holding the database's write lock, so no send commits until `holder` rolls back.
    struct CommitsHeld {
        let harness: MessengerHarness
        let client: WebSocketClient
        let socket: WebSocket
        let reader: DeliveryReader
        let bob: TestDevice
        let holder: Database
        var path: String { "/v1/messages/\(bob.accountId)" }

        static func start() async throws -> CommitsHeld {
            let harness = try await MessengerHarness(backend: .sqlite) { $0.sendRate = nil }
            let alice = try await harness.register()
            let bob = try await harness.register()
            let client = try WebSocketClient()
            let socket = try await harness.connect(alice, client: client)
            var reader = DeliveryReader(socket)
            // Answered once the socket's session is set up (it writes when a device connects).
            _ = try await SocketRequestTests.request(99, "GET", "/v1/keepalive", on: socket, reader: &reader)
            let holder = try Database(path: harness.directory + "/messenger.sqlite")
            try holder.execute("BEGIN IMMEDIATE")
            return CommitsHeld(
                harness: harness, client: client, socket: socket, reader: reader, bob: bob, holder: holder)
        }

        func stop() {
            harness.stop()
            inBackground { [client] in client.shutdown() }
        }
    }
}

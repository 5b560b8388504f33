import CourierCore
import CourierHTTP

extension MessengerServer {
    func mountMessages(on router: inout Router) {
        router.add("PUT", "/v1/messages/{accountId}") { [self] request, _ in try sendMessage(request) }
        router.add("GET", "/v1/messages") { [self] request, _ in try pendingMessages(request) }
        router.add("DELETE", "/v1/messages/{id}") { [self] request, _ in
            let device = try device(request)
            guard let id = request.pathParameters["id"].flatMap(Int64.init) else {
                throw HTTPError.badRequest("the id must be an envelope's id")
            }
            let deleted = try stored { () throws(MessengerStoreError) in
                try store.acknowledge(accountId: device.accountId, deviceId: device.deviceId, ids: [id])
            }
            guard deleted > 0 else { throw HTTPError(.notFound, "no envelope \(id) in this mailbox") }
            return HTTPResponse(status: 204)
        }
    }

    /// `PUT /v1/messages/{account}`: one envelope per device of the account, stored all or none.
    func sendMessage(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        try answer(try queueSend(request))
    }

    /// A send checked and queued in the store (`MessengerStore.queueSend`), to be answered with
    /// `answer(_:)` once stored.
    struct QueuedMessage: Sendable {
        let destination: String
        let queued: QueuedSend
    }

    /// Checks a `PUT /v1/messages/{account}` (the sender's rate, the body) and queues its send
    /// behind those queued before it, without waiting for the commit. `socketDevice`,
    /// `socketDestination` and `socketBody` (the frame's `body`, already parsed) are set when the
    /// send came over the delivery socket; the request's own body is read otherwise.
    func queueSend(
        _ request: HTTPRequest, from socketDevice: AuthenticatedDevice? = nil, to socketDestination: String? = nil,
        socketBody: JSONValue? = nil
    ) throws(HTTPError) -> QueuedMessage {
        let sender: AuthenticatedDevice
        if let socketDevice { sender = socketDevice } else { sender = try device(request) }
        try Self.limit(sendLimiter, sender.accountId)
        guard let destination = socketDestination ?? request.pathParameters["accountId"], destination.utf8.count <= 128
        else {
            throw HTTPError.badRequest("name the destination account")
        }
        let body = try socketDevice == nil ? RequestJSON(request) : RequestJSON(parsed: socketBody)
        let clientMessageId = try body.string("clientMessageId", maximumBytes: 64)
        let conversationId = try body.string("conversationId", maximumBytes: 128)
        let timestamp = try body.int("timestamp", in: 0...Int64.max)
        var envelopes: [OutgoingEnvelope] = []
        var total = 0
        for item in try body.array("messages") {
            let content = try item.bytes("content", maximum: Int.max)
            total += content.count
            guard total <= configuration.maximumMessageBytes else {
                throw HTTPError(
                    .payloadTooLarge, "a send carries at most \(configuration.maximumMessageBytes) bytes of ciphertext")
            }
            envelopes.append(
                OutgoingEnvelope(
                    destinationDeviceId: Int(try item.int("destinationDeviceId", in: 1...1_000)),
                    destinationRegistrationId: Int(try item.int("destinationRegistrationId", in: 0...16_380)),
                    type: Int(try item.int("type", in: 0...255)), content: content))
        }
        guard !envelopes.isEmpty else { throw HTTPError.badRequest("messages must name at least one device") }
        guard Set(envelopes.map(\.destinationDeviceId)).count == envelopes.count else {
            throw HTTPError.badRequest("one envelope per device")
        }
        let message = OutgoingMessage(
            sourceAccount: sender.accountId, sourceDevice: sender.deviceId, destinationAccount: destination,
            conversationId: conversationId, clientMessageId: clientMessageId, timestamp: timestamp, envelopes: envelopes
        )
        let now = clock.nowMilliseconds
        return QueuedMessage(
            destination: destination,
            queued: store.queueSend(
                message, receivedAt: now, expiresAt: now + configuration.envelopeLifetimeMilliseconds))
    }

    /// Waits (blocking) for a queued send's commit, wakes its devices, and gives the route's answer.
    func answer(_ message: QueuedMessage) throws(HTTPError) -> HTTPResponse {
        try answer(message, committed: Result { () throws(MessengerStoreError) in try message.queued.outcome() })
    }

    /// Wakes a committed send's devices and gives the route's answer (or its error).
    func answer(_ message: QueuedMessage, committed: Result<SendOutcome, MessengerStoreError>) throws(HTTPError)
        -> HTTPResponse
    {
        let destination = message.destination
        let outcome = try stored { () throws(MessengerStoreError) in try committed.get() }
        switch outcome {
        case .stored(let serverSeq, let mailboxIds):
            envelopesStored.add(mailboxIds.count, ordering: .relaxed)
            delivered(to: destination, devices: mailboxIds.keys.sorted(), handedOver: message.queued.deliveredHere)
            return .json(["serverSeq": .int(serverSeq), "duplicate": false])
        case .duplicate(let serverSeq):
            return .json(["serverSeq": .int(serverSeq), "duplicate": true])
        case .mismatchedDevices(let missing, let extra):
            var error = HTTPError(.mismatchedDevices, "the envelopes do not match the account's devices")
            error.details = [
                "missingDevices": .array(missing.map { .int(Int64($0)) }),
                "extraDevices": .array(extra.map { .int(Int64($0)) }),
            ]
            throw error
        case .staleDevices(let stale):
            var error = HTTPError(.staleDevices, "some devices have a new registration id")
            error.details = ["staleDevices": .array(stale.map { .int(Int64($0)) })]
            throw error
        case .unknownAccount:
            throw HTTPError(.notFound, "no account \(destination)")
        }
    }

    /// Called after the send committed: counts the devices whose socket here was handed the
    /// envelope at the commit (`handedOver`, see `handOverAtCommit`), wakes the other devices
    /// whose socket is on this instance, asks on the bus whether a socket elsewhere holds each of
    /// the others, and pushes to those no socket answered for. The asking runs in a task of its
    /// own, so the sender's answer never waits for the bus or a push.
    ///
    /// A request that timed out or found the bus down pushes too: a push carries no content and
    /// is coalesced per device (`PushScheduler`), so a spurious one costs a wake-up, while a
    /// missing one leaves a message unseen.
    private func delivered(to accountId: String, devices: [Int], handedOver: Set<Int>) {
        var remote: [Int] = []
        for deviceId in devices {
            if handedOver.contains(deviceId) {
                presence.recordLocal()
            } else if notifier.wakeIfHere(AuthenticatedDevice(accountId: accountId, deviceId: deviceId)) {
                presence.recordLocal()
            } else {
                remote.append(deviceId)
            }
        }
        guard !remote.isEmpty else { return }
        let devices = remote
        let (notifier, presence, pushes, store, storeQueues) = (notifier, presence, pushes, store, storeQueues)
        Task {
            let offline = await withTaskGroup(of: Int?.self) { group in
                for deviceId in devices {
                    group.addTask {
                        let device = AuthenticatedDevice(accountId: accountId, deviceId: deviceId)
                        let reply = await notifier.mailboxChanged(device)
                        presence.record(reply)
                        if case .answered = reply { return nil }
                        return deviceId
                    }
                }
                return await group.reduce(into: Set<Int>()) { offline, deviceId in
                    if let deviceId { offline.insert(deviceId) }
                }
            }
            guard !offline.isEmpty else { return }
            storeQueues.detach {
                guard let records = try? store.devices(accountId: accountId) else { return }
                for record in records where offline.contains(record.id) {
                    guard let endpoint = record.push else { continue }
                    pushes.envelopeQueued(
                        for: AuthenticatedDevice(accountId: accountId, deviceId: record.id), endpoint: endpoint)
                }
            }
        }
    }

    /// `GET /v1/messages?after=&limit=`: pending envelopes after a cursor, oldest first.
    func pendingMessages(_ request: HTTPRequest, from socketDevice: AuthenticatedDevice? = nil) throws(HTTPError)
        -> HTTPResponse
    {
        let device: AuthenticatedDevice
        if let socketDevice { device = socketDevice } else { device = try self.device(request) }
        let query = request.query
        let after = query["after"].flatMap(Int64.init) ?? 0
        let limit = min(max(query["limit"].flatMap(Int.init) ?? 100, 1), 1_000)
        let entries = try stored { () throws(MessengerStoreError) in
            try store.mailbox(accountId: device.accountId, deviceId: device.deviceId, afterId: after, limit: limit + 1)
        }
        let page = entries.prefix(limit)
        var body: [UInt8] = Array("{\"messages\":[".utf8)
        for (index, entry) in page.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += Array("{\"id\":\(entry.id),\"envelope\":".utf8) + entry.envelope + [UInt8(ascii: "}")]
        }
        body += Array("],\"cursor\":\(page.last?.id ?? after),\"more\":\(entries.count > limit)}".utf8)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: body)
    }
}

import CourierCore

extension MessengerClient {
    /// Runs one delivery attempt of a queued message: on success it is `sent` and leaves the
    /// queue; on a failure that may pass (no answer, 5xx, 408, 429) the next attempt is
    /// scheduled after a full-jitter backoff (at least the server's `Retry-After`) on the
    /// injected clock, and after `maximumSendAttempts`, or on any other failure, it is `failed`.
    /// - Throws: the attempt's error, after recording it.
    func attempt(_ message: Message, deliver: (isolated MessengerClient) async throws -> Int64?) async throws
        -> Message
    {
        var message = message
        do {
            let serverSeq = try await deliver(self)
            try markSent(&message, serverSeq: serverSeq)
            return message
        } catch {
            try recordSendFailure(&message, error)
            throw error
        }
    }

    private func recordSendFailure(_ message: inout Message, _ error: any Error) throws {
        let failure = error as? MessengerClientError
        let retryable = failure?.isRetryable ?? false
        let clientId = message.clientId
        let now = clock.nowMilliseconds
        let failed = try storage.transaction { _, _, db -> Bool in
            let attempts = try SendQueue.attempts(clientId: clientId, db: db) + 1
            if retryable && attempts < configuration.maximumSendAttempts {
                var wait = configuration.sendBackoff.delay(attempt: attempts - 1)
                if let retryAfter = failure?.retryAfter, retryAfter > wait { wait = retryAfter }
                try SendQueue.recordFailure(
                    clientId: clientId, nextAttemptAt: now + wait.wholeMilliseconds, error: "\(error)", db: db)
                return false
            }
            _ = try MessageStore.markFailed(clientId: clientId, in: db)
            try SendQueue.remove(clientId: clientId, db: db)
            return true
        }
        if failed { message.state = .failed }
    }

    /// Sends again every queued message whose next attempt is due on the configuration's clock,
    /// with its original client id (the server keeps one copy); `sync()` and `listen` call it.
    /// - Returns: the messages sent now.
    /// - Throws: `.storage` when the queue cannot be read; a failed attempt is recorded, not thrown.
    @discardableResult
    public func retryPendingSends() async throws -> [Message] {
        let now = clock.nowMilliseconds
        let due = try storage.read { try SendQueue.due(now: now, db: $0) }
        var sent: [Message] = []
        for entry in due {
            if let message = try? await resend(entry), message.state == .sent { sent.append(message) }
        }
        return sent
    }

    /// Puts a `failed` message back to `sending` and sends it now (same client id).
    /// - Returns: the message, `sent` when it went out.
    /// - Throws: `.invalidArgument` for an unknown or not failed message; the attempt's error.
    @discardableResult
    public func retry(clientId: String) async throws -> Message {
        let now = clock.nowMilliseconds
        let own = credentials.accountId
        let conversation = try storage.transaction { _, _, db -> String? in
            let row = try db.query(
                "SELECT conversation_id FROM messenger_messages WHERE client_id = ? AND sender_account = ?",
                [.text(clientId), .text(own)]
            ) { $0.text(0) ?? "" }.first
            guard let row, try MessageStore.retry(clientId: clientId, in: db) else { return nil }
            try SendQueue.enqueue(clientId: clientId, conversationId: row, now: now, db: db)
            return row
        }
        guard let conversation else {
            throw MessengerClientError(.invalidArgument, "no failed message \(clientId)")
        }
        return try await resend(SendQueue.Entry(clientId: clientId, conversationId: conversation, attempts: 0))
    }

    /// One more attempt for a queued message: its content rebuilt from the stored row and sealed
    /// afresh (new sessions after a 409/410 are used).
    private func resend(_ entry: SendQueue.Entry) async throws -> Message {
        guard
            let message = try storage.conversations.message(
                conversationId: entry.conversationId, senderAccount: credentials.accountId, clientId: entry.clientId),
            message.state == .sending
        else {
            try storage.transaction { _, _, db in try SendQueue.remove(clientId: entry.clientId, db: db) }
            throw MessengerClientError(.invalidArgument, "message \(entry.clientId) is not waiting to be sent")
        }
        let attachment = try message.attachment.map { pointer throws(AttachmentError) in try pointer.encoded() }
        if entry.conversationId.hasPrefix(GroupTable.conversationPrefix) {
            let group = String(entry.conversationId.dropFirst(GroupTable.conversationPrefix.count))
            let content = MessageContent.text(
                body: message.body, attachment: attachment, sentAt: message.sentAt, group: group)
            return try await deliverToGroup(content, message: message, group: group)
        }
        let others = entry.conversationId.dropFirst("dm:".count).split(separator: ":").map(String.init)
            .filter { $0 != credentials.accountId }
        let content = MessageContent.text(
            body: message.body, attachment: attachment, sentAt: message.sentAt, group: nil)
        return try await attempt(message) { client in try await client.fanOut(content, of: message, to: others) }
    }
}

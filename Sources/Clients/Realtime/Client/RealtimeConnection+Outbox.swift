import CourierCore

extension RealtimeConnection {
    /// Sends the outbox's due items in order, up to `maximumInFlight` unanswered; a failed item
    /// waits for its retry time without holding up the ones behind it.
    func flushOutbox() {
        guard machine.state == .live, outgoing != nil else { return }
        let room = outboxPolicy.maximumInFlight - inFlight.count
        var storeFailed = false
        if room > 0 {
            if let due = try? store.dueItems(now: clock.nowMilliseconds, limit: room, excluding: Set(inFlight.keys)) {
                let now = clock.uptimeNanoseconds
                for item in due {
                    inFlight[item.clientId] = now
                    request(.send(clientId: item.clientId)) { framing.send(item, id: $0) }
                }
            } else {
                storeFailed = true
            }
        }
        armOutboxTimer(storeFailed: storeFailed)
    }

    /// The server answered the send of `clientId`.
    func answered(_ clientId: String, status: Int, body: JSONValue?) {
        guard inFlight.removeValue(forKey: clientId) != nil else { return }
        if (200..<300).contains(status), let serverSeq = framing.serverSeq(inAcknowledgement: body) {
            guard (try? store.acknowledge(clientId, serverSeq: serverSeq)) != nil else { return }
            eventSink.yield(.outbox(clientId: clientId, state: .sent, serverSeq: serverSeq))
        } else {
            failed(clientId, reason: "status \(status)")
        }
        flushOutbox()
    }

    /// One attempt at `clientId` failed: retry later with backoff, or give up after N attempts.
    private func failed(_ clientId: String, reason: String) {
        let attempts = (try? store.outboxItem(clientId))?.attempts ?? 0
        let backoff = Backoff(base: outboxPolicy.retryBase, cap: outboxPolicy.retryCap)
        let delay = backoff.delay(attempt: attempts, using: &random)
        let state = try? store.attemptFailed(
            clientId, reason: reason, now: clock.nowMilliseconds, retryDelayMilliseconds: delay.wholeMilliseconds,
            maximumAttempts: outboxPolicy.maximumAttempts)
        if state == .failed { eventSink.yield(.outbox(clientId: clientId, state: .failed, serverSeq: nil)) }
    }

    /// Sleeps until the next ack deadline or retry time, whichever comes first; after the store
    /// failed to list the due items, no sooner than `retryBase` (not at once, over and over).
    private func armOutboxTimer(storeFailed: Bool = false) {
        outboxTimer?.cancel()
        outboxTimer = nil
        let now = clock.uptimeNanoseconds
        let timeout = UInt64(max(0, outboxPolicy.acknowledgementTimeout.wholeNanoseconds))
        var wait: Duration?
        if let oldest = inFlight.values.min() {
            let deadline = oldest &+ timeout
            wait = .nanoseconds(Int64(deadline > now ? deadline - now : 0))
        }
        // The next item to send, even one already due (it may have come due since `flushOutbox`
        // looked: then the timer fires at once); with no room, the next answer makes room and
        // looks again.
        if inFlight.count < outboxPolicy.maximumInFlight,
            let next = try? store.nextAttemptTime(excluding: Set(inFlight.keys))
        {
            let retryWait = Duration.milliseconds(max(0, next - clock.nowMilliseconds))
            wait = min(wait ?? retryWait, retryWait)
        }
        // A store that failed to list the due items is asked again after `retryBase`: not at
        // once (over and over), and not never (it may not answer the query above either).
        if storeFailed { wait = max(wait ?? outboxPolicy.retryBase, outboxPolicy.retryBase) }
        guard let wait else { return }
        let clock = clock
        outboxTimer = Task { [weak self] in
            do { try await clock.sleep(for: wait) } catch { return }
            await self?.outboxTimerFired()
        }
    }

    private func outboxTimerFired() {
        outboxTimer = nil
        let now = clock.uptimeNanoseconds
        let timeout = UInt64(max(0, outboxPolicy.acknowledgementTimeout.wholeNanoseconds))
        for (clientId, sentAt) in inFlight where now >= sentAt &+ timeout {
            inFlight[clientId] = nil
            failed(clientId, reason: "no acknowledgement within \(outboxPolicy.acknowledgementTimeout)")
        }
        flushOutbox()
    }
}

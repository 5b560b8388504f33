import CourierCore

extension AnalyticsPipeline {
    /// Enrich → consent gate → plugins → scrub → sample → size check → write buffer.
    func record(
        kind: AnalyticsEvent.Kind, name: String?, properties: [String: JSONValue], timestamp: Int64,
        extra: EventExtra
    ) {
        guard remote.enabled else { return stats.drop(.disabled) }
        guard consent == .granted else { return stats.drop(.consent) }
        let scrubber = PIIScrubber(
            allowList: remote.allowList(local: configuration.propertyAllowList),
            redacts: configuration.redactsPII)
        var previousId: String?
        switch kind {
        case .identify:
            if let userId = extra.userId { identity.userId = scrubber.redactIdentifier(userId) }
            identity.traits.merge(scrubber.scrub(properties)) { _, new in new }
            if let queue { try? identity.save(to: queue) }
        case .alias:
            // The id the user had until now, as analytics-swift sends it: the collector needs both.
            previousId = identity.userId ?? identity.anonymousId
            if let userId = extra.userId { identity.userId = scrubber.redactIdentifier(userId) }
            if let queue { try? identity.save(to: queue) }
        default:
            break
        }
        let rate = remote.sampleRate ?? configuration.sampleRate
        let shared = currentContext(rate: rate)
        var event = AnalyticsEvent(
            messageId: messageIds.next(), kind: kind, name: name,
            properties: kind == .identify ? identity.traits : properties, timestamp: timestamp,
            userId: identity.userId, anonymousId: identity.anonymousId, groupId: extra.groupId,
            previousId: previousId, context: shared.value)
        for plugin in configuration.plugins {
            guard let changed = plugin.transform(event) else { return stats.drop(.plugin) }
            event = changed
        }
        // After the plugins, so what they add is scrubbed too. The shared context is the SDK's
        // own (app, os, device…); it is scanned only when a plugin may have changed it.
        scrubber.scrub(&event, context: !configuration.plugins.isEmpty, identifiers: &redactedIdentifiers)
        let samplingId = configuration.samplingUnit == .user ? (event.userId ?? event.anonymousId) : String(sessionId)
        guard Sampler.isSampled(samplingId, rate: rate) else { return stats.drop(.sampled) }
        // Without plugins the context is the session's own: it is queued once and sent once per
        // batch, not in every event (about half of a small event's bytes).
        let pending =
            configuration.plugins.isEmpty
            ? PendingEvent(payload: event.encoded(omittingContext: true), context: shared.bytes)
            : PendingEvent(payload: event.encoded(), context: nil)
        guard pending.storedSize <= configuration.maximumEventBytes else { return stats.drop(.tooLarge) }
        buffer.append(pending)
        let base = max(1, configuration.writeBufferCount)
        let group = writeGroup ?? base
        if buffer.count >= group {
            writeBuffer(keepingTimer: true)
            // A burst: the buffer filled before its timer. The next group is larger (one
            // transaction for more events); the timer still writes each event in time.
            writeGroup = min(group * 2, max(base, configuration.writeBufferBurstCount))
        } else if bufferTimer == nil {
            bufferTimer = Task { [clock, interval = configuration.writeBufferInterval] in
                do { try await clock.sleep(for: interval) } catch { return }
                self.writeBufferOnTimer()
            }
        }
    }

    /// The buffer's timer: writes what is buffered, and the burst (if any) is over.
    private func writeBufferOnTimer() {
        writeBuffer()
        writeGroup = nil
    }

    private func currentContext(rate: Double) -> (value: [String: JSONValue], bytes: [UInt8]) {
        if let cached = sessionContext, cached.rate == rate, cached.session == sessionId {
            return (cached.value, cached.bytes)
        }
        var value = context
        value["sessionId"] = .int(sessionId)
        value["sampling"] = ["rate": .double(rate), "unit": .string(configuration.samplingUnit.rawValue)]
        let bytes = JSONWriter.encode(.object(value))
        sessionContext = (rate, sessionId, value, bytes)
        return (value, bytes)
    }

    /// Appends the in-memory buffer to the queue in one transaction.
    /// - Parameter keepingTimer: leaves a pending buffer timer running, for a write made because
    ///   the buffer filled up: at a high event rate that is one timer task per
    ///   `writeBufferInterval`, not one made and cancelled every `writeBufferCount` events.
    func writeBuffer(keepingTimer: Bool = false) {
        if !keepingTimer {
            bufferTimer?.cancel()
            bufferTimer = nil
        }
        guard !buffer.isEmpty else { return }
        let events = buffer
        buffer.removeAll(keepingCapacity: true)
        guard let queue else { return stats.drop(.storage, count: events.count) }
        do {
            let pushedOut = try queue.append(
                events, createdAt: clock.nowMilliseconds,
                maximumBytes: configuration.maximumQueueBytes)
            stats.update { $0.stored += events.count }
            stats.drop(.queueFull, count: pushedOut)
        } catch {
            stats.drop(.storage, count: events.count)
            log("events could not be written to the queue: \(error)", once: "write")
        }
        updateQueueStats()
        perform(policy.eventsStored(queued: queue.count))
    }
}

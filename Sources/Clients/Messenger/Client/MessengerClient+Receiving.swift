import CourierCore

extension MessengerClient {
    /// Fetches every pending envelope over HTTP (`GET /v1/messages`), processes each (decrypt and
    /// store in one transaction) and acknowledges it (`DELETE /v1/messages/{id}`) after its commit.
    /// An envelope held for an identity change stays on the server for a later sync. Sends whose
    /// retry is due go first (`retryPendingSends()`).
    /// - Parameter limit: stop after this many envelopes (the notification extension's budget).
    /// - Returns: what the envelopes produced, oldest first.
    /// - Throws: `MessengerClientError` (`.transport`, `.server`, `.storage`); envelopes
    ///   processed before the failure stay processed.
    public func sync(limit: Int = .max) async throws -> [IncomingEvent] {
        try await retryPendingSends()
        return try await catchUp(limit: limit, onEvent: { _ in })
    }

    /// The catch-up loop, shared with the notification decryptor.
    nonisolated func catchUp(limit: Int, onEvent: (IncomingEvent) -> Void) async throws -> [IncomingEvent] {
        var events: [IncomingEvent] = []
        var cursor: Int64 = 0
        while events.count < limit {
            let page = try await api.pending(
                after: cursor, limit: min(100, limit - events.count), as: credentials)
            for (id, json) in page.envelopes {
                let event: IncomingEvent
                do {
                    event = try await processObservingIdentity(try IncomingEnvelope(json: json))
                } catch let error as MessengerClientError where error.code == .malformedEnvelope {
                    event = .undecryptable(from: json["sourceAccount"]?.stringValue ?? "", reason: error.message)
                }
                if event.acknowledges { try await api.acknowledge(id, as: credentials) }
                events.append(event)
                onEvent(event)
            }
            cursor = page.cursor
            if !page.more || page.envelopes.isEmpty { break }
        }
        return events
    }

    /// Processes envelopes that arrived together on the delivery socket in one transaction (one
    /// commit), in order; each result says whether its envelope may be acknowledged, which is only
    /// once this returns. An envelope that does not parse or decrypt is recorded alone and the
    /// others still commit; a storage failure leaves the whole batch unacknowledged, so the server
    /// sends it again.
    func receive(socketEnvelopes jsons: [JSONValue]) async -> [(event: IncomingEvent?, acknowledge: Bool)] {
        var results: [(event: IncomingEvent?, acknowledge: Bool)] = []
        var parsed: [(index: Int, envelope: IncomingEnvelope)] = []
        for (index, json) in jsons.enumerated() {
            do {
                parsed.append((index, try IncomingEnvelope(json: json)))
                results.append((nil, false))
            } catch let error as MessengerClientError where error.code == .malformedEnvelope {
                let source = json["sourceAccount"]?.stringValue ?? ""
                results.append((.undecryptable(from: source, reason: error.message), true))
            } catch {
                results.append((nil, false))
            }
        }
        guard !parsed.isEmpty, let events = try? processor.process(batch: parsed.map(\.envelope)) else {
            // A storage failure: nothing of the batch committed, none is acknowledged.
            return results
        }
        for ((index, envelope), event) in zip(parsed, events) {
            do {
                let event = try await observeIdentity(of: envelope, processedAs: event)
                results[index] = (event, event.acknowledges)
            } catch let error as MessengerClientError where error.code == .malformedEnvelope {
                results[index] = (.undecryptable(from: envelope.sourceAccount, reason: error.message), true)
            } catch {
                // A storage failure: not acknowledged, so the server sends it again.
                results[index] = (nil, false)
            }
        }
        return results
    }
}

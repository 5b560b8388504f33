import CourierCore
import CourierHTTP

extension MessengerServer {
    /// `GET /v1/websocket`: the device's delivery socket (docs/messenger-server.md has the
    /// framing). Credentials come as HTTP Basic or, for clients that cannot set headers,
    /// `?login=account.device&password=…` as Signal's clients send them.
    func mountSocket(on router: inout Router) {
        var socketConfiguration = WebSocketConfiguration()
        socketConfiguration.maximumMessageBytes = 64 * 1024
        // No permessage-deflate: the frames carry ciphertext in base64, which deflate shrinks by
        // little more than base64's third, while zlib's state is set up and torn down for every
        // message (no context takeover). On the routing benchmark that was 46 % of all CPU samples,
        // client and server, and routing doubled without it (docs/messenger-server.md).
        socketConfiguration.compression = false
        router.webSocket(
            "/v1/websocket", configuration: socketConfiguration,
            shouldUpgrade: { [self] request, _ in _ = try socketDevice(request) }
        ) { [self] socket, request, _ in
            let device = try socketDevice(request)
            let session = DeliverySession(
                device: device, socket: socket, connection: notifier.stamp(now: clock.nowMilliseconds), store: store,
                storeQueues: storeQueues, acks: acks, window: configuration.deliveryWindow, unacked: unackedWatch)
            hub.register(session)
            // Acks of an earlier connection that are still pending land before the mailbox is read
            // (a write: on the store's queues, off the shared pool).
            await storeQueues.run { [acks, pushes] in
                acks.flush()
                pushes.connected(device)
            }
            // Subscribed before the mailbox is read: an envelope stored meanwhile is either in the
            // first read or wakes the session. A bus that refuses leaves the catch-up poll.
            try? await notifier.attach(session)
            session.wake()
            let window = SocketRequestWindow()
            // On the socket's loop: a frame is handled in the turn that read it. Nothing below
            // makes the thread wait (store calls go to `storeQueues`, sends to the committer).
            await withTaskExecutorPreference(socket.loopExecutor) {
                for await message in socket.inbound { await socketMessage(message, session: session, window: window) }
            }
            await window.drain()
            hub.unregister(session)
            await announceUnread(leftBy: device, closing: socket.closeSent)
        }
    }

    /// After a delivery socket ends: when envelopes are still in the device's mailbox (sent and
    /// not acknowledged, or stored while the socket was closing, which their sends counted as
    /// delivered here) and no socket of the device holds it now, here or on another instance,
    /// the device is pushed, as if they had arrived while it was offline: a message that comes
    /// as the app goes away is still announced.
    ///
    /// The socket's own acks are deleted first, so a device that acknowledged everything it was
    /// sent gets no push. The push waits `unreadPushGraceMilliseconds` and looks again (at the
    /// hub, the mailbox and the bus), so a device that connects again at once is not pushed. None
    /// goes out for a socket this server closed because it is stopping (`closing`), nor once
    /// `shutdown()` has run: the device reads its mailbox when it connects again, here or on
    /// another instance.
    func announceUnread(leftBy device: AuthenticatedDevice, closing: WebSocketClose?) async {
        defer { socketsEnded.add(1, ordering: .relaxed) }
        guard closing != .serverStopping, hub.session(for: device) == nil, await hasUnread(device), !isShutDown
        else { return }
        let grace = configuration.unreadPushGraceMilliseconds
        if grace > 0 {
            do { try await clock.sleep(for: .milliseconds(grace)) } catch { return }
            guard !isShutDown, hub.session(for: device) == nil, await hasUnread(device) else { return }
        }
        // A newer socket of the device on another instance is woken instead.
        let reply = await notifier.mailboxChanged(device)
        presence.record(reply)
        // A socket of the device may have connected here meanwhile, before it was on the bus.
        if case .answered = reply { return }
        guard hub.session(for: device) == nil else { return }
        socketsEndedUnread.add(1, ordering: .relaxed)
        storeQueues.detach { [store, pushes, hub] in
            guard hub.session(for: device) == nil,
                let endpoint = (try? store.device(accountId: device.accountId, deviceId: device.deviceId))??.push
            else { return }
            pushes.envelopeQueued(for: device, endpoint: endpoint)
        }
    }

    /// Whether the device's mailbox holds anything, once the acks waiting for their batch are
    /// deleted (on the store's queues).
    private func hasUnread(_ device: AuthenticatedDevice) async -> Bool {
        await storeQueues.run { [acks, store] in
            acks.flush()
            let first = try? store.mailbox(
                accountId: device.accountId, deviceId: device.deviceId, afterId: 0, limit: 1)
            return first?.isEmpty == false
        }
    }

    /// Pushes to a live device that leaves envelopes unacknowledged (a socket that died without
    /// a close, an app suspended mid-delivery), through the same claim as any push.
    private var unackedWatch: DeliverySession.UnackedWatch? {
        guard let delay = configuration.unackedPushDelayMilliseconds else { return nil }
        return DeliverySession.UnackedWatch(clock: clock, delay: .milliseconds(delay)) {
            [store, pushes, storeQueues] device in
            storeQueues.detach {
                guard let endpoint = (try? store.device(accountId: device.accountId, deviceId: device.deviceId))??.push
                else { return }
                pushes.envelopeQueued(for: device, endpoint: endpoint)
            }
        }
    }

    private func socketDevice(_ request: HTTPRequest) throws(HTTPError) -> AuthenticatedDevice {
        if request.basicCredentials != nil { return try authenticator.authenticate(request) }
        let query = request.query
        guard let login = query["login"], let password = query["password"] else {
            throw HTTPError(.unauthorized, "send credentials")
        }
        return try authenticator.authenticate(user: login, password: password, source: request.clientNetwork)
    }
}

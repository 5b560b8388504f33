import CourierCore
import CourierHTTP
import Synchronization

/// Signal's device provisioning relay: a device being linked opens an unauthenticated socket and
/// is given a random address; a device of the account sends one sealed provision to that address,
/// and the socket holding it receives it. The server relays ciphertext it cannot read and stores
/// nothing.
///
/// Across instances the relay goes over the bus: each socket subscribes to `prov.<address>`, and
/// a provision is a request on that subject, so "no responders" means no socket holds the address
/// anywhere (404). Sockets are bounded three ways, because anyone may open one: a process-wide
/// cap, a lifetime on the server's clock, and tiny inbound messages that are read and dropped.
final class ProvisioningRelay: Sendable {
    /// What ended a socket's wait.
    private enum Event: Sendable {
        case provisioned
        case expired
        case closedByPeer
    }

    /// The close code of a socket whose lifetime ran out (4000 + 408, request timeout).
    static let expiredCode = WebSocketCloseCode.refused(.requestTimeout)
    /// The close code of a socket refused because the cap was reached (4000 + 503).
    static let busyCode = WebSocketCloseCode.refused(.serviceUnavailable)
    /// The bus's answer when the socket took the provision.
    private static let relayed: [UInt8] = [1]

    private let bus: any MessageBus
    private let clock: any Clock
    private let lifetime: Duration
    /// The cap on open provisioning sockets.
    private let slots: SlotGate

    init(bus: any MessageBus, clock: any Clock, maximumSockets: Int, lifetime: Duration) {
        self.bus = bus
        self.clock = clock
        slots = SlotGate(limit: maximumSockets)
        self.lifetime = lifetime
    }

    /// Provisioning sockets open on this instance now.
    var count: Int { slots.inUse }

    /// An address: 16 random bytes (128 bits) as 32 lowercase hex digits, so it is a bus token
    /// as it stands and cannot be guessed.
    static func newAddress() -> String { SodiumRandom.token(16) }

    /// Whether `text` has an address's shape: anything else is unknown without asking the bus.
    static func isAddress(_ text: String) -> Bool {
        text.utf8.count == 32
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func subject(_ address: String) -> String { "prov.\(address)" }

    /// Serves one provisioning socket until it has relayed a provision, its lifetime has run out
    /// or the peer has gone: first the address frame, then at most one provision frame.
    func serve(_ socket: WebSocket) async {
        guard slots.tryEnter() else {
            socket.outbound.close(Self.busyCode, reason: "too many devices are waiting to be linked; try again later")
            return
        }
        defer { slots.leave() }
        let address = Self.newAddress()
        let (events, sink) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingOldest(4))
        let taken = Atomic<Bool>(false)
        let bus = bus
        let subscription: BusSubscription
        do {
            subscription = try await bus.subscribe(Self.subject(address)) { message in
                // One provision per address; the frame is queued before the sender hears "relayed".
                guard !taken.exchange(true, ordering: .acquiringAndReleasing),
                    (try? socket.outbound.sendNow(.text(ProvisioningFrame.provision(message.payload)))) != nil
                else {
                    bus.reply(to: message, [])
                    return
                }
                bus.reply(to: message, Self.relayed)
                sink.yield(.provisioned)
            }
        } catch {
            socket.outbound.close(.tryAgainLater, reason: "the server cannot take provisioning sockets now")
            return
        }
        defer { subscription.cancel() }
        let expiresAt = clock.nowMilliseconds + Int64(lifetime.components.seconds) * 1_000
        guard (try? await socket.outbound.send(text: ProvisioningFrame.address(address, expiresAt: expiresAt))) != nil
        else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // The peer has nothing to say; what it sends is dropped (and small, by configuration).
                for await _ in socket.inbound {}
                sink.yield(.closedByPeer)
            }
            group.addTask { [clock, lifetime] in
                if (try? await clock.sleep(for: lifetime)) != nil { sink.yield(.expired) }
            }
            for await event in events {
                switch event {
                case .provisioned: socket.outbound.close(.normalClosure, reason: "provisioned")
                case .expired: socket.outbound.close(Self.expiredCode, reason: "the provisioning address expired")
                case .closedByPeer: break
                }
                break
            }
            group.cancelAll()
        }
    }

    /// Hands `body` to the socket holding `address`, wherever it is.
    /// - Returns: whether a socket took it.
    /// - Throws: `HTTPError` 503 when the bus is down or no answer came.
    func relay(_ body: [UInt8], to address: String) async throws(HTTPError) -> Bool {
        guard Self.isAddress(address) else { return false }
        switch await bus.request(Self.subject(address), body, timeout: .seconds(5)) {
        case .answered(let answer): return answer == Self.relayed
        case .noResponders: return false
        case .timedOut, .unavailable:
            throw HTTPError(.unavailable, "the provisioning relay did not answer; try again")
        }
    }
}

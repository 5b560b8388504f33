/// A symmetric chain that yields one message key per step: a session's receiving chain
/// (`ChainKey`) and a group sender's chain (`SenderChainKey`). Both recover the key of a received
/// message the same way, with `key(at:skipped:limits:what:)`.
protocol MessageKeyChain {
    /// The key one step yields.
    associatedtype MessageKey

    /// The step the chain is at: the position of the next key it yields.
    var position: UInt32 { get }

    /// This step's key.
    func messageKey() throws -> MessageKey

    /// The chain one step on.
    func next() -> Self

    /// The step `key` was yielded at.
    static func position(of key: MessageKey) -> UInt32
}

extension MessageKeyChain {
    /// The key of the message at `target`, and the chain to keep after it.
    ///
    /// A message behind the chain takes its key out of `skipped`, or is a duplicate. A message
    /// ahead steps the chain forward, at most `limits.maxForwardJump` steps (checked before any
    /// derivation, so a hostile counter costs no work), and keeps the keys it passes over in
    /// `skipped`, of which the newest `limits.maxSkippedKeysPerChain` stay.
    /// - Parameters:
    ///   - target: the message's counter or iteration.
    ///   - skipped: the keys stored for messages not yet received, updated.
    ///   - limits: the forward-jump and skipped-key limits.
    ///   - what: the message's name in errors ("message", "group message").
    /// - Throws: `.duplicateMessage`, `.counterTooFarAhead`.
    func key(at target: UInt32, skipped: inout [MessageKey], limits: SessionConfiguration, what: String) throws
        -> (key: MessageKey, chain: Self)
    {
        if position > target {
            guard let found = skipped.firstIndex(where: { Self.position(of: $0) == target }) else {
                throw SignalProtocolError(.duplicateMessage, "\(what) \(target) was already received")
            }
            return (skipped.remove(at: found), self)
        }
        guard target - position <= limits.maxForwardJump else {
            throw SignalProtocolError(.counterTooFarAhead, "\(what) is more than \(limits.maxForwardJump) ahead")
        }
        var chain = self
        while chain.position < target {
            skipped.append(try chain.messageKey())
            chain = chain.next()
        }
        let excess = skipped.count - max(limits.maxSkippedKeysPerChain, 0)
        if excess > 0 { skipped.removeFirst(excess) }
        return (try chain.messageKey(), chain.next())
    }
}

extension ChainKey: MessageKeyChain {
    var position: UInt32 { index }

    func messageKey() throws -> MessageKeys { try messageKeys() }

    static func position(of key: MessageKeys) -> UInt32 { key.counter }
}

extension SenderChainKey: MessageKeyChain {
    var position: UInt32 { iteration }

    static func position(of key: SenderMessageKey) -> UInt32 { key.iteration }
}

extension SessionCipher {
    /// Tries the current state, then each archived one; the first that decrypts is promoted.
    func decrypt(_ message: SignalMessage, record: inout SessionRecord) throws -> [UInt8] {
        var firstError: SignalProtocolError?
        if var state = record.currentState {
            do {
                let plaintext = try decrypt(message, state: &state)
                record.currentState = state
                return plaintext
            } catch let error as SignalProtocolError {
                // A replay is definite: older states must not be tried and the caller is told so.
                if error.code == .duplicateMessage { throw error }
                firstError = error
            }
        }
        for index in record.previousStates.indices {
            var state = record.previousStates[index]
            guard let plaintext = try? decrypt(message, state: &state) else { continue }
            record.previousStates.remove(at: index)
            record.promote(state, limit: configuration.maxArchivedStates)
            return plaintext
        }
        if let firstError { throw firstError }
        throw SignalProtocolError(.noSession, "no session state with \(remoteAddress) can decrypt the message")
    }

    private func decrypt(_ message: SignalMessage, state: inout SessionState) throws -> [UInt8] {
        guard message.messageVersion == state.sessionVersion else {
            throw SignalProtocolError(.invalidMessage, "message version differs from the session's")
        }
        let chainIndex = try receiverChain(for: message.senderRatchetKey, state: &state)
        let keys = try messageKeys(counter: message.counter, chainIndex: chainIndex, state: &state)
        guard
            message.verifyMAC(
                senderIdentity: state.remoteIdentity, receiverIdentity: state.localIdentity, macKey: keys.macKey)
        else {
            throw SignalProtocolError(.invalidMAC, "message MAC does not match")
        }
        let plaintext = try AESCBC.decrypt(key: keys.cipherKey, iv: keys.iv, ciphertext: message.ciphertext)
        state.pendingPreKey = nil
        return plaintext
    }

    /// The receiving chain for `theirRatchetKey`, performing a DH-ratchet step if it is new.
    private func receiverChain(for theirRatchetKey: PublicKey, state: inout SessionState) throws -> Int {
        if let index = state.receiverChainIndex(for: theirRatchetKey) { return index }
        let (receivingRoot, receivingChain) = try state.rootKey.createChain(
            theirRatchetKey: theirRatchetKey, ourRatchetKey: state.senderRatchetKey)
        let newRatchetKey = try KeyPair.generate()
        let (sendingRoot, sendingChain) = try receivingRoot.createChain(
            theirRatchetKey: theirRatchetKey, ourRatchetKey: newRatchetKey)
        state.rootKey = sendingRoot
        state.addReceiverChain(
            ratchetKey: theirRatchetKey, chainKey: receivingChain, limit: configuration.maxReceiverChains)
        // libsignal reports the index of the last key used on the old chain, not its length.
        state.previousCounter = state.senderChainKey.index > 0 ? state.senderChainKey.index - 1 : 0
        state.senderRatchetKey = newRatchetKey
        state.senderChainKey = sendingChain
        return state.receiverChains.count - 1
    }

    /// The message keys for `counter`, deriving and storing skipped ones up to the limits.
    private func messageKeys(counter: UInt32, chainIndex: Int, state: inout SessionState) throws -> MessageKeys {
        var chain = state.receiverChains[chainIndex]
        let (keys, chainKey) = try chain.chainKey.key(
            at: counter, skipped: &chain.skippedKeys, limits: configuration, what: "message")
        chain.chainKey = chainKey
        state.receiverChains[chainIndex] = chain
        return keys
    }
}

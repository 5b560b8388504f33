import CourierCore

/// What both messenger stores share: the columns they read and how a row becomes a record, and
/// the checks of a send against the destination's devices. One schema, two engines.
enum MessengerRows {
    static let deviceColumns = "device_id, registration_id, name, password_hash, created_at, push_kind, push_address"

    static func device(_ row: some DatabaseRow) -> DeviceRecord {
        let push: PushEndpoint? = row.text(5).flatMap(PushEndpoint.Kind.init(rawValue:)).map {
            PushEndpoint(kind: $0, address: row.text(6) ?? "")
        }
        return DeviceRecord(
            id: Int(row.int(0)), registrationId: Int(row.int(1)), name: row.text(2) ?? "",
            passwordHash: row.text(3) ?? "", createdAt: row.int(4), push: push)
    }

    /// The values of a device row, in `deviceColumns` order after the account id.
    static func deviceValues(_ device: DeviceRecord, accountId: String) -> [SQLValue] {
        [
            .text(accountId), .integer(Int64(device.id)), .integer(Int64(device.registrationId)), .text(device.name),
            .text(device.passwordHash), .integer(device.createdAt),
            device.push.map { .text($0.kind.rawValue) } ?? .null, device.push.map { .text($0.address) } ?? .null,
        ]
    }

    static func overview(_ row: some DatabaseRow) -> DeviceMailboxSummary {
        DeviceMailboxSummary(
            accountId: row.text(0) ?? "", deviceId: Int(row.int(1)), name: row.text(2) ?? "",
            pushKind: row.text(3), mailboxDepth: Int(row.int(4)), oldestExpiresAt: row.isNull(5) ? nil : row.int(5))
    }

    static func signedPreKey(_ row: some DatabaseRow) -> SignedPreKeyUpload {
        SignedPreKeyUpload(keyId: Int(row.int(0)), publicKey: row.bytes(1), signature: row.bytes(2))
    }

    static func oneTimePreKey(_ row: some DatabaseRow) -> OneTimePreKeyUpload {
        OneTimePreKeyUpload(keyId: Int(row.int(0)), publicKey: row.bytes(1))
    }

    /// Why a send cannot be stored as it is (devices missing, extra or re-registered), or `nil`
    /// when its envelopes match the destination's devices (`devices`: id → registration id).
    static func refusal(of message: OutgoingMessage, devices: [(Int, Int)]) -> SendOutcome? {
        guard !devices.isEmpty else { return .unknownAccount }
        var expected = Dictionary(devices, uniquingKeysWith: { first, _ in first })
        if message.destinationAccount == message.sourceAccount { expected[message.sourceDevice] = nil }
        let given = Set(message.envelopes.map(\.destinationDeviceId))
        let missing = Set(expected.keys).subtracting(given).sorted()
        let extra = given.subtracting(expected.keys).sorted()
        if !missing.isEmpty || !extra.isEmpty || given.count != message.envelopes.count {
            return .mismatchedDevices(missing: missing, extra: extra)
        }
        let stale = message.envelopes.filter { expected[$0.destinationDeviceId] != $0.destinationRegistrationId }
            .map(\.destinationDeviceId).sorted()
        return stale.isEmpty ? nil : .staleDevices(stale)
    }
}

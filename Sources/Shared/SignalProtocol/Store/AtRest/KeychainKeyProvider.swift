#if canImport(Security)
    import Foundation
    import Security

    /// Keeps the storage key in the Keychain: a generic password readable after the device's
    /// first unlock and never migrated to another device or backup
    /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`), created with a random key on first use.
    public struct KeychainKeyProvider: KeyProvider {
        /// The item's `kSecAttrService`.
        public let service: String
        /// The item's `kSecAttrAccount`.
        public let account: String

        /// A provider for the Keychain item `service` / `account`.
        public init(service: String, account: String = "signal-storage-key") {
            self.service = service
            self.account = account
        }

        /// Reads the key, adding a random one the first time.
        /// - Throws: `.storageFailure` with the `OSStatus` when the Keychain refuses.
        public func storageKey() throws -> SecretBytes {
            if let key = try load() { return key }
            let key = try Sodium.randomSecret(Sodium.aeadKeyLength)
            var attributes = itemQuery
            attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            attributes[kSecValueData as String] = key.withUnsafeBytes { Data($0) }
            let status = SecItemAdd(attributes as CFDictionary, nil)
            if status == errSecDuplicateItem, let existing = try load() { return existing }
            guard status == errSecSuccess else { throw failure("add", status) }
            return key
        }

        private var itemQuery: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }

        private func load() throws -> SecretBytes? {
            var query = itemQuery
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = item as? Data else { throw failure("read", status) }
            guard data.count == Sodium.aeadKeyLength else {
                throw SignalProtocolError(.storageFailure, "Keychain item \(service)/\(account) is not a 32-byte key")
            }
            return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in SecretBytes(bytes) }
        }

        private func failure(_ operation: String, _ status: OSStatus) -> SignalProtocolError {
            SignalProtocolError(
                .storageFailure, "could not \(operation) the storage key in the Keychain (OSStatus \(status))")
        }
    }
#endif

/// How an identity store treats a remote identity key that differs from the stored one.
public enum IdentityTrustPolicy: Sendable {
    /// libsignal's default: a key is trusted when none is stored or it equals the stored
    /// one; a changed key is refused until `saveIdentity` records it (the user approved it).
    case trustOnFirstUse
    /// Accept any key (changes are still reported by `saveIdentity`).
    case acceptChanges

    /// Whether `identity` is trusted when `stored` is what the store holds for the address.
    func trusts(_ identity: IdentityKey, stored: IdentityKey?) -> Bool {
        switch self {
        case .acceptChanges: return true
        case .trustOnFirstUse: return stored.map { $0 == identity } ?? true
        }
    }
}

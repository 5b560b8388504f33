import SignalProtocol

/// A contact's safety number ready to show: 60 digits in twelve groups of five (three lines of
/// four, as Signal lays them out), and the bytes to draw as a QR code for the other phone to scan.
public struct SafetyNumberPresentation: Sendable, Equatable {
    /// The contact this number is for.
    public let contact: String
    /// The contact's identity key it was computed with.
    public let contactKey: IdentityKey
    /// The 60 digits, identical on both phones.
    public let digits: String
    /// `digits` in twelve groups of five.
    public let groups: [String]
    /// The scannable fingerprint (version 1) to encode in a QR code.
    public let scannable: ScannableFingerprint

    init(contact: String, contactKey: IdentityKey, fingerprint: Fingerprint) {
        self.contact = contact
        self.contactKey = contactKey
        digits = fingerprint.safetyNumber.displayText
        scannable = fingerprint.scannable
        var groups: [String] = []
        var rest = Substring(digits)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(5)))
            rest = rest.dropFirst(5)
        }
        self.groups = groups
    }

    /// The QR code's bytes.
    public var qrCodeBytes: [UInt8] { scannable.serialized }

    /// Three lines of four groups separated by spaces.
    public var lines: [String] {
        stride(from: 0, to: groups.count, by: 4).map { groups[$0..<min($0 + 4, groups.count)].joined(separator: " ") }
    }

    /// Compares what the camera read from the contact's screen with this number.
    /// - Parameter scanned: the QR code's bytes.
    /// - Returns: whether both keys match, or why not.
    public func compare(scanned: [UInt8]) -> SafetyNumberScanResult {
        do {
            return try scannable.compare(scanned: scanned) ? .match : .identityMismatch
        } catch let error as SignalProtocolError where error.code == .fingerprintVersionMismatch {
            return .versionMismatch
        } catch {
            return .unreadable
        }
    }
}

/// The outcome of scanning a contact's QR code.
public enum SafetyNumberScanResult: Sendable, Equatable {
    /// Both identity keys are the ones each phone expects: the contact may be marked verified.
    case match
    /// A key or identifier differs: someone may be in the middle, or a key changed; do not verify.
    case identityMismatch
    /// The other phone writes another fingerprint version: one app must update; nothing was compared.
    case versionMismatch
    /// The code is not a safety number at all.
    case unreadable
}

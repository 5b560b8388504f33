import Foundation

/// Base64 for HTTP Basic credentials.
public enum Base64 {
    /// Decodes standard base64 (padding optional).
    public static func decode(_ text: String) -> [UInt8]? {
        var padded = text
        while padded.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map { [UInt8]($0) }
    }

    /// Encodes bytes as standard base64.
    public static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}

import Foundation

/// Random identifiers.
public enum Identifier {
    /// A new lowercase UUID string, as Segment's `messageId`s are written.
    public static func uuid() -> String { UUID().uuidString.lowercased() }
}

/// The parts of a response's `Cache-Control` that decide how long cached bytes are fresh.
public struct CacheControl: Sendable, Equatable {
    /// `max-age` in seconds, if given.
    public var maxAge: Int?
    /// `no-cache` (or `must-revalidate` with no `max-age`): revalidate before every use.
    public var noCache = false
    /// `no-store`: never written to disk.
    public var noStore = false

    /// Parses a header value such as `public, max-age=86400`.
    public init(_ header: String?) {
        guard let header else { return }
        for part in header.lowercased().split(separator: ",") {
            let directive = part.trimmingCharacters(in: .whitespaces)
            if directive == "no-cache" {
                noCache = true
            } else if directive == "no-store" {
                noStore = true
            } else if directive.hasPrefix("max-age="), let seconds = Int(directive.dropFirst(8)) {
                maxAge = max(0, seconds)
            }
        }
    }
}

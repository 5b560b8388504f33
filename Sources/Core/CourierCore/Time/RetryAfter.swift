import Foundation

/// A server's `Retry-After` (RFC 9110, section 10.2.3): how long it asked the client to wait
/// before trying again, after a 429, a 503 or a redirect.
public enum RetryAfter {
    /// The wait `value` asks for, given as seconds or as an HTTP date (`Sun, 06 Nov 1994 08:49:37
    /// GMT`), capped at a day; a date in the past asks for no wait. `nil` when there is no value
    /// or it is neither form.
    /// - Parameter nowMilliseconds: the wall clock (milliseconds since 1970), for a date.
    public static func delay(_ value: String?, nowMilliseconds: Int64) -> Duration? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Double(text) {
            guard seconds.isFinite, seconds >= 0 else { return nil }
            return .milliseconds(Int64(min(seconds, 86_400) * 1000))
        }
        guard let date = httpDate(text) else { return nil }
        return .milliseconds(min(max(0, date - nowMilliseconds), 86_400_000))
    }

    /// Milliseconds since 1970 of an IMF-fixdate (RFC 9110), the only form servers must send.
    public static func httpDate(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: String(parts[2]))
        else { return nil }
        let iso = String(format: "%04d-%02d-%02dT%@Z", year, month + 1, day, String(parts[4]))
        return Timestamp.parseMilliseconds(iso)
    }
}

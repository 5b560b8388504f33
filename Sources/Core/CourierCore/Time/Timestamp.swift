/// ISO 8601 timestamps as Segment's API uses them, parsed and printed without Foundation's
/// formatters (which are slow and not safe to share across threads on every platform).
public enum Timestamp {
    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff…]]` with `Z`, `±HH:MM`, `±HHMM` or `±HH`
    /// (no zone means UTC) into milliseconds since 1970.
    /// - Returns: `nil` when the text is not such a timestamp or a field is out of range.
    public static func parseMilliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(Span(bytes: $0)) }
    }

    /// Parses a timestamp given as UTF-8 bytes, as `parseMilliseconds(_:)` does.
    package static func parseMilliseconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        parse(Span(bytes: bytes))
    }

    /// Formats milliseconds since 1970 as `YYYY-MM-DDTHH:MM:SS.sssZ` (years outside 0…9999 are
    /// clamped to the first or last instant that format can hold).
    public static func format(milliseconds: Int64) -> String {
        let clamped = min(max(milliseconds, -62_167_219_200_000), 253_402_300_799_999)
        let (days, msOfDay) = floorDivide(clamped, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var index = 0
            func put(_ value: Int64, _ width: Int, _ separator: UInt8) {
                var v = value
                for i in stride(from: width - 1, through: 0, by: -1) {
                    buffer[index + i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
                index += width
                buffer[index] = separator
                index += 1
            }
            put(year, 4, UInt8(ascii: "-"))
            put(month, 2, UInt8(ascii: "-"))
            put(day, 2, UInt8(ascii: "T"))
            put(msOfDay / 3_600_000, 2, UInt8(ascii: ":"))
            put(msOfDay / 60_000 % 60, 2, UInt8(ascii: ":"))
            put(msOfDay / 1000 % 60, 2, UInt8(ascii: "."))
            put(msOfDay % 1000, 3, UInt8(ascii: "Z"))
            return index
        }
    }

    private struct Span {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func digits(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<count {
                let c = bytes[index]
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int64(c - 48)
                index += 1
            }
            return value
        }

        mutating func expect(_ c: UInt8) -> Bool {
            guard peek == c else { return false }
            index += 1
            return true
        }
    }

    private static func parse(_ input: Span) -> Int64? {
        var s = input
        guard let year = s.digits(4), s.expect(UInt8(ascii: "-")),
            let month = s.digits(2), s.expect(UInt8(ascii: "-")),
            let day = s.digits(2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        var ms: Int64 = 0
        if s.expect(UInt8(ascii: "T")) || s.expect(UInt8(ascii: " ")) || s.expect(UInt8(ascii: "t")) {
            guard let hour = s.digits(2), hour < 24, s.expect(UInt8(ascii: ":")),
                let minute = s.digits(2), minute < 60
            else { return nil }
            var second: Int64 = 0
            if s.expect(UInt8(ascii: ":")) {
                guard let sec = s.digits(2), sec <= 60 else { return nil }
                second = min(sec, 59)
            }
            var fraction: Int64 = 0
            if s.expect(UInt8(ascii: ".")) || s.expect(UInt8(ascii: ",")) {
                var scale: Int64 = 100
                var count = 0
                while let c = s.peek, c >= 48, c <= 57 {
                    fraction += Int64(c - 48) * scale
                    scale /= 10
                    s.index += 1
                    count += 1
                }
                guard count > 0 else { return nil }
            }
            ms = ((hour * 60 + minute) * 60 + second) * 1000 + fraction
            if s.expect(UInt8(ascii: "Z")) || s.expect(UInt8(ascii: "z")) {
            } else if let sign = s.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                s.index += 1
                guard let oh = s.digits(2), oh <= 18 else { return nil }
                var om: Int64 = 0
                if s.expect(UInt8(ascii: ":")) {
                    guard let m = s.digits(2), m < 60 else { return nil }
                    om = m
                } else if !s.atEnd {
                    guard let m = s.digits(2), m < 60 else { return nil }
                    om = m
                }
                let offset = (oh * 60 + om) * 60_000
                ms += sign == UInt8(ascii: "+") ? -offset : offset
            }
        }
        guard s.atEnd else { return nil }
        return days(fromYear: year, month: month, day: day) * 86_400_000 + ms
    }

    private static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        var q = a / b
        var r = a % b
        if r < 0 { q -= 1; r += b }
        return (q, r)
    }

    // Howard Hinnant's days-from-civil algorithm: proleptic Gregorian calendar, no tables.
    private static func days(fromYear y0: Int64, month m: Int64, day d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
    }
}

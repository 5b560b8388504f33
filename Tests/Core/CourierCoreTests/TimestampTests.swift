import CourierCore
import Testing

struct TimestampTests {
    static let day: Int64 = 1_795_910_400_000  // 2026-11-29T00:00:00Z
    static let eight: Int64 = day + 8 * 3_600_000
    static let offsets: [(String, Int64)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01T00:00:00.001Z", 1),
        ("2026-11-29T10:00:00+02:00", eight),
        ("2026-11-29T08:00:00Z", eight),
        ("2026-11-29T08:00:00.5Z", eight + 500),
        ("2026-11-29T03:30:00-0430", eight),
        ("2026-11-29T09:00:00+01", eight),
        ("2026-11-29T08:00:00.123456789Z", eight + 123),
        ("2026-11-29", day),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ("2026-11-29T08:00:00", eight),
    ]

    @Test(arguments: offsets)
    func parsesAnyUTCOffset(text: String, milliseconds: Int64) {
        #expect(Timestamp.parseMilliseconds(text) == milliseconds)
    }

    @Test(arguments: [
        "", "yesterday", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2023-02-29", "2026-11-29T24:00:00Z",
        "2026-11-29T10:00:00+25:00", "2026-11-29T10:00:00Zjunk", "2026-11-29T10:00:00.Z", "1700000000",
    ])
    func rejectsMalformedTimestamps(text: String) {
        #expect(Timestamp.parseMilliseconds(text) == nil)
    }

    @Test(arguments: [Int64(0), 1, 1_796_025_600_123, -86_400_000, 253_402_300_799_999])
    func formatsAndReadsBack(milliseconds: Int64) {
        let text = Timestamp.format(milliseconds: milliseconds)
        #expect(text.hasSuffix("Z"))
        #expect(Timestamp.parseMilliseconds(text) == milliseconds)
    }

    @Test func formattingClampsToTheYearsTheFormatCanHold() {
        #expect(Timestamp.format(milliseconds: Int64.max) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.format(milliseconds: Int64.min) == "0000-01-01T00:00:00.000Z")
        #expect(
            Timestamp.parseMilliseconds("2026-11-29T23:59:60Z") == Timestamp.parseMilliseconds("2026-11-29T23:59:59Z"))
        #expect(Timestamp.parseMilliseconds("2026-11-29T10:00:00+18:00") != nil)
    }

    @Test func formatsMilliseconds() {
        #expect(Timestamp.format(milliseconds: 1_795_910_400_123) == "2026-11-29T00:00:00.123Z")
    }
}

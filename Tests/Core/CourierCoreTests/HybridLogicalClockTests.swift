import CourierCore
import CourierTesting
import Foundation
import Testing

struct HybridLogicalClockTests {
    let clock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200))

    @Test func timestampsStayMonotonicWhenTheWallClockJumpsBack() {
        let hlc = HybridLogicalClock(node: "a", clock: clock)
        let first = hlc.now()
        #expect(first.physical == 1_795_939_200_000 && first.logical == 0)
        clock.setWallTime(Date(timeIntervalSince1970: 1_795_939_100))  // 100 s back
        let second = hlc.now()
        let third = hlc.now()
        #expect(first < second && second < third)
        #expect(second.physical == first.physical && second.logical == 1 && third.logical == 2)
        clock.setWallTime(Date(timeIntervalSince1970: 1_795_939_300))
        let fourth = hlc.now()
        #expect(fourth.physical == 1_795_939_300_000 && fourth.logical == 0 && third < fourth)
    }

    @Test func aReceivedTimestampFromAFastPeerOrdersLaterLocalEvents() {
        let hlc = HybridLogicalClock(node: "a", clock: clock)
        let remote = HLCTimestamp(physical: 1_795_939_200_000 + 60_000, logical: 7, node: "b")
        let receive = hlc.receive(remote)
        #expect(receive > remote)
        #expect(receive.physical == remote.physical && receive.logical == 8)
        #expect(hlc.now() > receive)
    }

    @Test func aRestartedClockContinuesAfterItsLastTimestamp() {
        let last = HLCTimestamp(physical: 1_795_939_900_000, logical: 3, node: "a")
        let hlc = HybridLogicalClock(node: "a", clock: clock, after: last)
        #expect(hlc.now() > last)
    }

    @Test(arguments: ["", "1-2-a", "00000000000000x-0000000000-a", "000000000000001-0000000001-"])
    func malformedTextIsNotATimestamp(_ text: String) {
        #expect(HLCTimestamp(text) == nil)
    }

    @Test func theTextFormSortsAsTheTimestampsCompare() throws {
        let a = HLCTimestamp(physical: 9, logical: 10, node: "z")
        let b = HLCTimestamp(physical: 10, logical: 0, node: "a")
        #expect(a < b && a.description < b.description)
        #expect(HLCTimestamp(a.description) == a)
    }

    @Test(arguments: [
        (HLCTimestamp(physical: 0, logical: 0, node: "n"), "000000000000000-0000000000-n"),
        (
            HLCTimestamp(physical: 1_764_662_400_123, logical: 42, node: "device-é"),
            "001764662400123-0000000042-device-é"
        ),
        (HLCTimestamp(physical: 999_999_999_999_999, logical: .max, node: "x"), "999999999999999-4294967295-x"),
    ])
    func theTextFormIsFixedWidthDigitsThenTheNode(_ stamp: HLCTimestamp, _ text: String) {
        #expect(stamp.description == text)
        #expect(HLCTimestamp(text) == stamp)
    }
}

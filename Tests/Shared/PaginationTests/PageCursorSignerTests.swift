import CourierCore
import CourierTesting
import Foundation
import Pagination
import Testing

struct PageCursorSignerTests {
    let clock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200))
    let key = [UInt8](repeating: 7, count: 32)

    @Test func aSignedCursorVerifiesToItsPosition() throws {
        let signer = PageCursorSigner(key: key, clock: clock)
        let cursor = try signer.verify(signer.sign(key: [.int(42), "m-0001"]))
        #expect(cursor.key == [.int(42), "m-0001"])
        #expect(cursor.issuedAtMilliseconds == 1_795_939_200_000)
    }

    @Test func aCursorSignedUnderAnotherKeyOrAlteredIsInvalid() throws {
        let signer = PageCursorSigner(key: key, clock: clock)
        let other = PageCursorSigner(key: [UInt8](repeating: 8, count: 32), clock: clock)
        let text = other.sign(key: [.int(1)])
        #expect(throws: PageCursorError.invalid) { try signer.verify(text) }
        let mine = signer.sign(key: [.int(1)])
        let payload = String(mine.split(separator: ".")[0])
        let forgedPayload = JSONWriter.string(["k": [.int(999)], "t": .int(clock.nowMilliseconds)])
        let forged = Data(forgedPayload.utf8).base64EncodedString() + "." + mine.split(separator: ".")[1]
        #expect(throws: PageCursorError.invalid) { try signer.verify(forged) }
        for bad in ["", ".", "abc", payload, mine + "x", String(repeating: "a", count: 5_000)] {
            #expect(throws: PageCursorError.invalid) { try signer.verify(bad) }
        }
    }

    @Test func aCursorOlderThanTheMaximumAgeHasExpired() throws {
        let signer = PageCursorSigner(key: key, maximumAge: .seconds(60), clock: clock)
        let text = signer.sign(key: [.int(1)])
        clock.advance(by: .seconds(59))
        #expect(try signer.verify(text).key == [.int(1)])
        clock.advance(by: .seconds(2))
        #expect(throws: PageCursorError.expired) { try signer.verify(text) }
    }

    @Test(arguments: [
        (["limit": "0"], "limit is a whole number from 1 to 500"),
        (["limit": "x"], "limit is a whole number from 1 to 500"),
        (["before": "a", "around": "b"], "give at most one of before, after and around"),
    ])
    func malformedPageRequestsAreRefused(query: [String: String], message: String) {
        let signer = PageCursorSigner(key: key, clock: clock)
        #expect(throws: PageRequestError.badLimit(message)) { try PageRequest.parse(query, signer: signer) }
    }
}

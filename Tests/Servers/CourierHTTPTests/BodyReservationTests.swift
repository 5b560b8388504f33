import Testing

@testable import CourierHTTP

/// A body's room is reserved with its first piece, bounded by what has arrived: a client that
/// declares a large body and sends one byte on each of many connections gets almost nothing set
/// aside for it.
struct BodyReservationTests {
    @Test func theRoomReservedFollowsWhatHasArrived() {
        // A 10 KB body whose first piece is most of lws's 4 KB read: all of it at once.
        #expect(LibWebSocketsService.bodyReservation(declared: 10_240, firstPiece: 3_900) == 10_240)
        // A claimed 64 KB with one byte sent: four bytes, not 64 KB.
        #expect(LibWebSocketsService.bodyReservation(declared: 65_536, firstPiece: 1) == 4)
        // Never more than 64 KB ahead, however large the declared body and its first piece.
        #expect(LibWebSocketsService.bodyReservation(declared: 10 << 20, firstPiece: 60_000) == 64 << 10)
        #expect(LibWebSocketsService.bodyReservation(declared: 0, firstPiece: 0) == 0)
    }
}

import Testing

@testable import CourierHTTP
@testable import CourierHTTPClient

/// The engine's vhosts and the WebSocket client's connections ask lws for no validity checks: WebSockets are pinged and closed when
/// idle by the service's own pass over them (`LibWebSocketsSockets.tick`), and lws's default
/// policy (a ping after 300 s, a hangup at 310 s) kept a timer per connection in one sorted list,
/// moved with a walk of the whole list on every pong (87 % of the loop with 19,000 sockets held).
struct ValidityPolicyTests {
    @Test func theVhostsAskLibWebSocketsForNoValidityPingsNorHangups() {
        let policy = LibWebSocketsEngine.noValidityChecks.pointee
        #expect(policy.secs_since_valid_ping == 0)
        // lws arms a connection's validity timer only when this is set.
        #expect(policy.secs_since_valid_hangup == 0)
    }

    #if !canImport(Darwin)
        @Test func theClientsConnectionsAskLibWebSocketsForNoValidityPingsNorHangups() {
            let policy = LibWebSocketsClientService.withoutValidityChecks.pointee
            #expect(policy.secs_since_valid_ping == 0)
            #expect(policy.secs_since_valid_hangup == 0)
        }
    #endif
}

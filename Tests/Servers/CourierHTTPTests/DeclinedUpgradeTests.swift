import Testing

@testable import CourierHTTP

/// The `Upgrade` values the engine declines are matched as lws's `strcasecmp` matches them:
/// letters in any case, every other byte exactly.
struct DeclinedUpgradeTests {
    @Test(arguments: [
        ("h2c", "h2c", true), ("H2C", "h2c", true), ("h\u{12}c", "h2c", false), ("h2c ", "h2c", false),
        ("h2", "h2c", false), ("WebSocket", "websocket", true), ("websocke", "websocket", false),
        ("websocket2", "websocket", false), ("", "h2c", false),
    ])
    func aValueMatchesItsTokenWithLettersInAnyCaseOnly(value: String, token: String, matches: Bool) {
        let bytes = Array(value.utf8) + [0]
        let matched = bytes.withUnsafeBufferPointer { buffer in
            token == "h2c"
                ? DeclinedUpgrade.text(buffer.baseAddress!, is: "h2c")
                : DeclinedUpgrade.text(buffer.baseAddress!, is: "websocket")
        }
        #expect(matched == matches)
    }
}

import Testing

@testable import CourierHTTP

/// The client's engine-free parts: URL reading, handshake headers, message reassembly.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketClientPartsTests {
    @Test func urlsGiveHostPortAndTarget() throws {
        let plain = try WebSocketEndpoint(parsing: "ws://example.com/feed?x=1&y=%20")
        #expect(!plain.secure && plain.host == "example.com" && plain.port == 80)
        #expect(plain.target == "/feed?x=1&y=%20")
        #expect(plain.hostHeader == "example.com")
        let secure = try WebSocketEndpoint(parsing: "WSS://Example.com:8443")
        #expect(secure.secure && secure.port == 8443 && secure.target == "/")
        #expect(secure.hostHeader == "Example.com:8443" || secure.hostHeader == "example.com:8443")
        let v6 = try WebSocketEndpoint(parsing: "ws://[::1]:9000/a")
        #expect(v6.host == "::1" && v6.hostHeader == "[::1]:9000")
        #expect(try WebSocketEndpoint(parsing: "wss://h/").hostHeader == "h")
    }

    @Test(arguments: ["http://h/", "ws://", "ws:///path", "ws://h/#f", "ws://h:0/", "", "wss//h"])
    func badURLsAreRefused(url: String) {
        #expect(throws: WebSocketError.self) { try WebSocketEndpoint(parsing: url) }
    }

    @Test func headersSplitOriginAndHostFromTheRest() throws {
        let headers = try WebSocketHandshakeHeaders([
            ("Authorization", "Bearer x"), ("origin", "https://a"), ("HOST", "h:1"), ("X-A", ""),
        ])
        #expect(headers.origin == "https://a")
        #expect(headers.host == "h:1")
        #expect(headers.extra.map(\.name) == ["Authorization", "X-A"])
    }

    @Test(arguments: [
        ("X", "a\rb"), ("X", "a\nb"), ("X", "a\0b"), ("", "v"), ("A B", "v"), ("A:", "v"),
        ("Sec-WebSocket-Key", "k"), ("connection", "close"), ("Upgrade", "h2c"),
    ])
    func headersThatBreakTheHandshakeAreRefused(name: String, value: String) {
        #expect(throws: WebSocketError.self) { try WebSocketHandshakeHeaders([(name, value)]) }
    }

    func feed(_ assembler: inout WebSocketMessageAssembler, _ bytes: [UInt8], binary: Bool, final: Bool)
        -> WebSocketMessageAssembler.Outcome
    {
        bytes.withUnsafeBytes { assembler.append($0, binary: binary, final: final) }
    }

    @Test func piecesMakeOneMessage() {
        var assembler = WebSocketMessageAssembler(limit: 100)
        #expect(feed(&assembler, Array("frag".utf8), binary: false, final: false) == .partial)
        // The piece that splits "é" in two.
        #expect(feed(&assembler, [0xC3], binary: false, final: false) == .partial)
        #expect(feed(&assembler, [0xA9], binary: false, final: true) == .message(.text("fragé")))
        #expect(feed(&assembler, [1, 2], binary: true, final: true) == .message(.binary([1, 2])))
        #expect(feed(&assembler, [], binary: false, final: true) == .message(.text("")))
    }

    @Test func theLimitCountsTheWholeMessage() {
        var assembler = WebSocketMessageAssembler(limit: 10)
        #expect(feed(&assembler, Array(repeating: 1, count: 6), binary: true, final: false) == .partial)
        #expect(feed(&assembler, Array(repeating: 1, count: 5), binary: true, final: true) == .tooBig)
        #expect(
            feed(&assembler, Array(repeating: 1, count: 10), binary: true, final: true)
                == .message(.binary(Array(repeating: 1, count: 10))))
    }

    @Test func textThatIsNotUTF8IsRefused() {
        var assembler = WebSocketMessageAssembler(limit: 100)
        #expect(feed(&assembler, [0x61, 0xFF], binary: false, final: true) == .invalidText)
        #expect(feed(&assembler, [0xC3], binary: false, final: true) == .invalidText)
        #expect(feed(&assembler, [0xFF], binary: true, final: true) == .message(.binary([0xFF])))
    }
}

import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Synchronization
import Testing

/// Keys and a certificate made with `openssl` for one test, and nghttpd (Debian's
/// nghttp2-server) as a local HTTP/2 TLS endpoint whose verbose log shows each request's headers.
final class APNsFixture: Sendable {
    let directory: String
    let teamId = "TEAM123456"
    let keyId = "KEY1234567"

    init() async throws {
        directory = NSTemporaryDirectory() + "apns-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let steps: [[String]] = [
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "apns.p8"],
            ["pkey", "-in", "apns.p8", "-pubout", "-out", "apns.pub"],
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "server.key",
                "-out", "server.pem", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ],
        ]
        for arguments in steps {
            let outcome = try await runOffPool {
                Result { try ChildProcess.run("/usr/bin/openssl", arguments, directory: self.directory) }
            }.get()
            try #require(outcome.status == 0, "openssl \(arguments[0]): \(outcome.errorOutput)")
        }
    }

    var privateKeyPEM: String { (try? String(contentsOfFile: directory + "/apns.p8", encoding: .utf8)) ?? "" }

    func configuration(baseURL: String) -> APNsConfiguration {
        var configuration = APNsConfiguration(
            teamId: teamId, keyId: keyId, privateKeyPEM: privateKeyPEM, topic: "com.example.courier")
        configuration.baseURL = baseURL
        configuration.certificateAuthorityFile = directory + "/server.pem"
        return configuration
    }

    /// Checks a provider token: its header and claims, and its ES256 signature with `openssl dgst`.
    func verify(_ token: String) async throws -> (header: JSONValue, claims: JSONValue) {
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        func decode(_ text: String) -> [UInt8] {
            var base64 = text.replacing("-", with: "+").replacing("_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return Base64.decode(base64) ?? []
        }
        let signature = decode(parts[2])
        try #require(signature.count == 64)
        try Data((parts[0] + "." + parts[1]).utf8).write(to: URL(fileURLWithPath: directory + "/input"))
        try Data(Self.der(r: Array(signature[..<32]), s: Array(signature[32...]))).write(
            to: URL(fileURLWithPath: directory + "/signature.der"))
        let outcome = try await runOffPool {
            Result {
                try ChildProcess.run(
                    "/usr/bin/openssl",
                    ["dgst", "-sha256", "-verify", "apns.pub", "-signature", "signature.der", "input"],
                    directory: self.directory)
            }
        }.get()
        #expect(outcome.status == 0, "openssl could not verify the token's signature: \(outcome.output)")
        return (try JSONParser.parse(decode(parts[0])), try JSONParser.parse(decode(parts[1])))
    }

    /// An ECDSA signature's DER form (what `openssl dgst` reads) from JWS's raw `r || s`.
    static func der(r: [UInt8], s: [UInt8]) -> [UInt8] {
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            var trimmed = Array(bytes.drop { $0 == 0 })
            if trimmed.isEmpty || trimmed[0] & 0x80 != 0 { trimmed.insert(0, at: 0) }
            return [0x02, UInt8(trimmed.count)] + trimmed
        }
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

/// nghttpd on 127.0.0.1, logging every frame; `--echo-upload` answers a POST with 200 and its body.
final class NGHTTPD: Sendable {
    final class Log: Sendable {
        let text = Mutex<String>("")
    }

    let process: ChildProcess
    let port: Int
    private let log = Log()

    init(fixture: APNsFixture) throws {
        port = try Self.freePort()
        process = try ChildProcess(
            "/usr/sbin/nghttpd",
            [
                "-v", "--echo-upload", "-a", "127.0.0.1", String(port), fixture.directory + "/server.key",
                fixture.directory + "/server.pem",
            ], output: .pipe, errorOutput: .discard)
        let output = process.output!
        Thread.detachNewThread { [log] in
            while true {
                let data = output.availableData
                if data.isEmpty { break }
                log.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
    }

    var text: String { log.text.withLock { $0 } }

    /// The value of `name` in the request headers the log shows, in order.
    func headers(_ name: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "\(name): ") else { return nil }
            return String(line[range.upperBound...])
        }
    }

    func stop() {
        process.terminate()
        process.wait()
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

@Suite(.timeLimit(.minutes(2)))
struct APNsTests {
    static let token = String(repeating: "ab", count: 32)

    @Test(arguments: StoreBackend.allCases)
    func anOfflineDevicesPushReachesAnHTTP2EndpointWithASignedProviderTokenAndNoContent(backend: StoreBackend)
        async throws
    {
        let fixture = try await APNsFixture()
        defer { fixture.remove() }
        let nghttpd = try NGHTTPD(fixture: fixture)
        defer { nghttpd.stop() }
        let signingClock = ManualClock()
        let sender = try APNsPushSender(
            configuration: fixture.configuration(baseURL: "https://127.0.0.1:\(nghttpd.port)"), clock: signingClock)
        let harness = try await MessengerHarness(backend: backend, pushSenders: [.apns: sender])
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        let registered = try await harness.request(
            "PUT", "/v1/devices/push", as: bob, json: ["kind": "apns", "address": .string(Self.token)])
        try #require(registered.status == 204)

        // nghttpd may still be starting: the push is sent once it listens.
        try #require(await poll { (try? RawSocket(port: nghttpd.port)) != nil }, "nghttpd did not start")
        _ = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "secret")
        let arrived = await poll {
            nghttpd.headers(":path").contains("/3/device/\(Self.token)")
        }
        try #require(arrived, "nghttpd saw no push; its log: \(nghttpd.text.prefix(2_000))")
        #expect(await poll { harness.messenger.metricsText().contains("courier_messenger_pushes_sent_total 1") })
        #expect(sender.lastHTTPVersion == 20)
        #expect(nghttpd.headers(":method").last == "POST")
        #expect(nghttpd.headers("apns-push-type").last == "alert")
        #expect(nghttpd.headers("apns-topic").last == "com.example.courier")
        #expect(nghttpd.headers("apns-collapse-id").last == "mailbox")
        let bearer = try #require(nghttpd.headers("authorization").last)
        #expect(bearer.hasPrefix("bearer "))
        let (header, claims) = try await fixture.verify(String(bearer.dropFirst("bearer ".count)))
        #expect(header == ["alg": "ES256", "kid": .string(fixture.keyId)])
        #expect(claims["iss"]?.stringValue == fixture.teamId)
        #expect(claims["iat"]?.intValue == signingClock.nowMilliseconds / 1000)

        let payload = try JSONParser.parse(sender.payload)
        #expect(payload["aps"]?["mutable-content"] == 1)
        #expect(payload["aps"]?["alert"]?["title"] == "New message")
        let text = String(decoding: sender.payload, as: UTF8.self)
        #expect(!text.contains("secret") && !text.contains(alice.accountId))
    }

    @Test func unregisteredTokensAreDroppedAndAnExpiredProviderTokenIsReplaced() async throws {
        let fixture = try await APNsFixture()
        defer { fixture.remove() }
        // Courier's own server with TLS plays APNs' answers (over HTTP/1.1: it speaks no HTTP/2).
        let script = APNsScript(answers: [
            (200, ""), (200, ""), (403, "ExpiredProviderToken"), (200, ""), (410, "Unregistered"),
        ])
        var router = Router()
        router.add("POST", "/3/device/{token}") { [script] request in
            script.seen.withLock { $0.append(request.header("authorization") ?? "") }
            let (status, reason) = script.answers.withLock { $0.isEmpty ? (200, "") : $0.removeFirst() }
            return .json(reason.isEmpty ? [:] : ["reason": .string(reason)], status: HTTPStatus(code: status))
        }
        var http = HTTPServerConfiguration()
        http.port = 0
        http.tls = HTTPServerTLS(
            certificateChainPath: fixture.directory + "/server.pem", privateKeyPath: fixture.directory + "/server.key")
        let server = HTTPServer(configuration: http, router: router)
        try server.start()
        defer { inBackground { server.stop(deadline: .zero) } }
        let clock = ManualClock()
        let sender = try APNsPushSender(
            configuration: fixture.configuration(baseURL: "https://127.0.0.1:\(server.port)"), clock: clock)
        let endpoint = PushEndpoint(kind: .apns, address: Self.token)
        let notification = PushNotification(collapseId: "mailbox")
        #expect(await sender.send(notification, to: endpoint) == .sent)
        #expect(await sender.send(notification, to: endpoint) == .sent)
        #expect(
            await sender.send(notification, to: endpoint)
                == .failed("APNs refused the provider token (ExpiredProviderToken)"))
        #expect(await sender.send(notification, to: endpoint) == .sent)
        #expect(await sender.send(notification, to: endpoint) == .unregistered)
        let tokens = script.seen.withLock { $0 }
        #expect(tokens.count == 5)
        #expect(tokens[0] == tokens[1] && tokens[1] == tokens[2], "the provider token is reused while it is fresh")
        #expect(tokens[3] != tokens[2], "a refused provider token is replaced")
        clock.advance(by: .seconds(51 * 60))
        _ = await sender.send(notification, to: endpoint)
        #expect(script.seen.withLock { $0.last } != tokens[4], "a token 51 minutes old is replaced")
    }

    @Test func aKeyThatIsNotP256IsRefused() async throws {
        #expect(throws: APNsError.self) {
            try APNsPushSender(
                configuration: APNsConfiguration(teamId: "t", keyId: "k", privateKeyPEM: "nonsense", topic: "x"))
        }
    }
}

/// The answers a stand-in APNs gives, in order, and the authorization headers it saw.
final class APNsScript: Sendable {
    let seen = Mutex<[String]>([])
    let answers: Mutex<[(Int, String)]>

    init(answers: [(Int, String)]) { self.answers = Mutex(answers) }
}

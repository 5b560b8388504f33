import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Messenger
import MessengerServer
import SignalProtocol
import Testing

/// The real messenger server on 127.0.0.1 (ephemeral port) in a temporary directory, and the
/// devices a test makes against it, each with a directory and a file key provider of its own.
final class MessengerTestServer: Sendable {
    let serverClock = ManualClock()
    let clientClock = ManualClock()
    let root: String
    let server: HTTPServer
    /// The server's store, for what a test reads directly (a mailbox emptied by acks on a socket).
    let store: SQLiteMessengerStore
    let http = HTTPClient(timeout: .seconds(30))

    init(configure: (inout MessengerConfiguration) -> Void = { _ in }) throws {
        root = NSTemporaryDirectory() + "messenger-client-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/server", withIntermediateDirectories: true)
        let store = try SQLiteMessengerStore(path: root + "/server/messenger.sqlite")
        self.store = store
        var configuration = MessengerConfiguration()
        configuration.attachmentDirectory = root + "/server/attachments"
        // The manual server clock never refills a budget: the limits are the server suite's subject.
        configuration.sendRate = nil
        configuration.preKeyFetchRate = nil
        configuration.oneTimePreKeyBudgetPerTarget = nil
        configuration.registrationRate = nil
        configure(&configuration)
        let messenger = MessengerServer(configuration: configuration, store: store, clock: serverClock)
        var router = Router()
        messenger.mount(on: &router)
        var options = HTTPServerConfiguration()
        options.port = 0
        server = HTTPServer(configuration: options, router: router)
        try server.start()
    }

    var baseURL: String { server.baseURL }

    /// Stops the server and removes every file.
    func finish() {
        inBackground { [server, root] in
            _ = server.stop(deadline: .zero)
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    /// The configuration of the device called `name` (its own directory and key file).
    func configuration(_ name: String) -> MessengerClientConfiguration {
        MessengerClientConfiguration(
            serverURL: baseURL, directory: root + "/devices/" + name,
            keyProvider: FileKeyProvider(path: root + "/keys-" + name), clock: clientClock, deviceName: name)
    }

    func register(_ name: String) async throws -> MessengerClient {
        try await MessengerClient.register(configuration(name), http: http)
    }

    func link(_ name: String, to primary: MessengerClient) async throws -> MessengerClient {
        let token = try await primary.linkingToken()
        return try await MessengerClient.link(
            configuration(name), token: token, identity: await primary.identityKeyPair(), http: http)
    }

    /// Every file the server wrote (database, its log, attachments), concatenated.
    func serverBytes() throws -> Data {
        var bytes = Data()
        let base = root + "/server"
        for path in FileManager.default.subpaths(atPath: base) ?? [] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: base + "/" + path)))
        }
        return bytes
    }

    /// Fails the test when any of `plaintexts` appears in the server's files.
    func expectNoPlaintext(_ plaintexts: [String]) throws {
        let bytes = try serverBytes()
        #expect(!bytes.isEmpty)
        for text in plaintexts {
            #expect(bytes.range(of: Data(text.utf8)) == nil, "the server's files hold the plaintext \(text)")
        }
    }
}

extension Array where Element == IncomingEvent {
    /// The bodies of the stored messages among the events.
    var bodies: [String] {
        compactMap {
            if case .message(let message) = $0 { return message.body }
            return nil
        }
    }
}

import CourierCore
import CourierHTTP
import Foundation
import Messenger

/// `courier chat …`: a terminal messenger client. Each device keeps its state in a directory
/// (default `.courier/chat/<name>`) and its storage key in a 0600 file beside it (`<dir>.key`).
struct ChatCommand {
    /// The device's name (also the default directory's last component).
    var name: String
    /// The device's directory.
    var directory: String

    init(name: String, directory: String?) {
        self.name = name
        self.directory = directory ?? ".courier/chat/" + name
    }

    var keyFile: String { directory + ".key" }
    var settingsFile: String { directory + "/chat.json" }

    /// `courier chat register`: a new account and its first device.
    func register(server: String) async throws {
        let client = try await removingTheDeviceOnFailure {
            try await MessengerClient.register(configuration(server: server))
        }
        try saveSettings(server: server)
        say("registered \(name): account \(client.credentials.accountId), device \(client.credentials.deviceId)")
        say("state in \(directory), storage key in \(keyFile) (0600); give your account id to your contacts")
    }

    /// `courier chat provision CODE`: links the device that shows `CODE` to this account. The
    /// account's identity key pair and a one-use linking token go to it sealed to the code's
    /// ephemeral key, through the server's provisioning relay; nothing is written to disk.
    func provision(code text: String) async throws {
        let client = try open()
        let code: ProvisioningCode
        do {
            code = try ProvisioningCode(parsing: text)
        } catch let error as MessengerClientError {
            throw CommandError("\(error.message) (copy it as `courier chat link` printed it)")
        }
        do {
            try await client.provision(code)
        } catch let error as MessengerClientError where error.status == 404 {
            throw CommandError(error.message, status: 404)
        }
        say(
            "provisioned: the new device is joining account \(client.credentials.accountId); it prints \"linked\" when done"
        )
    }

    /// `courier chat link`: makes this device a second device of an existing account, as Signal
    /// links one. It prints a provisioning code (the server's address for this device and an
    /// ephemeral public key), waits until a device of the account runs `courier chat provision
    /// CODE`, then registers with what that device sealed to the key.
    func link(server: String) async throws {
        let sockets = try WebSocketClient()
        defer { sockets.shutdown() }
        let client = try await removingTheDeviceOnFailure {
            let linking = try await MessengerClient.startLinking(configuration(server: server), sockets: sockets)
            say("provisioning code for \(name):")
            say("")
            say("    \(linking.code.uri)")
            say("")
            say("On a device of the account, run (before the code expires: 10 minutes on a default server):")
            say("  courier chat provision '\(linking.code.uri)' --name DEVICE")
            say("waiting for the provision…")
            return try await linking.finish()
        }
        try saveSettings(server: server)
        say("linked \(name): account \(client.credentials.accountId), device \(client.credentials.deviceId)")
        say("the identity key came sealed to this device's one-time key and lives only in \(directory) (sealed)")
    }

    /// `courier chat` (or `courier chat run`): the interactive loop.
    func run() async throws {
        let device = ChatDevice(name: name, client: try open(), sockets: try WebSocketClient())
        defer { device.sockets.shutdown() }
        let contacts = try ChatContacts(directory: directory)
        try await ChatSession(device: device, downloads: directory + "/downloads", contacts: contacts).run(
            lines: StandardInputLines.stream())
    }

    /// Runs a registration; when it fails, removes the half-made device (its directory and key
    /// file) if they were not there before, so that the same command can be run again.
    private func removingTheDeviceOnFailure(_ work: () async throws -> MessengerClient) async throws
        -> MessengerClient
    {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: settingsFile) else {
            throw CommandError("\(directory) already holds a chat device")
        }
        let existed = (manager.fileExists(atPath: directory), manager.fileExists(atPath: keyFile))
        do {
            return try await work()
        } catch {
            if !existed.0 { try? manager.removeItem(atPath: directory) }
            if !existed.1 { try? manager.removeItem(atPath: keyFile) }
            throw error
        }
    }

    private func configuration(server: String) throws -> MessengerClientConfiguration {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return ChatDevice.configuration(server: server, directory: directory, keyFile: keyFile, name: name)
    }

    private func open() throws -> MessengerClient {
        try MessengerClient.open(configuration(server: try settings().server))
    }

    private func saveSettings(server: String) throws {
        let json = JSONWriter.encode(["server": .string(server), "name": .string(name)])
        try Data(json).write(to: URL(fileURLWithPath: settingsFile))
    }

    private func settings() throws -> (server: String, name: String) {
        guard let data = FileManager.default.contents(atPath: settingsFile),
            let json = try? JSONParser.parse(Array(data)), let server = json["server"]?.stringValue
        else {
            throw CommandError("no chat device in \(directory): run `courier chat register` or `courier chat link`")
        }
        return (server, json["name"]?.stringValue ?? name)
    }
}

/// Standard input's lines as an async stream, read on a thread of their own.
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        let (lines, sink) = AsyncStream.makeStream(of: String.self)
        Thread.detachNewThread {
            while let line = readLine() { sink.yield(line) }
            sink.finish()
        }
        return lines
    }
}

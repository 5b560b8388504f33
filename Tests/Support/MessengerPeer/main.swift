// A second process on a device's store, for the messenger's two-process tests: it plays the
// notification extension (or a restarted app) and syncs until `expected` messages of
// `conversation` are stored, then prints what it saw.
//
//     messenger-peer <server URL> <device directory> <key file> <conversation> <expected>
import CourierCore
import CourierHTTP
import Foundation
import Messenger
import SignalProtocol

let arguments = CommandLine.arguments
guard arguments.count == 6, let expected = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: messenger-peer URL DIR KEYFILE CONVERSATION EXPECTED\n".utf8))
    exit(2)
}
let configuration = MessengerClientConfiguration(
    serverURL: arguments[1], directory: arguments[2], keyProvider: FileKeyProvider(path: arguments[3]))
let conversation = arguments[4]
var counts: [String: Int] = [:]
do {
    let client = try MessengerClient.open(configuration)
    let deadline = Date().addingTimeInterval(120)
    while try await client.messages(in: conversation).count < expected && Date() < deadline {
        for event in try await client.sync(limit: 20) {
            switch event {
            case .message: counts["stored", default: 0] += 1
            case .duplicate: counts["duplicate", default: 0] += 1
            case .undecryptable: counts["undecryptable", default: 0] += 1
            default: counts["other", default: 0] += 1
            }
        }
    }
    let stored = try await client.messages(in: conversation).count
    print(
        "stored=\(counts["stored", default: 0]) duplicate=\(counts["duplicate", default: 0])"
            + " undecryptable=\(counts["undecryptable", default: 0]) total=\(stored)")
} catch {
    FileHandle.standardError.write(Data("messenger-peer: \(error)\n".utf8))
    exit(1)
}

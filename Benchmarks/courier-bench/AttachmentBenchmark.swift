import CourierCore
import CourierHTTP
import Foundation
import Messenger
import MessengerServer
import SignalProtocol

/// `courier-bench attachments`: an encrypted upload and download through the messenger server
/// on loopback, beside the same bytes uploaded and downloaded without encryption and beside
/// `AttachmentCipher` alone, in the same run.
struct AttachmentBenchmark {
    let runs: Int
    let megabytes: Int

    private struct Run {
        var encryptedUpload = 0.0
        var encryptedDownload = 0.0
        var plainUpload = 0.0
        var plainDownload = 0.0
        var cipherSeal = 0.0
        var cipherOpen = 0.0
    }

    func run() throws {
        let size = megabytes << 20
        var generator = SystemRandomNumberGenerator()
        let plaintext = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var results: [Run] = []
        for _ in 0..<max(1, runs) { results.append(try measure(plaintext)) }
        print("== attachments: \(megabytes) MiB, 512 KiB pieces, loopback, median of \(results.count) runs (MB/s) ==")
        let uploads = median(results.map(\.encryptedUpload))
        let downloads = median(results.map(\.encryptedDownload))
        print(line("encrypted upload", uploads, "MB/s", median(results.map(\.plainUpload)), "plain upload"))
        print(line("encrypted download", downloads, "MB/s", median(results.map(\.plainDownload)), "plain download"))
        print(line("encrypted upload", uploads, "MB/s", median(results.map(\.cipherSeal)), "AttachmentCipher.encrypt"))
        print(
            line("encrypted download", downloads, "MB/s", median(results.map(\.cipherOpen)), "AttachmentCipher.decrypt")
        )
    }

    private func measure(_ plaintext: [UInt8]) throws -> Run {
        let directory = NSTemporaryDirectory() + "attachments-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = MessengerBenchServer.configuration
        configuration.attachmentDirectory = directory + "/attachments"
        let store = try SQLiteMessengerStore(path: directory + "/messenger.sqlite")
        let server = try MessengerBenchServer.startServer(store: store, configuration: configuration)
        defer { _ = server.stop(deadline: .zero) }
        let baseURL = server.baseURL
        let megabytes = Double(plaintext.count) / 1e6

        var run = Run()
        let key = try AttachmentCipher.generateKey()
        var start = DispatchTime.now().uptimeNanoseconds
        let sealed = try AttachmentCipher.encrypt(plaintext, key: key)
        run.cipherSeal = megabytes / seconds(since: start)
        start = DispatchTime.now().uptimeNanoseconds
        _ = try AttachmentCipher.decrypt(
            sealed.blob, key: key, digest: sealed.digest, plaintextLength: sealed.plaintextLength)
        run.cipherOpen = megabytes / seconds(since: start)

        let timings = try runBlocking { () async throws -> [Double] in
            let client = HTTPClient(timeout: .seconds(120))
            let answer = try await client.sendJSON(
                "POST", baseURL + "/v1/accounts",
                ["password": .string(MessengerServerBenchmark.password), "registrationId": 1, "name": "bench"])
            guard let account = answer.json?["accountId"]?.stringValue else { throw BenchError("registration failed") }
            let transfer = AttachmentTransferConfiguration(
                baseURL: baseURL, accountId: account, deviceId: 1, password: MessengerServerBenchmark.password)
            let uploader = AttachmentUploader(configuration: transfer, client: client)
            let downloader = AttachmentDownloader(baseURL: baseURL, client: client)
            // One unmeasured round trip first: connections open, the server's pages and caches warm.
            _ = try await downloader.fetch(id: try await uploader.uploadUnencrypted(sealed.blob))
            var start = DispatchTime.now().uptimeNanoseconds
            let id = try await uploader.uploadUnencrypted(sealed.blob)
            let plainUpload = seconds(since: start)
            start = DispatchTime.now().uptimeNanoseconds
            let fetched = try await downloader.fetch(id: id)
            let plainDownload = seconds(since: start)
            guard fetched.count == sealed.blob.count else { throw BenchError("plain download lost bytes") }
            start = DispatchTime.now().uptimeNanoseconds
            let pointer = try await uploader.upload(plaintext, contentType: "application/octet-stream")
            let upload = seconds(since: start)
            start = DispatchTime.now().uptimeNanoseconds
            let opened = try await downloader.download(pointer)
            let download = seconds(since: start)
            guard opened.count == plaintext.count else { throw BenchError("encrypted download lost bytes") }
            return [plainUpload, plainDownload, upload, download]
        }
        run.plainUpload = megabytes / timings[0]
        run.plainDownload = megabytes / timings[1]
        run.encryptedUpload = megabytes / timings[2]
        run.encryptedDownload = megabytes / timings[3]
        return run
    }
}

private func seconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

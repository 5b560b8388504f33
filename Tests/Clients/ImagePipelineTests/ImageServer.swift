import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Synchronization

@testable import ImagePipeline

/// A gate that held requests wait on until the test opens it.
final class Gate: Sendable {
    private let state = Mutex((open: false, waiters: [CheckedContinuation<Void, Never>]()))

    /// Requests waiting now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// One image the server answers with.
struct ServedImage: Sendable {
    var body: [UInt8]
    var contentType = "image/jpeg"
    var etag: String?
    var cacheControl: String?
    var gate: Gate?
}

/// What the server answers and how often it was asked.
final class ImageStore: Sendable {
    let images = Mutex([String: ServedImage]())
    let counts = Mutex([String: Int]())
    let conditional = Mutex([String: Int]())

    func answer(_ request: HTTPRequest) async -> HTTPResponse {
        let name = request.pathParameters["name"] ?? ""
        counts.withLock { $0[name, default: 0] += 1 }
        guard let image = images.withLock({ $0[name] }) else { return .text("no such image", status: 404) }
        if let gate = image.gate { await gate.wait() }
        var headers = [("Content-Type", image.contentType)]
        if let etag = image.etag { headers.append(("ETag", etag)) }
        if let control = image.cacheControl { headers.append(("Cache-Control", control)) }
        if let match = request.header("if-none-match") {
            conditional.withLock { $0[name, default: 0] += 1 }
            if match == image.etag { return HTTPResponse(status: 304, headers: headers) }
        }
        return HTTPResponse(status: 200, headers: headers, body: image.body)
    }
}

/// The project's own HTTP server on 127.0.0.1 with an ephemeral port, serving generated images
/// at `/images/{name}` and counting requests per name.
final class ImageServer: Sendable {
    let server: HTTPServer
    let store = ImageStore()

    init() throws {
        var router = Router()
        router.add("GET", "/images/{name}") { [store] request, _ in await store.answer(request) }
        var http = HTTPServerConfiguration()
        http.port = 0
        server = HTTPServer(configuration: http, router: router)
        try server.start()
    }

    func url(_ name: String) -> String { "\(server.baseURL)/images/\(name)" }

    func serve(_ name: String, _ image: ServedImage) { store.images.withLock { $0[name] = image } }

    func requests(_ name: String) -> Int { store.counts.withLock { $0[name] ?? 0 } }

    func conditionalRequests(_ name: String) -> Int { store.conditional.withLock { $0[name] ?? 0 } }

    /// Stops the server on a thread of its own; the test does not wait.
    func stop() { inBackground { [server] in server.stop(deadline: .seconds(1)) } }
}

/// A loader with a fresh disk cache in a temporary folder and a manual clock.
func makeLoader(
    clock: ManualClock = ManualClock(), configure: (inout ImageLoaderConfiguration) -> Void = { _ in }
) throws -> ImageLoader {
    var configuration = ImageLoaderConfiguration()
    configuration.diskDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "courier-images-\(Identifier.uuid())")
    configure(&configuration)
    return try ImageLoader(configuration: configuration, clock: clock)
}

/// Generated test images, encoded once.
enum Fixtures {
    static let photo = ImageEncoder.pattern(width: 1600, height: 1200)
    static let jpeg: [UInt8] = (try? ImageEncoder.jpeg(photo, quality: 80)) ?? []
    static let png: [UInt8] = (try? ImageEncoder.png(ImageEncoder.pattern(width: 400, height: 300))) ?? []
    static let webp: [UInt8] = (try? ImageEncoder.webp(ImageEncoder.pattern(width: 400, height: 300))) ?? []
}

internal import CCurl
import Foundation

/// One HTTP/2 connection through libcurl (Debian's, built with nghttp2), for APNs: URLSession on
/// Linux cannot trust a certificate authority of its own, and APNs speaks only HTTP/2. Requests
/// go one at a time on the easy handle, which keeps its connection between them.
final class CurlHTTP2Client: @unchecked Sendable {
    private let lock = NSLock()
    private let handle: UnsafeMutableRawPointer
    private let certificateAuthorityFile: String?
    private let timeoutSeconds: Int

    /// Whether `curl_global_init` succeeded; the first use runs it, once for every handle.
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init(certificateAuthorityFile: String?, timeoutSeconds: Int) throws(APNsError) {
        guard Self.initialized, let handle = curl_easy_init() else {
            throw APNsError.transport("curl_easy_init failed")
        }
        self.handle = handle
        self.certificateAuthorityFile = certificateAuthorityFile
        self.timeoutSeconds = timeoutSeconds
    }

    deinit { curl_easy_cleanup(handle) }

    /// POSTs `body` with `headers`; blocks until the answer (call off Swift's shared pool).
    func post(_ url: String, headers: [(String, String)], body: [UInt8]) throws(APNsError) -> (
        status: Int, body: [UInt8]
    ) {
        lock.lock()
        defer { lock.unlock() }
        let received = ResponseBuffer()
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        defer { curl_slist_free_all(list) }
        let code: CURLcode = url.withCString { url in
            body.withUnsafeBytes { body in
                withExtendedLifetime(received) {
                    let h = handle
                    courier_curl_setopt_pointer(h, CURLOPT_URL, url)
                    courier_curl_setopt_long(h, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
                    curlSetPost(h, body: body, headers: list)
                    courier_curl_setopt_long(h, CURLOPT_TIMEOUT, timeoutSeconds)
                    courier_curl_setopt_write_function(
                        h,
                        { data, size, count, context in
                            guard let data, let context else { return 0 }
                            let buffer = Unmanaged<ResponseBuffer>.fromOpaque(context).takeUnretainedValue()
                            buffer.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
                            return size * count
                        })
                    courier_curl_setopt_pointer(h, CURLOPT_WRITEDATA, Unmanaged.passUnretained(received).toOpaque())
                    let perform: () -> CURLcode = { curl_easy_perform(h) }
                    if let file = certificateAuthorityFile {
                        return file.withCString { path in
                            courier_curl_setopt_pointer(h, CURLOPT_CAINFO, path)
                            return perform()
                        }
                    }
                    return perform()
                }
            }
        }
        courier_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, nil)
        guard code == CURLE_OK else { throw APNsError.transport(String(cString: curl_easy_strerror(code))) }
        var status = 0
        courier_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return (status, received.bytes)
    }

    /// The HTTP version the last request used (20 for HTTP/2).
    var lastHTTPVersion: Int {
        lock.lock()
        defer { lock.unlock() }
        var version = 0
        courier_curl_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        return version == Int(CURL_HTTP_VERSION_2_0) ? 20 : version == Int(CURL_HTTP_VERSION_1_1) ? 11 : version
    }
}

private final class ResponseBuffer {
    var bytes: [UInt8] = []
}

/// Sets what every POST of the push clients shares on an easy handle: the body, the header list
/// and no signals (curl runs on a worker thread). `body` and `headers` must outlive the transfer.
func curlSetPost(
    _ handle: UnsafeMutableRawPointer, body: UnsafeRawBufferPointer, headers: UnsafeMutablePointer<curl_slist>?
) {
    courier_curl_setopt_long(handle, CURLOPT_POST, 1)
    courier_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, body.baseAddress)
    courier_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
    courier_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeRawPointer(headers))
    courier_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
}

internal import CCurl
import CourierHTTP
import Foundation

/// One webhook POST through libcurl, on an easy handle of its own. Every socket libcurl opens
/// goes through `openSocket`, which checks the address it is about to connect to (after DNS
/// resolution) against the policy, so no name can lead the push to a refused address. No
/// proxy from the environment, no redirects, http and https only; the answer's body is dropped.
final class CurlWebhookPost {
    /// What the post came to.
    enum Outcome: Equatable {
        /// The endpoint answered with this status.
        case answered(Int)
        /// Every address the name resolved to is refused by the policy; nothing was connected.
        case refused(IPAddress)
        /// libcurl failed (resolution, connection, TLS, timeout).
        case failed(String)
    }

    private let handle: UnsafeMutableRawPointer

    /// `nil` when libcurl cannot make a handle.
    init?() {
        guard CurlHTTP2Client.initialized, let handle = curl_easy_init() else { return nil }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    /// POSTs `body`; blocks until the answer (call it off Swift's shared pool).
    func post(
        _ url: String, headers: [(String, String)], body: [UInt8], policy: WebhookAddressPolicy,
        timeoutMilliseconds: Int
    ) -> Outcome {
        let gate = SocketGate(policy: policy)
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        defer { curl_slist_free_all(list) }
        let h = handle
        let code: CURLcode = withExtendedLifetime(gate) {
            url.withCString { url in
                body.withUnsafeBytes { body in
                    courier_curl_setopt_pointer(h, CURLOPT_URL, url)
                    courier_curl_setopt_pointer(h, CURLOPT_PROTOCOLS_STR, "http,https")
                    // An empty proxy turns off the environment's http_proxy: the gate must see the
                    // endpoint's own address.
                    courier_curl_setopt_pointer(h, CURLOPT_PROXY, "")
                    courier_curl_setopt_long(h, CURLOPT_FOLLOWLOCATION, 0)
                    curlSetPost(h, body: body, headers: list)
                    courier_curl_setopt_long(h, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
                    courier_curl_setopt_write_function(h) { _, size, count, _ in size * count }
                    courier_curl_setopt_opensocket_function(h, openSocket)
                    courier_curl_setopt_pointer(h, CURLOPT_OPENSOCKETDATA, Unmanaged.passUnretained(gate).toOpaque())
                    return curl_easy_perform(h)
                }
            }
        }
        if code != CURLE_OK {
            if let refused = gate.refused, code == CURLE_COULDNT_CONNECT { return .refused(refused) }
            return .failed(String(cString: curl_easy_strerror(code)))
        }
        var status = 0
        courier_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .answered(status)
    }
}

/// libcurl's `CURLOPT_OPENSOCKETFUNCTION`: opens the socket only when the policy permits the
/// address; otherwise libcurl tries the next address of the name, or fails to connect.
private func openSocket(
    _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype, _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
    guard let context, let address else { return CURL_SOCKET_BAD }
    let gate = Unmanaged<SocketGate>.fromOpaque(context).takeUnretainedValue()
    guard let target = address.pointer(to: \.addr), let ip = IPAddress(socketAddress: UnsafeRawPointer(target)),
        gate.permit(ip)
    else { return CURL_SOCKET_BAD }
    return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
}

/// The policy and what it refused, reached from libcurl's callback through `OPENSOCKETDATA`; used
/// by one `curl_easy_perform` on one thread.
private final class SocketGate {
    let policy: WebhookAddressPolicy
    private(set) var refused: IPAddress?

    init(policy: WebhookAddressPolicy) { self.policy = policy }

    func permit(_ address: IPAddress) -> Bool {
        if policy.permits(address) { return true }
        refused = address
        return false
    }
}

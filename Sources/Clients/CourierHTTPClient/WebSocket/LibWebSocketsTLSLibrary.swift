internal import CLibWebSockets

/// OpenSSL's set-up for every libwebsockets context of the process, done once.
///
/// lws 4.1 initialises OpenSSL for each context created with `LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT`
/// and, each time, takes new process-wide `SSL`/`SSL_CTX` ex-data indices through which its
/// callbacks find their connection. A context created while another context's TLS handshakes were
/// under way moved the indices under them, and those handshakes failed ("unspecified certificate
/// verification error"): the suites start many servers and clients at once. So one context does
/// the global set-up, once, and is kept; the engines' and clients' own contexts never ask for it,
/// and set the option on their vhosts only, which is what turns TLS on for a vhost.
package enum LibWebSocketsTLSLibrary {
    private nonisolated(unsafe) static let initialiser: OpaquePointer? = {
        lws_set_log_level(LLL_ERR, nil)
        var info = lws_context_creation_info()
        info.options = courier_lws_tls_options()
        info.port = courier_lws_client_no_listen_port()
        return lws_create_context(&info)
    }()

    /// Sets OpenSSL up for lws if no context has yet (any thread).
    package static func ensureInitialised() { _ = initialiser }
}

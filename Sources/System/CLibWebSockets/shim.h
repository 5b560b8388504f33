#ifndef COURIER_CLIBWEBSOCKETS_SHIM_H
#define COURIER_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <ev.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* LWS_PRE is a function-like macro: the headroom lws_write needs before the bytes it sends. */
static inline size_t courier_lws_pre(void) { return LWS_PRE; }

/* The context options the engine uses: libev as a foreign loop (the engine owns it, so lws
   installs no signal handler), vhosts created one by one (so a bind failure is seen), IPv4 only,
   WebSocket text checked as UTF-8 by lws (1007 otherwise). */
static inline uint64_t courier_lws_server_options(void) {
    return LWS_SERVER_OPTION_LIBEV | LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_DISABLE_IPV6
        | LWS_SERVER_OPTION_VALIDATE_UTF8;
}

/* Several service threads: Debian builds lws with LWS_MAX_SMP=1 (one service thread per
   context), and lws 4.1 sets SO_REUSEPORT only when a context has several threads. So each
   context of a group gets a listening socket made here, with SO_REUSEPORT on the same port; its
   loop accepts on it and hands each connection to lws with lws_adopt_socket_vhost.
   Returns the non-blocking listening socket, or -1 (errno set); *bound is the port it got. */
static inline int courier_listen_shared(const char *host, int port, int *bound) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int on = 1;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) < 0
        || setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) < 0
        || inet_pton(AF_INET, host, &address.sin_addr) != 1
        || bind(fd, (struct sockaddr *)&address, sizeof address) < 0
        || listen(fd, SOMAXCONN) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    socklen_t length = sizeof address;
    getsockname(fd, (struct sockaddr *)&address, &length);
    *bound = ntohs(address.sin_port);
    return fd;
}

/* The next pending connection on a non-blocking listening socket, non-blocking itself, or -1
   when none is left (or accept failed). */
static inline int courier_accept(int listener) { return accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

static inline void courier_close(int fd) { close(fd); }

/* Whether the peer of a connected socket has gone: a read would find the end of the stream (its
   FIN) or an error. MSG_PEEK leaves any data where it is; MSG_DONTWAIT never blocks the loop. */
static inline int courier_peer_gone(int fd) {
    char byte;
    if (fd < 0) return 0;
    ssize_t got = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* A libev watcher for a readable descriptor (ev_io_init and ev_io_start are macros). */
typedef void (*courier_ev_io_callback)(struct ev_loop *loop, struct ev_io *watcher, int events);
static inline void courier_ev_io_start(struct ev_loop *loop, struct ev_io *watcher, courier_ev_io_callback callback,
                                       int fd, void *data) {
    ev_io_init(watcher, callback, fd, EV_READ);
    watcher->data = data;
    ev_io_start(loop, watcher);
}
static inline void courier_ev_io_stop(struct ev_loop *loop, struct ev_io *watcher) { ev_io_stop(loop, watcher); }

/* A libev prepare watcher: called on every turn of the loop before it waits, and before libev
   hands the turn's descriptor changes to the kernel (ev_prepare_init is a macro). */
typedef void (*courier_ev_prepare_callback)(struct ev_loop *loop, struct ev_prepare *watcher, int events);
static inline void courier_ev_prepare_start(struct ev_loop *loop, struct ev_prepare *watcher,
                                            courier_ev_prepare_callback callback, void *data) {
    ev_prepare_init(watcher, callback);
    watcher->data = data;
    ev_prepare_start(loop, watcher);
}
static inline void courier_ev_prepare_stop(struct ev_loop *loop, struct ev_prepare *watcher) {
    ev_prepare_stop(loop, watcher);
}

/* Services a connection as if the kernel had reported it writable. lws 4.1 parks a keep-alive
   connection after each completed transaction until it sees POLLOUT (LRS_DEFERRING_ACTION); a
   connection whose whole answer the kernel has just taken is writable. */
static inline int courier_lws_service_writable(struct lws_context *context, struct lws *wsi) {
    struct lws_pollfd pollfd;
    pollfd.fd = lws_get_socket_fd(wsi);
    if (pollfd.fd < 0) return 0;
    pollfd.events = LWS_POLLIN | LWS_POLLOUT;
    pollfd.revents = LWS_POLLOUT;
    return lws_service_fd(context, &pollfd);
}

/* The vhost port that serves adopted connections without listening itself. */
static inline int courier_lws_no_listen_server(void) { return CONTEXT_PORT_NO_LISTEN_SERVER; }

/* Added to the context's options when a vhost serves TLS: lws initialises OpenSSL. */
static inline uint64_t courier_lws_tls_options(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }

/* The server's WebSocket extensions: permessage-deflate (RFC 7692), offered to clients that ask
   for it; the array must outlive the vhost. */
static inline const struct lws_extension *courier_lws_server_extensions(void) {
    static const struct lws_extension extensions[] = {
        { "permessage-deflate", lws_extension_callback_pm_deflate, "permessage-deflate" },
        { NULL, NULL, NULL }
    };
    return extensions;
}

/* lws_set_timer_usecs takes an lws_usec_t; LWS_SET_TIMER_USEC_CANCEL is a cast macro. */
static inline void courier_lws_cancel_timer(struct lws *wsi) {
    lws_set_timer_usecs(wsi, LWS_SET_TIMER_USEC_CANCEL);
}

/* libev's loop creation, run and break: EVFLAG_AUTO, EVRUN_* and EVBREAK_* are enum constants
   behind macros that depend on EV_MULTIPLICITY, so the engine calls them through these. */
static inline struct ev_loop *courier_ev_loop_new(void) { return ev_loop_new(EVFLAG_AUTO); }
static inline void courier_ev_run(struct ev_loop *loop) { ev_run(loop, 0); }
static inline void courier_ev_run_nowait(struct ev_loop *loop) { ev_run(loop, EVRUN_NOWAIT); }
static inline void courier_ev_break_all(struct ev_loop *loop) { ev_break(loop, EVBREAK_ALL); }
static inline void courier_ev_loop_destroy(struct ev_loop *loop) { ev_loop_destroy(loop); }

/* A repeating libev timer (ev_timer_init and ev_timer_start are macros). */
typedef void (*courier_ev_timer_callback)(struct ev_loop *loop, struct ev_timer *timer, int events);
static inline void courier_ev_timer_start(struct ev_loop *loop, struct ev_timer *timer,
                                          courier_ev_timer_callback callback, double seconds, void *data) {
    ev_timer_init(timer, callback, seconds, seconds);
    timer->data = data;
    ev_timer_start(loop, timer);
}
static inline void courier_ev_timer_stop(struct ev_loop *loop, struct ev_timer *timer) { ev_timer_stop(loop, timer); }

/* ---- The WebSocket client (Sources/CourierHTTP/WebSocketClient) ---- */

/* The client's vhost: no listener (CONTEXT_PORT_NO_LISTEN is set on the creation info), libev as
   a foreign loop, TLS on so wss:// works (the client SSL_CTX loads the
   system CA store, Debian's lws being built with LWS_SSL_CLIENT_USE_OS_CA_CERTS), and the
   caller's Origin sent as given (without the option lws writes "Origin: http://<origin>"). */
static inline uint64_t courier_lws_client_options(void) {
    return LWS_SERVER_OPTION_LIBEV | LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT | LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN;
}

static inline int courier_lws_client_no_listen_port(void) { return CONTEXT_PORT_NO_LISTEN; }

/* The client context itself: libev, its one vhost made explicitly (so that OpenSSL's global
   set-up, done once per process, is not asked for again: see LibWebSocketsTLSLibrary). */
static inline uint64_t courier_lws_client_context_options(void) {
    return LWS_SERVER_OPTION_LIBEV | LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN;
}

/* The extensions a client context offers: permessage-deflate (RFC 7692) by lws's own
   implementation. Each connection may decline to offer it
   (LWS_CALLBACK_CLIENT_CONFIRM_EXTENSION_SUPPORTED). */
static inline const struct lws_extension *courier_lws_client_extensions(void) {
    static const struct lws_extension extensions[] = {
        { "permessage-deflate", lws_extension_callback_pm_deflate,
          "permessage-deflate; client_max_window_bits" },
        { NULL, NULL, NULL }
    };
    return extensions;
}

/* Closes a connection on lws's next pass over it (lws_set_timeout with LWS_TO_KILL_ASYNC, a
   macro); only from the service thread. */
static inline void courier_lws_client_kill(struct lws *wsi) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/* Closes a connection after `seconds` unless something else happens first (a close handshake
   that lws itself finishes sets its own timeout over this one). */
static inline void courier_lws_close_within(struct lws *wsi, int seconds) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, seconds);
}

/* Why OpenSSL refused the server's certificate ("unable to get local issuer certificate",
   "hostname mismatch"…), or NULL when it did not (no TLS, or verification passed). */
static inline const char *courier_lws_client_tls_verify_error(struct lws *wsi) {
    SSL *ssl = lws_get_ssl(wsi);
    if (!ssl) return NULL;
    long result = SSL_get_verify_result(ssl);
    return result == X509_V_OK ? NULL : X509_verify_cert_error_string(result);
}

#endif

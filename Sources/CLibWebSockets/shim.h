#ifndef COURIER_CLIBWEBSOCKETS_SHIM_H
#define COURIER_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <ev.h>

/* LWS_PRE is a function-like macro: the headroom lws_write needs before the bytes it sends. */
static inline size_t courier_lws_pre(void) { return LWS_PRE; }

/* The context options the engine uses: libev as a foreign loop (the engine owns it, so lws
   installs no signal handler), vhosts created one by one (so a bind failure is seen), IPv4 only,
   WebSocket text checked as UTF-8 by lws (1007 otherwise). */
static inline uint64_t courier_lws_server_options(void) {
    return LWS_SERVER_OPTION_LIBEV | LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_DISABLE_IPV6
        | LWS_SERVER_OPTION_VALIDATE_UTF8;
}

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

#endif

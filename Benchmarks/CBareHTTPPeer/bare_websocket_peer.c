/* A minimal libwebsockets WebSocket echo server for `courier-bench websocket`: one protocol that
   reassembles each message and writes it back, one lws_write per writable callback with LWS_PRE
   headroom, from a small per-socket queue (reading pauses while it is full). It runs on a libev
   loop it creates itself (a foreign loop, as Courier's engine does) on its own thread. */
#include "bare_websocket_peer.h"

#include <ev.h>
#include <libwebsockets.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define QUEUE_LENGTH 8

struct message {
    unsigned char *buffer; /* LWS_PRE bytes of headroom, then the payload */
    size_t length;
    int binary;
};

struct session {
    struct message queue[QUEUE_LENGTH];
    int head, count;
    struct message partial; /* the message being reassembled; buffer NULL when none */
    size_t partial_capacity;
    unsigned char *last_written; /* permessage-deflate may read it after lws_write returns */
    int reading_paused;
};

static struct lws_context *context;
static struct ev_loop *loop;
static pthread_t service_thread;
static volatile int stopping;

static int append(struct session *session, struct lws *wsi, const void *in, size_t len) {
    struct message *partial = &session->partial;
    if (!partial->buffer) {
        session->partial_capacity = len > 256 ? len : 256;
        partial->buffer = malloc(LWS_PRE + session->partial_capacity);
        if (!partial->buffer) return -1;
        partial->length = 0;
        partial->binary = lws_frame_is_binary(wsi);
    }
    if (partial->length + len > session->partial_capacity) {
        size_t capacity = session->partial_capacity * 2;
        if (capacity < partial->length + len) capacity = partial->length + len;
        unsigned char *grown = realloc(partial->buffer, LWS_PRE + capacity);
        if (!grown) return -1;
        partial->buffer = grown;
        session->partial_capacity = capacity;
    }
    if (len) memcpy(partial->buffer + LWS_PRE + partial->length, in, len);
    partial->length += len;
    return 0;
}

static int receive(struct session *session, struct lws *wsi, const void *in, size_t len) {
    if (append(session, wsi, in, len)) return -1;
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0) return 0;
    int tail = (session->head + session->count) % QUEUE_LENGTH;
    session->queue[tail] = session->partial;
    session->count++;
    session->partial.buffer = NULL;
    if (session->count == QUEUE_LENGTH) {
        session->reading_paused = 1;
        lws_rx_flow_control(wsi, 0);
    }
    lws_callback_on_writable(wsi);
    return 0;
}

static int writeable(struct session *session, struct lws *wsi) {
    if (!session->count) return 0;
    struct message *message = &session->queue[session->head];
    enum lws_write_protocol kind = message->binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT;
    int written = lws_write(wsi, message->buffer + LWS_PRE, message->length, kind);
    if (written < (int)message->length) return -1;
    free(session->last_written);
    session->last_written = message->buffer;
    message->buffer = NULL;
    session->head = (session->head + 1) % QUEUE_LENGTH;
    session->count--;
    if (session->reading_paused && session->count <= QUEUE_LENGTH / 2) {
        session->reading_paused = 0;
        lws_rx_flow_control(wsi, 1);
    }
    if (session->count) lws_callback_on_writable(wsi);
    return 0;
}

static void release(struct session *session) {
    for (int i = 0; i < session->count; i++) free(session->queue[(session->head + i) % QUEUE_LENGTH].buffer);
    free(session->partial.buffer);
    free(session->last_written);
    memset(session, 0, sizeof *session);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct session *session = (struct session *)user;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        memset(session, 0, sizeof *session);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        return receive(session, wsi, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return writeable(session, wsi);
    case LWS_CALLBACK_CLOSED:
        release(session);
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (stopping) ev_break(loop, EVBREAK_ALL);
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static struct lws_protocols protocols[] = {
    {"bare-websocket", callback, sizeof(struct session), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static const struct lws_extension extensions[] = {
    {"permessage-deflate", lws_extension_callback_pm_deflate, "permessage-deflate"},
    {NULL, NULL, NULL},
};

static void *serve(void *unused) {
    (void)unused;
    ev_run(loop, 0);
    /* The loop has stopped: the context goes on this thread, as in Courier's engine. */
    lws_context_destroy(context);
    return NULL;
}

int bare_websocket_peer_start(int port) {
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    lws_set_log_level(LLL_ERR, NULL);
    loop = ev_loop_new(EVFLAG_AUTO);
    if (!loop) return -1;
    void *foreign_loops[1] = {loop};
    info.port = port;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.extensions = extensions;
    info.foreign_loops = foreign_loops;
    info.options = LWS_SERVER_OPTION_LIBEV | LWS_SERVER_OPTION_DISABLE_IPV6;
    context = lws_create_context(&info);
    if (!context) {
        ev_loop_destroy(loop);
        loop = NULL;
        return -1;
    }
    struct lws_vhost *vhost = lws_get_vhost_by_name(context, "default");
    int bound = vhost ? lws_get_vhost_listen_port(vhost) : -1;
    stopping = 0;
    if (pthread_create(&service_thread, NULL, serve, NULL) != 0) {
        lws_context_destroy(context);
        context = NULL;
        ev_loop_destroy(loop);
        loop = NULL;
        return -1;
    }
    return bound;
}

void bare_websocket_peer_stop(void) {
    if (!context) return;
    stopping = 1;
    lws_cancel_service(context);
    pthread_join(service_thread, NULL);
    context = NULL;
    ev_loop_destroy(loop);
    loop = NULL;
}

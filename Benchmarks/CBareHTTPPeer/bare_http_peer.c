/* A minimal libwebsockets HTTP server for `courier-bench http`: GET /small answers a small JSON
   object, POST /upload reads the body and answers its size. Each answer (status line, headers
   and body) goes out in one lws_write, as Courier's engine does, on lws's default poll loop. */
#include "bare_http_peer.h"

#include <libwebsockets.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct exchange {
    int answer_ready;
    int is_post;
    size_t body_bytes;
};

static struct lws_context *context;
static pthread_t service_thread;
static volatile int stopping;

static int answer(struct lws *wsi, struct exchange *exchange) {
    unsigned char buffer[LWS_PRE + 512];
    char body[64];
    int body_length = exchange->is_post
        ? snprintf(body, sizeof body, "{\"bytes\":%zu}", exchange->body_bytes)
        : snprintf(body, sizeof body, "{\"ok\":true}");
    char *start = (char *)buffer + LWS_PRE;
    int length = snprintf(start, sizeof buffer - LWS_PRE,
                          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
                          body_length, body);
    if (lws_write(wsi, (unsigned char *)start, (size_t)length, LWS_WRITE_HTTP) != length) return -1;
    exchange->answer_ready = 0;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct exchange *exchange = (struct exchange *)user;
    switch (reason) {
    case LWS_CALLBACK_HTTP:
        memset(exchange, 0, sizeof *exchange);
        exchange->is_post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
        if (!exchange->is_post) {
            exchange->answer_ready = 1;
            lws_callback_on_writable(wsi);
        }
        return 0;
    case LWS_CALLBACK_HTTP_BODY:
        exchange->body_bytes += len;
        return 0;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        exchange->answer_ready = 1;
        lws_callback_on_writable(wsi);
        return 0;
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return exchange->answer_ready ? answer(wsi, exchange) : 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static struct lws_protocols protocols[] = {
    {"bare-http", callback, sizeof(struct exchange), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void *serve(void *unused) {
    (void)unused;
    while (!stopping && lws_service(context, 0) >= 0) {
    }
    return NULL;
}

int bare_http_peer_start(int port) {
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    lws_set_log_level(LLL_ERR, NULL);
    info.port = port;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    context = lws_create_context(&info);
    if (!context) return -1;
    struct lws_vhost *vhost = lws_get_vhost_by_name(context, "default");
    int bound = vhost ? lws_get_vhost_port(vhost) : -1;
    stopping = 0;
    if (pthread_create(&service_thread, NULL, serve, NULL) != 0) {
        lws_context_destroy(context);
        context = NULL;
        return -1;
    }
    return bound;
}

void bare_http_peer_stop(void) {
    if (!context) return;
    stopping = 1;
    lws_cancel_service(context);
    pthread_join(service_thread, NULL);
    lws_context_destroy(context);
    context = NULL;
}

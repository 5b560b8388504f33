#ifndef COURIER_BARE_HTTP_PEER_H
#define COURIER_BARE_HTTP_PEER_H

/* The peer of `courier-bench http`: libwebsockets answering the benchmark's two routes straight
   from its callback, with no Swift above it. Benchmark only. */

/* Starts the server on 127.0.0.1:port (0 picks one) with its own service thread; returns the
   port it listens on, or -1. One server at a time. */
int bare_http_peer_start(int port);

/* Stops the server and joins its thread. */
void bare_http_peer_stop(void);

#endif

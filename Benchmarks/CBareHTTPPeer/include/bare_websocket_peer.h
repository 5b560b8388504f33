#ifndef COURIER_BARE_WEBSOCKET_PEER_H
#define COURIER_BARE_WEBSOCKET_PEER_H

/* The ceiling of `courier-bench websocket`: libwebsockets echoing every WebSocket message straight
   from its callback, on a libev loop of its own (as Courier's engine runs), with no Swift above
   it. Benchmark only. */

/* Starts the server on 127.0.0.1:port (0 picks one) with its own service thread; returns the
   port it listens on, or -1. Any path upgrades; permessage-deflate is accepted when the client
   offers it. One server at a time. */
int bare_websocket_peer_start(int port);

/* Stops the server (closing every socket) and joins its thread. */
void bare_websocket_peer_stop(void);

#endif

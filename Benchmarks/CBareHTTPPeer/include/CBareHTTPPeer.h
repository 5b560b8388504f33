#ifndef COURIER_CBAREHTTPPEER_H
#define COURIER_CBAREHTTPPEER_H

/* The benchmark peers in C: a bare libwebsockets HTTP server and a bare WebSocket echo server. */
#include "bare_http_peer.h"
#include "bare_websocket_peer.h"

#endif

// The server's WebSocket routes hand handlers the same `WebSocket` the client gets, and servers
// call other services with `HTTPClient`: whoever imports the server module sees the client's
// types too, without a second import.
@_exported import CourierHTTPClient

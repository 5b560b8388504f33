extension OpenAPIDocument {
    /// The document's head: version, info, servers and tags.
    static let head = #"""
        "openapi": "3.1.0",
        "info": {
          "title": "Courier server",
          "version": "1",
          "summary": "Every HTTP route of courier-server: analytics collector, messenger, feature flags, sync, console, operations.",
          "description": "Served by `courier-server` at `/openapi.json`; the source is `Sources/Executables/courier-server/OpenAPIDocument.swift`, and `OpenAPIContractTests` validates real responses against it.\n\nBodies are UTF-8 JSON unless a route says otherwise. Every error is `{\"error\": {\"code\", \"message\"}}` (`Error`); the collector's and the messenger's also carry `code` and `message` at the top level (`TopLevelError`), and fields a client acts on (a 409's `missingDevices`, a `batch_rejected`'s `rejected`). Codes are snake_case and new ones may appear. Besides the answers listed per route, the HTTP engine itself may answer any route with 404 `not_found` (no such route), 405 `method_not_allowed` (with `Allow`), 408 `request_timeout`, 413 `payload_too_large`, 415 `unsupported_encoding`, 429 `rate_limited` (with `Retry-After`) or 503 `unavailable` while stopping, in the same `Error` shape.\n\nMessenger clients: envelope `type` is 2 (whisper), 3 (prekey) or 4 (sender key) — Signal-Server's numbering, where 1 means ciphertext, does not apply; `conversationId` for a pair is `dm:<a>:<b>` with the two account ids sorted; the encrypted plaintext is UTF-8 JSON with no padding and `sentAt` in milliseconds (`MessageContent`). docs/messenger-server.md has the prose."
        },
        "servers": [
          {
            "url": "/",
            "description": "The courier-server that serves this document (`make run`: http://127.0.0.1:8080)."
          }
        ],
        "tags": [
          {
            "name": "analytics"
          },
          {
            "name": "analytics admin"
          },
          {
            "name": "messenger"
          },
          {
            "name": "messenger admin"
          },
          {
            "name": "flags"
          },
          {
            "name": "flags admin"
          },
          {
            "name": "sync"
          },
          {
            "name": "console"
          },
          {
            "name": "operations"
          }
        ]
        """#

    /// Schemas that routes of several sections use.
    static let sharedSchemas = #"""
        "ErrorDetail": {
          "type": "object",
          "required": [
            "code",
            "message"
          ],
          "properties": {
            "code": {
              "type": "string",
              "description": "A stable, snake_case reason. New codes may be added; clients treat an unknown one by its HTTP status.",
              "examples": [
                "invalid_request"
              ]
            },
            "message": {
              "type": "string",
              "description": "A sentence for a person; never parsed."
            }
          }
        },
        "Error": {
          "type": "object",
          "required": [
            "error"
          ],
          "description": "The one error body of every route (`HTTPError` in CourierHTTP): `{\"error\": {\"code\", \"message\"}}`, plus the fields a client acts on at the top level (`details`, e.g. a 409's `missingDevices`).",
          "properties": {
            "error": {
              "$ref": "#/components/schemas/ErrorDetail"
            }
          },
          "additionalProperties": true,
          "example": {
            "error": {
              "code": "unauthorized",
              "message": "send credentials"
            }
          }
        },
        "TopLevelError": {
          "type": "object",
          "description": "The error body on the collector's and the messenger's routes: `Error` with `code` and `message` repeated at the top level, where Segment's clients (and the messenger's first clients) read them.",
          "required": [
            "error",
            "code",
            "message"
          ],
          "properties": {
            "error": {
              "$ref": "#/components/schemas/ErrorDetail"
            },
            "code": {
              "type": "string",
              "description": "The same as `error.code`."
            },
            "message": {
              "type": "string",
              "description": "The same as `error.message`."
            }
          },
          "additionalProperties": true,
          "example": {
            "error": {
              "code": "unauthorized",
              "message": "unknown write key"
            },
            "code": "unauthorized",
            "message": "unknown write key"
          }
        },
        "SegmentMessage": {
          "type": "object",
          "description": "One message of Segment's tracking API. `type` is required in a batch (the single-message routes imply it). Each message is at most 32 KB; at least one of `userId` and `anonymousId` is required; `track` needs `event`, `group` needs `groupId`, `alias` needs `previousId` and `userId`. The collector adds `receivedAt` and corrects `timestamp` for clock skew (`receivedAt − (sentAt − timestamp)`).",
          "properties": {
            "type": {
              "type": "string",
              "enum": [
                "track",
                "identify",
                "screen",
                "page",
                "group",
                "alias"
              ]
            },
            "messageId": {
              "type": "string",
              "description": "Deduplication key: a message whose `messageId` was stored within the dedupe window is acknowledged and not stored again."
            },
            "userId": {
              "type": [
                "string",
                "number"
              ],
              "description": "A string or a number (stored as given)."
            },
            "anonymousId": {
              "type": [
                "string",
                "number"
              ],
              "description": "A string or a number (stored as given)."
            },
            "event": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "groupId": {
              "type": [
                "string",
                "number"
              ],
              "description": "A string or a number (stored as given)."
            },
            "previousId": {
              "type": [
                "string",
                "number"
              ],
              "description": "A string or a number (stored as given)."
            },
            "properties": {
              "type": "object",
              "additionalProperties": true
            },
            "traits": {
              "type": "object",
              "additionalProperties": true
            },
            "context": {
              "type": "object",
              "additionalProperties": true
            },
            "integrations": {
              "type": "object",
              "additionalProperties": true
            },
            "timestamp": {
              "type": "string",
              "description": "ISO 8601 UTC time with milliseconds, e.g. 2026-11-29T08:00:00.000Z."
            },
            "sentAt": {
              "type": "string",
              "description": "ISO 8601 UTC time with milliseconds, e.g. 2026-11-29T08:00:00.000Z."
            },
            "originalTimestamp": {
              "type": "string",
              "description": "ISO 8601 UTC time with milliseconds, e.g. 2026-11-29T08:00:00.000Z."
            }
          },
          "additionalProperties": true,
          "example": {
            "type": "track",
            "event": "Signed Up",
            "userId": "user-1",
            "messageId": "m-1",
            "properties": {
              "plan": "pro",
              "price": 19.99
            }
          }
        },
        "MessageContent": {
          "type": "object",
          "required": [
            "v",
            "kind"
          ],
          "description": "The plaintext inside every envelope's ciphertext (never seen by the server; documented for third-party clients): UTF-8 JSON, no padding, version 1. `sentAt` is milliseconds since the epoch. An unknown `kind` of version 1 is acknowledged and skipped; another version, bad JSON or a missing field is refused.",
          "properties": {
            "v": {
              "const": 1
            },
            "kind": {
              "type": "string",
              "enum": [
                "text",
                "receipt",
                "typing",
                "group",
                "senderKey"
              ]
            },
            "body": {
              "type": "string"
            },
            "sentAt": {
              "type": "integer",
              "format": "int64",
              "description": "Milliseconds since the Unix epoch."
            },
            "attachment": {
              "type": "string",
              "contentEncoding": "base64",
              "description": "Base64 of the attachment pointer's JSON."
            },
            "group": {
              "type": "string"
            },
            "receipt": {
              "type": "string",
              "enum": [
                "delivered",
                "read"
              ]
            },
            "conversation": {
              "type": "string"
            },
            "upToSeq": {
              "type": "integer"
            },
            "started": {
              "type": "boolean"
            },
            "mode": {
              "type": "string",
              "enum": [
                "pairwise",
                "senderKeys"
              ]
            },
            "members": {
              "type": "array",
              "items": {
                "type": "string"
              }
            },
            "distribution": {
              "type": "string",
              "contentEncoding": "base64",
              "description": "Standard base64 (padding optional but exact where present, never empty)."
            }
          },
          "example": {
            "v": 1,
            "kind": "text",
            "body": "hello",
            "sentAt": 1800000000000
          }
        },
        "ProvisioningFrame": {
          "description": "Server → device on `/v1/websocket/provisioning/` (the device being linked sends nothing the server reads): its address at once, then the provision when a device of the account has sent it, after which the socket closes with 1000. Closes 4408 when its lifetime (10 minutes) ends and 4503 when too many devices are waiting.",
          "oneOf": [
            {
              "title": "address",
              "type": "object",
              "required": [
                "type",
                "id",
                "verb",
                "path",
                "body"
              ],
              "properties": {
                "type": {
                  "const": "request"
                },
                "id": {
                  "const": 1
                },
                "verb": {
                  "const": "PUT"
                },
                "path": {
                  "const": "/v1/address"
                },
                "body": {
                  "type": "object",
                  "required": [
                    "address",
                    "expiresAt"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "address": {
                      "type": "string",
                      "pattern": "^[0-9a-f]{32}$"
                    },
                    "expiresAt": {
                      "type": "integer",
                      "format": "int64",
                      "description": "Milliseconds since the Unix epoch."
                    }
                  }
                }
              },
              "additionalProperties": false
            },
            {
              "title": "provision",
              "type": "object",
              "required": [
                "type",
                "id",
                "verb",
                "path",
                "body"
              ],
              "properties": {
                "type": {
                  "const": "request"
                },
                "id": {
                  "const": 2
                },
                "verb": {
                  "const": "PUT"
                },
                "path": {
                  "const": "/v1/message"
                },
                "body": {
                  "type": "object",
                  "required": [
                    "body"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "body": {
                      "type": "string",
                      "contentEncoding": "base64",
                      "description": "Standard base64 (padding optional but exact where present, never empty)."
                    }
                  }
                }
              },
              "additionalProperties": false
            }
          ]
        },
        "SocketServerRequest": {
          "description": "Server → device on `/v1/websocket`. A device answers each with a `SocketDeviceResponse` of the same `id`; a 2xx to a `/api/v1/message` request is the envelope's acknowledgement, which deletes it from the mailbox; any other status leaves it there for the next connection. Answers to `/api/v1/queue/empty` and `/api/v1/keys/low` are optional and ignored.",
          "oneOf": [
            {
              "title": "message",
              "type": "object",
              "required": [
                "type",
                "id",
                "verb",
                "path",
                "body"
              ],
              "properties": {
                "type": {
                  "const": "request"
                },
                "id": {
                  "type": "integer"
                },
                "verb": {
                  "const": "PUT"
                },
                "path": {
                  "const": "/api/v1/message"
                },
                "body": {
                  "$ref": "#/components/schemas/Envelope"
                }
              },
              "additionalProperties": false
            },
            {
              "title": "queue empty",
              "type": "object",
              "required": [
                "type",
                "id",
                "verb",
                "path"
              ],
              "properties": {
                "type": {
                  "const": "request"
                },
                "id": {
                  "type": "integer"
                },
                "verb": {
                  "const": "PUT"
                },
                "path": {
                  "const": "/api/v1/queue/empty"
                }
              },
              "additionalProperties": false
            },
            {
              "title": "prekeys low",
              "type": "object",
              "required": [
                "type",
                "id",
                "verb",
                "path",
                "body"
              ],
              "properties": {
                "type": {
                  "const": "request"
                },
                "id": {
                  "type": "integer"
                },
                "verb": {
                  "const": "PUT"
                },
                "path": {
                  "const": "/api/v1/keys/low"
                },
                "body": {
                  "type": "object",
                  "required": [
                    "count"
                  ],
                  "properties": {
                    "count": {
                      "type": "integer"
                    }
                  }
                }
              },
              "additionalProperties": false
            }
          ]
        },
        "SocketDeviceResponse": {
          "type": "object",
          "required": [
            "type",
            "id",
            "status"
          ],
          "description": "Device → server: the answer to a `SocketServerRequest`.",
          "properties": {
            "type": {
              "const": "response"
            },
            "id": {
              "type": "integer"
            },
            "status": {
              "type": "integer",
              "examples": [
                200
              ]
            }
          },
          "example": {
            "type": "response",
            "id": 7,
            "status": 200
          },
          "additionalProperties": false
        },
        "SocketDeviceRequest": {
          "description": "Device → server: requests on the delivery socket, so a client with a live socket needs no second connection. Each is answered by a `SocketServerResponse` with the same `id`; requests run one at a time, in order. A request without an integer `id` closes the socket (1008).",
          "oneOf": [
            {
              "title": "keepalive",
              "type": "object",
              "required": [
                "type",
                "id",
                "verb",
                "path"
              ],
              "properties": {
                "type": {
                  "const": "request"
                },
                "id": {
                  "type": "integer"
                },
                "verb": {
                  "const": "GET"
                },
                "path": {
                  "const": "/v1/keepalive"
                }
              },
              "additionalProperties": false
            },
            {
              "title": "send",
              "type": "object",
              "required": [
                "type",
                "id",
                "verb",
                "path",
                "body"
              ],
              "properties": {
                "type": {
                  "const": "request"
                },
                "id": {
                  "type": "integer"
                },
                "verb": {
                  "const": "PUT"
                },
                "path": {
                  "type": "string",
                  "pattern": "^/v1/messages/[^/?]+$"
                },
                "body": {
                  "$ref": "#/components/schemas/SendMessages"
                }
              },
              "additionalProperties": false
            },
            {
              "title": "catch-up",
              "type": "object",
              "required": [
                "type",
                "id",
                "verb",
                "path"
              ],
              "properties": {
                "type": {
                  "const": "request"
                },
                "id": {
                  "type": "integer"
                },
                "verb": {
                  "const": "GET"
                },
                "path": {
                  "type": "string",
                  "pattern": "^/v1/messages(\\?.*)?$"
                }
              },
              "additionalProperties": false
            }
          ]
        },
        "SocketServerResponse": {
          "type": "object",
          "required": [
            "type",
            "id",
            "status"
          ],
          "description": "Server → device: the answer to a `SocketDeviceRequest`, with the status and body the HTTP route would give (no body for the keepalive).",
          "properties": {
            "type": {
              "const": "response"
            },
            "id": {
              "type": "integer"
            },
            "status": {
              "type": "integer"
            },
            "body": {
              "anyOf": [
                {
                  "$ref": "#/components/schemas/SendResult"
                },
                {
                  "$ref": "#/components/schemas/PendingMessages"
                },
                {
                  "$ref": "#/components/schemas/TopLevelError"
                }
              ]
            }
          },
          "example": {
            "type": "response",
            "id": 4,
            "status": 200,
            "body": {
              "serverSeq": 7,
              "duplicate": false
            }
          },
          "additionalProperties": false
        }
        """#

    /// The components other than schemas: shared responses, parameters, headers and security
    /// schemes.
    static let otherComponents = #"""
        "responses": {
          "BadRequest": {
            "description": "The request is malformed: bad JSON, a missing or out-of-range field (`bad_request`, `invalid_request`, `invalid_json`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "Unauthorized": {
            "description": "No credentials, or ones the server does not know (`unauthorized`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "Forbidden": {
            "description": "The credentials do not allow this (`forbidden`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "NotFound": {
            "description": "No such resource (`not_found`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "RateLimited": {
            "description": "Too many requests (`rate_limited`); retry after `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/Retry-After"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "Unavailable": {
            "description": "The store failed or the server is stopping (`storage_unavailable`, `unavailable`); nothing was changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "TopBadRequest": {
            "description": "The request is malformed (`bad_request`, `invalid_request`, `invalid_json`, `invalid_encoding`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TopLevelError"
                }
              }
            }
          },
          "TopUnauthorized": {
            "description": "No credentials, or ones the server does not know (`unauthorized`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TopLevelError"
                }
              }
            }
          },
          "TopForbidden": {
            "description": "Not allowed (`forbidden`, `project_disabled`, `invalid_linking_token`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TopLevelError"
                }
              }
            }
          },
          "TopNotFound": {
            "description": "No such resource (`not_found`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TopLevelError"
                }
              }
            }
          },
          "TopRateLimited": {
            "description": "Too many requests (`rate_limited`, `overloaded`); retry after `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/Retry-After"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TopLevelError"
                }
              }
            }
          },
          "TopTooLarge": {
            "description": "Over a size limit (`payload_too_large`, `batch_too_large`, `event_too_large`, `too_many_prekeys`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TopLevelError"
                }
              }
            }
          },
          "TopUnavailable": {
            "description": "Busy, stopping, or the store failed (`busy`, `commit_timeout`, `shutting_down`, `storage_unavailable`); retrying is safe.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TopLevelError"
                }
              }
            }
          },
          "TopStorage": {
            "description": "Storage full or failing (`insufficient_storage`, `quota_exceeded`, `storage_error`); nothing was stored.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TopLevelError"
                }
              }
            }
          },
          "EnvironmentChanged": {
            "description": "`If-Match` names another version than the stored one: the environment changed since it was read (`environment_changed`); nothing was stored.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        },
        "parameters": {
          "IfMatch": {
            "name": "If-Match",
            "in": "header",
            "required": false,
            "description": "The environment's version as `GET …/definitions` tags it (`\"12\"`; a list names several): the change is stored only at a version it names, compared strongly (412 otherwise). `*`: only if the flag or segment exists. Anything else is 400.",
            "schema": {
              "type": "string"
            },
            "example": "\"12\""
          }
        },
        "headers": {
          "Retry-After": {
            "description": "Seconds to wait before retrying.",
            "schema": {
              "type": "integer"
            }
          }
        },
        "securitySchemes": {
          "writeKey": {
            "type": "http",
            "scheme": "basic",
            "description": "The project's write key as the Basic user, empty password (Segment's convention)."
          },
          "adminToken": {
            "type": "http",
            "scheme": "bearer",
            "description": "`COURIER_ADMIN_TOKEN`."
          },
          "consoleSession": {
            "type": "apiKey",
            "in": "cookie",
            "name": "courier_console",
            "description": "A console session stands for the admin token on admin routes; methods other than GET/HEAD also need `X-CSRF-Token`."
          },
          "deviceBasic": {
            "type": "http",
            "scheme": "basic",
            "description": "`<accountId>.<deviceId>` as the user and the device's password."
          },
          "deviceLogin": {
            "type": "apiKey",
            "in": "query",
            "name": "login",
            "description": "`<accountId>.<deviceId>` (WebSocket only)."
          },
          "devicePassword": {
            "type": "apiKey",
            "in": "query",
            "name": "password",
            "description": "The device's password (WebSocket only)."
          },
          "syncToken": {
            "type": "http",
            "scheme": "bearer",
            "description": "A token of `COURIER_SYNC_TOKENS` (`token=owner,…`); the owner is whose records it reads and writes."
          }
        }
        """#
}

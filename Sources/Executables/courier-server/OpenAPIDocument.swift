/// The OpenAPI 3.1 contract of every HTTP route `courier-server` mounts, served at `/openapi.json`
/// (`OpenAPIRoute`). It is kept by hand beside the code; `OpenAPIContractTests` (in
/// MessengerServerTests) sends real requests to a real `courier-server` and validates each request
/// and answer against it with Python's `openapi-core`, so a route that changes without it fails.
enum OpenAPIDocument {
    /// The document, as JSON.
    static let json = #"""
        {
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
          ],
          "paths": {
            "/v1/batch": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send a batch of messages",
                "operationId": "post_v1_batch",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "description": "Segment's tracking API. The write key is the HTTP Basic user (empty password) or the body's `writeKey`. Messages that fail validation are listed under `rejected`; the others are stored and committed before the 200. Answers any origin (CORS).",
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Batch"
                      }
                    }
                  },
                  "description": "UTF-8 JSON, optionally `Content-Encoding: gzip`/`deflate`. At most 500 KB and 32 KB per message."
                }
              }
            },
            "/v1/import": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send a batch (alias of /v1/batch)",
                "operationId": "post_v1_import",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Batch"
                      }
                    }
                  },
                  "description": "UTF-8 JSON, optionally `Content-Encoding: gzip`/`deflate`. At most 500 KB and 32 KB per message."
                }
              }
            },
            "/v1/b": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send a batch (alias of /v1/batch, analytics.js short path)",
                "operationId": "post_v1_b",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Batch"
                      }
                    }
                  },
                  "description": "UTF-8 JSON, optionally `Content-Encoding: gzip`/`deflate`. At most 500 KB and 32 KB per message."
                }
              }
            },
            "/v1/track": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one track message",
                "operationId": "post_v1_track",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      },
                      "example": {
                        "event": "Signed Up",
                        "userId": "user-1"
                      }
                    }
                  }
                }
              }
            },
            "/v1/t": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one track message (analytics.js short path)",
                "operationId": "post_v1_t",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      },
                      "example": {
                        "event": "Signed Up",
                        "userId": "user-1"
                      }
                    }
                  }
                }
              }
            },
            "/v1/identify": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one identify message",
                "operationId": "post_v1_identify",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      },
                      "example": {
                        "userId": "user-1",
                        "traits": {
                          "plan": "pro"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/i": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one identify message (analytics.js short path)",
                "operationId": "post_v1_i",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      },
                      "example": {
                        "userId": "user-1",
                        "traits": {
                          "plan": "pro"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/screen": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one screen message",
                "operationId": "post_v1_screen",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      }
                    }
                  }
                }
              }
            },
            "/v1/s": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one screen message (analytics.js short path)",
                "operationId": "post_v1_s",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      }
                    }
                  }
                }
              }
            },
            "/v1/page": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one page message",
                "operationId": "post_v1_page",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      }
                    }
                  }
                }
              }
            },
            "/v1/p": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one page message (analytics.js short path)",
                "operationId": "post_v1_p",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      }
                    }
                  }
                }
              }
            },
            "/v1/group": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one group message",
                "operationId": "post_v1_group",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      }
                    }
                  }
                }
              }
            },
            "/v1/g": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one group message (analytics.js short path)",
                "operationId": "post_v1_g",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      }
                    }
                  }
                }
              }
            },
            "/v1/alias": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one alias message",
                "operationId": "post_v1_alias",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      }
                    }
                  }
                }
              }
            },
            "/v1/a": {
              "post": {
                "tags": [
                  "analytics"
                ],
                "summary": "Send one alias message (analytics.js short path)",
                "operationId": "post_v1_a",
                "responses": {
                  "200": {
                    "description": "Stored. `rejected` lists the messages that were not (some were stored).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchAccepted"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body (`invalid_json`, `invalid_request`, `invalid_encoding`), or **no** message of the batch could be stored (`batch_rejected`, with `rejected`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/BatchRejected"
                            },
                            {
                              "$ref": "#/components/schemas/TopLevelError"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "403": {
                    "description": "The project's kill switch is on (`project_disabled`): drop the batch and what is queued behind it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "415": {
                    "description": "A `Content-Encoding` other than gzip or deflate (`unsupported_encoding`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "507": {
                    "description": "The project's storage quota is used up (`quota_exceeded`); nothing was stored, keep the events.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "writeKey": []
                  },
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentMessage"
                      }
                    }
                  }
                }
              }
            },
            "/v1/projects/{writeKey}/settings": {
              "get": {
                "tags": [
                  "analytics"
                ],
                "summary": "Remote settings an SDK fetches (kill switch, sample rate, flush policy)",
                "operationId": "get_v1_projects_writeKey_settings",
                "responses": {
                  "200": {
                    "description": "The settings; cacheable for 60 s.",
                    "headers": {
                      "Cache-Control": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ProjectSettings"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/TopNotFound"
                  }
                },
                "security": [
                  {}
                ],
                "parameters": [
                  {
                    "name": "writeKey",
                    "in": "path",
                    "required": true,
                    "description": "The project's write key.",
                    "schema": {
                      "type": "string"
                    },
                    "example": "dev-write-key"
                  }
                ]
              },
              "put": {
                "tags": [
                  "analytics admin"
                ],
                "summary": "Change a project's settings (creates the project)",
                "operationId": "put_v1_projects_writeKey_settings",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "The settings after the change.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ProjectSettings"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "writeKey",
                    "in": "path",
                    "required": true,
                    "description": "The project's write key.",
                    "schema": {
                      "type": "string"
                    },
                    "example": "dev-write-key"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/ProjectSettingsPatch"
                      }
                    }
                  }
                }
              }
            },
            "/v1/events": {
              "get": {
                "tags": [
                  "analytics admin"
                ],
                "summary": "Read stored events, oldest first",
                "operationId": "get_v1_events",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/EventPage"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "writeKey",
                    "in": "query",
                    "required": true,
                    "description": "The project.",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "after",
                    "in": "query",
                    "required": false,
                    "description": "Cursor from `nextCursor`/`lastCursor`.",
                    "schema": {
                      "type": "integer",
                      "minimum": 0
                    }
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "required": false,
                    "description": "Page size.",
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 1000,
                      "default": 100
                    }
                  }
                ]
              }
            },
            "/v1/events/stream": {
              "get": {
                "tags": [
                  "analytics admin"
                ],
                "summary": "Live stream of stored events (Server-Sent Events)",
                "operationId": "get_v1_events_stream",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "`text/event-stream`: one `id:` and one `data:` line per stored event, `{\"id\", \"event\"}`; `: keep-alive` comments; a `skipped` event when the reader fell more than a page behind, or a resumed stream more than 1,000 events. Without a cursor the project's newest `last` events (20 by default) come first; with `after` or `Last-Event-ID`, every event stored after it.",
                    "content": {
                      "text/event-stream": {
                        "example": "retry: 2000\n: streaming events of one project\n\nid: 42\ndata: {\"id\":42,\"event\":{\"type\":\"track\",\"event\":\"Signed Up\"}}\n\n"
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "writeKey",
                    "in": "query",
                    "required": true,
                    "description": "The project.",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "after",
                    "in": "query",
                    "required": false,
                    "description": "Resume after this cursor: every event stored after it first (up to 1,000), then what commits.",
                    "schema": {
                      "type": "integer",
                      "minimum": 0
                    }
                  },
                  {
                    "name": "last",
                    "in": "query",
                    "required": false,
                    "description": "Replay this many recent events first (not with `after`).",
                    "schema": {
                      "type": "integer",
                      "minimum": 0,
                      "maximum": 200
                    }
                  },
                  {
                    "name": "Last-Event-ID",
                    "in": "header",
                    "required": false,
                    "description": "Sent by a reconnecting `EventSource`: the `id:` of the last event it got. Resumes after it as `after` does, and wins over `after` and `last` in the query.",
                    "schema": {
                      "type": "integer",
                      "minimum": 0
                    }
                  }
                ]
              }
            },
            "/v1/projects": {
              "get": {
                "tags": [
                  "analytics admin"
                ],
                "summary": "Projects with settings, storage and recent volume",
                "operationId": "get_v1_projects",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ProjectList"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ]
              }
            },
            "/v1/projects/{writeKey}/volume": {
              "get": {
                "tags": [
                  "analytics admin"
                ],
                "summary": "Events per minute (last hour) and per hour (last day), by type",
                "operationId": "get_v1_projects_writeKey_volume",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ProjectVolume"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/TopNotFound"
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "writeKey",
                    "in": "path",
                    "required": true,
                    "description": "The project's write key.",
                    "schema": {
                      "type": "string"
                    },
                    "example": "dev-write-key"
                  }
                ]
              }
            },
            "/v1/projects/{writeKey}/rejections": {
              "get": {
                "tags": [
                  "analytics admin"
                ],
                "summary": "Refusals by code and the latest reasons",
                "operationId": "get_v1_projects_writeKey_rejections",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ProjectRejections"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/TopNotFound"
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "writeKey",
                    "in": "path",
                    "required": true,
                    "description": "The project's write key.",
                    "schema": {
                      "type": "string"
                    },
                    "example": "dev-write-key"
                  }
                ]
              }
            },
            "/v1/projects/{writeKey}/settings/history": {
              "get": {
                "tags": [
                  "analytics admin"
                ],
                "summary": "Settings changes, newest first",
                "operationId": "get_v1_projects_writeKey_settings_history",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/SettingsHistory"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/TopNotFound"
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "writeKey",
                    "in": "path",
                    "required": true,
                    "description": "The project's write key.",
                    "schema": {
                      "type": "string"
                    },
                    "example": "dev-write-key"
                  }
                ]
              }
            },
            "/v1/accounts": {
              "post": {
                "tags": [
                  "messenger"
                ],
                "summary": "Create an account and its first device (device 1)",
                "operationId": "post_v1_accounts",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/DeviceCreated"
                        }
                      }
                    }
                  }
                },
                "description": "400 `weak_secret` when the password is not a random secret of the right size. Rate limited per address.",
                "security": [
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/NewDevice"
                      }
                    }
                  }
                }
              }
            },
            "/v1/devices/linking-token": {
              "post": {
                "tags": [
                  "messenger"
                ],
                "summary": "A one-time token to link another device to this account",
                "operationId": "post_v1_devices_linking_token",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/LinkingToken"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ]
              }
            },
            "/v1/devices/link": {
              "put": {
                "tags": [
                  "messenger"
                ],
                "summary": "Link a new device with a linking token",
                "operationId": "put_v1_devices_link",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/DeviceCreated"
                        }
                      }
                    }
                  },
                  "403": {
                    "description": "The token is unknown, used or expired (`invalid_linking_token`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "411": {
                    "description": "The account has as many devices as it may (`device_limit`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/LinkDevice"
                      }
                    }
                  }
                }
              }
            },
            "/v1/devices": {
              "get": {
                "tags": [
                  "messenger"
                ],
                "summary": "The account's devices",
                "operationId": "get_v1_devices",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/DeviceList"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ]
              }
            },
            "/v1/devices/{deviceId}": {
              "delete": {
                "tags": [
                  "messenger"
                ],
                "summary": "Remove a device (by device 1, or the device itself); its socket is closed with 4401",
                "operationId": "delete_v1_devices_deviceId",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "204": {
                    "description": "Removed."
                  },
                  "403": {
                    "description": "Device 1 cannot be removed, or the caller may not remove it (`forbidden`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/TopNotFound"
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "parameters": [
                  {
                    "name": "deviceId",
                    "in": "path",
                    "required": true,
                    "description": "The device to remove.",
                    "schema": {
                      "type": "integer",
                      "minimum": 1
                    }
                  }
                ]
              }
            },
            "/v1/devices/push": {
              "put": {
                "tags": [
                  "messenger"
                ],
                "summary": "Set this device's push endpoint (pushes carry no content)",
                "operationId": "put_v1_devices_push",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "204": {
                    "description": "Stored."
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/PushEndpoint"
                      }
                    }
                  }
                }
              },
              "delete": {
                "tags": [
                  "messenger"
                ],
                "summary": "Remove this device's push endpoint",
                "operationId": "delete_v1_devices_push",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "204": {
                    "description": "Removed."
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ]
              }
            },
            "/v2/keys": {
              "put": {
                "tags": [
                  "messenger"
                ],
                "summary": "Upload the identity key, a signed prekey and one-time prekeys",
                "operationId": "put_v2_keys",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "204": {
                    "description": "Stored."
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  },
                  "422": {
                    "description": "Not a Curve25519 public key (`invalid_key`) or a signature that does not verify (`invalid_signature`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/KeyUpload"
                      }
                    }
                  }
                }
              },
              "get": {
                "tags": [
                  "messenger"
                ],
                "summary": "How many one-time prekeys this device has left",
                "operationId": "get_v2_keys",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/PreKeyCount"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ]
              }
            },
            "/v2/keys/{accountId}/{deviceId}": {
              "get": {
                "tags": [
                  "messenger"
                ],
                "summary": "Prekey bundles of one device, or of every device (`*`)",
                "operationId": "get_v2_keys_accountId_deviceId",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "Each one-time prekey is given to one caller only.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/PreKeyBundle"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No keys to give: `unknown_account` when no device is registered under the id, `no_keys` when the account (or the device asked for) has not uploaded keys.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "parameters": [
                  {
                    "name": "accountId",
                    "in": "path",
                    "required": true,
                    "description": "The account.",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "deviceId",
                    "in": "path",
                    "required": true,
                    "description": "A device id, or `*` for all.",
                    "schema": {
                      "type": "string",
                      "pattern": "^([1-9][0-9]*|\\*)$"
                    }
                  }
                ]
              }
            },
            "/v1/messages/{accountId}": {
              "put": {
                "tags": [
                  "messenger"
                ],
                "summary": "Send one envelope to each device of an account",
                "operationId": "put_v1_messages_accountId",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "Stored in one transaction; `serverSeq` is the conversation's sequence number.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/SendResult"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/TopNotFound"
                  },
                  "409": {
                    "description": "The envelopes do not match the account's devices (`mismatched_devices`); nothing was stored.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/MismatchedDevices"
                        }
                      }
                    }
                  },
                  "410": {
                    "description": "Some devices have a new registration id (`stale_devices`); fetch their bundles again.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StaleDevices"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  }
                },
                "description": "Envelope `type` is 2 (whisper), 3 (prekey) or 4 (sender key), **not** Signal-Server's numbering where 1 means ciphertext; see `OutgoingEnvelope`. `conversationId` for a pair is `dm:<a>:<b>` with the two account ids sorted. The plaintext inside `content` is UTF-8 JSON with no padding and `sentAt` in milliseconds (`MessageContent`).",
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "parameters": [
                  {
                    "name": "accountId",
                    "in": "path",
                    "required": true,
                    "description": "The destination account (the sender's own account reaches its other devices).",
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SendMessages"
                      }
                    }
                  }
                }
              }
            },
            "/v1/messages": {
              "get": {
                "tags": [
                  "messenger"
                ],
                "summary": "Pending envelopes after a cursor, oldest first (catch-up without the socket)",
                "operationId": "get_v1_messages",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/PendingMessages"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "parameters": [
                  {
                    "name": "after",
                    "in": "query",
                    "required": false,
                    "description": "The last `cursor` seen; 0 from the start.",
                    "schema": {
                      "type": "integer",
                      "minimum": 0,
                      "default": 0
                    }
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "required": false,
                    "description": "Page size (clamped to 1…1000).",
                    "schema": {
                      "type": "integer",
                      "default": 100
                    }
                  }
                ]
              }
            },
            "/v1/messages/{id}": {
              "delete": {
                "tags": [
                  "messenger"
                ],
                "summary": "Acknowledge one envelope (deletes it from this device's mailbox)",
                "operationId": "delete_v1_messages_id",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "204": {
                    "description": "Deleted."
                  },
                  "404": {
                    "$ref": "#/components/responses/TopNotFound"
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "description": "The mailbox row id from `GET /v1/messages`.",
                    "schema": {
                      "type": "integer"
                    }
                  }
                ]
              }
            },
            "/v1/attachments": {
              "post": {
                "tags": [
                  "messenger"
                ],
                "summary": "Start an attachment upload",
                "operationId": "post_v1_attachments",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/AttachmentCreated"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  }
                },
                "description": "Attachments are ciphertext; the key travels inside the message. Ids are 32 random bytes (hex), so downloads need no credentials.",
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/AttachmentCreate"
                      }
                    }
                  }
                }
              }
            },
            "/v1/attachments/{id}": {
              "put": {
                "tags": [
                  "messenger"
                ],
                "summary": "Upload the next piece (resumable)",
                "operationId": "put_v1_attachments_id",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "200": {
                    "description": "Every byte has arrived.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/AttachmentComplete"
                        }
                      }
                    }
                  },
                  "308": {
                    "description": "Incomplete: `Range: bytes=0-N` says what has arrived (absent when nothing has).",
                    "headers": {
                      "Range": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/TopNotFound"
                  },
                  "409": {
                    "description": "The piece does not start where the stored part ends (`wrong_offset`); `Range` says where it does.",
                    "headers": {
                      "Range": {
                        "schema": {
                          "type": "string"
                        }
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
                  "507": {
                    "$ref": "#/components/responses/TopStorage"
                  }
                },
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "description": "The attachment id (64 hex digits).",
                    "schema": {
                      "type": "string",
                      "pattern": "^[0-9a-f]{64}$"
                    }
                  },
                  {
                    "name": "Content-Range",
                    "in": "header",
                    "required": true,
                    "description": "`bytes S-E/T` with the piece as the body, or `bytes */T` with no body to ask how much has arrived.",
                    "schema": {
                      "type": "string"
                    },
                    "example": "bytes 0-1023/4096"
                  }
                ],
                "requestBody": {
                  "required": false,
                  "content": {
                    "application/octet-stream": {}
                  }
                }
              },
              "get": {
                "tags": [
                  "messenger"
                ],
                "summary": "Download a complete attachment (no credentials)",
                "operationId": "get_v1_attachments_id",
                "responses": {
                  "200": {
                    "description": "The ciphertext.",
                    "content": {
                      "application/octet-stream": {}
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/TopNotFound"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  }
                },
                "security": [
                  {}
                ],
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "description": "The attachment id (64 hex digits).",
                    "schema": {
                      "type": "string",
                      "pattern": "^[0-9a-f]{64}$"
                    }
                  }
                ]
              }
            },
            "/v1/websocket": {
              "get": {
                "tags": [
                  "messenger"
                ],
                "summary": "The device's delivery socket (WebSocket)",
                "operationId": "get_v1_websocket",
                "responses": {
                  "101": {
                    "description": "Switching protocols. Frames are JSON text: server → device `SocketServerRequest` (answered by `SocketDeviceResponse`; a 2xx to a message is its ack), device → server `SocketDeviceRequest` (answered by `SocketServerResponse`). On connect the stored mailbox is sent in order, then `/api/v1/queue/empty`, then new envelopes as they arrive. At most 256 envelopes are unacknowledged at once. A second connection of the same device closes the first with 4409; a removed device is closed with 4401."
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "426": {
                    "description": "Asked for without the WebSocket upgrade (`upgrade_required`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  }
                },
                "description": "Credentials as HTTP Basic or `?login=&password=` as Signal's clients send them. See components `SocketServerRequest`, `SocketDeviceResponse`, `SocketDeviceRequest`, `SocketServerResponse`.",
                "security": [
                  {
                    "deviceBasic": []
                  },
                  {
                    "deviceLogin": [],
                    "devicePassword": []
                  }
                ],
                "parameters": [
                  {
                    "name": "login",
                    "in": "query",
                    "required": false,
                    "description": "`<accountId>.<deviceId>`, for clients that cannot set headers.",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "password",
                    "in": "query",
                    "required": false,
                    "description": "The device's password, with `login`.",
                    "schema": {
                      "type": "string"
                    }
                  }
                ]
              }
            },
            "/v1/websocket/provisioning": {
              "get": {
                "tags": [
                  "messenger"
                ],
                "summary": "Linking: the socket of a device being linked (WebSocket, no credentials)",
                "operationId": "get_v1_websocket_provisioning",
                "responses": {
                  "101": {
                    "description": "Switching protocols. Frames are `ProvisioningFrame`: the socket's address at once, then the provision a device of the account sends with `PUT /v1/provisioning/{address}`. Signal's clients ask for `/v1/websocket/provisioning/`; the trailing slash is ignored."
                  },
                  "426": {
                    "description": "Asked for without the WebSocket upgrade (`upgrade_required`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {}
                ]
              }
            },
            "/v1/provisioning/{address}": {
              "put": {
                "tags": [
                  "messenger"
                ],
                "summary": "Linking: hand a waiting device its provision (sealed to its key)",
                "operationId": "put_v1_provisioning_address",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/TopBadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/TopUnauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TopRateLimited"
                  },
                  "500": {
                    "$ref": "#/components/responses/TopStorage"
                  },
                  "503": {
                    "$ref": "#/components/responses/TopUnavailable"
                  },
                  "204": {
                    "description": "The socket holding `address` has it queued; it closes after sending it."
                  },
                  "404": {
                    "description": "No socket holds the address: unknown, expired, already provisioned, or not 32 lowercase hex digits (`not_found`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TopLevelError"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TopTooLarge"
                  }
                },
                "description": "Nothing is stored; the server relays bytes it cannot read, across instances over the bus. One provision per address.",
                "security": [
                  {
                    "deviceBasic": []
                  }
                ],
                "parameters": [
                  {
                    "name": "address",
                    "in": "path",
                    "required": true,
                    "description": "The address from the new device's `ProvisioningFrame`.",
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Provision"
                      }
                    }
                  }
                }
              }
            },
            "/v1/messenger/devices": {
              "get": {
                "tags": [
                  "messenger admin"
                ],
                "summary": "Operators' overview: devices, mailbox depth, presence, pushes (never content)",
                "operationId": "get_v1_messenger_devices",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/MessengerOverview"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ]
              }
            },
            "/v1/flags": {
              "get": {
                "tags": [
                  "flags admin"
                ],
                "summary": "Every environment that has definitions, with its version",
                "operationId": "get_v1_flags",
                "responses": {
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "The environments, by key.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/FlagEnvironmentList"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ]
              }
            },
            "/v1/flags/{envKey}": {
              "get": {
                "tags": [
                  "flags"
                ],
                "summary": "The environment's flag definitions, for local evaluation",
                "operationId": "get_v1_flags_envKey",
                "responses": {
                  "200": {
                    "description": "The definitions; gzip when accepted.",
                    "headers": {
                      "ETag": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/FlagDocument"
                        }
                      }
                    }
                  },
                  "304": {
                    "description": "Unchanged since the `If-None-Match` tag.",
                    "headers": {
                      "ETag": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                },
                "security": [
                  {}
                ],
                "parameters": [
                  {
                    "name": "envKey",
                    "in": "path",
                    "required": true,
                    "description": "The environment.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    },
                    "example": "production"
                  },
                  {
                    "name": "If-None-Match",
                    "in": "header",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ]
              }
            },
            "/v1/flags/{envKey}/evaluate": {
              "post": {
                "tags": [
                  "flags"
                ],
                "summary": "Evaluate flags on the server for a context",
                "operationId": "post_v1_flags_envKey_evaluate",
                "responses": {
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Evaluation"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                },
                "security": [
                  {}
                ],
                "parameters": [
                  {
                    "name": "envKey",
                    "in": "path",
                    "required": true,
                    "description": "The environment.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    },
                    "example": "production"
                  }
                ],
                "requestBody": {
                  "required": false,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/EvaluationRequest"
                      }
                    }
                  }
                }
              }
            },
            "/v1/flags/{envKey}/definitions": {
              "get": {
                "tags": [
                  "flags admin"
                ],
                "summary": "Definitions (`?expired=true`: only those past their expiry day)",
                "operationId": "get_v1_flags_envKey_definitions",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/DefinitionList"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "envKey",
                    "in": "path",
                    "required": true,
                    "description": "The environment.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    },
                    "example": "production"
                  },
                  {
                    "name": "expired",
                    "in": "query",
                    "required": false,
                    "description": "Only expired flags.",
                    "schema": {
                      "type": "string",
                      "enum": [
                        "true",
                        "false"
                      ]
                    }
                  }
                ]
              }
            },
            "/v1/flags/{envKey}/definitions/{flagKey}": {
              "put": {
                "tags": [
                  "flags admin"
                ],
                "summary": "Create or replace a flag",
                "operationId": "put_v1_flags_envKey_definitions_flagKey",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/FlagChanged"
                        }
                      }
                    }
                  },
                  "422": {
                    "description": "The definition does not validate (`invalid_definition`); nothing was stored.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "envKey",
                    "in": "path",
                    "required": true,
                    "description": "The environment.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    },
                    "example": "production"
                  },
                  {
                    "name": "flagKey",
                    "in": "path",
                    "required": true,
                    "description": "The flag.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    }
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/FlagDefinition"
                      }
                    }
                  }
                }
              }
            },
            "/v1/flags/{envKey}/definitions/{flagKey}/kill": {
              "post": {
                "tags": [
                  "flags admin"
                ],
                "summary": "Turn a flag's kill switch on (`enabled: false`)",
                "operationId": "post_v1_flags_envKey_definitions_flagKey_kill",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/FlagChanged"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "422": {
                    "description": "The definition does not validate (`invalid_definition`); nothing was stored.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "envKey",
                    "in": "path",
                    "required": true,
                    "description": "The environment.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    },
                    "example": "production"
                  },
                  {
                    "name": "flagKey",
                    "in": "path",
                    "required": true,
                    "description": "The flag.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    }
                  }
                ]
              }
            },
            "/v1/flags/{envKey}/segments/{segmentKey}": {
              "put": {
                "tags": [
                  "flags admin"
                ],
                "summary": "Create or replace a segment",
                "operationId": "put_v1_flags_envKey_segments_segmentKey",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/SegmentChanged"
                        }
                      }
                    }
                  },
                  "422": {
                    "description": "The definition does not validate (`invalid_definition`); nothing was stored.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "envKey",
                    "in": "path",
                    "required": true,
                    "description": "The environment.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    },
                    "example": "production"
                  },
                  {
                    "name": "segmentKey",
                    "in": "path",
                    "required": true,
                    "description": "The segment.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    }
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SegmentDefinition"
                      }
                    }
                  }
                }
              }
            },
            "/v1/flags/{envKey}/audit": {
              "get": {
                "tags": [
                  "flags admin"
                ],
                "summary": "Changes, newest first",
                "operationId": "get_v1_flags_envKey_audit",
                "responses": {
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "403": {
                    "description": "No or wrong admin token, no admin token configured, or a console session's state-changing request without its `X-CSRF-Token` (`forbidden`, `csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/FlagAudit"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "adminToken": []
                  },
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "envKey",
                    "in": "path",
                    "required": true,
                    "description": "The environment.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,128}$"
                    },
                    "example": "production"
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "required": false,
                    "description": "At most this many.",
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 1000,
                      "default": 100
                    }
                  }
                ]
              }
            },
            "/v1/sync/push": {
              "post": {
                "tags": [
                  "sync"
                ],
                "summary": "Apply operations in one transaction",
                "operationId": "post_v1_sync_push",
                "responses": {
                  "400": {
                    "description": "Malformed request, or a cursor this server did not sign (`invalid_request`, `invalid_cursor`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "One result per operation.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/SyncPushResult"
                        }
                      }
                    }
                  },
                  "413": {
                    "description": "Too many operations (`too_large`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "syncToken": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SyncPush"
                      }
                    }
                  }
                }
              }
            },
            "/v1/sync/changes": {
              "get": {
                "tags": [
                  "sync"
                ],
                "summary": "Records changed after a cursor",
                "operationId": "get_v1_sync_changes",
                "responses": {
                  "400": {
                    "description": "Malformed request, or a cursor this server did not sign (`invalid_request`, `invalid_cursor`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/SyncChanges"
                        }
                      }
                    }
                  },
                  "410": {
                    "description": "The cursor is older than the tombstone horizon (`cursor_expired`): fetch the snapshot.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "syncToken": []
                  }
                ],
                "parameters": [
                  {
                    "name": "since",
                    "in": "query",
                    "required": false,
                    "description": "A `cursor` from `changes` or `snapshot`; none starts from the beginning.",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "required": false,
                    "description": "Page size.",
                    "schema": {
                      "type": "integer",
                      "minimum": 1
                    }
                  }
                ]
              }
            },
            "/v1/sync/snapshot": {
              "get": {
                "tags": [
                  "sync"
                ],
                "summary": "Every live record, a cursor and a checksum",
                "operationId": "get_v1_sync_snapshot",
                "responses": {
                  "400": {
                    "description": "Malformed request, or a cursor this server did not sign (`invalid_request`, `invalid_cursor`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/SyncSnapshot"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "syncToken": []
                  }
                ]
              }
            },
            "/v1/sync/poke": {
              "get": {
                "tags": [
                  "sync"
                ],
                "summary": "Long poll: answers as soon as a write after the cursor exists, or after `wait` seconds",
                "operationId": "get_v1_sync_poke",
                "responses": {
                  "400": {
                    "description": "Malformed request, or a cursor this server did not sign (`invalid_request`, `invalid_cursor`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/SyncPoke"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "syncToken": []
                  }
                ],
                "parameters": [
                  {
                    "name": "since",
                    "in": "query",
                    "required": false,
                    "description": "A `cursor` from `changes` or `snapshot`; none starts from the beginning.",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "wait",
                    "in": "query",
                    "required": false,
                    "description": "Seconds to wait at most (capped by the server).",
                    "schema": {
                      "type": "integer",
                      "minimum": 0
                    }
                  }
                ]
              }
            },
            "/v1/sync/collections/{collection}/records": {
              "get": {
                "tags": [
                  "sync"
                ],
                "summary": "Live records of a collection by id, a keyset page",
                "operationId": "get_v1_sync_collections_collection_records",
                "responses": {
                  "400": {
                    "description": "Malformed request, or a cursor this server did not sign (`invalid_request`, `invalid_cursor`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/RecordPage"
                        }
                      }
                    }
                  },
                  "410": {
                    "description": "The cursor has expired (`cursor_expired`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "syncToken": []
                  }
                ],
                "parameters": [
                  {
                    "name": "collection",
                    "in": "path",
                    "required": true,
                    "description": "The collection.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._-]{1,64}$"
                    }
                  },
                  {
                    "name": "before",
                    "in": "query",
                    "required": false,
                    "description": "A row's cursor: the page before it.",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "after",
                    "in": "query",
                    "required": false,
                    "description": "A row's cursor: the page after it.",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "around",
                    "in": "query",
                    "required": false,
                    "description": "A record id: the page around it.",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "required": false,
                    "description": "Page size.",
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 500,
                      "default": 50
                    }
                  }
                ]
              }
            },
            "/console/api/session": {
              "get": {
                "tags": [
                  "console"
                ],
                "summary": "The current session's CSRF token and expiry",
                "operationId": "get_console_api_session",
                "responses": {
                  "401": {
                    "description": "Not signed in (`signed_out`) or not the admin token (`invalid_token`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "403": {
                    "description": "No admin token is configured (`console_disabled`) or the CSRF token is missing (`csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ConsoleSession"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "consoleSession": []
                  },
                  {}
                ]
              },
              "post": {
                "tags": [
                  "console"
                ],
                "summary": "Sign in with the admin token; sets the session cookie",
                "operationId": "post_console_api_session",
                "responses": {
                  "401": {
                    "description": "Not signed in (`signed_out`) or not the admin token (`invalid_token`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "403": {
                    "description": "No admin token is configured (`console_disabled`) or the CSRF token is missing (`csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "Signed in.",
                    "headers": {
                      "Set-Cookie": {
                        "schema": {
                          "type": "string"
                        },
                        "description": "`courier_console=…; Path=/; HttpOnly; SameSite=Strict`"
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ConsoleSession"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "415": {
                    "description": "The body must be JSON (`json_required`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/RateLimited"
                  }
                },
                "security": [
                  {}
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/ConsoleSignIn"
                      }
                    }
                  }
                }
              },
              "delete": {
                "tags": [
                  "console"
                ],
                "summary": "Sign out (with `X-CSRF-Token`)",
                "operationId": "delete_console_api_session",
                "responses": {
                  "401": {
                    "description": "Not signed in (`signed_out`) or not the admin token (`invalid_token`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "403": {
                    "description": "No admin token is configured (`console_disabled`) or the CSRF token is missing (`csrf_refused`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "signedOut"
                          ],
                          "properties": {
                            "signedOut": {
                              "const": true
                            }
                          }
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "consoleSession": []
                  }
                ],
                "parameters": [
                  {
                    "name": "X-CSRF-Token",
                    "in": "header",
                    "required": true,
                    "schema": {
                      "type": "string"
                    }
                  }
                ]
              }
            },
            "/console": {
              "get": {
                "tags": [
                  "console"
                ],
                "summary": "The console's page",
                "operationId": "get_console",
                "responses": {
                  "200": {
                    "description": "The console's page (strict Content-Security-Policy, no caching).",
                    "content": {
                      "text/html": {}
                    }
                  }
                },
                "security": [
                  {}
                ]
              }
            },
            "/console/app.css": {
              "get": {
                "tags": [
                  "console"
                ],
                "summary": "The console's style sheet",
                "operationId": "get_console_app_css",
                "responses": {
                  "200": {
                    "description": "The console's style sheet (strict Content-Security-Policy, no caching).",
                    "content": {
                      "text/css": {}
                    }
                  }
                },
                "security": [
                  {}
                ]
              }
            },
            "/console/app.js": {
              "get": {
                "tags": [
                  "console"
                ],
                "summary": "The console's script",
                "operationId": "get_console_app_js",
                "responses": {
                  "200": {
                    "description": "The console's script (strict Content-Security-Policy, no caching).",
                    "content": {
                      "text/javascript": {}
                    }
                  }
                },
                "security": [
                  {}
                ]
              }
            },
            "/console/sources.js": {
              "get": {
                "tags": [
                  "console"
                ],
                "summary": "The console's sources view",
                "operationId": "get_console_sources_js",
                "responses": {
                  "200": {
                    "description": "The console's sources view (strict Content-Security-Policy, no caching).",
                    "content": {
                      "text/javascript": {}
                    }
                  }
                },
                "security": [
                  {}
                ]
              }
            },
            "/console/flags.js": {
              "get": {
                "tags": [
                  "console"
                ],
                "summary": "The console's flags view",
                "operationId": "get_console_flags_js",
                "responses": {
                  "200": {
                    "description": "The console's flags view (strict Content-Security-Policy, no caching).",
                    "content": {
                      "text/javascript": {}
                    }
                  }
                },
                "security": [
                  {}
                ]
              }
            },
            "/console/flag-editor.js": {
              "get": {
                "tags": [
                  "console"
                ],
                "summary": "The console's structured flag editor",
                "operationId": "get_console_flag_editor_js",
                "responses": {
                  "200": {
                    "description": "The console's structured flag editor (strict Content-Security-Policy, no caching).",
                    "content": {
                      "text/javascript": {}
                    }
                  }
                },
                "security": [
                  {}
                ]
              }
            },
            "/console/messenger.js": {
              "get": {
                "tags": [
                  "console"
                ],
                "summary": "The console's messenger view",
                "operationId": "get_console_messenger_js",
                "responses": {
                  "200": {
                    "description": "The console's messenger view (strict Content-Security-Policy, no caching).",
                    "content": {
                      "text/javascript": {}
                    }
                  }
                },
                "security": [
                  {}
                ]
              }
            },
            "/healthz": {
              "get": {
                "tags": [
                  "operations"
                ],
                "summary": "Liveness",
                "operationId": "get_healthz",
                "responses": {
                  "200": {
                    "description": "JSON",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Health"
                        },
                        "example": {
                          "status": "ok"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {}
                ]
              }
            },
            "/metrics": {
              "get": {
                "tags": [
                  "operations"
                ],
                "summary": "Prometheus metrics",
                "operationId": "get_metrics",
                "responses": {
                  "200": {
                    "description": "Prometheus text format 0.0.4.",
                    "content": {
                      "text/plain": {}
                    }
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  }
                },
                "description": "Needs the admin token when the server runs with `--metrics-require-admin`.",
                "security": [
                  {},
                  {
                    "adminToken": []
                  }
                ]
              }
            },
            "/openapi.json": {
              "get": {
                "tags": [
                  "operations"
                ],
                "summary": "This document",
                "operationId": "get_openapi_json",
                "responses": {
                  "200": {
                    "description": "OpenAPI 3.1, with an `ETag`; `If-None-Match` answers 304.",
                    "headers": {
                      "ETag": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "additionalProperties": true
                        }
                      }
                    }
                  },
                  "304": {
                    "description": "Unchanged.",
                    "headers": {
                      "ETag": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {}
                ],
                "parameters": [
                  {
                    "name": "If-None-Match",
                    "in": "header",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ]
              }
            }
          },
          "components": {
            "schemas": {
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
              "Batch": {
                "type": "object",
                "required": [
                  "batch"
                ],
                "properties": {
                  "batch": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/SegmentMessage"
                    }
                  },
                  "sentAt": {
                    "type": "string",
                    "description": "ISO 8601 UTC time with milliseconds, e.g. 2026-11-29T08:00:00.000Z."
                  },
                  "context": {
                    "type": "object",
                    "additionalProperties": true
                  },
                  "writeKey": {
                    "type": "string",
                    "description": "The write key, for clients that cannot send HTTP Basic."
                  }
                },
                "example": {
                  "batch": [
                    {
                      "type": "track",
                      "event": "Signed Up",
                      "userId": "user-1",
                      "properties": {
                        "plan": "pro"
                      }
                    }
                  ],
                  "sentAt": "2026-11-29T08:00:00.000Z"
                }
              },
              "RejectedMessage": {
                "type": "object",
                "required": [
                  "index",
                  "code",
                  "message"
                ],
                "description": "A message of a batch that was not stored.",
                "properties": {
                  "index": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Its position in `batch`, from 0."
                  },
                  "messageId": {
                    "type": "string"
                  },
                  "code": {
                    "type": "string",
                    "enum": [
                      "invalid_message",
                      "event_too_large"
                    ]
                  },
                  "message": {
                    "type": "string"
                  }
                }
              },
              "BatchAccepted": {
                "type": "object",
                "required": [
                  "success"
                ],
                "description": "Every message not listed under `rejected` is stored (or was a duplicate of a stored one). `rejected` appears only when some messages were refused.",
                "properties": {
                  "success": {
                    "const": true
                  },
                  "rejected": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/RejectedMessage"
                    }
                  }
                },
                "examples": [
                  {
                    "success": true
                  },
                  {
                    "success": true,
                    "rejected": [
                      {
                        "index": 1,
                        "code": "invalid_message",
                        "message": "track needs event"
                      }
                    ]
                  }
                ]
              },
              "BatchRejected": {
                "description": "400 `batch_rejected`: no message of the batch could be stored; `rejected` lists each one and why. A client must not report these events as sent (Segment's API answers the same way).",
                "type": "object",
                "required": [
                  "error",
                  "code",
                  "message",
                  "rejected"
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
                  },
                  "rejected": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                      "$ref": "#/components/schemas/RejectedMessage"
                    }
                  }
                },
                "example": {
                  "error": {
                    "code": "batch_rejected",
                    "message": "none of the batch's 1 message(s) could be stored; see rejected"
                  },
                  "code": "batch_rejected",
                  "message": "none of the batch's 1 message(s) could be stored; see rejected",
                  "rejected": [
                    {
                      "index": 0,
                      "code": "event_too_large",
                      "message": "an event is at most 32768 bytes"
                    }
                  ]
                }
              },
              "ProjectSettings": {
                "type": "object",
                "required": [
                  "enabled",
                  "sampleRate",
                  "flushAt",
                  "flushIntervalSeconds",
                  "propertyAllowList"
                ],
                "properties": {
                  "enabled": {
                    "type": "boolean",
                    "description": "The kill switch: `false` stops collection in SDKs and the collector refuses the project's batches with 403 `project_disabled`."
                  },
                  "sampleRate": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": 100,
                    "description": "Percentage of users or sessions whose events are collected."
                  },
                  "flushAt": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 2500
                  },
                  "flushIntervalSeconds": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "maximum": 86400
                  },
                  "propertyAllowList": {
                    "type": [
                      "array",
                      "null"
                    ],
                    "items": {
                      "type": "string"
                    },
                    "description": "Property keys the SDK keeps; `null` keeps all."
                  }
                },
                "example": {
                  "enabled": true,
                  "sampleRate": 100,
                  "flushAt": 20,
                  "flushIntervalSeconds": 30,
                  "propertyAllowList": null
                }
              },
              "ProjectSettingsPatch": {
                "type": "object",
                "additionalProperties": false,
                "description": "The members to change; the others keep their value. An unknown member is 400.",
                "properties": {
                  "enabled": {
                    "type": "boolean",
                    "description": "The kill switch: `false` stops collection in SDKs and the collector refuses the project's batches with 403 `project_disabled`."
                  },
                  "sampleRate": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": 100,
                    "description": "Percentage of users or sessions whose events are collected."
                  },
                  "flushAt": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 2500
                  },
                  "flushIntervalSeconds": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "maximum": 86400
                  },
                  "propertyAllowList": {
                    "type": [
                      "array",
                      "null"
                    ],
                    "items": {
                      "type": "string"
                    },
                    "description": "Property keys the SDK keeps; `null` keeps all."
                  }
                },
                "example": {
                  "enabled": false
                }
              },
              "EventPage": {
                "type": "object",
                "required": [
                  "events",
                  "nextCursor",
                  "lastCursor"
                ],
                "properties": {
                  "events": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/SegmentMessage"
                    },
                    "description": "Stored events, oldest first, as stored (with `receivedAt` and the corrected `timestamp`)."
                  },
                  "nextCursor": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "Pass as `after` for the next page; `null` on the last page."
                  },
                  "lastCursor": {
                    "type": "string",
                    "description": "The cursor of the last event returned (or the `after` given): where a poll resumes."
                  }
                }
              },
              "ProjectSummary": {
                "type": "object",
                "required": [
                  "writeKey",
                  "storedBytes",
                  "settings",
                  "perMinute",
                  "firstMinute"
                ],
                "properties": {
                  "writeKey": {
                    "type": "string"
                  },
                  "storedBytes": {
                    "type": "integer"
                  },
                  "settings": {
                    "$ref": "#/components/schemas/ProjectSettings"
                  },
                  "perMinute": {
                    "type": "array",
                    "items": {
                      "type": "integer"
                    },
                    "description": "Events stored per minute over the last hour, oldest first."
                  },
                  "firstMinute": {
                    "type": "integer",
                    "description": "The first minute of `perMinute`, in milliseconds since 1970 (UTC)."
                  }
                }
              },
              "ProjectList": {
                "type": "object",
                "required": [
                  "projects"
                ],
                "properties": {
                  "projects": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/ProjectSummary"
                    }
                  }
                }
              },
              "ProjectVolume": {
                "type": "object",
                "required": [
                  "firstMinute",
                  "firstHour",
                  "perMinute",
                  "perHour"
                ],
                "properties": {
                  "firstMinute": {
                    "type": "integer",
                    "description": "The first bucket of `perMinute`, in minutes since the epoch."
                  },
                  "firstHour": {
                    "type": "integer",
                    "description": "The first bucket of `perHour`, in hours since the epoch."
                  },
                  "perMinute": {
                    "type": "object",
                    "additionalProperties": {
                      "type": "array",
                      "items": {
                        "type": "integer"
                      }
                    },
                    "description": "Counts by message type (and `total`), oldest bucket first."
                  },
                  "perHour": {
                    "type": "object",
                    "additionalProperties": {
                      "type": "array",
                      "items": {
                        "type": "integer"
                      }
                    },
                    "description": "Counts by message type (and `total`), oldest bucket first."
                  }
                }
              },
              "ProjectRejections": {
                "type": "object",
                "required": [
                  "counts",
                  "recent"
                ],
                "properties": {
                  "counts": {
                    "type": "object",
                    "additionalProperties": {
                      "type": "integer"
                    },
                    "description": "Refusals by code (`unauthorized`, `invalid_message`, `duplicate`, …)."
                  },
                  "recent": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "at",
                        "code",
                        "message",
                        "count"
                      ],
                      "properties": {
                        "at": {
                          "type": "string",
                          "description": "ISO 8601 UTC time with milliseconds, e.g. 2026-11-29T08:00:00.000Z."
                        },
                        "code": {
                          "type": "string"
                        },
                        "message": {
                          "type": "string"
                        },
                        "count": {
                          "type": "integer"
                        }
                      }
                    }
                  }
                }
              },
              "SettingsHistory": {
                "type": "object",
                "required": [
                  "entries"
                ],
                "properties": {
                  "entries": {
                    "type": "array",
                    "description": "Newest first.",
                    "items": {
                      "type": "object",
                      "required": [
                        "at",
                        "before",
                        "after"
                      ],
                      "properties": {
                        "at": {
                          "type": "string",
                          "description": "ISO 8601 UTC time with milliseconds, e.g. 2026-11-29T08:00:00.000Z."
                        },
                        "before": {
                          "$ref": "#/components/schemas/ProjectSettings"
                        },
                        "after": {
                          "$ref": "#/components/schemas/ProjectSettings"
                        }
                      }
                    }
                  }
                }
              },
              "NewDevice": {
                "type": "object",
                "required": [
                  "password",
                  "registrationId"
                ],
                "properties": {
                  "password": {
                    "type": "string",
                    "maxLength": 512,
                    "description": "The device's secret: base64 of at least 16 random bytes (the client makes 32). Later requests authenticate with HTTP Basic `<accountId>.<deviceId>:<password>`."
                  },
                  "registrationId": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 16380
                  },
                  "name": {
                    "type": "string",
                    "maxLength": 256
                  }
                },
                "example": {
                  "password": "q2v3bXlzZWNyZXRieXRlczMyYnl0ZXNsb25nISE=",
                  "registrationId": 4242,
                  "name": "phone"
                }
              },
              "LinkDevice": {
                "type": "object",
                "description": "`NewDevice` and the linking token.",
                "required": [
                  "token",
                  "password",
                  "registrationId"
                ],
                "properties": {
                  "password": {
                    "type": "string",
                    "maxLength": 512,
                    "description": "The device's secret: base64 of at least 16 random bytes (the client makes 32). Later requests authenticate with HTTP Basic `<accountId>.<deviceId>:<password>`."
                  },
                  "registrationId": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 16380
                  },
                  "name": {
                    "type": "string",
                    "maxLength": 256
                  },
                  "token": {
                    "type": "string",
                    "description": "From `POST /v1/devices/linking-token` on a device of the account."
                  }
                }
              },
              "DeviceCreated": {
                "type": "object",
                "required": [
                  "accountId",
                  "deviceId"
                ],
                "properties": {
                  "accountId": {
                    "type": "string",
                    "format": "uuid"
                  },
                  "deviceId": {
                    "type": "integer",
                    "minimum": 1
                  }
                },
                "example": {
                  "accountId": "0b6f2f3e-52a4-4b6e-9a39-3c1f0e3b1d2a",
                  "deviceId": 1
                }
              },
              "LinkingToken": {
                "type": "object",
                "required": [
                  "token",
                  "expiresAt"
                ],
                "properties": {
                  "token": {
                    "type": "string"
                  },
                  "expiresAt": {
                    "type": "integer",
                    "format": "int64",
                    "description": "Milliseconds since the Unix epoch."
                  }
                }
              },
              "DeviceList": {
                "type": "object",
                "required": [
                  "devices"
                ],
                "properties": {
                  "devices": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "id",
                        "name",
                        "registrationId",
                        "created"
                      ],
                      "properties": {
                        "id": {
                          "type": "integer"
                        },
                        "name": {
                          "type": "string"
                        },
                        "registrationId": {
                          "type": "integer"
                        },
                        "created": {
                          "type": "integer",
                          "format": "int64",
                          "description": "Milliseconds since the Unix epoch."
                        }
                      }
                    }
                  }
                }
              },
              "PushEndpoint": {
                "type": "object",
                "required": [
                  "kind",
                  "address"
                ],
                "properties": {
                  "kind": {
                    "type": "string",
                    "enum": [
                      "apns",
                      "webhook"
                    ]
                  },
                  "address": {
                    "type": "string",
                    "maxLength": 2048,
                    "description": "An APNs device token (64 hex digits) or an http(s) URL that gets `POST {\"type\":\"mailbox\"}` (no content)."
                  }
                },
                "example": {
                  "kind": "webhook",
                  "address": "https://push.example.com/u/abc"
                }
              },
              "SignedPreKey": {
                "type": "object",
                "required": [
                  "keyId",
                  "publicKey",
                  "signature"
                ],
                "properties": {
                  "keyId": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 16777215
                  },
                  "publicKey": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "A Curve25519 public key: 33 bytes (0x05 then the 32 key bytes), standard base64."
                  },
                  "signature": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "XEdDSA signature (64 bytes) by the identity key over the 33 bytes of `publicKey` (0x05 included), as libsignal signs a signed prekey (`Curve.calculateSignature(identityPrivate, signedPreKeyPublic.serialize())`)."
                  }
                }
              },
              "PreKey": {
                "type": "object",
                "required": [
                  "keyId",
                  "publicKey"
                ],
                "properties": {
                  "keyId": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 16777215
                  },
                  "publicKey": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "A Curve25519 public key: 33 bytes (0x05 then the 32 key bytes), standard base64."
                  }
                }
              },
              "KeyUpload": {
                "type": "object",
                "required": [
                  "identityKey"
                ],
                "properties": {
                  "identityKey": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "A Curve25519 public key: 33 bytes (0x05 then the 32 key bytes), standard base64."
                  },
                  "signedPreKey": {
                    "$ref": "#/components/schemas/SignedPreKey"
                  },
                  "preKeys": {
                    "type": "array",
                    "maxItems": 100,
                    "items": {
                      "$ref": "#/components/schemas/PreKey"
                    }
                  }
                }
              },
              "PreKeyCount": {
                "type": "object",
                "required": [
                  "count"
                ],
                "properties": {
                  "count": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "One-time prekeys left for this device."
                  }
                }
              },
              "PreKeyBundle": {
                "type": "object",
                "required": [
                  "identityKey",
                  "devices"
                ],
                "properties": {
                  "identityKey": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "A Curve25519 public key: 33 bytes (0x05 then the 32 key bytes), standard base64."
                  },
                  "devices": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "deviceId",
                        "registrationId"
                      ],
                      "properties": {
                        "deviceId": {
                          "type": "integer"
                        },
                        "registrationId": {
                          "type": "integer"
                        },
                        "signedPreKey": {
                          "$ref": "#/components/schemas/SignedPreKey"
                        },
                        "preKey": {
                          "$ref": "#/components/schemas/PreKey",
                          "description": "Absent when the device has none left or the target account's one-time-prekey budget is spent; X3DH then runs without it."
                        }
                      }
                    }
                  }
                }
              },
              "OutgoingEnvelope": {
                "type": "object",
                "required": [
                  "destinationDeviceId",
                  "destinationRegistrationId",
                  "type",
                  "content"
                ],
                "properties": {
                  "destinationDeviceId": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 1000
                  },
                  "destinationRegistrationId": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 16380
                  },
                  "type": {
                    "type": "integer",
                    "enum": [
                      2,
                      3,
                      4
                    ],
                    "description": "What `content` is, in libsignal's `CiphertextMessage` numbering: **2** a whisper (Double Ratchet) message, **3** a prekey message (starts a session: X3DH + the first ratchet message), **4** a sender-key (group) message. Courier's clients decrypt only 2, 3 and 4. Signal-Server's `Envelope.Type` numbers differently (1 = CIPHERTEXT, 3 = PREKEY_BUNDLE, …): a client that follows it and sends 1 for a ratchet message has every message after the first acknowledged and dropped as undecryptable. Send 2/3/4. The server stores the number as given (0–255) and does not read `content`.",
                    "examples": [
                      2
                    ]
                  },
                  "content": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "The ciphertext (libsignal's serialized message of `type`), strict standard base64. Its plaintext is Courier's message content: UTF-8 JSON `{\"v\":1,\"kind\":\"text\",\"body\":…,\"sentAt\":<ms>}` with no padding; see the `MessageContent` schema."
                  }
                }
              },
              "SendMessages": {
                "type": "object",
                "required": [
                  "messages",
                  "conversationId",
                  "clientMessageId",
                  "timestamp"
                ],
                "properties": {
                  "messages": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                      "$ref": "#/components/schemas/OutgoingEnvelope"
                    },
                    "description": "Exactly one envelope per device of the destination account (409/410 otherwise). A sender reaches its own other devices with a second request to its own account with the same `clientMessageId`."
                  },
                  "conversationId": {
                    "type": "string",
                    "maxLength": 128,
                    "description": "Opaque to the server; both sides of a pair must derive the same one. Courier's clients use `dm:<a>:<b>` where `<a>` and `<b>` are the two account ids sorted (byte order, lowest first), e.g. `dm:0b6f…:7c1e…`, and `group:<id>` for groups. `serverSeq` orders a conversation.",
                    "examples": [
                      "dm:0b6f2f3e-52a4-4b6e-9a39-3c1f0e3b1d2a:7c1e9a55-0d1b-4f3a-8a11-2f0e6c4b9d10"
                    ]
                  },
                  "clientMessageId": {
                    "type": "string",
                    "maxLength": 64,
                    "description": "The client's id for the message (a UUID); a retry with the same id stores nothing and answers the same `serverSeq` with `duplicate: true`."
                  },
                  "timestamp": {
                    "type": "integer",
                    "format": "int64",
                    "description": "Milliseconds since the Unix epoch."
                  }
                },
                "example": {
                  "messages": [
                    {
                      "destinationDeviceId": 1,
                      "destinationRegistrationId": 4242,
                      "type": 3,
                      "content": "MwohBQ=="
                    }
                  ],
                  "conversationId": "dm:0b6f2f3e-52a4-4b6e-9a39-3c1f0e3b1d2a:7c1e9a55-0d1b-4f3a-8a11-2f0e6c4b9d10",
                  "clientMessageId": "5f0c7b8e-3a52-4c1e-9b1d-0e2f4a6c8d10",
                  "timestamp": 1800000000000
                }
              },
              "SendResult": {
                "type": "object",
                "required": [
                  "serverSeq",
                  "duplicate"
                ],
                "properties": {
                  "serverSeq": {
                    "type": "integer",
                    "minimum": 1
                  },
                  "duplicate": {
                    "type": "boolean"
                  }
                },
                "example": {
                  "serverSeq": 7,
                  "duplicate": false
                }
              },
              "MismatchedDevices": {
                "type": "object",
                "required": [
                  "error",
                  "code",
                  "message",
                  "missingDevices",
                  "extraDevices"
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
                  },
                  "missingDevices": {
                    "type": "array",
                    "items": {
                      "type": "integer"
                    },
                    "description": "Devices of the account the send left out."
                  },
                  "extraDevices": {
                    "type": "array",
                    "items": {
                      "type": "integer"
                    },
                    "description": "Devices named that the account does not have (or the sending device itself)."
                  }
                }
              },
              "StaleDevices": {
                "type": "object",
                "required": [
                  "error",
                  "code",
                  "message",
                  "staleDevices"
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
                  },
                  "staleDevices": {
                    "type": "array",
                    "items": {
                      "type": "integer"
                    },
                    "description": "Devices whose registration id changed: fetch their bundles again."
                  }
                }
              },
              "Envelope": {
                "type": "object",
                "required": [
                  "type",
                  "sourceAccount",
                  "sourceDevice",
                  "destinationDevice",
                  "timestamp",
                  "serverTimestamp",
                  "serverSeq",
                  "conversationId",
                  "clientMessageId",
                  "content"
                ],
                "description": "What a device receives: routing metadata and the opaque ciphertext.",
                "properties": {
                  "type": {
                    "type": "integer",
                    "enum": [
                      2,
                      3,
                      4
                    ],
                    "description": "What `content` is, in libsignal's `CiphertextMessage` numbering: **2** a whisper (Double Ratchet) message, **3** a prekey message (starts a session: X3DH + the first ratchet message), **4** a sender-key (group) message. Courier's clients decrypt only 2, 3 and 4. Signal-Server's `Envelope.Type` numbers differently (1 = CIPHERTEXT, 3 = PREKEY_BUNDLE, …): a client that follows it and sends 1 for a ratchet message has every message after the first acknowledged and dropped as undecryptable. Send 2/3/4. The server stores the number as given (0–255) and does not read `content`.",
                    "examples": [
                      2
                    ]
                  },
                  "sourceAccount": {
                    "type": "string"
                  },
                  "sourceDevice": {
                    "type": "integer"
                  },
                  "destinationDevice": {
                    "type": "integer"
                  },
                  "timestamp": {
                    "type": "integer",
                    "format": "int64",
                    "description": "Milliseconds since the Unix epoch."
                  },
                  "serverTimestamp": {
                    "type": "integer",
                    "format": "int64",
                    "description": "Milliseconds since the Unix epoch."
                  },
                  "serverSeq": {
                    "type": "integer"
                  },
                  "conversationId": {
                    "type": "string",
                    "maxLength": 128,
                    "description": "Opaque to the server; both sides of a pair must derive the same one. Courier's clients use `dm:<a>:<b>` where `<a>` and `<b>` are the two account ids sorted (byte order, lowest first), e.g. `dm:0b6f…:7c1e…`, and `group:<id>` for groups. `serverSeq` orders a conversation.",
                    "examples": [
                      "dm:0b6f2f3e-52a4-4b6e-9a39-3c1f0e3b1d2a:7c1e9a55-0d1b-4f3a-8a11-2f0e6c4b9d10"
                    ]
                  },
                  "clientMessageId": {
                    "type": "string"
                  },
                  "content": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "Standard base64 (padding optional but exact where present, never empty)."
                  }
                }
              },
              "PendingMessages": {
                "type": "object",
                "required": [
                  "messages",
                  "cursor",
                  "more"
                ],
                "properties": {
                  "messages": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "id",
                        "envelope"
                      ],
                      "properties": {
                        "id": {
                          "type": "integer",
                          "description": "The mailbox row's id: acknowledge with `DELETE /v1/messages/{id}` or a 200 on the socket."
                        },
                        "envelope": {
                          "$ref": "#/components/schemas/Envelope"
                        }
                      }
                    }
                  },
                  "cursor": {
                    "type": "integer",
                    "description": "Pass as `after` for the next page."
                  },
                  "more": {
                    "type": "boolean"
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
              "AttachmentCreate": {
                "type": "object",
                "required": [
                  "length"
                ],
                "properties": {
                  "length": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "The ciphertext's size in bytes."
                  }
                }
              },
              "AttachmentCreated": {
                "type": "object",
                "required": [
                  "id",
                  "location",
                  "expiresAt"
                ],
                "properties": {
                  "id": {
                    "type": "string",
                    "pattern": "^[0-9a-f]{64}$"
                  },
                  "location": {
                    "type": "string"
                  },
                  "expiresAt": {
                    "type": "integer",
                    "format": "int64",
                    "description": "Milliseconds since the Unix epoch."
                  }
                }
              },
              "AttachmentComplete": {
                "type": "object",
                "required": [
                  "id",
                  "length"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "length": {
                    "type": "integer"
                  }
                }
              },
              "MessengerOverview": {
                "type": "object",
                "required": [
                  "devices",
                  "truncated",
                  "liveSockets",
                  "pushes"
                ],
                "properties": {
                  "devices": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "accountId",
                        "deviceId",
                        "name",
                        "push",
                        "online",
                        "mailboxDepth",
                        "oldestEnvelopeAgeSeconds"
                      ],
                      "properties": {
                        "accountId": {
                          "type": "string"
                        },
                        "deviceId": {
                          "type": "integer"
                        },
                        "name": {
                          "type": "string"
                        },
                        "push": {
                          "type": [
                            "string",
                            "null"
                          ],
                          "enum": [
                            "apns",
                            "webhook",
                            null
                          ]
                        },
                        "online": {
                          "type": "boolean"
                        },
                        "mailboxDepth": {
                          "type": "integer"
                        },
                        "oldestEnvelopeAgeSeconds": {
                          "type": [
                            "integer",
                            "null"
                          ]
                        }
                      }
                    }
                  },
                  "truncated": {
                    "type": "boolean"
                  },
                  "liveSockets": {
                    "type": "integer"
                  },
                  "pushes": {
                    "type": "object",
                    "required": [
                      "sent",
                      "coalesced",
                      "failed"
                    ],
                    "properties": {
                      "sent": {
                        "type": "integer"
                      },
                      "coalesced": {
                        "type": "integer"
                      },
                      "failed": {
                        "type": "integer"
                      }
                    }
                  }
                }
              },
              "Provision": {
                "type": "object",
                "required": [
                  "body"
                ],
                "properties": {
                  "body": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "The provision sealed to the new device's ephemeral key (libsodium sealed box); the server relays it unread."
                  }
                },
                "example": {
                  "body": "c2VhbGVkIHByb3Zpc2lvbg=="
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
              },
              "FlagDefinition": {
                "type": "object",
                "description": "A flag: `key` (taken from the path when absent; the server's answers always carry it), `type` (`bool`, `string`, `number`, `json`), `enabled`, default `value`, ordered `rules` (segments, conditions, rollout), `variants`, `owner`, `expires`. docs/feature-flags.md has the full grammar; the server validates it (422 `invalid_definition`).",
                "properties": {
                  "key": {
                    "type": "string",
                    "pattern": "^[A-Za-z0-9._-]{1,128}$"
                  },
                  "type": {
                    "type": "string",
                    "enum": [
                      "bool",
                      "string",
                      "number",
                      "json"
                    ]
                  },
                  "enabled": {
                    "type": "boolean"
                  },
                  "value": {},
                  "owner": {
                    "type": "string"
                  },
                  "expires": {
                    "type": "string"
                  },
                  "rules": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "additionalProperties": true
                    }
                  },
                  "variants": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                },
                "additionalProperties": true,
                "example": {
                  "key": "new-checkout",
                  "type": "bool",
                  "enabled": true,
                  "value": false,
                  "rules": [
                    {
                      "id": "ramp",
                      "rollout": {
                        "percentage": 25,
                        "algorithm": "unleash"
                      },
                      "value": true
                    }
                  ]
                }
              },
              "SegmentDefinition": {
                "type": "object",
                "additionalProperties": true,
                "description": "A segment: `key` (taken from the path when absent) and `conditions`.",
                "properties": {
                  "key": {
                    "type": "string"
                  },
                  "conditions": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "additionalProperties": true
                    }
                  },
                  "included": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "excluded": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  }
                }
              },
              "FlagDocument": {
                "type": "object",
                "required": [
                  "environment",
                  "version",
                  "flags",
                  "segments"
                ],
                "description": "Everything a client needs to evaluate the environment's flags locally.",
                "properties": {
                  "environment": {
                    "type": "string"
                  },
                  "version": {
                    "type": "integer"
                  },
                  "flags": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/FlagDefinition"
                    }
                  },
                  "segments": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/SegmentDefinition"
                    }
                  }
                },
                "additionalProperties": true
              },
              "EvaluationRequest": {
                "type": "object",
                "properties": {
                  "context": {
                    "type": "object",
                    "additionalProperties": true,
                    "description": "The evaluation context (`targetingKey`, attributes). Without `context`, the body itself is the context."
                  },
                  "flags": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    },
                    "description": "Only these flags; all by default."
                  }
                },
                "example": {
                  "context": {
                    "targetingKey": "user-1",
                    "country": "FR"
                  },
                  "flags": [
                    "new-checkout"
                  ]
                }
              },
              "Resolution": {
                "type": "object",
                "required": [
                  "value",
                  "reason"
                ],
                "description": "OpenFeature-shaped evaluation details.",
                "properties": {
                  "value": {},
                  "reason": {
                    "type": "string",
                    "enum": [
                      "STATIC",
                      "DEFAULT",
                      "TARGETING_MATCH",
                      "SPLIT",
                      "CACHED",
                      "DISABLED",
                      "STALE",
                      "ERROR"
                    ]
                  },
                  "variant": {
                    "type": "string"
                  },
                  "errorCode": {
                    "type": "string",
                    "enum": [
                      "FLAG_NOT_FOUND",
                      "TYPE_MISMATCH",
                      "PARSE_ERROR",
                      "PROVIDER_NOT_READY",
                      "GENERAL"
                    ]
                  },
                  "errorMessage": {
                    "type": "string"
                  }
                }
              },
              "Evaluation": {
                "type": "object",
                "required": [
                  "environment",
                  "version",
                  "flags"
                ],
                "properties": {
                  "environment": {
                    "type": "string"
                  },
                  "version": {
                    "type": "integer"
                  },
                  "flags": {
                    "type": "object",
                    "additionalProperties": {
                      "$ref": "#/components/schemas/Resolution"
                    }
                  }
                }
              },
              "DefinitionList": {
                "type": "object",
                "required": [
                  "environment",
                  "version",
                  "flags",
                  "segments"
                ],
                "properties": {
                  "environment": {
                    "type": "string"
                  },
                  "version": {
                    "type": "integer"
                  },
                  "flags": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/FlagDefinition"
                    }
                  },
                  "segments": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/SegmentDefinition"
                    }
                  }
                }
              },
              "FlagChanged": {
                "type": "object",
                "required": [
                  "version",
                  "flag"
                ],
                "properties": {
                  "version": {
                    "type": "integer"
                  },
                  "flag": {
                    "$ref": "#/components/schemas/FlagDefinition"
                  }
                }
              },
              "SegmentChanged": {
                "type": "object",
                "required": [
                  "version",
                  "segment"
                ],
                "properties": {
                  "version": {
                    "type": "integer"
                  },
                  "segment": {
                    "$ref": "#/components/schemas/SegmentDefinition"
                  }
                }
              },
              "FlagAudit": {
                "type": "object",
                "required": [
                  "entries"
                ],
                "properties": {
                  "entries": {
                    "type": "array",
                    "description": "Newest first.",
                    "items": {
                      "type": "object",
                      "required": [
                        "id",
                        "environment",
                        "subject",
                        "key",
                        "action",
                        "before",
                        "after",
                        "version",
                        "at"
                      ],
                      "properties": {
                        "id": {
                          "type": "integer"
                        },
                        "environment": {
                          "type": "string"
                        },
                        "subject": {
                          "type": "string",
                          "enum": [
                            "flag",
                            "segment"
                          ]
                        },
                        "key": {
                          "type": "string"
                        },
                        "action": {
                          "type": "string",
                          "enum": [
                            "set",
                            "kill"
                          ]
                        },
                        "before": {
                          "type": [
                            "object",
                            "null"
                          ],
                          "additionalProperties": true
                        },
                        "after": {
                          "type": "object",
                          "additionalProperties": true
                        },
                        "version": {
                          "type": "integer"
                        },
                        "at": {
                          "type": "string",
                          "description": "ISO 8601 UTC time with milliseconds, e.g. 2026-11-29T08:00:00.000Z."
                        },
                        "actor": {
                          "type": [
                            "string",
                            "null"
                          ],
                          "enum": [
                            "console",
                            "admin-api",
                            null
                          ],
                          "description": "Who made the change: `console` for a console session, `admin-api` for the admin token; `null` for changes recorded before actors were."
                        }
                      }
                    }
                  }
                }
              },
              "SyncRecord": {
                "type": "object",
                "required": [
                  "collection",
                  "id",
                  "version",
                  "fields",
                  "deleted",
                  "hlc"
                ],
                "properties": {
                  "collection": {
                    "type": "string"
                  },
                  "id": {
                    "type": "string"
                  },
                  "version": {
                    "type": "integer"
                  },
                  "fields": {
                    "type": "object",
                    "additionalProperties": true
                  },
                  "deleted": {
                    "type": "boolean",
                    "description": "A tombstone."
                  },
                  "hlc": {
                    "type": "string",
                    "description": "Hybrid logical clock of the last write."
                  }
                }
              },
              "SyncOperation": {
                "type": "object",
                "required": [
                  "id",
                  "sequence",
                  "collection",
                  "recordID",
                  "op",
                  "baseVersion"
                ],
                "properties": {
                  "id": {
                    "type": "string",
                    "description": "The operation's id; a retried push applies it once."
                  },
                  "sequence": {
                    "type": "integer",
                    "minimum": 1
                  },
                  "collection": {
                    "type": "string",
                    "pattern": "^[A-Za-z0-9._-]{1,64}$"
                  },
                  "recordID": {
                    "type": "string",
                    "maxLength": 128
                  },
                  "op": {
                    "type": "string",
                    "enum": [
                      "set",
                      "delete"
                    ]
                  },
                  "fields": {
                    "type": "object",
                    "additionalProperties": true,
                    "description": "For `set`: the record's fields (any JSON)."
                  },
                  "baseVersion": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "The record version the client last saw (0 for new)."
                  },
                  "hlc": {
                    "type": "string"
                  }
                }
              },
              "SyncPush": {
                "type": "object",
                "required": [
                  "clientID",
                  "operations"
                ],
                "properties": {
                  "clientID": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128
                  },
                  "operations": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/SyncOperation"
                    }
                  }
                },
                "example": {
                  "clientID": "curl",
                  "operations": [
                    {
                      "id": "op-1",
                      "sequence": 1,
                      "collection": "notes",
                      "recordID": "note-1",
                      "op": "set",
                      "fields": {
                        "title": "Groceries"
                      },
                      "baseVersion": 0
                    }
                  ]
                }
              },
              "SyncResult": {
                "type": "object",
                "required": [
                  "opID",
                  "status"
                ],
                "properties": {
                  "opID": {
                    "type": "string"
                  },
                  "status": {
                    "type": "string",
                    "enum": [
                      "applied",
                      "conflict",
                      "rejected"
                    ]
                  },
                  "record": {
                    "$ref": "#/components/schemas/SyncRecord"
                  },
                  "current": {
                    "anyOf": [
                      {
                        "$ref": "#/components/schemas/SyncRecord"
                      },
                      {
                        "type": "null"
                      }
                    ]
                  },
                  "ancestor": {
                    "anyOf": [
                      {
                        "$ref": "#/components/schemas/SyncRecord"
                      },
                      {
                        "type": "null"
                      }
                    ]
                  },
                  "reason": {
                    "type": "string"
                  }
                }
              },
              "SyncPushResult": {
                "type": "object",
                "required": [
                  "results"
                ],
                "properties": {
                  "results": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/SyncResult"
                    }
                  }
                }
              },
              "SyncChanges": {
                "type": "object",
                "required": [
                  "changes",
                  "cursor",
                  "hasMore"
                ],
                "properties": {
                  "changes": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/SyncRecord"
                    }
                  },
                  "cursor": {
                    "type": "string",
                    "description": "Signed; pass as `since`."
                  },
                  "hasMore": {
                    "type": "boolean"
                  }
                }
              },
              "SyncSnapshot": {
                "type": "object",
                "required": [
                  "records",
                  "cursor",
                  "checksum"
                ],
                "properties": {
                  "records": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/SyncRecord"
                    }
                  },
                  "cursor": {
                    "type": "string"
                  },
                  "checksum": {
                    "type": "string"
                  }
                }
              },
              "SyncPoke": {
                "type": "object",
                "required": [
                  "changed"
                ],
                "properties": {
                  "changed": {
                    "type": "boolean"
                  }
                }
              },
              "RecordPage": {
                "type": "object",
                "description": "A keyset page of live records by id, each row with its own signed cursor.",
                "additionalProperties": true
              },
              "ConsoleSession": {
                "type": "object",
                "required": [
                  "csrfToken",
                  "expiresAt"
                ],
                "properties": {
                  "csrfToken": {
                    "type": "string",
                    "description": "Send as `X-CSRF-Token` on every state-changing request."
                  },
                  "expiresAt": {
                    "type": "string",
                    "description": "ISO 8601 UTC time with milliseconds, e.g. 2026-11-29T08:00:00.000Z."
                  }
                }
              },
              "ConsoleSignIn": {
                "type": "object",
                "required": [
                  "token"
                ],
                "properties": {
                  "token": {
                    "type": "string",
                    "description": "The server's admin token."
                  }
                }
              },
              "Health": {
                "type": "object",
                "required": [
                  "status"
                ],
                "properties": {
                  "status": {
                    "const": "ok"
                  }
                }
              },
              "FlagEnvironmentList": {
                "type": "object",
                "required": [
                  "environments"
                ],
                "properties": {
                  "environments": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "key",
                        "version"
                      ],
                      "additionalProperties": false,
                      "properties": {
                        "key": {
                          "type": "string"
                        },
                        "version": {
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "additionalProperties": false
              }
            },
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
          }
        }
        """#
}

extension OpenAPIDocument {
    /// The analytics collector's ingest routes (`/v1/batch`, `/v1/track`… and their short aliases, `/v1/import`) and the schemas only they use.
    static let analytics = Section(
        paths: #"""
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
            }
            """#,
        schemas: #"""
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
            }
            """#)
}

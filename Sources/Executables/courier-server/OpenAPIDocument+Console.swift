extension OpenAPIDocument {
    /// The console's routes (`/v1/projects`, `/v1/events`, the live event stream) and the schemas only they use.
    static let console = Section(
        paths: #"""
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
            }
            """#,
        schemas: #"""
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
            }
            """#)
}

extension OpenAPIDocument {
    /// The feature flag routes (`/v1/flags`…) and the schemas only they use.
    static let flags = Section(
        paths: #"""
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
                    "description": "JSON, read from the store; `ETag` is the environment's version, for `If-Match` on an edit.",
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
                  "412": {
                    "$ref": "#/components/responses/EnvironmentChanged"
                  },
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
                    "$ref": "#/components/parameters/IfMatch"
                  },
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
                  "412": {
                    "$ref": "#/components/responses/EnvironmentChanged"
                  },
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
                    "$ref": "#/components/parameters/IfMatch"
                  },
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
                  "412": {
                    "$ref": "#/components/responses/EnvironmentChanged"
                  },
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
                    "$ref": "#/components/parameters/IfMatch"
                  },
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
            }
            """#,
        schemas: #"""
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
            """#)
}

extension OpenAPIDocument {
    /// The offline sync routes (`/v1/sync/…`) and the schemas only they use.
    static let sync = Section(
        paths: #"""
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
            }
            """#,
        schemas: #"""
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
            }
            """#)
}

extension OpenAPIDocument {
    /// The operational routes (`/healthz`, `/metrics`, `/openapi.json`).
    static let operations = Section(
        paths: #"""
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
            """#,
        schemas: #"""
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
            }
            """#)
}

extension OpenAPIDocument {
    /// The messenger's routes (accounts, devices, keys, messages, attachments, provisioning, the delivery socket) and the schemas only they use.
    static let messenger = Section(
        paths: #"""
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
            }
            """#,
        schemas: #"""
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
            }
            """#)
}

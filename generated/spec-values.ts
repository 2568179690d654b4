// generated, do not edit: made by `npm run generate` (scripts/generate.ts) from spec/openapi.yaml.
// The spec values the client and webhook helpers read at run time, copied verbatim from the bundle.

/** Header of the `ApiKey` security scheme: every request carries the API key in it. */
export const apiKeyHeader = "X-API-Key";

/** `x-max-bytes` of DocumentUpload.file: the largest file the upload accepts. */
export const uploadMaxBytes = 10000000;

/** `encoding.file.contentType` of the upload: the accepted file types. */
export const uploadContentTypes = ["application/pdf","image/jpeg","image/png","application/vnd.openxmlformats-officedocument.wordprocessingml.document"] as const;

/** `x-messages` of DocumentUploadResult.message and ExtractResult.message: the kit's wordings of those answers. */
export const messages = {
  "upload": {
    "queued": "Document uploaded successfully. Text extraction started.",
    "notQueued": "Document uploaded successfully."
  },
  "extract": {
    "started": "Text extraction started.",
    "notStarted": "Text extraction could not be started."
  }
} as const;

/** Per event kind (the keys of `webhooks`) the schema of its payload, with every component schema it references. */
export const webhookSpec = {
  "events": {
    "NOTE_CREATED": {
      "$ref": "#/components/schemas/NoteEvent"
    },
    "NOTE_REGENERATED": {
      "$ref": "#/components/schemas/NoteEvent"
    },
    "NOTE_UPDATED": {
      "$ref": "#/components/schemas/NoteEvent"
    },
    "DOCUMENT_STATUS_CHANGED": {
      "$ref": "#/components/schemas/DocumentStatusChangedEvent"
    }
  },
  "components": {
    "schemas": {
      "DateTime": {
        "type": "string",
        "description": "ISO 8601 date-time. The kit sends RFC 3339 (seconds and a UTC offset or Z).",
        "pattern": "^\\d{4}-?\\d{2}-?\\d{2}[Tt\\s]\\d{2}(:?\\d{2}(:?\\d{2}([.,]\\d+)?)?)?([Zz]|[+-]\\d{2}(:?\\d{2})?)?$",
        "format": "date-time",
        "examples": [
          "2026-11-02T16:05:12.345Z"
        ]
      },
      "DocumentStatusChangedEvent": {
        "type": "object",
        "additionalProperties": false,
        "description": "Identifiers only. `document_url` is the external_id lookup when one was set, otherwise the patient's document collection.",
        "required": [
          "event",
          "document_id",
          "patient_id",
          "external_id",
          "status",
          "error",
          "document_url",
          "timestamp"
        ],
        "properties": {
          "event": {
            "const": "DOCUMENT_STATUS_CHANGED"
          },
          "document_id": {
            "type": "string",
            "format": "uuid"
          },
          "patient_id": {
            "$ref": "#/components/schemas/PatientIdValue"
          },
          "external_id": {
            "anyOf": [
              {
                "$ref": "#/components/schemas/ExternalId"
              },
              {
                "type": "null"
              }
            ]
          },
          "status": {
            "type": "string",
            "enum": [
              "completed",
              "failed"
            ]
          },
          "error": {
            "type": [
              "string",
              "null"
            ],
            "description": "The failure, null on success."
          },
          "document_url": {
            "type": "string",
            "format": "uri",
            "pattern": "/patients/\\d+/documents(\\?external_id=[^&]+)?$"
          },
          "timestamp": {
            "$ref": "#/components/schemas/DateTime"
          }
        }
      },
      "ExternalId": {
        "type": "string",
        "minLength": 1,
        "maxLength": 255,
        "description": "Client-chosen identifier, unique per organization (across patients, appointments and documents), immutable once set.",
        "examples": [
          "ehr-patient-0042"
        ]
      },
      "NoteEvent": {
        "type": "object",
        "additionalProperties": false,
        "description": "NOTE_CREATED, NOTE_REGENERATED or NOTE_UPDATED. Identifiers only, never clinical content.",
        "required": [
          "event",
          "note_id",
          "session_id",
          "patient_id",
          "template_id",
          "source",
          "note_url",
          "timestamp"
        ],
        "properties": {
          "event": {
            "type": "string",
            "enum": [
              "NOTE_CREATED",
              "NOTE_REGENERATED",
              "NOTE_UPDATED"
            ]
          },
          "note_id": {
            "type": "string",
            "format": "uuid"
          },
          "session_id": {
            "type": "string",
            "format": "uuid"
          },
          "patient_id": {
            "$ref": "#/components/schemas/PatientIdValue"
          },
          "template_id": {
            "type": "string",
            "format": "uuid"
          },
          "source": {
            "type": [
              "string",
              "null"
            ]
          },
          "note_url": {
            "type": "string",
            "format": "uri",
            "description": "Absolute URL of the note detail endpoint."
          },
          "timestamp": {
            "$ref": "#/components/schemas/DateTime",
            "type": "string",
            "pattern": "^\\d{4}-?\\d{2}-?\\d{2}[Tt\\s]\\d{2}:?\\d{2}:?\\d{2}[.,]\\d{3,}([Zz]|[+-]\\d{2}(:?\\d{2})?)?$",
            "description": "ISO 8601 date-time with milliseconds: the ISO 8601 shape of DateTime with at least three decimals of a second (the milliseconds are documented, the offset is DateTime's reading)."
          }
        }
      },
      "PatientIdValue": {
        "type": "string",
        "pattern": "^\\d+$",
        "description": "Opaque id, a very large integer serialized as a string of digits; no length is promised.",
        "examples": [
          "7281928374650192837"
        ]
      }
    }
  }
} as const;

// generated, do not edit: made by `npm run generate` (scripts/generate.ts) from spec/openapi.yaml and spec/readings.yaml.

/** Every other reading of the document the catalogue lists: what the server does, where the document allows it. */
export const readingsCatalogue = [
  {
    "id": "patient-nameless-accepted",
    "says": "A patient create body without any name field is accepted; the patient is named \"Unnamed patient\".",
    "plays": "engine",
    "combines": true,
    "places": [
      "patient-create-variants"
    ],
    "words": [
      "Patient create body variants: the three accepted variants and the rule that separates them: not shown."
    ],
    "rules": [
      "PAT-003",
      "PAT-021",
      "PAT-026"
    ]
  },
  {
    "id": "free-text-trimmed",
    "says": "Leading and trailing white space of free text (name, first_name, last_name, notes, appointment_type) is trimmed when stored.",
    "plays": "engine",
    "combines": true,
    "places": [
      "patient-free-text",
      "appointment-free-text"
    ],
    "words": [
      "display name; when omitted on create, built from first_name and/or last_name",
      "| appointment_type | string | free text |"
    ],
    "rules": [
      "APT-003",
      "APT-007",
      "PAT-002",
      "PAT-007",
      "PAT-030"
    ]
  },
  {
    "id": "free-text-bounded",
    "says": "Free text longer than 255 characters (2,000 for notes) is refused 400 with details.",
    "plays": "engine",
    "combines": true,
    "places": [
      "patient-free-text",
      "appointment-free-text"
    ],
    "words": [
      "display name; when omitted on create, built from first_name and/or last_name",
      "| appointment_type | string | free text |"
    ],
    "rules": [
      "APT-003",
      "APT-007",
      "PAT-002",
      "PAT-007",
      "PAT-030"
    ]
  },
  {
    "id": "contact-forms-checked",
    "says": "email must be an address (local@domain.tld), phone an E.164 number (+ and 8 to 15 digits; spaces, dots, dashes and brackets allowed), gender one of female, male, other or unknown (any case); another value is refused 400 with details.",
    "plays": "engine",
    "combines": true,
    "places": [
      "patient-contact-forms"
    ],
    "words": [
      "| gender | string | |",
      "| phone | string | |",
      "| email | string | |"
    ],
    "rules": [
      "PAT-007",
      "PAT-021",
      "PAT-023"
    ]
  },
  {
    "id": "contact-normalised",
    "says": "phone is returned normalised to E.164 (+ and digits only), email and gender in lower case.",
    "plays": "engine",
    "combines": true,
    "places": [
      "patient-contact-forms"
    ],
    "words": [
      "| gender | string | |",
      "| phone | string | |",
      "| email | string | |"
    ],
    "rules": [
      "PAT-007",
      "PAT-021",
      "PAT-023"
    ]
  },
  {
    "id": "dob-in-the-past",
    "says": "A date_of_birth after today, or before 1900-01-01, is refused 400 with details.",
    "plays": "engine",
    "combines": true,
    "places": [
      "date-of-birth-range"
    ],
    "words": [
      "| date_of_birth | string `YYYY-MM-DD` | |"
    ],
    "rules": [
      "PAT-006",
      "PAT-021"
    ]
  },
  {
    "id": "address-other-fields",
    "says": "An address is {street, city, state, zip, country}; another field (line1 among them) is refused 400 with details.",
    "plays": "engine",
    "combines": true,
    "places": [
      "address-structure"
    ],
    "words": [
      "Inner structure of address: not shown.",
      "| address | JSON object (structured address) | |"
    ],
    "rules": [
      "PAT-008",
      "PAT-028"
    ]
  },
  {
    "id": "mrn-none-omitted",
    "says": "A patient without an mrn (none sent, or sent null or empty) is answered without the field, not with null.",
    "plays": "engine",
    "combines": true,
    "places": [
      "mrn-none"
    ],
    "words": [
      "optional; omit, or send null or empty, when there is none"
    ],
    "rules": [
      "PAT-009",
      "PAT-010"
    ]
  },
  {
    "id": "appointment-types-required",
    "says": "An appointment create without appointment_type or visit_type is refused 400 with details.",
    "plays": "engine",
    "combines": true,
    "places": [
      "appointment-create-fields"
    ],
    "words": [
      "Which appointment create fields are mandatory: not shown."
    ],
    "rules": [
      "APT-016",
      "APT-023"
    ]
  },
  {
    "id": "appointment-in-the-future",
    "says": "A create of a SCHEDULED appointment whose start_at is in the past is refused 400 with details.",
    "plays": "engine",
    "combines": true,
    "places": [
      "appointment-time"
    ],
    "words": [
      "| start_at | ISO 8601 datetime | |"
    ],
    "rules": [
      "APT-009",
      "APT-016",
      "APT-018"
    ]
  },
  {
    "id": "repeat-rule-checked",
    "says": "repeat_rule.frequency is one of daily, weekly, monthly or yearly (any case) and its end_date lies after start_at; another value is refused 400.",
    "plays": "engine",
    "combines": true,
    "places": [
      "repeat-rule-input",
      "note-values"
    ],
    "words": [
      "Input fields of repeat_rule on create: not shown.",
      "Allowed values of role, note_type, file_type, frequency, and specialty: not shown.",
      "| content | string (note body) |",
      "| problems | array of strings |"
    ],
    "rules": [
      "APT-013",
      "APT-016",
      "APT-024",
      "DOC-034",
      "NOTE-004",
      "NOTE-005",
      "NOTE-028"
    ]
  },
  {
    "id": "status-transitions-checked",
    "says": "An appointment is created SCHEDULED only, and COMPLETED, CANCELLED and NO_SHOW are final; another status on create, or a change out of a final status, is refused 400 with details.",
    "plays": "engine",
    "combines": true,
    "places": [
      "appointment-status-transitions"
    ],
    "words": [
      "Transitions: not shown."
    ],
    "rules": [
      "APT-011",
      "APT-016",
      "APT-018",
      "APT-026"
    ]
  },
  {
    "id": "time-change-together",
    "says": "An appointment PATCH that moves start_at must send duration_minutes too (and the other way round); one without the other is refused 400.",
    "plays": "engine",
    "combines": true,
    "places": [
      "appointment-patch-fields"
    ],
    "words": [
      "Which PATCH appointment fields may be omitted: not shown."
    ],
    "rules": [
      "APT-018",
      "APT-025"
    ]
  },
  {
    "id": "document-fields-other-forms",
    "says": "file_type is the file's extension in upper case (PDF, PNG, JPEG, DOCX) and public_url a path relative to the service's origin.",
    "plays": "engine",
    "combines": true,
    "places": [
      "document-fields",
      "note-values"
    ],
    "words": [
      "| file_type | string | |",
      "| file_size | integer | |",
      "| public_url | string | |",
      "Allowed values of role, note_type, file_type, frequency, and specialty: not shown.",
      "| content | string (note body) |",
      "| problems | array of strings |"
    ],
    "rules": [
      "APT-024",
      "DOC-002",
      "DOC-003",
      "DOC-034",
      "DOC-035",
      "NOTE-004",
      "NOTE-005",
      "NOTE-028"
    ]
  },
  {
    "id": "enum-values-upper-case",
    "says": "role, specialty and note_type are enum-like values in upper case (CLINICIAN, PSYCHIATRY, PROGRESS_NOTE).",
    "plays": "engine",
    "combines": true,
    "places": [
      "provider-fields",
      "note-values"
    ],
    "words": [
      "| title | string |",
      "| specialty | string |",
      "| role | string |",
      "Allowed values of role, note_type, file_type, frequency, and specialty: not shown.",
      "| content | string (note body) |",
      "| problems | array of strings |"
    ],
    "rules": [
      "APT-024",
      "DOC-034",
      "NOTE-004",
      "NOTE-005",
      "NOTE-028",
      "PRV-002"
    ]
  },
  {
    "id": "codes-as-lists",
    "says": "icd10_codes and cpt_codes are objects {codes: [{code, description}]}.",
    "plays": "engine",
    "combines": true,
    "places": [
      "code-maps"
    ],
    "words": [
      "Inner shape of icd10_codes and cpt_codes: not shown."
    ],
    "rules": [
      "NOTE-006",
      "NOTE-026"
    ]
  },
  {
    "id": "transcript-clock-times",
    "says": "A transcript's session_date is a date-time at midnight UTC; start_time and end_time are clock times HH:MM.",
    "plays": "engine",
    "combines": true,
    "places": [
      "transcript-times"
    ],
    "words": [
      "Formats of session_date, start_time, end_time: not shown."
    ],
    "rules": [
      "NOTE-010",
      "NOTE-027"
    ]
  },
  {
    "id": "upload-answers-processing",
    "says": "Extraction starts at once; an upload answers processing, and the document is never pending after it.",
    "plays": "engine",
    "combines": true,
    "places": [
      "upload-status"
    ],
    "words": [
      "`pending` (typical)",
      "`processing`, `completed` or `failed` is possible"
    ],
    "rules": [
      "DOC-013",
      "DOC-014",
      "DOC-016"
    ]
  },
  {
    "id": "extraction-fast",
    "says": "Every extraction ends within 2 s.",
    "plays": "engine",
    "combines": true,
    "places": [
      "extraction-duration"
    ],
    "words": [
      "a PDF may take roughly 10 to 30 seconds"
    ],
    "rules": [
      "DOC-025",
      "DOC-028",
      "EVT-007"
    ]
  },
  {
    "id": "extraction-slow",
    "says": "A PDF's extraction takes 45 s (past \"roughly 30\"), any other file's 20 s.",
    "plays": "engine",
    "combines": false,
    "places": [
      "extraction-duration"
    ],
    "words": [
      "a PDF may take roughly 10 to 30 seconds"
    ],
    "rules": [
      "DOC-025",
      "DOC-028",
      "EVT-007"
    ]
  },
  {
    "id": "regeneration-slow",
    "says": "A regeneration takes 90 s (\"typical\" is not a bound).",
    "plays": "engine",
    "combines": true,
    "places": [
      "regeneration-duration"
    ],
    "words": [
      "Typical duration is under a minute."
    ],
    "rules": [
      "REGEN-014",
      "REGEN-015",
      "REGEN-016"
    ]
  },
  {
    "id": "query-names-other",
    "says": "The free-text search is q; the appointment date filters are on, from and to; the notes filters are patient, session, template, clinician, type, from and to. The kit's names are unknown parameters there, and ignored.",
    "plays": "engine",
    "combines": true,
    "places": [
      "patient-search-name",
      "appointment-date-filters",
      "notes-filter-names"
    ],
    "words": [
      "its query parameter name: not shown.",
      "Names of the date filter query parameters: not shown.",
      "Names of the notes list filter query parameters: not shown."
    ],
    "rules": [
      "APT-015",
      "APT-027",
      "NOTE-015",
      "NOTE-024",
      "PAT-019",
      "PAT-020",
      "PAT-029",
      "PAT-031"
    ]
  },
  {
    "id": "patch-no-reassign",
    "says": "A patient's provider_id cannot be changed by PATCH; a body carrying it is refused 400 with details.",
    "plays": "engine",
    "combines": true,
    "places": [
      "patient-patch-fields"
    ],
    "words": [
      "PATCH patient body fields: not shown."
    ],
    "rules": [
      "PAT-023",
      "PAT-027"
    ]
  },
  {
    "id": "extract-accepted-202",
    "says": "An extract request that started a run answers 202.",
    "plays": "engine",
    "combines": true,
    "places": [
      "extract-statuses"
    ],
    "words": [
      "Its status codes for success and for failure: not shown."
    ],
    "rules": [
      "DOC-023",
      "DOC-029",
      "DOC-031"
    ]
  },
  {
    "id": "export-other-layout",
    "says": "/notes/export needs format (400 without it); json is a bare array of notes; ndjson is labelled application/ndjson.",
    "plays": "engine",
    "combines": true,
    "places": [
      "export-layout"
    ],
    "words": [
      "Further parameters and response layout of /notes/export: not shown."
    ],
    "rules": [
      "NOTE-020",
      "NOTE-025"
    ]
  },
  {
    "id": "extract-data-only",
    "says": "An extract request that started a run answers {data} alone (no success, no message).",
    "plays": "engine",
    "combines": true,
    "places": [
      "extract-answer"
    ],
    "words": [
      "The extract endpoint's body may also carry `success` (boolean), `message`, `error` (a failure summary) and `details` (a string reason)."
    ],
    "rules": [
      "DOC-023",
      "ERR-010"
    ]
  },
  {
    "id": "unset-as-null",
    "says": "An optional field left unset is answered as null, never left out (a started extract run's error and details, a document's extraction_error, extracted_date and external_id).",
    "plays": "engine",
    "combines": true,
    "places": [
      "extract-answer"
    ],
    "words": [
      "The extract endpoint's body may also carry `success` (boolean), `message`, `error` (a failure summary) and `details` (a string reason)."
    ],
    "rules": [
      "DOC-023",
      "ERR-010"
    ]
  },
  {
    "id": "upload-other-words",
    "says": "The upload message reads 'Upload complete; extraction of the text has started.' or 'Upload complete.'",
    "plays": "engine",
    "combines": true,
    "places": [
      "upload-wording"
    ],
    "words": [
      "`message` contains a text-extraction-started wording when extraction was queued"
    ],
    "rules": [
      "DOC-026",
      "DOC-027",
      "DOC-036"
    ]
  },
  {
    "id": "event-source-other",
    "says": "A note event's source is REGENERATE_ENDPOINT, USER or SYSTEM.",
    "plays": "engine",
    "combines": true,
    "places": [
      "event-source"
    ],
    "words": [
      "Values that `source` can take: not shown.",
      "| source | nullable |"
    ],
    "rules": [
      "EVT-015",
      "EVT-046"
    ]
  },
  {
    "id": "event-error-other-words",
    "says": "A failed extraction's reason (the document's extraction_error, the event's error) reads in other words (\"EXTRACTION_FAILED: <reason>\").",
    "plays": "engine",
    "combines": true,
    "places": [
      "event-text"
    ],
    "words": [
      "| error | string describing the failure, null on success |",
      "| extraction_error | string | reason when extraction failed |"
    ],
    "rules": [
      "EVT-012",
      "EVT-014",
      "EVT-018",
      "EVT-022"
    ]
  },
  {
    "id": "document-url-relative",
    "says": "A DOCUMENT_STATUS_CHANGED document_url is a path relative to the service's origin.",
    "plays": "engine",
    "combines": true,
    "places": [
      "document-url-form"
    ],
    "words": [
      "direct lookup by `external_id` when one was set, otherwise the patient's document collection"
    ],
    "rules": [
      "EVT-023",
      "EVT-049"
    ]
  },
  {
    "id": "xml-root-event",
    "says": "An XML delivery's root element is <event>, and a null field is an empty element.",
    "plays": "engine",
    "combines": true,
    "places": [
      "delivery-layouts"
    ],
    "words": [
      "Field layout of XML and Form Data deliveries: not shown."
    ],
    "rules": [
      "EVT-028",
      "EVT-043",
      "EVT-044"
    ]
  },
  {
    "id": "retry-jitter",
    "says": "Each webhook retry waits its delay plus up to 20 % (1.0 to 1.2 s, then 2.0 to 2.4 s), never past the 5 s cap.",
    "plays": "engine",
    "combines": true,
    "places": [
      "delivery-schedule"
    ],
    "words": [
      "Up to 3 attempts, with exponential backoff of 1 s then 2 s, capped at 5 s."
    ],
    "rules": [
      "EVT-034",
      "EVT-035",
      "LIM-007"
    ]
  },
  {
    "id": "statuses-other",
    "says": "An appointment create answers 200; a method a path lacks, and a path id of the wrong form, answer 404; a file too large or of a refused type answers 400.",
    "plays": "engine",
    "combines": true,
    "places": [
      "per-endpoint-statuses"
    ],
    "words": [
      "Per-endpoint assignment of status codes beyond those above: not shown."
    ],
    "rules": [
      "APT-028",
      "DOC-032",
      "DOC-033",
      "ERR-015",
      "ERR-017",
      "ERR-019"
    ]
  },
  {
    "id": "auth-first",
    "says": "The key is checked before the path is routed, so a request without a valid key to a path or method no operation has answers 401, not 404 or 405.",
    "plays": "engine",
    "combines": true,
    "places": [
      "error-precedence"
    ],
    "words": [
      "| 401 | missing, invalid, expired or revoked key | `{error}` |"
    ],
    "rules": [
      "AUTH-001",
      "AUTH-002",
      "ERR-002",
      "ERR-015"
    ]
  },
  {
    "id": "error-texts-other",
    "says": "Every error text but the two the document quotes reads differently (NOT_FOUND, FORBIDDEN, VALIDATION_ERROR, ...).",
    "plays": "engine",
    "combines": true,
    "places": [
      "error-texts"
    ],
    "words": [
      "Message texts of errors other than the two quoted: not shown."
    ],
    "rules": [
      "ERR-016"
    ]
  },
  {
    "id": "rate-headers-other-forms",
    "says": "X-RateLimit-Reset counts the seconds left in the window, and Retry-After is an HTTP date.",
    "plays": "engine",
    "combines": true,
    "places": [
      "rate-limit-values"
    ],
    "words": [
      "Numeric rate limit values and window length: not shown."
    ],
    "rules": [
      "RATE-001",
      "RATE-005",
      "RATE-006",
      "RATE-007",
      "RATE-008"
    ]
  },
  {
    "id": "limit-clamped",
    "says": "A page limit above 50 is served as 50 (meta.limit says 50); no limit is refused for its size.",
    "plays": "engine",
    "combines": true,
    "places": [
      "max-page-size"
    ],
    "words": [
      "Maximum allowed `limit` value for pages: not shown."
    ],
    "rules": [
      "PAG-002",
      "PAG-007"
    ]
  },
  {
    "id": "empty-list-zero-pages",
    "says": "An empty list reports total_pages 0.",
    "plays": "engine",
    "combines": true,
    "places": [
      "empty-list"
    ],
    "words": [
      "reached when the requested page is at `meta.total_pages`"
    ],
    "rules": [
      "PAG-003",
      "PAG-004",
      "PAG-008"
    ]
  },
  {
    "id": "newest-first",
    "says": "Lists (patients, appointments, documents, notes) are ordered newest first.",
    "plays": "engine",
    "combines": true,
    "places": [
      "list-order"
    ],
    "words": [
      "`page` (default 1), `limit` (default 20)"
    ],
    "rules": [
      "PAG-001",
      "PAG-004",
      "PAG-006"
    ]
  },
  {
    "id": "lookup-meta-one",
    "says": "An external_id or npi lookup hit reports meta {page: 1, limit: 1, total_pages: 1}.",
    "plays": "engine",
    "combines": true,
    "places": [
      "lookup-meta"
    ],
    "words": [
      "on a hit the normal list shape is returned with a one-item `data` array and pagination is bypassed"
    ],
    "rules": [
      "XID-008",
      "XID-009",
      "XID-014"
    ]
  },
  {
    "id": "extra-fields",
    "says": "Objects carry fields the tables do not list (request_id beside data, meta.has_more, error.code, object on every item, content_type on documents), and every answer carries X-Request-Id and a charset on its JSON Content-Type.",
    "plays": "engine",
    "combines": true,
    "places": [
      "extra-fields"
    ],
    "words": [
      "Successful responses are wrapped as `{ data: ... }`; list endpoints add `meta`. Errors are `{ error: <string> }`."
    ],
    "rules": [
      "GEN-003",
      "GEN-005",
      "GEN-011"
    ]
  },
  {
    "id": "ten-mib",
    "says": "10 MB is read as 10 MiB (10,485,760 bytes).",
    "plays": "engine",
    "combines": true,
    "places": [
      "upload-limits"
    ],
    "words": [
      "| Document upload size | 10 MB; types PDF, JPEG, PNG, DOCX |"
    ],
    "rules": [
      "DOC-011",
      "DOC-032",
      "LIM-001"
    ]
  },
  {
    "id": "deprecation-headers",
    "says": "Every answer announces a planned change with Deprecation and Sunset headers.",
    "plays": "engine",
    "combines": true,
    "places": [
      "versioning"
    ],
    "words": [
      "Deprecation policy and the rules for introducing changes: not shown."
    ],
    "rules": [
      "VER-004"
    ]
  },
  {
    "id": "key-api-under-app-url",
    "says": "Keys are listed and revoked under {app_url}/api/v1/ext-api-keys.",
    "plays": "outside",
    "why": "{app_url} is the web application, not {base_url}: no request of a client or of the suite reaches it.",
    "combines": true,
    "places": [
      "key-management"
    ],
    "words": [
      "Body and paths for creating-key options, listing keys and revoking keys: not shown.",
      "It may be revoked at any time."
    ],
    "rules": [
      "AUTH-005",
      "AUTH-010",
      "AUTH-027"
    ]
  },
  {
    "id": "key-prefix-other",
    "says": "Keys begin with another prefix.",
    "plays": "outside",
    "why": "The keys are the seed's (`--seed`); the prefix changes nothing a request sees but the key itself.",
    "combines": true,
    "places": [
      "key-prefix"
    ],
    "words": [
      "Keys begin with a fixed service prefix (written <KEY_PREFIX>_ here) followed by the secret part."
    ],
    "rules": [
      "AUTH-004",
      "AUTH-026"
    ]
  },
  {
    "id": "more-event-kinds",
    "says": "The service has further event kinds.",
    "plays": "outside",
    "why": "A webhook is registered for one of the four kinds, so no receiver gets another.",
    "combines": true,
    "places": [
      "other-events"
    ],
    "words": [
      "Events other than these four: not shown."
    ],
    "rules": [
      "EVT-047"
    ]
  },
  {
    "id": "registration-api",
    "says": "Webhooks can be registered through an API of the web application.",
    "plays": "outside",
    "why": "Registration is under {app_url}; the suite's receiver is registered through the mock's control API, or given.",
    "combines": true,
    "places": [
      "registration"
    ],
    "words": [
      "Programmatic registration endpoints: not shown."
    ],
    "rules": [
      "EVT-025",
      "EVT-048"
    ]
  }
] as const;

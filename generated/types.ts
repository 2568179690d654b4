// generated, do not edit: made by `npm run generate` (scripts/generate.ts) from spec/openapi.yaml.

export interface paths {
    "/patients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List patients
         * @description Paginated list of the organization's patients. List items omit `pronouns`, `notes` and `consent`. With `external_id` the lookup bypasses pagination and answers a one-item `data` array, or 404 on a miss.
         */
        get: operations["listPatients"];
        put?: never;
        /**
         * Create a patient
         * @description Creates a patient. `name`, when omitted, is built from `first_name` and/or `last_name`. `provider_id` defaults to the provider that owns the API key and must be a provider of the organization.
         */
        post: operations["createPatient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/patients/{patientId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
            };
            cookie?: never;
        };
        /** Get a patient */
        get: operations["getPatient"];
        put?: never;
        post?: never;
        /** Delete a patient */
        delete: operations["deletePatient"];
        options?: never;
        head?: never;
        /**
         * Update a patient
         * @description Partial update. `external_id` is immutable once set; sent here it is silently ignored.
         */
        patch: operations["updatePatient"];
        trace?: never;
    };
    "/appointments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List appointments
         * @description Paginated list of the organization's appointments, optionally filtered by a single date or a date range (dates of `start_at`). With `external_id` the lookup bypasses pagination, or answers 404 on a miss.
         */
        get: operations["listAppointments"];
        put?: never;
        /**
         * Create an appointment
         * @description Creates an appointment. `provider_id` defaults to the provider that owns the API key. A 409 is returned when `external_id` is already in use in the organization.
         */
        post: operations["createAppointment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/appointments/{appointmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Appointment id.
                 * @example 6e5d4c3b-2a19-4f8e-b7d6-c5b4a3928170
                 */
                appointmentId: components["parameters"]["AppointmentId"];
            };
            cookie?: never;
        };
        /** Get an appointment */
        get: operations["getAppointment"];
        put?: never;
        post?: never;
        /** Delete an appointment */
        delete: operations["deleteAppointment"];
        options?: never;
        head?: never;
        /**
         * Update or reassign an appointment
         * @description Partial update; `provider_id` reassigns. `external_id` is immutable once set; sent here it is silently ignored.
         */
        patch: operations["updateAppointment"];
        trace?: never;
    };
    "/patients/{patientId}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
            };
            cookie?: never;
        };
        /**
         * List a patient's documents
         * @description All documents of the patient, without `meta`. With `external_id` only the matching document is returned (a one-item `data` array), or 404 on a miss. Poll this lookup to follow one document's extraction.
         */
        get: operations["listDocuments"];
        put?: never;
        /**
         * Upload a document
         * @description Stores a PDF, JPEG, PNG or DOCX file of at most 10 MB and queues its text extraction. The response returns once the file is stored and does not wait for extraction (a PDF may take roughly 10 to 30 seconds). `message` carries a text-extraction-started wording when extraction was queued and a plain uploaded-successfully wording when it was not; in that case the document stays `pending`, no webhook fires, and the client calls the extract endpoint.
         */
        post: operations["uploadDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/patients/{patientId}/documents/{documentId}/extract": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
                /**
                 * @description Document id.
                 * @example 2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f
                 */
                documentId: components["parameters"]["DocumentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start or retry text extraction
         * @description Starts a new extraction run, whatever the document's state, and returns the latest status. Reaching a terminal state emits DOCUMENT_STATUS_CHANGED; a `failed` document can later reach `completed` and emit again.
         */
        post: operations["extractDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/patients/{patientId}/documents/{documentId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
                /**
                 * @description Document id.
                 * @example 2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f
                 */
                documentId: components["parameters"]["DocumentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a document */
        delete: operations["deleteDocument"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List providers
         * @description Paginated list of the organization's providers. With `npi` the lookup bypasses pagination and answers a one-item `data` array, or 404 on no match.
         */
        get: operations["listProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/providers/{providerId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Provider id.
                 * @example 3f6c2a4e-8b1d-4c7e-9a52-6d0e1f2b3c4d
                 */
                providerId: components["parameters"]["ProviderId"];
            };
            cookie?: never;
        };
        /** Get a provider */
        get: operations["getProvider"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List notes */
        get: operations["listNotes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notes/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export notes in bulk
         * @description Bulk dump of the organization's notes as JSON (`{ data: [...] }`), NDJSON (one note a line) or CSV (a header row, then one note a row; arrays and objects JSON-encoded in their cell).
         */
        get: operations["exportNotes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notes/{noteId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Note id.
                 * @example 0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f
                 */
                noteId: components["parameters"]["NoteId"];
            };
            cookie?: never;
        };
        /**
         * Get a note
         * @description The note with its body and codes, and by default its session transcript and patient context. `include` picks which of `transcript` and `patient` are embedded; an empty value omits both.
         */
        get: operations["getNote"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{sessionId}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Session id.
                 * @example 5f4e3d2c-1b0a-4987-8654-3210fedcba98
                 */
                sessionId: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        /**
         * Get a session with its notes
         * @description The session, its patient context and its notes; 404 when the session is not owned by the organization.
         */
        get: operations["getSessionNotes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{sessionId}/notes/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Session id.
                 * @example 5f4e3d2c-1b0a-4987-8654-3210fedcba98
                 */
                sessionId: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Regenerate the note of a session
         * @description Queues an asynchronous regeneration of the session's note (typically under a minute). The regenerated note is then available from the session notes endpoint, and NOTE_REGENERATED is sent when registered. Requires `notes:write`, which the scope table does not list; a `*` key covers it.
         */
        post: operations["regenerateSessionNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    NOTE_CREATED: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new note was generated
         * @description Sent when a session is finalized or a note is created through the API. Fetch the note from `note_url` (GET /notes/{noteId}).
         */
        post: operations["noteCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    NOTE_REGENERATED: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A note was regenerated
         * @description Sent when a note is regenerated, for example by the regenerate endpoint. Fetch the note from `note_url`.
         */
        post: operations["noteRegeneratedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    NOTE_UPDATED: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A note was edited, saved or reverted
         * @description Sent when an existing note is edited, saved or reverted. Fetch the note from `note_url`.
         */
        post: operations["noteUpdatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    DOCUMENT_STATUS_CHANGED: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Document text extraction reached a terminal state
         * @description Sent when extraction reaches `completed` or `failed`, by upload or by the extract endpoint. Not sent for an upload whose extraction was not queued. Fetch the document from `document_url`.
         */
        post: operations["documentStatusChangedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description Opaque id, a very large integer serialized as a string of digits; no length is promised.
         * @example 7281928374650192837
         */
        PatientIdValue: string;
        /**
         * @description Client-chosen identifier, unique per organization (across patients, appointments and documents), immutable once set.
         * @example ehr-patient-0042
         */
        ExternalId: string;
        /**
         * @description National Provider Identifier (10 digits, Luhn check digit with the 80840 prefix).
         * @example 1234567893
         */
        Npi: string;
        /**
         * Format: date-time
         * @description ISO 8601 date-time. The kit sends RFC 3339 (seconds and a UTC offset or Z).
         * @example 2026-11-02T16:05:12.345Z
         */
        DateTime: string;
        /** @example 2026-11-01 */
        DateOrDateTime: string | unknown | unknown;
        /**
         * @description Pagination block. The end of the list is reached when `page` is `total_pages`.
         * @example {
         *       "page": 1,
         *       "limit": 20,
         *       "total_pages": 3
         *     }
         */
        PageMeta: {
            page: number;
            limit: number;
            total_pages: number;
        };
        Error: {
            error: string;
        };
        ValidationError: {
            error: string;
            /** @description Field errors keyed by field (dotted path for nested fields), each a message. */
            details: {
                [key: string]: string;
            };
        };
        /**
         * @example {
         *       "error": "external_id already in use",
         *       "existing": {
         *         "id": "7281928374650192837",
         *         "external_id": "ehr-patient-0042"
         *       }
         *     }
         */
        ExternalIdConflict: {
            /** @constant */
            error: "external_id already in use";
            existing: {
                /** @description Id of the resource that holds the external_id. */
                id: string;
                external_id: components["schemas"]["ExternalId"];
            };
        };
        RateLimitError: {
            /** @constant */
            error: "Rate limit exceeded. Please retry after the window resets.";
        };
        Success: {
            /** @constant */
            success: true;
        };
        /**
         * @description Structured postal address.
         * @example {
         *       "line1": "1 Navy Way",
         *       "city": "Arlington",
         *       "state": "VA",
         *       "postal_code": "22202",
         *       "country": "US"
         *     }
         */
        Address: {
            line1?: string;
            line2?: string;
            city?: string;
            state?: string;
            postal_code?: string;
            /** @description ISO 3166-1 alpha-2 code. */
            country?: string;
        };
        /** @description Medical record number; null or empty when there is none. */
        Mrn: string | null;
        /** @description At least one of `name`, `first_name`, `last_name`. When `name` is omitted it is built from the first and/or last name. */
        PatientCreate: {
            name: string;
            first_name?: string;
            last_name?: string;
            /** Format: date */
            date_of_birth?: string;
            /** @example female */
            gender?: string;
            /** @example +12025550143 */
            phone?: string;
            /** @example ada.lovelace@example.org */
            email?: string;
            address?: components["schemas"]["Address"];
            mrn?: components["schemas"]["Mrn"];
            external_id?: components["schemas"]["ExternalId"];
            /** @description A provider of the organization; defaults to the provider that owns the API key. */
            provider_id?: string;
        } | {
            name?: string;
            first_name: string;
            last_name?: string;
            /** Format: date */
            date_of_birth?: string;
            /** @example female */
            gender?: string;
            /** @example +12025550143 */
            phone?: string;
            /** @example ada.lovelace@example.org */
            email?: string;
            address?: components["schemas"]["Address"];
            mrn?: components["schemas"]["Mrn"];
            external_id?: components["schemas"]["ExternalId"];
            /** @description A provider of the organization; defaults to the provider that owns the API key. */
            provider_id?: string;
        } | {
            name?: string;
            first_name?: string;
            last_name: string;
            /** Format: date */
            date_of_birth?: string;
            /** @example female */
            gender?: string;
            /** @example +12025550143 */
            phone?: string;
            /** @example ada.lovelace@example.org */
            email?: string;
            address?: components["schemas"]["Address"];
            mrn?: components["schemas"]["Mrn"];
            external_id?: components["schemas"]["ExternalId"];
            /** @description A provider of the organization; defaults to the provider that owns the API key. */
            provider_id?: string;
        };
        /** @description Partial update. `external_id` is accepted and silently ignored. */
        PatientUpdate: {
            name?: string;
            first_name?: string;
            last_name?: string;
            /** Format: date */
            date_of_birth?: string;
            /** @example female */
            gender?: string;
            /** @example +12025550143 */
            phone?: string;
            /** @example ada.lovelace@example.org */
            email?: string;
            address?: components["schemas"]["Address"];
            mrn?: components["schemas"]["Mrn"];
            /** @description Accepted and silently ignored, whatever its length (XID-005). */
            external_id?: string;
            provider_id?: string;
        };
        /**
         * @description A patient as returned by create and get-by-id.
         * @example {
         *       "id": "7281928374650192837",
         *       "name": "Grace Hopper",
         *       "first_name": "Grace",
         *       "last_name": "Hopper",
         *       "date_of_birth": "1906-12-09",
         *       "gender": "female",
         *       "phone": "+12025550100",
         *       "email": "grace.hopper@example.org",
         *       "address": {
         *         "line1": "1 Navy Way",
         *         "city": "Arlington",
         *         "state": "VA",
         *         "postal_code": "22202",
         *         "country": "US"
         *       },
         *       "mrn": "MRN-0042",
         *       "created_at": "2026-11-02T16:05:12.345Z",
         *       "pronouns": "she/her",
         *       "notes": "Prefers morning appointments.",
         *       "consent": true,
         *       "external_id": "ehr-patient-0042",
         *       "provider_id": "3f6c2a4e-8b1d-4c7e-9a52-6d0e1f2b3c4d"
         *     }
         */
        Patient: {
            id: components["schemas"]["PatientIdValue"];
            name: string;
            first_name?: string | null;
            last_name?: string | null;
            /** Format: date */
            date_of_birth?: string | null;
            gender?: string | null;
            phone?: string | null;
            email?: string | null;
            address?: components["schemas"]["Address"] | null;
            mrn?: components["schemas"]["Mrn"];
            created_at: components["schemas"]["DateTime"];
            pronouns?: string | null;
            notes?: string | null;
            consent: boolean;
            external_id?: components["schemas"]["ExternalId"] | null;
            provider_id: string;
        };
        /** @description A patient as listed; carries no `pronouns`, `notes` or `consent`. */
        PatientListItem: {
            id: components["schemas"]["PatientIdValue"];
            name: string;
            first_name?: string | null;
            last_name?: string | null;
            /** Format: date */
            date_of_birth?: string | null;
            gender?: string | null;
            phone?: string | null;
            email?: string | null;
            address?: components["schemas"]["Address"] | null;
            mrn?: components["schemas"]["Mrn"];
            created_at: components["schemas"]["DateTime"];
            external_id?: components["schemas"]["ExternalId"] | null;
            provider_id: string;
        };
        PatientEnvelope: {
            data: components["schemas"]["Patient"];
        };
        /** @enum {string} */
        VisitType: "Telehealth" | "In-Person" | "Both" | "Other";
        /**
         * @description Any status may change to any other.
         * @enum {string}
         */
        AppointmentStatus: "SCHEDULED" | "COMPLETED" | "CANCELLED" | "NO_SHOW";
        /** @description Recurrence of an appointment. */
        RepeatRule: {
            /** @example weekly */
            frequency: string;
            /** @default 1 */
            interval?: number;
            /**
             * Format: date
             * @example 2099-12-31
             */
            end_date?: string;
        };
        AppointmentCreate: {
            patient_id: components["schemas"]["PatientIdValue"];
            /** @description Free text. */
            appointment_type?: string;
            /** @default In-Person */
            visit_type?: components["schemas"]["VisitType"];
            start_at: components["schemas"]["DateTime"];
            duration_minutes: number;
            /** @description A provider of the organization; defaults to the provider that owns the API key. */
            provider_id?: string;
            notes?: string;
            /** @default SCHEDULED */
            status?: components["schemas"]["AppointmentStatus"];
            repeat_rule?: components["schemas"]["RepeatRule"];
            external_id?: components["schemas"]["ExternalId"];
        };
        /** @description Partial update; `provider_id` reassigns; `external_id` is accepted and silently ignored. */
        AppointmentUpdate: {
            patient_id?: components["schemas"]["PatientIdValue"];
            provider_id?: string;
            appointment_type?: string;
            visit_type?: components["schemas"]["VisitType"];
            start_at?: components["schemas"]["DateTime"];
            duration_minutes?: number;
            notes?: string;
            status?: components["schemas"]["AppointmentStatus"];
            /** @description Accepted and silently ignored, whatever its length (XID-005). */
            external_id?: string;
        };
        /**
         * @example {
         *       "id": "6e5d4c3b-2a19-4f8e-b7d6-c5b4a3928170",
         *       "patient_id": "7281928374650192837",
         *       "patient_name": "Grace Hopper",
         *       "provider_id": "3f6c2a4e-8b1d-4c7e-9a52-6d0e1f2b3c4d",
         *       "provider_name": "Dr. Maya Okafor",
         *       "provider_npi": "1234567893",
         *       "appointment_type": "Follow-up",
         *       "visit_type": "Telehealth",
         *       "start_at": "2026-12-01T15:30:00Z",
         *       "duration_minutes": 45,
         *       "notes": "Review lab results.",
         *       "status": "SCHEDULED",
         *       "created_at": "2026-11-02T16:05:12.345Z",
         *       "updated_at": "2026-11-02T16:05:12.345Z",
         *       "repeat_rule": {
         *         "frequency": "weekly",
         *         "interval": 2,
         *         "end_date": "2027-02-01"
         *       },
         *       "external_id": "ehr-appt-1001"
         *     }
         */
        Appointment: {
            /** Format: uuid */
            id: string;
            patient_id: components["schemas"]["PatientIdValue"];
            readonly patient_name?: string | null;
            provider_id: string;
            readonly provider_name?: string | null;
            readonly provider_npi?: string | null;
            appointment_type?: string | null;
            visit_type: components["schemas"]["VisitType"];
            start_at: components["schemas"]["DateTime"];
            duration_minutes: number;
            notes?: string | null;
            status: components["schemas"]["AppointmentStatus"];
            readonly created_at: components["schemas"]["DateTime"];
            readonly updated_at: components["schemas"]["DateTime"];
            repeat_rule?: components["schemas"]["RepeatRuleOutput"] | null;
            external_id?: components["schemas"]["ExternalId"] | null;
        };
        RepeatRuleOutput: {
            frequency: string;
            interval: number;
            /** Format: date */
            end_date?: string | null;
        };
        AppointmentEnvelope: {
            data: components["schemas"]["Appointment"];
        };
        /**
         * @description Extraction status. pending → processing → completed | failed; `completed` and `failed` are terminal for one run; the extract endpoint starts a new run from any state.
         * @enum {string}
         */
        DocumentStatus: "pending" | "processing" | "completed" | "failed";
        /**
         * @description A document. The extracted text itself is never returned, only its availability and length.
         * @example {
         *       "id": "2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f",
         *       "filename": "referral-letter.pdf",
         *       "file_type": "application/pdf",
         *       "file_size": 48213,
         *       "public_url": "https://files.clinical-records.test/documents/2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f",
         *       "upload_date": "2026-11-02T16:05:12.345Z",
         *       "status": "completed",
         *       "extracted_date": "2026-11-02T16:05:31.002Z",
         *       "extraction_error": null,
         *       "has_extracted_text": true,
         *       "extracted_text_length": 5210,
         *       "external_id": "ehr-doc-77"
         *     }
         */
        Document: {
            /** Format: uuid */
            id: string;
            filename: string;
            /**
             * @description MIME type of the stored file.
             * @example application/pdf
             */
            file_type: string;
            /** @description Size in bytes. */
            file_size: number;
            /**
             * Format: uri
             * @description Absolute URL of the stored file.
             */
            public_url?: string | null;
            upload_date: components["schemas"]["DateTime"];
            status: components["schemas"]["DocumentStatus"];
            extracted_date?: components["schemas"]["DateTime"] | null;
            /** @description Reason when extraction failed. */
            extraction_error?: string | null;
            has_extracted_text: boolean;
            extracted_text_length?: number | null;
            external_id?: components["schemas"]["ExternalId"] | null;
        };
        DocumentUpload: {
            /**
             * Format: binary
             * @description PDF, JPEG, PNG or DOCX, at most 10 MB (10 000 000 bytes).
             */
            file: string;
            external_id?: components["schemas"]["ExternalId"];
            /** @description Mentioned by the guide; when sent it must equal the path's patient id (another value is a 400). */
            patient_id?: components["schemas"]["PatientIdValue"];
        };
        DocumentUploadResult: {
            data: components["schemas"]["Document"];
            /**
             * @description Says that text extraction started when it was queued; a plain uploaded-successfully wording otherwise.
             * @example Document uploaded successfully. Text extraction started.
             */
            message: string;
        };
        /** @description Body of the extract endpoint, either answer. ExtractStarted (200) narrows `success` to true, ExtractNotStarted (503) to false with `error` and `details`. */
        ExtractResult: {
            data: components["schemas"]["Document"];
            success: boolean;
            /** @description The kit's wordings (x-messages); the document does not quote them. */
            message: string;
            /** @description A failure summary. */
            error?: string;
            /** @description A reason for the failure. */
            details?: string;
        };
        /**
         * @description The 200 answer of the extract endpoint; a run was started and `success` is true.
         * @example {
         *       "data": {
         *         "id": "2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f",
         *         "filename": "referral-letter.pdf",
         *         "file_type": "application/pdf",
         *         "file_size": 48213,
         *         "upload_date": "2026-11-02T16:05:12.345Z",
         *         "status": "pending",
         *         "has_extracted_text": false
         *       },
         *       "success": true,
         *       "message": "Text extraction started."
         *     }
         */
        ExtractStarted: components["schemas"]["ExtractResult"] & {
            /** @constant */
            success?: true;
        };
        /**
         * @description The 503 answer of the extract endpoint; no run was started, `success` is false and `error`/`details` say why.
         * @example {
         *       "data": {
         *         "id": "2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f",
         *         "filename": "referral-letter.pdf",
         *         "file_type": "application/pdf",
         *         "file_size": 48213,
         *         "upload_date": "2026-11-02T16:05:12.345Z",
         *         "status": "failed",
         *         "extraction_error": "The stored file is unavailable.",
         *         "has_extracted_text": false
         *       },
         *       "success": false,
         *       "message": "Text extraction could not be started.",
         *       "error": "Extraction could not be started",
         *       "details": "The extraction queue is unavailable."
         *     }
         */
        ExtractNotStarted: components["schemas"]["ExtractResult"] & {
            /** @constant */
            success?: false;
            error: string;
            details: string;
        };
        /**
         * @example {
         *       "id": "3f6c2a4e-8b1d-4c7e-9a52-6d0e1f2b3c4d",
         *       "name": "Dr. Maya Okafor",
         *       "email": "maya.okafor@example.org",
         *       "npi": "1234567893",
         *       "title": "MD",
         *       "specialty": "Psychiatry",
         *       "role": "admin",
         *       "joined_at": "2024-03-18T09:00:00Z"
         *     }
         */
        Provider: {
            /**
             * Format: uuid
             * @description Stable internal identifier; the value to pass as `provider_id`.
             */
            id: string;
            name: string;
            email?: string | null;
            npi: components["schemas"]["Npi"];
            title?: string | null;
            specialty?: string | null;
            role?: string | null;
            joined_at?: components["schemas"]["DateTime"] | null;
        };
        NoteListItem: {
            /** Format: uuid */
            id: string;
            patient_id: components["schemas"]["PatientIdValue"];
            /** Format: uuid */
            session_id: string;
            note_type?: string | null;
            specialty?: string | null;
            /** Format: uuid */
            template_id?: string | null;
            template_name?: string | null;
            created_at: components["schemas"]["DateTime"];
            updated_at: components["schemas"]["DateTime"];
        };
        /**
         * @description Codes keyed by code, each with its description.
         * @example {
         *       "F41.1": "Generalized anxiety disorder"
         *     }
         */
        Codes: {
            [key: string]: string;
        };
        /** @description A note with its body and codes (always), and the embedded `transcript` and `patient` chosen by `include`. */
        NoteDetail: {
            /** Format: uuid */
            id: string;
            patient_id: components["schemas"]["PatientIdValue"];
            /** Format: uuid */
            session_id: string;
            note_type?: string | null;
            specialty?: string | null;
            /** Format: uuid */
            template_id?: string | null;
            template_name?: string | null;
            created_at: components["schemas"]["DateTime"];
            updated_at: components["schemas"]["DateTime"];
            content: string;
            problems: string[];
            procedures: string[];
            icd10_codes: components["schemas"]["Codes"];
            cpt_codes: components["schemas"]["Codes"];
            transcript?: components["schemas"]["Transcript"];
            patient?: components["schemas"]["NotePatientContext"];
        };
        /** @description One note of the export; the detail without the embedded transcript and patient. */
        NoteExport: {
            /** Format: uuid */
            id: string;
            patient_id: components["schemas"]["PatientIdValue"];
            /** Format: uuid */
            session_id: string;
            note_type?: string | null;
            specialty?: string | null;
            /** Format: uuid */
            template_id?: string | null;
            template_name?: string | null;
            created_at: components["schemas"]["DateTime"];
            updated_at: components["schemas"]["DateTime"];
            content: string;
            problems: string[];
            procedures: string[];
            icd10_codes: components["schemas"]["Codes"];
            cpt_codes: components["schemas"]["Codes"];
        };
        Transcript: {
            text?: string | null;
            summary?: string | null;
            title?: string | null;
            status?: string | null;
            /** Format: date */
            session_date?: string | null;
            /** Format: date-time */
            start_time?: string | null;
            /** Format: date-time */
            end_time?: string | null;
        };
        ClientHistory: {
            medical_history?: string | null;
            family_history?: string | null;
            social_history?: string | null;
            previous_treatment?: string | null;
        };
        NotePatientContext: {
            id: components["schemas"]["PatientIdValue"];
            name?: string | null;
            first_name?: string | null;
            last_name?: string | null;
            pronouns?: string | null;
            /** Format: date */
            date_of_birth?: string | null;
            gender?: string | null;
            email?: string | null;
            phone?: string | null;
            mrn?: string | null;
            client_history?: components["schemas"]["ClientHistory"];
        };
        Session: {
            /** Format: uuid */
            id: string;
            patient_id: components["schemas"]["PatientIdValue"];
            transcript: components["schemas"]["Transcript"];
        };
        RegenerateRequest: {
            /**
             * Format: uuid
             * @description Template to use; defaults to the session's current template.
             */
            template_id?: string;
            /**
             * @description Generation tier; defaults to the standard tier.
             * @enum {string}
             */
            model?: "fast" | "balanced" | "detailed";
        };
        /**
         * @example {
         *       "data": {
         *         "session_id": "5f4e3d2c-1b0a-4987-8654-3210fedcba98",
         *         "status": "queued"
         *       },
         *       "message": "Note regeneration queued."
         *     }
         */
        RegenerateAccepted: {
            data: {
                session_id: string;
                /** @constant */
                status: "queued";
            };
            message: string;
        };
        /** @description NOTE_CREATED, NOTE_REGENERATED or NOTE_UPDATED. Identifiers only, never clinical content. */
        NoteEvent: {
            /** @enum {string} */
            event: "NOTE_CREATED" | "NOTE_REGENERATED" | "NOTE_UPDATED";
            /** Format: uuid */
            note_id: string;
            /** Format: uuid */
            session_id: string;
            patient_id: components["schemas"]["PatientIdValue"];
            /** Format: uuid */
            template_id: string;
            source: string | null;
            /**
             * Format: uri
             * @description Absolute URL of the note detail endpoint.
             */
            note_url: string;
            /** @description ISO 8601 date-time with milliseconds: the ISO 8601 shape of DateTime with at least three decimals of a second (the milliseconds are documented, the offset is DateTime's reading). */
            timestamp: components["schemas"]["DateTime"];
        };
        /** @description Identifiers only. `document_url` is the external_id lookup when one was set, otherwise the patient's document collection. */
        DocumentStatusChangedEvent: {
            /** @constant */
            event: "DOCUMENT_STATUS_CHANGED";
            /** Format: uuid */
            document_id: string;
            patient_id: components["schemas"]["PatientIdValue"];
            external_id: components["schemas"]["ExternalId"] | null;
            /** @enum {string} */
            status: "completed" | "failed";
            /** @description The failure, null on success. */
            error: string | null;
            /** Format: uri */
            document_url: string;
            timestamp: components["schemas"]["DateTime"];
        };
    };
    responses: {
        /** @description The resource was deleted; it now answers 404. */
        Deleted: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Success"];
            };
        };
        /** @description Validation failure, including unknown extra fields, malformed JSON, bad parameters and bad path ids. */
        ValidationFailed: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Validation failed",
                 *       "details": {
                 *         "nickname": "unknown field",
                 *         "duration_minutes": "must be >= 1"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description Missing, invalid, expired or revoked API key. */
        Unauthorized: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Invalid or missing API key"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A valid key without the scope the operation needs. */
        Forbidden: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Insufficient scope: patients:write required"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The resource does not exist or belongs to another organization (indistinguishable), or an external_id or npi lookup matched nothing. */
        NotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Not found"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The `external_id` is already used in the organization, by a patient, an appointment or a document: one namespace for the three resource types. */
        ExternalIdInUse: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ExternalIdConflict"];
            };
        };
        /** @description The request body is larger than the service accepts (10 MB for uploads). */
        PayloadTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Request body too large"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request's Content-Type, or an uploaded file's type, is not accepted. */
        UnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Unsupported Content-Type: expected application/json"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rate limit exceeded. */
        RateLimited: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RateLimitError"];
            };
        };
        /** @description Any 2xx acknowledges the delivery. Delivery rules: POST, body in the configured format (JSON default, XML, Form Data) with the webhook's static headers; 30 s timeout; up to 3 attempts with exponential backoff of 1 s then 2 s, capped at 5 s; 408, 429 and 5xx are retried and do not count as delivered; a 3xx is an error and is not followed; at-least-once, a retry carries the identical payload; no signature (authenticate with a secret in a static header); destinations must be HTTPS public hosts, checked at registration and before each delivery. Receivers deduplicate by the whole payload or by event + resource id + timestamp. */
        WebhookAcknowledged: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description 408, 429 and 5xx are retried (up to 3 attempts in all, backoff 1 s then 2 s, capped at 5 s) and do not count as delivered; a retry carries the identical payload. */
        WebhookRetried: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description A 3xx is an error: the redirect is not followed and the delivery does not count as delivered. Other 4xx are failures too; only 408 and 429 are retried. */
        WebhookRedirectRefused: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
    };
    parameters: {
        /** @description Page number, from 1. */
        Page: number;
        /** @description Page size. */
        Limit: number;
        /** @description Look up one resource by its external identifier; bypasses pagination; 404 on a miss. A hit answers the normal list shape with a one-item `data` array; on a paginated list its meta is `{page: 1, limit: <the requested or default limit>, total_pages: 1}`. */
        ExternalIdLookup: components["schemas"]["ExternalId"];
        /**
         * @description Patient id, a string of digits.
         * @example 7281928374650192837
         */
        PatientId: components["schemas"]["PatientIdValue"];
        /**
         * @description Appointment id.
         * @example 6e5d4c3b-2a19-4f8e-b7d6-c5b4a3928170
         */
        AppointmentId: string;
        /**
         * @description Document id.
         * @example 2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f
         */
        DocumentId: string;
        /**
         * @description Provider id.
         * @example 3f6c2a4e-8b1d-4c7e-9a52-6d0e1f2b3c4d
         */
        ProviderId: string;
        /**
         * @description Note id.
         * @example 0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f
         */
        NoteId: string;
        /**
         * @description Session id.
         * @example 5f4e3d2c-1b0a-4987-8654-3210fedcba98
         */
        SessionId: string;
    };
    requestBodies: {
        /** @description The event, encoded in the webhook's configured format. */
        NoteEventDelivery: {
            content: {
                /**
                 * @example {
                 *       "event": "NOTE_CREATED",
                 *       "note_id": "0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f",
                 *       "session_id": "5f4e3d2c-1b0a-4987-8654-3210fedcba98",
                 *       "patient_id": "7281928374650192837",
                 *       "template_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "source": null,
                 *       "note_url": "https://api.clinical-records.test/ext-api/v1/notes/0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f",
                 *       "timestamp": "2026-11-02T16:05:12.345Z"
                 *     }
                 */
                "application/json": components["schemas"]["NoteEvent"];
                "application/xml": components["schemas"]["NoteEvent"];
                "application/x-www-form-urlencoded": components["schemas"]["NoteEvent"];
            };
        };
    };
    headers: {
        /**
         * @description Requests allowed in the current window.
         * @example 1000
         */
        "X-RateLimit-Limit": number;
        /**
         * @description Requests left in the current window.
         * @example 999
         */
        "X-RateLimit-Remaining": number;
        /**
         * @description When the current window resets, in Unix epoch seconds.
         * @example 1798761600
         */
        "X-RateLimit-Reset": number;
        /**
         * @description Seconds to wait before retrying.
         * @example 60
         */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPatients: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: components["parameters"]["Page"];
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Look up one resource by its external identifier; bypasses pagination; 404 on a miss. A hit answers the normal list shape with a one-item `data` array; on a paginated list its meta is `{page: 1, limit: <the requested or default limit>, total_pages: 1}`. */
                external_id?: components["parameters"]["ExternalIdLookup"];
                /** @description Free text matched against name, first name, last name, MRN, email or date of birth. */
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of patients. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PatientListItem"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    createPatient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatientCreate"];
            };
        };
        responses: {
            /** @description The patient was created. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PatientEnvelope"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["ExternalIdInUse"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
        };
    };
    getPatient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The patient. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PatientEnvelope"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    deletePatient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    updatePatient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "phone": "+12025550199",
                 *       "mrn": null
                 *     }
                 */
                "application/json": components["schemas"]["PatientUpdate"];
            };
        };
        responses: {
            /** @description The updated patient. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PatientEnvelope"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
        };
    };
    listAppointments: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: components["parameters"]["Page"];
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Look up one resource by its external identifier; bypasses pagination; 404 on a miss. A hit answers the normal list shape with a one-item `data` array; on a paginated list its meta is `{page: 1, limit: <the requested or default limit>, total_pages: 1}`. */
                external_id?: components["parameters"]["ExternalIdLookup"];
                /** @description Only appointments whose `start_at` falls on this date (UTC). */
                date?: string;
                /** @description Only appointments whose `start_at` date is on or after this date (UTC). */
                start_date?: string;
                /** @description Only appointments whose `start_at` date is on or before this date (UTC). */
                end_date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of appointments. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Appointment"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    createAppointment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "patient_id": "7281928374650192837",
                 *       "appointment_type": "Follow-up",
                 *       "visit_type": "Telehealth",
                 *       "start_at": "2026-12-01T15:30:00Z",
                 *       "duration_minutes": 45,
                 *       "notes": "Review lab results.",
                 *       "repeat_rule": {
                 *         "frequency": "weekly",
                 *         "interval": 2,
                 *         "end_date": "2027-02-01"
                 *       },
                 *       "external_id": "ehr-appt-1001"
                 *     }
                 */
                "application/json": components["schemas"]["AppointmentCreate"];
            };
        };
        responses: {
            /** @description The appointment was created. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppointmentEnvelope"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["ExternalIdInUse"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
        };
    };
    getAppointment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Appointment id.
                 * @example 6e5d4c3b-2a19-4f8e-b7d6-c5b4a3928170
                 */
                appointmentId: components["parameters"]["AppointmentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The appointment. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppointmentEnvelope"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    deleteAppointment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Appointment id.
                 * @example 6e5d4c3b-2a19-4f8e-b7d6-c5b4a3928170
                 */
                appointmentId: components["parameters"]["AppointmentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    updateAppointment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Appointment id.
                 * @example 6e5d4c3b-2a19-4f8e-b7d6-c5b4a3928170
                 */
                appointmentId: components["parameters"]["AppointmentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "COMPLETED"
                 *     }
                 */
                "application/json": components["schemas"]["AppointmentUpdate"];
            };
        };
        responses: {
            /** @description The updated appointment. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppointmentEnvelope"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
        };
    };
    listDocuments: {
        parameters: {
            query?: {
                /** @description Look up one resource by its external identifier; bypasses pagination; 404 on a miss. A hit answers the normal list shape with a one-item `data` array; on a paginated list its meta is `{page: 1, limit: <the requested or default limit>, total_pages: 1}`. */
                external_id?: components["parameters"]["ExternalIdLookup"];
            };
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The patient's documents. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Document"][];
                    };
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    uploadDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["DocumentUpload"];
            };
        };
        responses: {
            /** @description The file was stored. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentUploadResult"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ExternalIdInUse"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
        };
    };
    extractDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
                /**
                 * @description Document id.
                 * @example 2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f
                 */
                documentId: components["parameters"]["DocumentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An extraction run was started. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExtractStarted"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            /** @description The extraction run could not be started; `success` is false and `error`/`details` say why. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExtractNotStarted"];
                };
            };
        };
    };
    deleteDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Patient id, a string of digits.
                 * @example 7281928374650192837
                 */
                patientId: components["parameters"]["PatientId"];
                /**
                 * @description Document id.
                 * @example 2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f
                 */
                documentId: components["parameters"]["DocumentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    listProviders: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: components["parameters"]["Page"];
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Individual (type-I) NPI of one provider. Bypasses pagination: a hit answers a one-item `data` array with meta `{page: 1, limit: <the requested or default limit>, total_pages: 1}`; no match answers 404. */
                npi?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of providers. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Provider"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    getProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Provider id.
                 * @example 3f6c2a4e-8b1d-4c7e-9a52-6d0e1f2b3c4d
                 */
                providerId: components["parameters"]["ProviderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Provider"];
                    };
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    listNotes: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: components["parameters"]["Page"];
                /** @description Page size. */
                limit?: components["parameters"]["Limit"];
                /** @description Only notes of this patient. */
                patient_id?: components["schemas"]["PatientIdValue"];
                /** @description Only notes of this session. */
                session_id?: string;
                /** @description Only notes made with this template. */
                template_id?: string;
                /** @description Only notes authored by this clinician (a provider of the organization). */
                provider_id?: string;
                /** @description Only notes of this type. */
                note_type?: string;
                /** @description Only notes created on or after this ISO 8601 date or date-time. */
                created_after?: components["schemas"]["DateOrDateTime"];
                /** @description Only notes created on or before this ISO 8601 date or date-time (a date covers the whole day). */
                created_before?: components["schemas"]["DateOrDateTime"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of notes. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NoteListItem"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
        };
    };
    exportNotes: {
        parameters: {
            query?: {
                /** @description Output format. */
                format?: "json" | "csv" | "ndjson";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every note of the organization. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NoteExport"][];
                    };
                    /** @example {"id":"0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f","patient_id":"7281928374650192837","session_id":"5f4e3d2c-1b0a-4987-8654-3210fedcba98","note_type":"progress_note","specialty":"Psychiatry","template_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","template_name":"SOAP","created_at":"2026-11-02T16:05:12.345Z","updated_at":"2026-11-02T16:05:12.345Z","content":"S: ...","problems":[],"procedures":[],"icd10_codes":{},"cpt_codes":{}} */
                    "application/x-ndjson": string;
                    /**
                     * @example id,patient_id,session_id,note_type,specialty,template_id,template_name,created_at,updated_at,content,problems,procedures,icd10_codes,cpt_codes
                     *     0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f,7281928374650192837,5f4e3d2c-1b0a-4987-8654-3210fedcba98,progress_note,Psychiatry,9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d,SOAP,2026-11-02T16:05:12.345Z,2026-11-02T16:05:12.345Z,"S: ...",[],[],{},{}
                     */
                    "text/csv": string;
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
        };
    };
    getNote: {
        parameters: {
            query?: {
                /** @description Comma-separated list of `transcript`, `patient`. Default both; an empty value omits both. */
                include?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Note id.
                 * @example 0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f
                 */
                noteId: components["parameters"]["NoteId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The note. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["NoteDetail"];
                    };
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    getSessionNotes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Session id.
                 * @example 5f4e3d2c-1b0a-4987-8654-3210fedcba98
                 */
                sessionId: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session and its notes. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            session: components["schemas"]["Session"];
                            patient: components["schemas"]["NotePatientContext"];
                            notes: components["schemas"]["NoteDetail"][];
                        };
                    };
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    regenerateSessionNote: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeated requests with the same key for the same session collapse onto one regeneration; deduplicated for at least one hour. Meant for retries after a timeout or lost response. A repeat is answered with the same 202 body as the first request. */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description Session id.
                 * @example 5f4e3d2c-1b0a-4987-8654-3210fedcba98
                 */
                sessionId: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "template_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "model": "detailed"
                 *     }
                 */
                "application/json": components["schemas"]["RegenerateRequest"];
            };
        };
        responses: {
            /** @description Regeneration queued. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegenerateAccepted"];
                };
            };
            /** @description Invalid request; `{error}`, with `details` when field errors are known. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] | components["schemas"]["ValidationError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The session is not ready for regeneration. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Session is not ready for regeneration"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            /** @description The regeneration could not be queued. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Regeneration could not be queued"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    noteCreatedWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["NoteEventDelivery"];
        responses: {
            200: components["responses"]["WebhookAcknowledged"];
            408: components["responses"]["WebhookRetried"];
            429: components["responses"]["WebhookRetried"];
            "3XX": components["responses"]["WebhookRedirectRefused"];
            "5XX": components["responses"]["WebhookRetried"];
        };
    };
    noteRegeneratedWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["NoteEventDelivery"];
        responses: {
            200: components["responses"]["WebhookAcknowledged"];
            408: components["responses"]["WebhookRetried"];
            429: components["responses"]["WebhookRetried"];
            "3XX": components["responses"]["WebhookRedirectRefused"];
            "5XX": components["responses"]["WebhookRetried"];
        };
    };
    noteUpdatedWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["NoteEventDelivery"];
        responses: {
            200: components["responses"]["WebhookAcknowledged"];
            408: components["responses"]["WebhookRetried"];
            429: components["responses"]["WebhookRetried"];
            "3XX": components["responses"]["WebhookRedirectRefused"];
            "5XX": components["responses"]["WebhookRetried"];
        };
    };
    documentStatusChangedWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The event, encoded in the webhook's configured format. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "DOCUMENT_STATUS_CHANGED",
                 *       "document_id": "2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f",
                 *       "patient_id": "7281928374650192837",
                 *       "external_id": "ehr-doc-77",
                 *       "status": "completed",
                 *       "error": null,
                 *       "document_url": "https://api.clinical-records.test/ext-api/v1/patients/7281928374650192837/documents?external_id=ehr-doc-77",
                 *       "timestamp": "2026-11-02T16:05:12.345Z"
                 *     }
                 */
                "application/json": components["schemas"]["DocumentStatusChangedEvent"];
                "application/xml": components["schemas"]["DocumentStatusChangedEvent"];
                "application/x-www-form-urlencoded": components["schemas"]["DocumentStatusChangedEvent"];
            };
        };
        responses: {
            200: components["responses"]["WebhookAcknowledged"];
            408: components["responses"]["WebhookRetried"];
            429: components["responses"]["WebhookRetried"];
            "3XX": components["responses"]["WebhookRedirectRefused"];
            "5XX": components["responses"]["WebhookRetried"];
        };
    };
}

// Named aliases for the component schemas (one per schema of the spec).
export type PatientIdValue = components["schemas"]["PatientIdValue"];
export type ExternalId = components["schemas"]["ExternalId"];
export type Npi = components["schemas"]["Npi"];
export type DateTime = components["schemas"]["DateTime"];
export type DateOrDateTime = components["schemas"]["DateOrDateTime"];
export type PageMeta = components["schemas"]["PageMeta"];
export type Error = components["schemas"]["Error"];
export type ValidationError = components["schemas"]["ValidationError"];
export type ExternalIdConflict = components["schemas"]["ExternalIdConflict"];
export type RateLimitError = components["schemas"]["RateLimitError"];
export type Success = components["schemas"]["Success"];
export type Address = components["schemas"]["Address"];
export type Mrn = components["schemas"]["Mrn"];
export type PatientCreate = components["schemas"]["PatientCreate"];
export type PatientUpdate = components["schemas"]["PatientUpdate"];
export type Patient = components["schemas"]["Patient"];
export type PatientListItem = components["schemas"]["PatientListItem"];
export type PatientEnvelope = components["schemas"]["PatientEnvelope"];
export type VisitType = components["schemas"]["VisitType"];
export type AppointmentStatus = components["schemas"]["AppointmentStatus"];
export type RepeatRule = components["schemas"]["RepeatRule"];
export type AppointmentCreate = components["schemas"]["AppointmentCreate"];
export type AppointmentUpdate = components["schemas"]["AppointmentUpdate"];
export type Appointment = components["schemas"]["Appointment"];
export type RepeatRuleOutput = components["schemas"]["RepeatRuleOutput"];
export type AppointmentEnvelope = components["schemas"]["AppointmentEnvelope"];
export type DocumentStatus = components["schemas"]["DocumentStatus"];
export type Document = components["schemas"]["Document"];
export type DocumentUpload = components["schemas"]["DocumentUpload"];
export type DocumentUploadResult = components["schemas"]["DocumentUploadResult"];
export type ExtractResult = components["schemas"]["ExtractResult"];
export type ExtractStarted = components["schemas"]["ExtractStarted"];
export type ExtractNotStarted = components["schemas"]["ExtractNotStarted"];
export type Provider = components["schemas"]["Provider"];
export type NoteListItem = components["schemas"]["NoteListItem"];
export type Codes = components["schemas"]["Codes"];
export type NoteDetail = components["schemas"]["NoteDetail"];
export type NoteExport = components["schemas"]["NoteExport"];
export type Transcript = components["schemas"]["Transcript"];
export type ClientHistory = components["schemas"]["ClientHistory"];
export type NotePatientContext = components["schemas"]["NotePatientContext"];
export type Session = components["schemas"]["Session"];
export type RegenerateRequest = components["schemas"]["RegenerateRequest"];
export type RegenerateAccepted = components["schemas"]["RegenerateAccepted"];
export type NoteEvent = components["schemas"]["NoteEvent"];
export type DocumentStatusChangedEvent = components["schemas"]["DocumentStatusChangedEvent"];

/** The event kinds: the keys of the spec's `webhooks`. */
export type WebhookEventKind = keyof webhooks;
/** The JSON payload schema of one webhook kind (note kinds share one schema). */
export type WebhookPayload<K extends WebhookEventKind> = NonNullable<webhooks[K]["post"]["requestBody"]>["content"]["application/json"];
/** The payload of one webhook kind, with `event` narrowed to that kind. */
export type WebhookEventOf<K extends WebhookEventKind> = WebhookPayload<K> & { event: K };
/** Any webhook payload: the union of the payload schemas, discriminated by `event`. */
export type WebhookEvent = { [K in WebhookEventKind]: WebhookPayload<K> }[WebhookEventKind];

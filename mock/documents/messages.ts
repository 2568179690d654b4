// The kit's wordings of the upload and extract answers (DOC-036: the source does not quote them). They live in the
// spec (`x-messages` on DocumentUploadResult.message and ExtractResult.message), from which the conformance suite
// reads them too; this module names them for the mock.
import { messages } from '../../generated/spec-values.ts';

export const MESSAGES = {
  uploadedQueued: messages.upload.queued,
  uploaded: messages.upload.notQueued,
  extractStarted: messages.extract.started,
  extractNotStarted: messages.extract.notStarted,
} as const;

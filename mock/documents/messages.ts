// The kit's wordings of the upload and extract answers (DOC-036: the source does not quote them; the spec's
// x-assumption on DocumentUploadResult.message names them). One place for the mock and the conformance suite.
export const MESSAGES = {
  uploadedQueued: 'Document uploaded successfully. Text extraction started.',
  uploaded: 'Document uploaded successfully.',
  extractStarted: 'Text extraction started.',
  extractNotStarted: 'Text extraction could not be started.',
} as const;

// DOC-026's "text-extraction-started wording": the document quotes no text, so every wording that says extraction
// started passes (an independent server's "Started text extraction." failed the first, narrower reading), and the
// plain uploaded wording, or one saying extraction did not start, does not.
import { describe, expect, it } from 'vitest';
import { saysExtractionStarted } from './documents.ts';

describe('saysExtractionStarted', () => {
  it.each([
    'Document uploaded successfully. Text extraction started.',
    'Document uploaded. Started text extraction.',
    'Text extraction has begun',
    'Extracting text…',
    'Queued for extraction',
    'Upload complete; extraction in progress',
    'Document uploaded successfully. Text extraction started. You do not need to call the extract endpoint.',
  ])('%s: says it', (m) => expect(saysExtractionStarted(m)).toBe(true));

  it.each([
    'Document uploaded successfully.',
    'Document uploaded; text extraction could not be started',
    'Uploaded. Extraction not started.',
    'Document stored',
  ])('%s: does not', (m) => expect(saysExtractionStarted(m)).toBe(false));
});

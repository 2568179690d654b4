// A request journal entry as record-requests.ts keeps it, every field set (a GET of the patient list answered 200),
// for the tests of the journal's ring and of showEntry.
import type { JournalEntry } from '../platform/journal-entry.ts';

export const keptEntry = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  id: 0,
  started: Date.now(),
  duration: 1,
  method: 'GET',
  path: '/ext-api/v1/patients',
  query: '',
  status: 200,
  check: undefined,
  body: null,
  bytes: null,
  type: null,
  unread: false,
  error: undefined,
  presented: undefined,
  violations: undefined,
  engine_status: undefined,
  frontId: undefined,
  refusal: undefined,
  upstream: undefined,
  fault: undefined,
  form: undefined,
  headers: undefined,
  ...over,
});

// What one text extraction may cost. Listed in docs/mock.md's choices of the mock; a document over a limit ends
// `failed` with an extraction_error naming the limit. Measured here: mammoth holds about 70 MB and spends about
// 0.25 s per MiB of XML it parses, so the XML bound is what keeps a DOCX small; pdf.js decodes whole streams.
export interface ExtractionLimits {
  /** DOCX: zip entries in the archive. */
  docxEntries: number;
  /** DOCX: bytes all entries inflate to (media included), counted while inflating. */
  docxInflatedBytes: number;
  /** DOCX: bytes the XML parts (what mammoth parses) inflate to, counted while inflating. */
  docxXmlBytes: number;
  /** PDF: pages. */
  pdfPages: number;
  /** PDF: bytes the compressed streams other than images (pages, fonts, forms) inflate to, counted while inflating. */
  pdfInflatedBytes: number;
  /** Characters of text read from one document, PDF or DOCX, before whitespace is collapsed. */
  textChars: number;
  /** The extraction worker's JavaScript heap. */
  heapMb: number;
  /** Growth of the process's resident memory while a worker runs (buffers are outside the heap limit). */
  memoryGrowthMb: number;
  /** Wall-clock time one extraction may take. */
  seconds: number;
}

export const EXTRACTION_LIMITS: ExtractionLimits = {
  docxEntries: 1_000,
  docxInflatedBytes: 64 * 1024 * 1024,
  docxXmlBytes: 8 * 1024 * 1024,
  pdfPages: 1_000,
  pdfInflatedBytes: 128 * 1024 * 1024,
  textChars: 5_000_000,
  heapMb: 512,
  memoryGrowthMb: 1_024,
  seconds: 60,
};

export const MiB = 1024 * 1024;
export const mib = (bytes: number) => `${+(bytes / MiB).toFixed(1)} MiB`;

// The suite's own test document: a minimal one-page PDF 1.4 whose text an extractor can read (one Helvetica line per
// entry). Written here, not borrowed from the mock, so the suite never depends on the implementation it judges.

/** A one-page PDF showing `lines` (ASCII; other characters become '?'). */
export function minimalPdf(lines: string[]): Uint8Array {
  const text = lines.map((l) => `(${l.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, '\\$&')}) Tj T*`).join('\n');
  const content = `BT /F1 12 Tf 14 TL 72 720 Td\n${text}\nET`;
  const bodies = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  // Byte offsets for the cross-reference table: the text is ASCII, so characters are bytes.
  let pdf = '%PDF-1.4\n';
  const xref = bodies.map((b, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${b}\nendobj\n`;
    return `${String(at).padStart(10, '0')} 00000 n \n`;
  });
  const start = pdf.length;
  pdf += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${xref.join('')}`;
  pdf += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${start}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

// NPIs the suite makes up: 10 digits whose last is the Luhn check digit over the 80840 prefix and the first nine
// (the CMS rule). The suite's own arithmetic, not the mock's.

/** The check digit of an NPI whose first nine digits are `nine`. */
export function npiCheckDigit(nine: string): number {
  const digits = `80840${nine}`.split('').map(Number).reverse();
  // Luhn: from the right, every digit in an even position (0, 2, ...) of the payload is doubled, digits summed.
  const sum = digits.reduce((acc, d, i) => acc + (i % 2 === 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
  return (10 - (sum % 10)) % 10;
}

/**
 * A Luhn-valid NPI not in `taken`, counting down from the top of the individual (type-1) range: an NPI's first digit is
 * 1 for an individual (the document's "individual, type-I NPI"), so a server that checks an NPI's form takes it for
 * one, and the top of the range is where seeds rarely are.
 */
export function unusedNpi(taken: string[]): string {
  for (let base = 199_999_999; ; base--) {
    const npi = `${base}${npiCheckDigit(String(base))}`;
    if (!taken.includes(npi)) return npi;
  }
}

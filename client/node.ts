// The client's entry for Node (the `node` condition of `clinical-records-api/client`): the browser entry's exports,
// with a createClinicalRecordsClient whose uploads also take a file path (client/read-path.ts).
import { buildClient, type ClinicalRecordsClient, type ClinicalRecordsClientOptions } from './create.ts';
import { readPathFile } from './read-path.ts';

export * from './index.ts';

/** As the browser entry's, plus uploads from a file path. A local export wins over the `export *` of the same name. */
export function createClinicalRecordsClient(options: ClinicalRecordsClientOptions): ClinicalRecordsClient {
  return buildClient(options, readPathFile);
}

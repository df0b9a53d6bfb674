/** After a job appended Markdown: bring the search index up to date (DESIGN §6), never failing the job. */
import type { Output } from '../../terminal/output.js';
import type { LoadedConfig } from '../../config/load.js';

export async function refreshIndex(workspace: string, loaded: LoadedConfig, out: Output): Promise<void> {
  // Loaded only when something was written: a run that adds nothing never pays for the index code.
  const { updateIndexAfterWrite } = await import('../../search/index.js');
  const { warning } = await updateIndexAfterWrite(workspace, loaded);
  if (warning) out.warn(warning);
}

import { ProviderError } from './provider-error';

/**
 * A delete repeated after an unknown outcome may find that the first attempt already deleted the object. The client
 * reports that as an unknown outcome caused by a 404; for a delete it means done. A 404 without an earlier unknown
 * outcome still reaches the caller as not_found (a wrong id).
 */
export async function deleteTolerantOfReplay(remove: () => Promise<void>): Promise<void> {
  try {
    await remove();
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'unknown_outcome' && error.cause instanceof ProviderError && error.cause.kind === 'not_found') return;
    throw error;
  }
}

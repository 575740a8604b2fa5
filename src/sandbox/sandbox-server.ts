export interface SandboxOptions {
  port?: number;
  host?: string;
  apiKey: string;
  shopId?: string;
  stateFile?: string;
}
export interface SandboxHandle {
  url: string;
  close(): Promise<void>;
}
export async function startSandbox(_options: SandboxOptions): Promise<SandboxHandle> {
  throw new Error('not implemented');
}

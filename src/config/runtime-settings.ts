/** Where this process found its database and provider, once main.ts (or a test) has resolved them. */
export class RuntimeSettings {
  constructor(
    readonly databaseUrl: string,
    /** The provider base URL the gateway calls: PROVIDER_URL, or the in-process sandbox. */
    readonly providerBaseUrl: string,
  ) {}
}

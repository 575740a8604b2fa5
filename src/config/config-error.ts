/** Thrown at boot when the environment is unusable; its message lists every problem and its fix. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The daemon cannot start: the environment has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n` +
        problems.map((p) => `  - ${p}`).join('\n') +
        '\nFix the variables above (see README.md, "Environment") and start again.',
    );
    this.name = 'ConfigError';
  }
}

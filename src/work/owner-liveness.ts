/**
 * The engine's one rule for whether a row's holder is alive: its process has heartbeated within the lapse. As SQL
 * over the row alias `alias` (with `lease_owner`), the lapse in seconds given by the parameter `lapseSecondsParam`.
 * Claims take the rows of a holder that is not alive; wakes leave the rows of one that is.
 */
export function ownerIsLiveSql(alias: string, lapseSecondsParam: string): string {
  return `EXISTS (SELECT 1 FROM workers w WHERE w.id = ${alias}.lease_owner AND w.heartbeat_at > now() - make_interval(secs => ${lapseSecondsParam}))`;
}

/** The query that says whether the console is signed in (GET /console/session). */
export const SESSION_QUERY = ['console-session'] as const;

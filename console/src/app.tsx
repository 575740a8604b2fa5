import { Loader } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api, onSignedOut, unwrap } from './api/client';
import { allows } from './api/scopes';
import { SESSION_QUERY } from './api/session';
import { Shell } from './shell';
import { SignInPage } from './pages/sign-in';

/** Signed in: the console; otherwise the sign-in page (any 401 from the API brings it back). */
export function App() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useQuery({ queryKey: SESSION_QUERY, queryFn: async () => unwrap(await api.GET('/console/session')), staleTime: Infinity });
  useEffect(() => onSignedOut(() => void queryClient.invalidateQueries({ queryKey: SESSION_QUERY })), [queryClient]);

  if (!session.data) return <Loader m="xl" role="status" aria-label={t('common.loading')} />;
  if (!session.data.signedIn) return <SignInPage />;
  const scopes = session.data.scopes ?? [];
  // The test clock's routes need `admin`: a console signed in with a narrower key shows no clock to move.
  return <Shell expiresAt={session.data.expiresAt ?? null} testClock={session.data.testClock === true && allows(scopes, 'admin')} scopes={scopes} />;
}

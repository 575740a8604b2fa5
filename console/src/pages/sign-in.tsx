import { Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { SESSION_QUERY } from '../api/session';
import { ErrorNotice } from '../components/error-notice';
import { LanguageSwitch } from '../components/language-switch';

/** Sign in with the admin token: the daemon answers with an HttpOnly session cookie; the token is not kept here. */
export function SignInPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const signIn = useMutation({
    mutationFn: async () => unwrap(await api.POST('/console/session', { body: { token } })),
    onSuccess: async () => {
      setToken('');
      // Nothing read under an earlier session survives; the session query itself is read again.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY[0] });
      await queryClient.invalidateQueries({ queryKey: SESSION_QUERY });
    },
  });
  return (
    <Center mih="100vh" component="main">
      <Paper withBorder shadow="sm" p="xl" w={420}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!signIn.isPending) signIn.mutate();
          }}
        >
          <Stack>
            <Title order={1} size="h2">
              {t('signIn.title')}
            </Title>
            <LanguageSwitch />
            <Text size="sm">{t('signIn.help')}</Text>
            <PasswordInput label={t('signIn.token')} value={token} onChange={(e) => setToken(e.currentTarget.value)} required autoComplete="current-password" />
            {signIn.error && <ErrorNotice error={signIn.error} />}
            <Button type="submit" loading={signIn.isPending}>
              {t('signIn.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}

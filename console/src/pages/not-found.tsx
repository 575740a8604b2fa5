import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('notFound.title')}
      </Title>
      <Text>
        {t('notFound.text')}{' '}
        <Anchor component={Link} to="/">
          {t('notFound.back')}
        </Anchor>
      </Text>
    </Stack>
  );
}

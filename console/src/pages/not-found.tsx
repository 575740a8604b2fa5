import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Stack>
      <Title order={1} size="h2">
        No such page
      </Title>
      <Text>
        The console has no page at this address. <Anchor component={Link} to="/">Back to the dashboard</Anchor>
      </Text>
    </Stack>
  );
}

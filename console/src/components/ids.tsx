import { ActionIcon, Anchor, CopyButton, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { useAllows } from '../api/use-allows';

const ICON = { width: 14, height: 14, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, 'aria-hidden': true } as const;
const CopyIcon = () => (
  <svg {...ICON}>
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
  </svg>
);
const CheckIcon = () => (
  <svg {...ICON}>
    <path d="M5 12l5 5L20 7" />
  </svg>
);

/** A button that copies an id whole, for a ticket or a curl; it says so once done. */
export function CopyId({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={id} timeout={1500}>
      {({ copied, copy }) => (
        <ActionIcon variant="subtle" color="gray.8" size="sm" onClick={copy} aria-label={copied ? t('common.copied') : t('common.copyId', { id })} title={t('common.copy')}>
          {copied ? <CheckIcon /> : <CopyIcon />}
        </ActionIcon>
      )}
    </CopyButton>
  );
}

/** A link to an object's own page (every object has a deep link) showing `label` or its whole id, and a copy of the id. */
export function IdLink({ to, id, label }: { to: string; id: string; label?: React.ReactNode }) {
  return (
    <Group gap={2} wrap="nowrap">
      <Anchor component={Link} to={to} ff={label ? undefined : 'monospace'} size="sm" title={id} style={{ whiteSpace: 'nowrap' }}>
        {label ?? id}
      </Anchor>
      <CopyId id={id} />
    </Group>
  );
}

/** A customer in a list by email (its id when it has none), read once per customer and shared with its page. */
export function CustomerLink({ id }: { id: string }) {
  const allowed = useAllows('customers:read');
  const customer = useQuery({
    queryKey: ['customer', id],
    enabled: allowed,
    queryFn: async () => unwrap(await api.GET('/api/v1/customers/{id}', { params: { path: { id } } })),
  });
  return <IdLink to={`/customers/${id}`} id={id} label={customer.data?.email ?? undefined} />;
}

/** A plan in a list by name, read once per plan and shared with its page. */
export function PlanLink({ id }: { id: string }) {
  const allowed = useAllows('plans:read');
  const plan = useQuery({ queryKey: ['plan', id], enabled: allowed, queryFn: async () => unwrap(await api.GET('/api/v1/plans/{id}', { params: { path: { id } } })) });
  return <IdLink to={`/plans/${id}`} id={id} label={plan.data?.name} />;
}

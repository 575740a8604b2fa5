import { AppShell, Box, Burger, Button, Group, Loader, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { api, unwrap } from './api/client';
import { allows } from './api/scopes';
import { SESSION_QUERY } from './api/session';
import { LanguageSwitch } from './components/language-switch';
import { TEST_CLOCK_BANNER_HEIGHT, TestClockBanner } from './components/test-clock-banner';
import { Time } from './components/values';

// Each page is its own chunk: the first screen loads only what it shows.
const DashboardPage = lazy(() => import('./pages/dashboard'));
const RevenuePage = lazy(() => import('./pages/revenue'));
const CustomersPage = lazy(() => import('./pages/customers'));
const CustomerPage = lazy(() => import('./pages/customer'));
const SubscriptionsPage = lazy(() => import('./pages/subscriptions'));
const SubscriptionPage = lazy(() => import('./pages/subscription'));
const ChargesPage = lazy(() => import('./pages/charges'));
const ChargePage = lazy(() => import('./pages/charge'));
const PlansPage = lazy(() => import('./pages/plans'));
const PlanPage = lazy(() => import('./pages/plan'));
const NewPlanPage = lazy(() => import('./pages/plan-new'));
const PayoutsPage = lazy(() => import('./pages/payouts'));
const PayoutPage = lazy(() => import('./pages/payout'));
const PayoutBatchPage = lazy(() => import('./pages/payout-batch'));
const PayoutUploadPage = lazy(() => import('./pages/payout-upload'));
const EventsPage = lazy(() => import('./pages/events'));
const EventPage = lazy(() => import('./pages/event'));
const EndpointsPage = lazy(() => import('./pages/webhook-endpoints'));
const EndpointPage = lazy(() => import('./pages/webhook-endpoint'));
const NotFoundPage = lazy(() => import('./pages/not-found'));
const CouponsPage = lazy(() => import('./pages/coupons'));
const ApiKeysPage = lazy(() => import('./pages/api-keys'));
const DunningPage = lazy(() => import('./pages/dunning'));

/** Each section with the scope its list needs: a console signed in with an API key shows only those it may read. */
const SECTIONS = [
  { to: '/', key: 'dashboard', scope: 'reports:read' },
  { to: '/revenue', key: 'revenue', scope: 'reports:read' },
  { to: '/customers', key: 'customers', scope: 'customers:read' },
  { to: '/subscriptions', key: 'subscriptions', scope: 'subscriptions:read' },
  { to: '/charges', key: 'charges', scope: 'charges:read' },
  { to: '/dunning', key: 'dunning', scope: 'charges:read' },
  { to: '/plans', key: 'plans', scope: 'plans:read' },
  { to: '/coupons', key: 'coupons', scope: 'coupons:read' },
  { to: '/payouts', key: 'payouts', scope: 'payouts:read' },
  { to: '/events', key: 'events', scope: 'events:read' },
  { to: '/webhook-endpoints', key: 'webhookEndpoints', scope: 'webhooks:read' },
  { to: '/api-keys', key: 'apiKeys', scope: 'admin' },
] as const;

export function Shell({ expiresAt, testClock, scopes }: { expiresAt: string | null; testClock: boolean; scopes: readonly string[] }) {
  const { t } = useTranslation();
  const location = useLocation();
  const queryClient = useQueryClient();
  const signOut = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/console/session')),
    onSuccess: async () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY[0] });
      await queryClient.invalidateQueries({ queryKey: SESSION_QUERY });
    },
  });
  const sections = SECTIONS.filter((section) => allows(scopes, section.scope));
  const current = (to: string) => (to === '/' ? location.pathname === '/' : location.pathname.startsWith(to));
  // On a phone the sections fold behind a menu button, and a chosen section folds them again.
  const [menuOpen, menu] = useDisclosure(false);
  const { close: closeMenu } = menu;
  useEffect(() => closeMenu(), [location.pathname, closeMenu]);
  return (
    <AppShell header={{ height: testClock ? { base: 56 + TEST_CLOCK_BANNER_HEIGHT.base, sm: 56 + TEST_CLOCK_BANNER_HEIGHT.sm } : 56 }} navbar={{ width: 210, breakpoint: 'sm', collapsed: { mobile: !menuOpen } }} padding="md">
      <a href="#content" className="skip-link">
        {t('shell.skip')}
      </a>
      <AppShell.Header>
        <Group h={56} px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={menuOpen} onClick={menu.toggle} hiddenFrom="sm" size="sm" aria-label={menuOpen ? t('shell.closeMenu') : t('shell.openMenu')} aria-expanded={menuOpen} aria-controls="sections" />
            <Title order={2} size="h4">
              {t('shell.title')}
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {expiresAt && (
              <Text size="sm" visibleFrom="sm">
                <Trans i18nKey="shell.sessionUntil" components={{ time: <Time value={expiresAt} /> }} />
              </Text>
            )}
            <Button variant="default" size="xs" onClick={() => !signOut.isPending && signOut.mutate()} loading={signOut.isPending}>
              {t('shell.signOut')}
            </Button>
          </Group>
        </Group>
        {testClock && <TestClockBanner />}
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('shell.sections')} id="sections">
        {sections.map((s) => (
          <NavLink key={s.to} component={Link} to={s.to} label={t(`nav.${s.key}`)} variant="filled" active={current(s.to)} aria-current={current(s.to) ? 'page' : undefined} />
        ))}
        <Box mt="md">
          <LanguageSwitch />
        </Box>
      </AppShell.Navbar>
      <AppShell.Main id="content" tabIndex={-1}>
        <Suspense fallback={<Loader role="status" aria-label={t('common.loading')} />}>
          <Routes>
            <Route path="/" element={allows(scopes, 'reports:read') ? <DashboardPage /> : <Navigate to={sections[0]?.to ?? '/events'} replace />} />
            <Route path="/revenue" element={<RevenuePage />} />
            <Route path="/customers" element={<CustomersPage />} />
            <Route path="/customers/:id" element={<CustomerPage />} />
            <Route path="/subscriptions" element={<SubscriptionsPage />} />
            <Route path="/subscriptions/:id" element={<SubscriptionPage />} />
            <Route path="/charges" element={<ChargesPage />} />
            <Route path="/charges/:id" element={<ChargePage />} />
            <Route path="/dunning" element={<DunningPage />} />
            <Route path="/plans" element={<PlansPage />} />
            <Route path="/plans/new" element={<NewPlanPage />} />
            <Route path="/plans/:id" element={<PlanPage />} />
            <Route path="/payouts" element={<PayoutsPage />} />
            <Route path="/payouts/upload" element={<PayoutUploadPage />} />
            <Route path="/payouts/batches/:id" element={<PayoutBatchPage />} />
            <Route path="/payouts/:id" element={<PayoutPage />} />
            <Route path="/events" element={<EventsPage />} />
            <Route path="/events/:id" element={<EventPage />} />
            <Route path="/webhook-endpoints" element={<EndpointsPage />} />
            <Route path="/webhook-endpoints/:id" element={<EndpointPage />} />
            <Route path="/coupons" element={<CouponsPage />} />
            <Route path="/api-keys" element={<ApiKeysPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

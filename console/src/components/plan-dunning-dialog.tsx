import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError, unwrap } from '../api/client';
import type { Plan } from '../api/types';
import { useAllows } from '../api/use-allows';
import { useWrite } from '../api/use-write';
import { DunningSummary } from './dunning-summary';
import { ErrorNotice } from './error-notice';
import { draftOf, draftProblems, toPlanDunning, type DunningDraft } from './plan-dunning-draft';
import { PlanDunningFields } from './plan-dunning-fields';

/** The effective dunning a draft would give, to show beside the one in force. */
const asEffective = (draft: DunningDraft): Plan['dunning'] => toPlanDunning(draft) as Plan['dunning'];

/**
 * "Change the dunning" of one plan (PATCH /api/v1/plans/{id}, scope plans:write): the fields, then the dunning in force
 * and the one after the change side by side before the confirm button, which stays disabled until something changes
 * and every field is right. What the daemon refuses is shown on its field. Not its own confirmation step: the
 * statement of what changes is in the same dialog, as every form dialog of the console does.
 */
export function PlanDunningDialog({ plan }: { plan: Plan }) {
  const { t } = useTranslation();
  const allowed = useAllows('plans:write');
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<DunningDraft>(draftOf(plan.dunning));
  const [done, setDone] = useState(false);
  const save = useWrite(
    async (body: DunningDraft, key: string) =>
      unwrap(await api.PATCH('/api/v1/plans/{id}', { params: { path: { id: plan.id } }, body: { dunning: toPlanDunning(body) }, headers: { 'Idempotency-Key': key } })),
    () => {
      setOpen(false);
      setDone(true);
    },
  );
  if (!allowed) return null;
  const problems = draftProblems(draft);
  const before = JSON.stringify(toPlanDunning(draftOf(plan.dunning)));
  const after = toPlanDunning(draft);
  const changed = JSON.stringify(after) !== before;
  const error = save.mutation.error;
  // A refusal about one field goes on that field; anything else above the buttons.
  const field = error instanceof ApiError ? error.field ?? '' : '';
  const serverErrors = error ? { maxDays: field.includes('maxDays') ? error.message : undefined, retryDelays: field.includes('retryDelays') ? error.message : undefined } : {};
  const onField = serverErrors.maxDays !== undefined || serverErrors.retryDelays !== undefined;
  const change = (part: Partial<DunningDraft>) => {
    save.mutation.reset();
    setDraft((d) => ({ ...d, ...part }));
  };
  return (
    <>
      <Button
        variant="default"
        onClick={() => {
          setDraft(draftOf(plan.dunning));
          save.mutation.reset();
          setDone(false);
          setOpen(true);
        }}
      >
        {t('dunningForm.label')}
      </Button>
      {done && (
        <Alert variant="default" role="status" title={t('common.done')} withCloseButton closeButtonLabel={t('common.dismiss')} onClose={() => setDone(false)} style={{ flexBasis: '100%' }}>
          {t('dunningForm.done', { name: plan.name })}
        </Alert>
      )}
      <Modal opened={open} onClose={() => !save.mutation.isPending && setOpen(false)} title={t('dunningForm.title', { name: plan.name })} size="lg" centered closeButtonProps={{ 'aria-label': t('common.close') }} lockScroll={false}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (changed && !problems.maxDays && !problems.retryDelays) save.send(draft);
          }}
        >
          <Stack>
            <PlanDunningFields value={draft} onChange={change} problems={problems} serverErrors={serverErrors} />
            <section aria-label={t('dunningForm.whatChanges')} data-testid="dunning-change">
              <Text fw={700} size="sm">
                {t('dunningForm.whatChanges')}
              </Text>
              {changed ? (
                <List size="sm" spacing={2}>
                  <List.Item>
                    {t('dunningForm.now')} <DunningSummary dunning={plan.dunning} />
                  </List.Item>
                  <List.Item>
                    {t('dunningForm.after')} <DunningSummary dunning={asEffective(draft)} />
                  </List.Item>
                </List>
              ) : (
                <Text size="sm">{t('dunningForm.nothingYet')}</Text>
              )}
              <Text size="sm" mt={4}>
                {t('dunningForm.effect')}
              </Text>
            </section>
            {error && !onField && <ErrorNotice error={error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)} disabled={save.mutation.isPending}>
                {t('common.keepAsItIs')}
              </Button>
              <Button type="submit" loading={save.mutation.isPending} disabled={!changed || problems.maxDays !== null || problems.retryDelays !== null}>
                {t('dunningForm.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

import { Alert, Button, FileInput, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { parsePayoutCsv, type PayoutCsvResult } from '../../../src/payouts/cli/payout-csv';
import { api, unwrap } from '../api/client';
import { useWrite } from '../api/use-write';
import { ErrorNotice } from '../components/error-notice';
import { Money } from '../components/values';
import { type CsvProblemKey, csvProblems } from '../format/payout-csv-problems';

/**
 * A payouts CSV, checked in the browser by the same parser and rules as `npm run payouts:import`: every row and every
 * error is shown before anything is sent, and the file is sent as one batch (all accepted or none).
 */
export default function PayoutUploadPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [parsed, setParsed] = useState<PayoutCsvResult | null>(null);
  const send = useWrite(
    async (items: PayoutCsvResult['items'], key: string) => unwrap(await api.POST('/api/v1/payouts/batches', { body: { items }, headers: { 'Idempotency-Key': key } })),
    (batch) => navigate(`/payouts/batches/${batch.id}`),
  );
  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setParsed(chosen ? parsePayoutCsv(await chosen.text()) : null);
    send.mutation.reset();
  };
  /** A problem of the file in the console's language (the parser's own words for one it does not know). */
  const problemText = (error: string) => {
    const found = csvProblems(error);
    if (!found) return error;
    // Keys by name from the problem table (CsvProblemKey), with the values each one's text takes.
    const named = t as unknown as (key: `payoutUpload.problem.${CsvProblemKey}`, values: Record<string, string>) => string;
    const problems = found.problems.map((p) => named(`payoutUpload.problem.${p.key}`, p.values)).join('; ');
    return found.line === null ? problems : t('payoutUpload.problemLine', { line: found.line, problems });
  };
  const ready = parsed !== null && parsed.errors.length === 0 && parsed.items.length > 0;
  return (
    <Stack maw={900}>
      <Title order={1} size="h2">
        {t('payoutUpload.title')}
      </Title>
      <Text size="sm">
        <Trans i18nKey="payoutUpload.help" components={{ code: <code>destinationId,amount,currency[,reference][,metadata]</code> }} />
      </Text>
      <FileInput label={t('payoutUpload.file')} accept=".csv,text/csv" value={file} onChange={(f) => void choose(f)} clearable clearButtonProps={{ 'aria-label': t('payoutUpload.clear') }} placeholder={t('payoutUpload.choose')} />
      {parsed && (
        <>
          {parsed.errors.length > 0 && (
            <Alert variant="default" style={{ borderColor: 'var(--mantine-color-red-9)' }} title={t('payoutUpload.problems', { count: parsed.errors.length })} role="alert">
              <List size="sm">
                {parsed.errors.map((e) => (
                  <List.Item key={e}>{problemText(e)}</List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Text fw={700}>
            {t('payoutUpload.read', { count: parsed.items.length })}
          </Text>
          <Table striped>
            <caption style={{ position: 'absolute', left: -10000 }}>{t('payoutUpload.caption')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">#</Table.Th>
                <Table.Th scope="col">{t('payoutUpload.col.destination')}</Table.Th>
                <Table.Th scope="col">{t('payoutUpload.col.amount')}</Table.Th>
                <Table.Th scope="col">{t('payoutUpload.col.metadata')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {parsed.items.slice(0, 200).map((item, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{i + 1}</Table.Td>
                  <Table.Td ff="monospace">{item.destinationId}</Table.Td>
                  <Table.Td>
                    <Money amount={item.amount} currency={item.currency} />
                  </Table.Td>
                  <Table.Td>{item.metadata ? JSON.stringify(item.metadata) : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {parsed.items.length > 200 && <Text size="sm">{t('payoutUpload.more', { count: parsed.items.length - 200 })}</Text>}
          {send.mutation.error && <ErrorNotice error={send.mutation.error} />}
          <Group>
            <Button disabled={!ready} loading={send.mutation.isPending} onClick={() => parsed && send.send(parsed.items)}>
              {t('payoutUpload.send', { count: parsed.items.length })}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

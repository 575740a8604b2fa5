import { Alert, Button, FileInput, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { parsePayoutCsv, type PayoutCsvResult } from '../../../src/payouts/cli/payout-csv';
import { api, unwrap } from '../api/client';
import { useWrite } from '../api/use-write';
import { ErrorNotice } from '../components/error-notice';
import { Money } from '../components/values';

/**
 * A payouts CSV, checked in the browser by the same parser and rules as `npm run payouts:import`: every row and every
 * error is shown before anything is sent, and the file is sent as one batch (all accepted or none).
 */
export default function PayoutUploadPage() {
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
  const ready = parsed !== null && parsed.errors.length === 0 && parsed.items.length > 0;
  return (
    <Stack maw={900}>
      <Title order={1} size="h2">
        Upload payouts
      </Title>
      <Text size="sm">
        A CSV with the header <code>destinationId,amount,currency[,reference][,metadata]</code>, amounts in minor units, reference your own id for the payout (a payout asked twice with one reference is made once), metadata a JSON object. Nothing is sent until you
        confirm the preview.
      </Text>
      <FileInput label="Payouts CSV" accept=".csv,text/csv" value={file} onChange={(f) => void choose(f)} clearable clearButtonProps={{ 'aria-label': 'Clear the file' }} placeholder="Choose a file" />
      {parsed && (
        <>
          {parsed.errors.length > 0 && (
            <Alert variant="default" style={{ borderColor: 'var(--mantine-color-red-9)' }} title={`${parsed.errors.length} problem${parsed.errors.length === 1 ? '' : 's'}: fix the file and choose it again`} role="alert">
              <List size="sm">
                {parsed.errors.map((e) => (
                  <List.Item key={e}>{e}</List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Text fw={700}>
            {parsed.items.length} payout{parsed.items.length === 1 ? '' : 's'} read
          </Text>
          <Table striped>
            <caption style={{ position: 'absolute', left: -10000 }}>Payouts read from the file</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">#</Table.Th>
                <Table.Th scope="col">Destination</Table.Th>
                <Table.Th scope="col">Amount</Table.Th>
                <Table.Th scope="col">Metadata</Table.Th>
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
          {parsed.items.length > 200 && <Text size="sm">…and {parsed.items.length - 200} more.</Text>}
          {send.mutation.error && <ErrorNotice error={send.mutation.error} />}
          <Group>
            <Button disabled={!ready} loading={send.mutation.isPending} onClick={() => parsed && send.send(parsed.items)}>
              Send {parsed.items.length} payout{parsed.items.length === 1 ? '' : 's'} as one batch
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllows } from '../api/use-allows';
import { useWrite } from '../api/use-write';
import { ErrorNotice } from './error-notice';

/** Colours that mark an action that ends or stops something: its confirmation is a dark red (AA contrast). */
const DESTRUCTIVE = ['red', 'orange', 'yellow'];

export interface Confirmation {
  title: string;
  /** What the action will do, shown before it is done. */
  effect: React.ReactNode;
  confirmLabel: string;
}

/**
 * A button that writes, with an Idempotency-Key (see useWrite). A destructive action first shows what it will do and
 * waits for a confirmation; afterwards the button says what it did. It is shown only to a credential holding `scope`,
 * the scope of the route it calls.
 */
export function ActionButton<T>(props: {
  label: string;
  scope: string;
  color?: string;
  variant?: 'filled' | 'light' | 'default' | 'outline';
  confirm?: Confirmation;
  run: (idempotencyKey: string) => Promise<T>;
  /** The sentence shown once it is done. */
  done: (result: T) => React.ReactNode;
  disabled?: boolean;
  /** false: the page itself shows the effect (the test clock banner shows the new time). */
  showResult?: boolean;
  /** After it succeeded and its result is shown (e.g. leave the page of a deleted object). */
  onDone?: (result: T) => void;
}) {
  const { t } = useTranslation();
  const allowed = useAllows(props.scope);
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<React.ReactNode>(null);
  const { send: write, mutation, busy } = useWrite<void, T>(
    (_, key) => props.run(key),
    (value) => {
      setOpen(false);
      setResult(props.done(value));
      props.onDone?.(value);
    },
  );
  const send = () => write(undefined);
  const start = () => {
    if (busy()) return;
    setResult(null);
    mutation.reset();
    if (props.confirm) setOpen(true);
    else send();
  };
  if (!allowed) return null;
  return (
    <>
      <Button color={props.variant ? props.color : undefined} variant={props.variant ?? 'default'} onClick={start} loading={mutation.isPending && !open} disabled={props.disabled}>
        {props.label}
      </Button>
      {result !== null && props.showResult !== false && (
        <Alert variant="default" role="status" title={t('common.done')} withCloseButton closeButtonLabel={t('common.dismiss')} onClose={() => setResult(null)} style={{ flexBasis: '100%' }}>
          {result}
        </Alert>
      )}
      {!open && mutation.error && (
        <div style={{ flexBasis: '100%' }}>
          <ErrorNotice error={mutation.error} />
        </div>
      )}
      {props.confirm && (
        <Modal
          opened={open}
          onClose={() => !mutation.isPending && setOpen(false)}
          title={props.confirm.title}
          centered
          closeButtonProps={{ 'aria-label': t('common.close') }}
          // The scroll lock writes a <style> element without the CSP nonce; the page behind a dialog may scroll.
          lockScroll={false}
        >
          <Stack>
            <Text component="div">{props.confirm.effect}</Text>
            {mutation.error && <ErrorNotice error={mutation.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)} disabled={mutation.isPending}>
                {t('common.keepAsItIs')}
              </Button>
              <Button color={DESTRUCTIVE.includes(props.color ?? '') ? 'red.9' : undefined} loading={mutation.isPending} onClick={send}>
                {props.confirm.confirmLabel}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </>
  );
}

import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllows } from '../api/use-allows';
import { ActionButton } from './action-button';

/**
 * A button that opens a dialog with a form (plan and seats, an amount, a coupon's code…) and, below it, what the action
 * will do; its confirm button is an ActionButton of the route's `scope`, so it sends one Idempotency-Key per intended
 * action. Once done the dialog closes and the page says what was done. Shown only to a credential holding `scope`.
 */
export function ActionDialog<T>(props: {
  label: string;
  scope: string;
  title: string;
  /** The form and the statement of what it will do; rendered only while the dialog is open. */
  children: React.ReactNode;
  confirmLabel: string;
  /** false while the form cannot be sent yet (e.g. the preview is not there). */
  ready: boolean;
  run: (idempotencyKey: string) => Promise<T>;
  done: (result: T) => React.ReactNode;
  disabled?: boolean;
  destructive?: boolean;
  onOpen?: () => void;
  /** The dialog closed (done, or left as it was). */
  onClose?: () => void;
}) {
  const { t } = useTranslation();
  const allowed = useAllows(props.scope);
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<React.ReactNode>(null);
  const close = () => {
    setOpen(false);
    props.onClose?.();
  };
  if (!allowed) return null;
  return (
    <>
      <Button
        variant="default"
        disabled={props.disabled}
        onClick={() => {
          setResult(null);
          props.onOpen?.();
          setOpen(true);
        }}
      >
        {props.label}
      </Button>
      {result !== null && (
        <Alert variant="default" role="status" title={t('common.done')} withCloseButton closeButtonLabel={t('common.dismiss')} onClose={() => setResult(null)} style={{ flexBasis: '100%' }}>
          {result}
        </Alert>
      )}
      <Modal opened={open} onClose={close} title={props.title} size="lg" centered closeButtonProps={{ 'aria-label': t('common.close') }} lockScroll={false}>
        <Stack>
          {props.children}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.keepAsItIs')}
            </Button>
            <ActionButton
              scope={props.scope}
              label={props.confirmLabel}
              variant="filled"
              color={props.destructive ? 'red.9' : undefined}
              disabled={!props.ready}
              run={props.run}
              done={props.done}
              showResult={false}
              onDone={(value) => {
                close();
                setResult(props.done(value));
              }}
            />
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

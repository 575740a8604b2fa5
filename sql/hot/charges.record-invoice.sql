-- charges.record-invoice: The invoice's answer and the first payment's intent, under the fence, before the payment is created.
WITH c AS (UPDATE charges SET provider_invoice_id = $3, step = 'create_payment', status = 'processing', technical_failures = 0, updated_at = $5
                   WHERE id = $1 AND fence = $2 RETURNING id),
            a AS (INSERT INTO charge_attempts (charge_id, number, external_id, status, attempted_at, created_at, updated_at)
                  SELECT $1, 1, $4, 'pending', $5, $5, $5 FROM c
                   WHERE NOT EXISTS (SELECT 1 FROM charge_attempts WHERE charge_id = $1)
                  RETURNING id)
       SELECT EXISTS (SELECT 1 FROM c) AS held, (SELECT id FROM a) AS attempt_id

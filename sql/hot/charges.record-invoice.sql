-- charges.record-invoice: The invoices' answers and first payments' intents of concurrent workers (a group commit), each under its own fence, before the payments are created.
WITH i AS (SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::varchar[], $4::varchar[], $5::timestamptz[]) WITH ORDINALITY
                         AS i(charge_id, fence, invoice_id, external_id, at, n)),
            c AS (UPDATE charges ch SET provider_invoice_id = i.invoice_id, step = 'create_payment', status = 'processing', technical_failures = 0, waiting_for = NULL, updated_at = i.at
                    FROM i WHERE ch.id = i.charge_id AND ch.fence = i.fence RETURNING ch.id, ch.fence),
            a AS (INSERT INTO charge_attempts (charge_id, number, external_id, status, attempted_at, created_at, updated_at)
                  SELECT i.charge_id, 1, i.external_id, 'pending', i.at, i.at, i.at FROM i JOIN c ON c.id = i.charge_id AND c.fence = i.fence
                   WHERE NOT EXISTS (SELECT 1 FROM charge_attempts x WHERE x.charge_id = i.charge_id)
                  RETURNING charge_id, id)
       SELECT c.id IS NOT NULL AS held, a.id AS attempt_id
         FROM i
         LEFT JOIN c ON c.id = i.charge_id AND c.fence = i.fence
         LEFT JOIN a ON a.charge_id = i.charge_id AND c.id IS NOT NULL
        ORDER BY i.n

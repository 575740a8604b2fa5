-- charges.open-attempt: A further payment attempt's intent (dunning), under the fence, before the payment is created.
WITH o AS (SELECT pending_manual_retry AS position FROM charges WHERE id = $1 AND fence = $5),
            c AS (UPDATE charges SET status = 'processing', pending_manual_retry = NULL, waiting_for = NULL, updated_at = $4 WHERE id = $1 AND fence = $5 RETURNING id)
       INSERT INTO charge_attempts (charge_id, number, external_id, status, manual, ladder_position, attempted_at, created_at, updated_at)
       SELECT $1, $2, $3, 'pending', o.position IS NOT NULL, o.position, $4, $4, $4 FROM c, o
       RETURNING id, manual, ladder_position

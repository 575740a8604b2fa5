-- charges.open-attempt: A further payment attempt's intent (dunning), under the fence, before the payment is created.
WITH c AS (UPDATE charges SET status = 'processing', updated_at = $4 WHERE id = $1 AND fence = $5 RETURNING id)
       INSERT INTO charge_attempts (charge_id, number, external_id, status, attempted_at, created_at, updated_at)
       SELECT $1, $2, $3, 'pending', $4, $4, $4 FROM c
       RETURNING id

-- charges.record-payment: The provider's payment id, once a read found the payment not final yet (or before it waits for its event).
WITH c AS (UPDATE charges SET step = 'await_payment', status = 'processing', technical_failures = 0, updated_at = $5
                   WHERE id = $1 AND fence = $2 RETURNING id)
       UPDATE charge_attempts SET provider_payment_id = $3, status = 'processing', updated_at = $5
        WHERE id = $4 AND EXISTS (SELECT 1 FROM c) RETURNING id

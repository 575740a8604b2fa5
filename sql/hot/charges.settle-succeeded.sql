-- charges.settle-succeeded: A captured payment settled: the charge released, its attempt, the audit event and charge.succeeded, in one statement.
WITH c AS (UPDATE charges SET status = 'succeeded', step = 'done', next_attempt_at = NULL, not_before = NULL, technical_failures = 0,
                         attempt_count = $3, last_error_code = NULL, lease_owner = NULL, updated_at = $6
                   WHERE id = $1 AND fence = $2 RETURNING subscription_id, updated_at),
            a AS (UPDATE charge_attempts SET status = 'succeeded', provider_payment_id = COALESCE($5, provider_payment_id), updated_at = $6
                   WHERE id = $4 AND EXISTS (SELECT 1 FROM c)),
       subscription_audit AS (INSERT INTO subscription_events (subscription_id, type, data, occurred_at, created_at)
             SELECT subscription_id, 'charge_succeeded', $7::jsonb, $8::timestamptz, $8::timestamptz FROM c),
       merchant_events AS (INSERT INTO events (id, type, created_at, data) SELECT $9::uuid, $10::varchar, date_trunc('milliseconds', clock_timestamp()), jsonb_set($11::jsonb, '{object,updatedAt}', to_jsonb((to_char((c.updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text)) FROM c RETURNING id, type),
webhook_fan_out AS (
      INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
      SELECT e.id, w.id, now() FROM merchant_events e
        JOIN webhook_endpoints w ON w.enabled AND w.events && ARRAY['*', e.type]::varchar[])
       SELECT 1 FROM c

-- charges.settle-succeeded: Captured payments settled (a group commit of concurrent workers): each charge released under its own fence, its attempt, the audit event and charge.succeeded, in one statement.
WITH i AS (SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::int[], $4::uuid[], $5::varchar[], $6::timestamptz[],
                                    $7::uuid[], $8::jsonb[], $9::jsonb[]) WITH ORDINALITY
                         AS i(charge_id, fence, attempt_count, attempt_id, payment_id, at, event_id, event_data, audit_data, n)),
            u AS (UPDATE charges ch SET status = 'succeeded', step = 'done', next_attempt_at = NULL, not_before = NULL, technical_failures = 0,
                         attempt_count = i.attempt_count, last_error_code = NULL, lease_owner = NULL, updated_at = i.at
                    FROM i WHERE ch.id = i.charge_id AND ch.fence = i.fence RETURNING ch.id, ch.fence, ch.subscription_id, ch.updated_at),
            c AS (SELECT i.*, u.subscription_id, u.updated_at FROM i JOIN u ON u.id = i.charge_id AND u.fence = i.fence),
            a AS (UPDATE charge_attempts t SET status = 'succeeded', provider_payment_id = COALESCE(c.payment_id, t.provider_payment_id), updated_at = c.at
                    FROM c WHERE t.id = c.attempt_id),
       subscription_audit AS (INSERT INTO subscription_events (subscription_id, type, data, occurred_at, created_at)
             SELECT subscription_id, 'charge_succeeded', audit_data, at, at FROM c),
       merchant_events AS (INSERT INTO events (id, type, created_at, data) SELECT c.event_id, $10::varchar, date_trunc('milliseconds', clock_timestamp()), jsonb_set(c.event_data, '{object,updatedAt}', to_jsonb((to_char((c.updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text)) FROM c RETURNING id, type),
webhook_fan_out AS (
      INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
      SELECT e.id, w.id, now() FROM merchant_events e
        JOIN webhook_endpoints w ON w.enabled AND w.events && ARRAY['*', e.type]::varchar[])
       SELECT n FROM c

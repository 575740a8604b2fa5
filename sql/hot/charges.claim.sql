-- charges.claim: Claims due charges for this process, oldest due first, dead owners first (the work engine, LeasedQueue).
WITH orphaned AS (
        SELECT t.id, t.lease_owner AS previous_owner, 0 AS rank, t.next_attempt_at AS due_at FROM charges t
         WHERE t.lease_owner IS NOT NULL AND t.lease_owner <> $3 AND t.next_attempt_at <= $1::timestamptz AND (t.not_before IS NULL OR t.not_before <= now()) AND ($5::uuid IS NULL OR t.id = $5::uuid)
           AND NOT EXISTS (SELECT 1 FROM workers w WHERE w.id = t.lease_owner AND w.heartbeat_at > now() - make_interval(secs => $4))
         ORDER BY t.next_attempt_at
         LIMIT $2
         FOR UPDATE OF t SKIP LOCKED),
      free AS (
        SELECT t.id, NULL::varchar AS previous_owner, 1 AS rank, t.next_attempt_at AS due_at FROM charges t
         WHERE t.lease_owner IS NULL AND t.next_attempt_at <= $1::timestamptz AND (t.not_before IS NULL OR t.not_before <= now()) AND ($5::uuid IS NULL OR t.id = $5::uuid)
         ORDER BY t.next_attempt_at
         LIMIT $2
         FOR UPDATE OF t SKIP LOCKED),
      picked AS (
        SELECT * FROM (SELECT * FROM orphaned UNION ALL SELECT * FROM free) x ORDER BY rank, due_at LIMIT $2)
      UPDATE charges t SET lease_owner = $3, fence = GREATEST(t.fence + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
        FROM picked
       WHERE t.id = picked.id
      RETURNING t.*, picked.previous_owner AS "__previous_owner"

//! Versioned migrations. `PRAGMA user_version` records how many have run; each runs once, in
//! its own transaction. This list is closed: the steps after it are both backends' list in
//! `store::migrations`, numbered from where this one ends. Never edit a migration that has
//! shipped.
//!
//! The first migration models every resource of the specification, including those whose
//! behaviour later work adds (messaging-app fields and channels, templates, uploads,
//! conversions, work-chat data), so that work adds behaviour rather than reshaping tables.

use rusqlite::Connection;

use crate::store::migrations::MIGRATIONS as SHARED;

const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    daily_quota INTEGER,
    created_at  INTEGER NOT NULL
);

CREATE TABLE api_keys (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    name       TEXT    NOT NULL DEFAULT '',
    prefix     TEXT    NOT NULL,
    hash       TEXT    NOT NULL UNIQUE,
    scopes     TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    revoked_at INTEGER
);
CREATE INDEX api_keys_user ON api_keys(user_id);

CREATE TABLE domains (
    id         INTEGER PRIMARY KEY,
    host       TEXT    NOT NULL UNIQUE,
    scheme     TEXT    NOT NULL CHECK (scheme IN ('http', 'https')),
    scene      TEXT    NOT NULL DEFAULT '',
    shared     INTEGER NOT NULL DEFAULT 0,
    user_id    INTEGER REFERENCES users(id),
    status     INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
);

CREATE TABLE chain_groups (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    name       TEXT    NOT NULL,
    chain_type INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (user_id, name)
);

-- Jump-page templates; user_id NULL marks a template offered to every user.
CREATE TABLE templates (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER REFERENCES users(id),
    name       TEXT    NOT NULL,
    style      TEXT    NOT NULL DEFAULT '',
    type       INTEGER NOT NULL DEFAULT 1,
    thumb      TEXT    NOT NULL DEFAULT '',
    body       TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Every kind of chain. Codes are unique per domain across deleted rows too: a code is never
-- reused, so a printed link can never start pointing somewhere its owner did not choose.
CREATE TABLE chains (
    id               INTEGER PRIMARY KEY,
    user_id          INTEGER NOT NULL REFERENCES users(id),
    chain_type       INTEGER NOT NULL,
    sub_type         INTEGER,
    domain_id        INTEGER NOT NULL REFERENCES domains(id),
    code             TEXT    NOT NULL,
    title            TEXT    NOT NULL DEFAULT '',
    target_url       TEXT    NOT NULL DEFAULT '',
    valid_time       INTEGER NOT NULL DEFAULT 0,
    status           INTEGER NOT NULL DEFAULT 1,
    deleted_at       INTEGER,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    wx_id            TEXT,
    scan_qr_url      TEXT,
    avatar           TEXT,
    guide_text       TEXT,
    promo_desc       TEXT,
    description      TEXT,
    sub_title        TEXT,
    qwhk_url         TEXT,
    mini_appid       TEXT,
    mini_path        TEXT,
    shop_appid       TEXT,
    shop_path        TEXT,
    is_direct_jump   INTEGER NOT NULL DEFAULT 0,
    show_type        INTEGER NOT NULL DEFAULT 1,
    jump_template_id INTEGER NOT NULL DEFAULT 0,
    scan_tips        INTEGER NOT NULL DEFAULT 0,
    qrcode_vc_type   INTEGER NOT NULL DEFAULT 1,
    visit_type       INTEGER NOT NULL DEFAULT 1,
    wxwork_type      INTEGER,
    customer_id      INTEGER,
    rotation_cursor  INTEGER NOT NULL DEFAULT 0,
    UNIQUE (domain_id, code)
);
CREATE INDEX chains_user_created ON chains(user_id, deleted_at, created_at DESC, id DESC);
CREATE INDEX chains_user_code ON chains(user_id, code);

CREATE TABLE chain_group_members (
    chain_id INTEGER NOT NULL REFERENCES chains(id),
    group_id INTEGER NOT NULL REFERENCES chain_groups(id),
    position INTEGER NOT NULL,
    PRIMARY KEY (chain_id, group_id)
);
CREATE INDEX chain_group_members_group ON chain_group_members(group_id);

-- QR-code channels of messaging-app chains.
CREATE TABLE channels (
    id          INTEGER PRIMARY KEY,
    chain_id    INTEGER NOT NULL REFERENCES chains(id),
    sort        INTEGER NOT NULL DEFAULT 0,
    qrcode_name TEXT    NOT NULL DEFAULT '',
    url         TEXT    NOT NULL DEFAULT '',
    url2        TEXT    NOT NULL DEFAULT '',
    qrcode_time INTEGER NOT NULL DEFAULT 0,
    ratio       INTEGER NOT NULL DEFAULT 0,
    visit_limit INTEGER NOT NULL DEFAULT 0,
    status      INTEGER NOT NULL DEFAULT 1,
    visit_count INTEGER NOT NULL DEFAULT 0,
    deleted_at  INTEGER,
    created_at  INTEGER NOT NULL
);
CREATE INDEX channels_chain ON channels(chain_id);

CREATE TABLE channel_daily_visits (
    channel_id INTEGER NOT NULL REFERENCES channels(id),
    day        INTEGER NOT NULL,
    visits     INTEGER NOT NULL,
    PRIMARY KEY (channel_id, day)
) WITHOUT ROWID;

-- One row per visit, for unique visitors; chain_daily_clicks keeps the per-day totals that
-- listings and trends read.
CREATE TABLE clicks (
    id         INTEGER PRIMARY KEY,
    chain_id   INTEGER NOT NULL REFERENCES chains(id),
    channel_id INTEGER,
    at         INTEGER NOT NULL,
    visitor    TEXT    NOT NULL
);
CREATE INDEX clicks_chain_at ON clicks(chain_id, at);

CREATE TABLE chain_daily_clicks (
    chain_id INTEGER NOT NULL REFERENCES chains(id),
    day      INTEGER NOT NULL,
    clicks   INTEGER NOT NULL,
    PRIMARY KEY (chain_id, day)
) WITHOUT ROWID;

CREATE TABLE uploads (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users(id),
    object_key   TEXT    NOT NULL UNIQUE,
    file_name    TEXT    NOT NULL,
    content_type TEXT    NOT NULL,
    size_bytes   INTEGER NOT NULL,
    sha256       TEXT    NOT NULL,
    created_at   INTEGER NOT NULL
);
CREATE INDEX uploads_user ON uploads(user_id);

-- NULL out_ids are distinct in SQLite, so only reports that carry an out_id are deduplicated.
CREATE TABLE conversions (
    id              INTEGER PRIMARY KEY,
    event_id        TEXT    NOT NULL UNIQUE,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    chain_id        INTEGER NOT NULL REFERENCES chains(id),
    conv_type       TEXT    NOT NULL,
    out_id          TEXT,
    clickid         TEXT,
    platform        TEXT,
    ad_platform     TEXT    NOT NULL,
    external_userid TEXT,
    value_cents     INTEGER,
    created_at      INTEGER NOT NULL,
    UNIQUE (user_id, chain_id, conv_type, out_id)
);

-- Work-chat customer-acquisition links (the assembly list).
CREATE TABLE workchat_assemblies (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    link_id     TEXT    NOT NULL,
    link_name   TEXT    NOT NULL,
    url         TEXT    NOT NULL,
    auth_status TEXT    NOT NULL DEFAULT '',
    use_status  INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    UNIQUE (user_id, link_id)
);

-- Work-chat customer-ownership transfers, one row per customer moved.
CREATE TABLE workchat_transfers (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    corp_id         TEXT    NOT NULL,
    handover_userid TEXT    NOT NULL,
    takeover_userid TEXT    NOT NULL,
    external_userid TEXT    NOT NULL,
    customer_name   TEXT    NOT NULL DEFAULT '',
    status          INTEGER NOT NULL,
    takeover_time   INTEGER NOT NULL DEFAULT 0,
    errcode         INTEGER NOT NULL DEFAULT 0,
    reason          TEXT    NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    UNIQUE (user_id, corp_id, handover_userid, external_userid)
);
"#,
    // Chains each user created per UTC day, kept as a counter so the daily quota is one row
    // update inside the creating transaction rather than a count over the user's chains.
    r#"
CREATE TABLE daily_creations (
    user_id INTEGER NOT NULL REFERENCES users(id),
    day     INTEGER NOT NULL,
    count   INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
) WITHOUT ROWID;

INSERT INTO daily_creations (user_id, day, count)
    SELECT user_id, created_at - (created_at % 86400), count(*) FROM chains GROUP BY 1, 2;
"#,
    // Visits are added up in memory and written as counters: per chain and day, per chain
    // (totals), and one row per distinct visitor of a chain for the exact unique count. The
    // per-visit log goes; its distinct visitors carry over.
    r#"
ALTER TABLE chain_daily_clicks ADD COLUMN bot_clicks INTEGER NOT NULL DEFAULT 0;

CREATE TABLE chain_visitors (
    chain_id INTEGER NOT NULL REFERENCES chains(id),
    visitor  BLOB    NOT NULL,
    PRIMARY KEY (chain_id, visitor)
) WITHOUT ROWID;

INSERT INTO chain_visitors (chain_id, visitor)
    SELECT DISTINCT chain_id, CAST(visitor AS BLOB) FROM clicks;

CREATE TABLE chain_visit_totals (
    chain_id        INTEGER PRIMARY KEY REFERENCES chains(id),
    clicks          INTEGER NOT NULL,
    bot_clicks      INTEGER NOT NULL,
    unique_visitors INTEGER NOT NULL
);

INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
    SELECT d.chain_id, sum(d.clicks), 0,
           (SELECT count(*) FROM chain_visitors v WHERE v.chain_id = d.chain_id)
    FROM chain_daily_clicks d GROUP BY d.chain_id;

DROP TABLE clicks;

CREATE TABLE visitor_secrets (
    id         INTEGER PRIMARY KEY,
    secret     BLOB    NOT NULL,
    created_at INTEGER NOT NULL
);

-- Batches already added, so a retried batch is not counted twice.
CREATE TABLE visit_batches (
    id       TEXT    PRIMARY KEY,
    added_at INTEGER NOT NULL
);
CREATE INDEX visit_batches_added_at ON visit_batches(added_at);
"#,
    // Uploads name content-addressed objects: the same bytes are stored once, whoever uploads
    // them, and go when no upload names them. The first migration's uploads table was never
    // written to.
    r#"
DROP TABLE uploads;

CREATE TABLE blobs (
    object_key   TEXT    PRIMARY KEY,
    content_type TEXT    NOT NULL,
    size_bytes   INTEGER NOT NULL,
    refs         INTEGER NOT NULL,
    deleting     INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX blobs_unreferenced ON blobs(object_key) WHERE refs = 0;

CREATE TABLE uploads (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users(id),
    object_key   TEXT    NOT NULL REFERENCES blobs(object_key),
    size_bytes   INTEGER NOT NULL,
    file_name    TEXT    NOT NULL,
    stored       INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    UNIQUE (user_id, object_key)
);
CREATE INDEX uploads_user ON uploads(user_id, id) WHERE stored = 1;
CREATE INDEX uploads_pending ON uploads(created_at) WHERE stored = 0;

-- Bytes each user's uploads take; the row serializes a user's concurrent uploads.
CREATE TABLE upload_usage (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    bytes   INTEGER NOT NULL
);
"#,
    // Jump-page templates: the built-in ones as rows (0 the generic one), retiring.
    r#"
ALTER TABLE templates ADD COLUMN retired_at INTEGER;
INSERT INTO templates (id, user_id, name, style, type, thumb, body, created_at, updated_at)
VALUES (0, NULL, 'Generic', 'generic', 1, '', '', 0, 0),
       (1, NULL, 'Card', 'card', 1, '', '', 0, 0),
       (2, NULL, 'Poster', 'poster', 1, '', '', 0, 0);
CREATE INDEX templates_offered ON templates(user_id, id) WHERE retired_at IS NULL;
"#,
    // Work-chat chains name their assembly-list entry; transfers are paged by id per corp.
    r#"
CREATE INDEX chains_customer ON chains(user_id, customer_id) WHERE customer_id IS NOT NULL;
CREATE INDEX workchat_transfers_corp ON workchat_transfers(user_id, corp_id, id);
CREATE INDEX channels_live ON channels(chain_id, sort, id) WHERE deleted_at IS NULL;
"#,
    // Users can be suspended (their keys refused) and their chains' redirects stopped.
    r#"
ALTER TABLE users ADD COLUMN suspended_at INTEGER;
ALTER TABLE users ADD COLUMN redirects_suspended INTEGER NOT NULL DEFAULT 0;
"#,
    // Idempotency keys: a create's answer under the caller's key, written with the create.
    r#"
CREATE TABLE idempotency_keys (
    user_id     INTEGER NOT NULL REFERENCES users(id),
    key         TEXT    NOT NULL,
    fingerprint BLOB    NOT NULL,
    created_at  INTEGER NOT NULL,
    status      INTEGER NOT NULL,
    body        BLOB    NOT NULL,
    PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
"#,
    // Visit counters without foreign keys: checking one means a read of the chain's row, at
    // random in the largest table, for every counter row a visit flush writes, which made up
    // much of its cost at a million chains. Counters are written only for chains a visit
    // resolved, and chains are never deleted (a deleted one keeps its row and its code).
    r#"
CREATE TABLE chain_daily_clicks_unchecked (
    chain_id   INTEGER NOT NULL,
    day        INTEGER NOT NULL,
    clicks     INTEGER NOT NULL,
    bot_clicks INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chain_id, day)
) WITHOUT ROWID;
INSERT INTO chain_daily_clicks_unchecked (chain_id, day, clicks, bot_clicks)
    SELECT chain_id, day, clicks, bot_clicks FROM chain_daily_clicks;
DROP TABLE chain_daily_clicks;
ALTER TABLE chain_daily_clicks_unchecked RENAME TO chain_daily_clicks;

CREATE TABLE chain_visitors_unchecked (
    chain_id INTEGER NOT NULL,
    visitor  BLOB    NOT NULL,
    PRIMARY KEY (chain_id, visitor)
) WITHOUT ROWID;
INSERT INTO chain_visitors_unchecked (chain_id, visitor)
    SELECT chain_id, visitor FROM chain_visitors;
DROP TABLE chain_visitors;
ALTER TABLE chain_visitors_unchecked RENAME TO chain_visitors;

CREATE TABLE chain_visit_totals_unchecked (
    chain_id        INTEGER PRIMARY KEY,
    clicks          INTEGER NOT NULL,
    bot_clicks      INTEGER NOT NULL,
    unique_visitors INTEGER NOT NULL
);
INSERT INTO chain_visit_totals_unchecked (chain_id, clicks, bot_clicks, unique_visitors)
    SELECT chain_id, clicks, bot_clicks, unique_visitors FROM chain_visit_totals;
DROP TABLE chain_visit_totals;
ALTER TABLE chain_visit_totals_unchecked RENAME TO chain_visit_totals;
"#,
    // What a redirect reads of a short chain, in the index it finds the chain by: a cache miss
    // then reads one B-tree instead of the code index and then the table (a third of a miss
    // at a million chains, measured). The unique index stays; it is what keeps codes unique.
    // A short chain's redirect rules (JSON, NULL for none) are part of what it reads.
    r#"
ALTER TABLE chains ADD COLUMN rules TEXT;
CREATE INDEX chains_redirect ON chains(
    domain_id, code, chain_type, id, user_id, status, valid_time, deleted_at, target_url, rules);
"#,
    // Statistics breakdowns: people's visits per chain, dimension, day and value, at most
    // MAX_BREAKDOWN_VALUES values per chain, dimension and day; what the day's values count
    // and the visits past them, per chain, dimension and day. Keyed chain and dimension first,
    // so a breakdown over days reads one range.
    r#"
CREATE TABLE chain_breakdowns (
    chain_id  INTEGER NOT NULL,
    dimension INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    value     TEXT    NOT NULL,
    clicks    INTEGER NOT NULL,
    PRIMARY KEY (chain_id, dimension, day, value)
) WITHOUT ROWID;
CREATE TABLE chain_breakdown_days (
    chain_id        INTEGER NOT NULL,
    dimension       INTEGER NOT NULL,
    day             INTEGER NOT NULL,
    distinct_values INTEGER NOT NULL,
    other_clicks    INTEGER NOT NULL,
    PRIMARY KEY (chain_id, dimension, day)
) WITHOUT ROWID;
"#,
    // Breakdowns added up per chain, dimension, value and span of 30 days (2,592,000 seconds
    // from the epoch, whatever the calendar's zone: a day belongs to the span its first second
    // is in), written with the day rows, so a long window reads its whole spans here instead
    // of every day. Only values their day kept are in a span, so a window read from spans adds
    // up to what its days add up to.
    r#"
CREATE TABLE chain_breakdown_spans (
    chain_id  INTEGER NOT NULL,
    dimension INTEGER NOT NULL,
    span      INTEGER NOT NULL,
    value     TEXT    NOT NULL,
    clicks    INTEGER NOT NULL,
    PRIMARY KEY (chain_id, dimension, span, value)
) WITHOUT ROWID;
INSERT INTO chain_breakdown_spans (chain_id, dimension, span, value, clicks)
SELECT chain_id, dimension, day - day % 2592000, value, sum(clicks)
FROM chain_breakdowns GROUP BY 1, 2, 3, 4;
"#,
    // Webhooks: endpoints; the outbox, written in the transaction of the change each event
    // reports: a delivery per event and endpoint subscribed when it was written, holding the
    // event's id, type and exact body (due at `next_at`, leased by the instance attempting it
    // until `lease_until`; state 0 pending, 1 delivered, 2 failed), an event being one row,
    // and only its pending rows indexed by endpoint, so recording it costs little; every
    // attempt, listed per endpoint newest first.
    r#"
CREATE TABLE webhooks (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    url             TEXT    NOT NULL,
    events          INTEGER NOT NULL,
    description     TEXT,
    enabled         INTEGER NOT NULL DEFAULT 1,
    secret          TEXT    NOT NULL,
    previous_secret TEXT,
    previous_until  INTEGER,
    failing_since   INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX webhooks_user ON webhooks(user_id);
CREATE TABLE webhook_deliveries (
    id          INTEGER PRIMARY KEY,
    event_id    TEXT    NOT NULL,
    event_type  TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    webhook_id  INTEGER NOT NULL,
    state       INTEGER NOT NULL,
    attempts    INTEGER NOT NULL,
    next_at     INTEGER NOT NULL,
    lease_until INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_at) WHERE state = 0;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(webhook_id) WHERE state = 0;
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries(finished_at) WHERE state <> 0;
CREATE TABLE webhook_attempts (
    id          INTEGER PRIMARY KEY,
    delivery_id INTEGER NOT NULL,
    webhook_id  INTEGER NOT NULL,
    event_id    TEXT    NOT NULL,
    event_type  TEXT    NOT NULL,
    at          INTEGER NOT NULL,
    status      INTEGER,
    error       TEXT,
    latency_ms  INTEGER NOT NULL
);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts(webhook_id, id);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id);
"#,
    // Breakdowns packed: one row per chain and day, and one per chain and span, each holding
    // every dimension's values (and the visits past the day's cap) as a JSON array of
    // [dimension, value, clicks] triples (see `store::breakdowns`). A span now also sums its
    // days' visits past the cap, so a window reads nothing but its rows.
    r#"
CREATE TABLE chain_breakdown_days_packed (
    chain_id INTEGER NOT NULL,
    day      INTEGER NOT NULL,
    data     TEXT    NOT NULL,
    PRIMARY KEY (chain_id, day)
) WITHOUT ROWID;
INSERT INTO chain_breakdown_days_packed (chain_id, day, data)
SELECT chain_id, day, json_group_array(json_array(dimension, value, clicks))
FROM (SELECT chain_id, dimension, day, value, clicks FROM chain_breakdowns
      UNION ALL
      SELECT chain_id, dimension, day, NULL, other_clicks FROM chain_breakdown_days
      WHERE other_clicks > 0)
GROUP BY chain_id, day;
CREATE TABLE chain_breakdown_spans_packed (
    chain_id INTEGER NOT NULL,
    span     INTEGER NOT NULL,
    data     TEXT    NOT NULL,
    PRIMARY KEY (chain_id, span)
) WITHOUT ROWID;
INSERT INTO chain_breakdown_spans_packed (chain_id, span, data)
SELECT chain_id, span, json_group_array(json_array(dimension, value, clicks))
FROM (SELECT chain_id, dimension, span, value, clicks FROM chain_breakdown_spans
      UNION ALL
      SELECT chain_id, dimension, day - day % 2592000, NULL, sum(other_clicks)
      FROM chain_breakdown_days WHERE other_clicks > 0 GROUP BY 1, 2, 3)
GROUP BY chain_id, span;
DROP TABLE chain_breakdowns;
DROP TABLE chain_breakdown_days;
DROP TABLE chain_breakdown_spans;
ALTER TABLE chain_breakdown_days_packed RENAME TO chain_breakdown_days;
ALTER TABLE chain_breakdown_spans_packed RENAME TO chain_breakdown_spans;
"#,
    // A span has a row only once two of its days have one: the one day's row is the span's
    // sum until then (see `store::breakdowns`). The rows of spans of one day go.
    r#"
DELETE FROM chain_breakdown_spans
WHERE (SELECT count(*) FROM chain_breakdown_days d
       WHERE d.chain_id = chain_breakdown_spans.chain_id
         AND d.day >= chain_breakdown_spans.span
         AND d.day < chain_breakdown_spans.span + 2592000) < 2;
"#,
    // Visits of days not yet folded into the tables above (and into the totals: `visitors`
    // counts the chain's new visitors), a row per day and chain, day first: a flush writes its
    // chain-days next to each other rather than each beside its chain's history (see
    // `sqlite::recent_days`).
    r#"
CREATE TABLE chain_recent_days (
    day        INTEGER NOT NULL,
    chain_id   INTEGER NOT NULL,
    clicks     INTEGER NOT NULL,
    bot_clicks INTEGER NOT NULL,
    visitors   INTEGER NOT NULL,
    data       TEXT,
    PRIMARY KEY (day, chain_id)
) WITHOUT ROWID;
"#,
    // Breakdown values by number, which rows of recent days name them by (see
    // `sqlite::value_numbers`).
    r#"
CREATE TABLE breakdown_values (
    id        INTEGER PRIMARY KEY,
    dimension INTEGER NOT NULL,
    value     TEXT    NOT NULL,
    UNIQUE (dimension, value)
);
"#,
    // A claim reads each endpoint's first due deliveries in order and counts its leased ones
    // from indexes, not by scanning its backlog (see `store::webhooks::due_deliveries`): an
    // endpoint's pending rows by due time, and the rows under lease only (a lease ends at 0).
    r#"
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(webhook_id, next_at, id)
    WHERE state = 0;
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(webhook_id, lease_until)
    WHERE state = 0 AND lease_until > 0;
"#,
    // A bulk create commits in runs: its key is held by the request making them (`owner`,
    // last seen making progress at `progress_at`) and its answer is written part by part, the
    // key's body followed by its parts in order (see `store::idempotency`).
    r#"
ALTER TABLE idempotency_keys ADD COLUMN owner INTEGER;
ALTER TABLE idempotency_keys ADD COLUMN progress_at INTEGER NOT NULL DEFAULT 0;
CREATE TABLE idempotency_parts (
    user_id    INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    part       INTEGER NOT NULL,
    first_item INTEGER NOT NULL,
    items      INTEGER NOT NULL,
    created    INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    body       BLOB    NOT NULL,
    PRIMARY KEY (user_id, key, part)
);
CREATE INDEX idempotency_parts_created ON idempotency_parts(created_at);
"#,
];

/// The migration that dropped the counters' foreign keys (see `tests`).
#[cfg(test)]
const UNCHECKED_COUNTERS: usize = 9;

/// The migration that added breakdowns' sums per span of days (see `tests`).
#[cfg(test)]
const BREAKDOWN_SPANS: usize = 12;

/// The migration that packed breakdowns into a row per chain-day and span (see `tests`).
#[cfg(test)]
const PACKED_BREAKDOWNS: usize = 14;

/// The migration that dropped the rows of spans of one day (see `tests`).
#[cfg(test)]
const SPANS_OF_ONE_DAY: usize = 15;

/// Brings the database up to the newest schema.
pub(in crate::store) fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let applied: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let applied = usize::try_from(applied).unwrap_or(0);
    for (index, sql) in steps().enumerate().skip(applied) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (index + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}

/// Every migration in order: this list's, then the shared ones.
fn steps() -> impl Iterator<Item = &'static str> {
    MIGRATIONS
        .iter()
        .copied()
        .chain(SHARED.iter().map(|step| step.sqlite))
}

/// How many migrations exist; a database newer than this was written by a newer linkapi.
pub(in crate::store) fn latest_version() -> i64 {
    steps().count() as i64
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::{
        BREAKDOWN_SPANS, MIGRATIONS, PACKED_BREAKDOWNS, SPANS_OF_ONE_DAY, UNCHECKED_COUNTERS,
        migrate,
    };
    use crate::model::Dimension;
    use crate::store::breakdowns::breakdown_of;

    /// A database with the migrations before `migration` (numbered from 1) applied.
    fn just_before(migration: usize) -> Connection {
        let conn = Connection::open_in_memory().expect("the test database");
        let before = migration - 1;
        for sql in &MIGRATIONS[..before] {
            conn.execute_batch(sql).expect("the test database");
        }
        conn.pragma_update(None, "user_version", before as i64)
            .expect("the test database");
        conn
    }

    /// A database just before the migration that dropped the counters' foreign keys, with
    /// a chain that has visit counters.
    fn before_unchecked_counters() -> Connection {
        let conn = Connection::open_in_memory().expect("the test database");
        conn.pragma_update(None, "foreign_keys", "ON")
            .expect("the test database");
        let before = UNCHECKED_COUNTERS - 1;
        for sql in &MIGRATIONS[..before] {
            conn.execute_batch(sql).expect("the test database");
        }
        conn.pragma_update(None, "user_version", before as i64)
            .expect("the test database");
        conn.execute_batch(
            "INSERT INTO users (id, name, created_at) VALUES (1, 'u', 0);
             INSERT INTO domains (id, host, scheme, created_at) VALUES (1, 'e.com', 'https', 0);
             INSERT INTO chains (id, user_id, chain_type, domain_id, code, created_at, updated_at)
                 VALUES (7, 1, 1, 1, 'abc', 0, 0);
             INSERT INTO chain_daily_clicks (chain_id, day, clicks, bot_clicks)
                 VALUES (7, 86400, 5, 2);
             INSERT INTO chain_visitors (chain_id, visitor) VALUES (7, x'0102');
             INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
                 VALUES (7, 5, 2, 1);",
        )
        .expect("the test database");
        conn
    }

    #[test]
    fn counters_keep_their_rows_and_lose_their_foreign_keys() {
        let mut conn = before_unchecked_counters();
        // Before: a counter of a chain that does not exist is refused.
        assert!(
            conn.execute(
                "INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
                 VALUES (99, 1, 0, 0)",
                [],
            )
            .is_err()
        );
        migrate(&mut conn).expect("the test database");
        let daily: (i64, i64, i64) = conn
            .query_row(
                "SELECT day, clicks, bot_clicks FROM chain_daily_clicks WHERE chain_id = 7",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .expect("the test database");
        assert_eq!(daily, (86400, 5, 2));
        let visitor: Vec<u8> = conn
            .query_row(
                "SELECT visitor FROM chain_visitors WHERE chain_id = 7",
                [],
                |r| r.get(0),
            )
            .expect("the test database");
        assert_eq!(visitor, [1, 2]);
        let totals: (i64, i64, i64) = conn
            .query_row(
                "SELECT clicks, bot_clicks, unique_visitors FROM chain_visit_totals
                 WHERE chain_id = 7",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .expect("the test database");
        assert_eq!(totals, (5, 2, 1));
        // After: writing a counter reads no chain.
        for sql in [
            "INSERT INTO chain_daily_clicks (chain_id, day, clicks, bot_clicks)
             VALUES (99, 0, 1, 0)",
            "INSERT INTO chain_visitors (chain_id, visitor) VALUES (99, x'01')",
            "INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
             VALUES (99, 1, 0, 0)",
        ] {
            conn.execute(sql, []).expect("the test database");
        }
        let problems: i64 = conn
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .expect("the test database");
        assert_eq!(problems, 0);
    }

    #[test]
    fn breakdowns_written_before_spans_are_summed_into_them() {
        let conn = just_before(BREAKDOWN_SPANS);
        // Two days of one span (days 0 and 29 of the epoch's first span) and one of the next.
        conn.execute_batch(
            "INSERT INTO chain_breakdowns (chain_id, dimension, day, value, clicks) VALUES
                 (7, 1, 0, 'a.example', 2), (7, 1, 2505600, 'a.example', 3),
                 (7, 1, 2505600, 'b.example', 1), (7, 1, 2592000, 'a.example', 4);",
        )
        .expect("the test database");
        conn.execute_batch(MIGRATIONS[BREAKDOWN_SPANS - 1])
            .expect("the test database");
        let mut spans = conn
            .prepare("SELECT span, value, clicks FROM chain_breakdown_spans ORDER BY 1, 2")
            .expect("the test database");
        let rows: Vec<(i64, String, i64)> = spans
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("the test database")
            .collect::<Result<_, _>>()
            .expect("the test database");
        assert_eq!(
            rows,
            [
                (0, "a.example".to_owned(), 5),
                (0, "b.example".to_owned(), 1),
                (2_592_000, "a.example".to_owned(), 4),
            ]
        );
    }

    #[test]
    fn breakdowns_a_row_per_value_are_packed_a_row_per_chain_day_and_span() {
        let conn = just_before(PACKED_BREAKDOWNS);
        // Chain 7: referrers on two days of the first span (the second past its cap by 6),
        // a country on the first; chain 8: a day with nothing but visits past the cap.
        conn.execute_batch(
            "INSERT INTO chain_breakdowns (chain_id, dimension, day, value, clicks) VALUES
                 (7, 1, 0, 'a.example', 2), (7, 1, 86400, 'a.example', 3),
                 (7, 1, 86400, 'b.example', 1), (7, 5, 0, 'FR', 4);
             INSERT INTO chain_breakdown_days
                 (chain_id, dimension, day, distinct_values, other_clicks) VALUES
                 (7, 1, 0, 1, 0), (7, 1, 86400, 2, 6), (7, 5, 0, 1, 0), (8, 1, 0, 0, 9);
             INSERT INTO chain_breakdown_spans (chain_id, dimension, span, value, clicks) VALUES
                 (7, 1, 0, 'a.example', 5), (7, 1, 0, 'b.example', 1), (7, 5, 0, 'FR', 4);",
        )
        .expect("the test database");
        conn.execute_batch(MIGRATIONS[PACKED_BREAKDOWNS - 1])
            .expect("the test database");
        let read = |sql: &str, chain: i64, at: i64, dimension: Dimension| {
            let data: String = conn
                .query_row(sql, [chain, at], |r| r.get(0))
                .expect("the test database");
            let counts = breakdown_of([data], dimension.code(), 10).expect("decodes");
            (counts.top, counts.total, counts.past_cap)
        };
        let day = "SELECT data FROM chain_breakdown_days WHERE chain_id = ?1 AND day = ?2";
        let span = "SELECT data FROM chain_breakdown_spans WHERE chain_id = ?1 AND span = ?2";
        let listed = |pairs: &[(&str, i64)]| -> Vec<(String, i64)> {
            pairs.iter().map(|(v, n)| ((*v).to_owned(), *n)).collect()
        };
        assert_eq!(
            read(day, 7, 86400, Dimension::Referrers),
            (listed(&[("a.example", 3), ("b.example", 1)]), 4, 6)
        );
        assert_eq!(
            read(day, 7, 0, Dimension::Countries),
            (listed(&[("FR", 4)]), 4, 0)
        );
        assert_eq!(
            read(span, 7, 0, Dimension::Referrers),
            (listed(&[("a.example", 5), ("b.example", 1)]), 6, 6)
        );
        assert_eq!(read(day, 8, 0, Dimension::Referrers), (listed(&[]), 0, 9));
        assert_eq!(read(span, 8, 0, Dimension::Referrers), (listed(&[]), 0, 9));
        let rows: i64 = conn
            .query_row(
                "SELECT (SELECT count(*) FROM chain_breakdown_days)
                      + (SELECT count(*) FROM chain_breakdown_spans)",
                [],
                |r| r.get(0),
            )
            .expect("the test database");
        assert_eq!(rows, 5, "three days and two spans");
    }

    #[test]
    fn the_shared_steps_run_after_this_lists_own_and_count_in_the_version() {
        let mut conn = just_before(MIGRATIONS.len() + 1);
        migrate(&mut conn).expect("the test database");
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("the test database");
        assert_eq!(version, super::latest_version());
        assert!(version > MIGRATIONS.len() as i64);
        // The first shared step's column is there.
        conn.prepare("SELECT archived_at FROM chains")
            .expect("the shared step ran");
    }

    #[test]
    fn spans_of_one_day_lose_their_rows() {
        let mut conn = just_before(SPANS_OF_ONE_DAY);
        // Chain 7: two days in the first span, one in the next; chain 8: one day.
        conn.execute_batch(
            "INSERT INTO chain_breakdown_days (chain_id, day, data) VALUES
                 (7, 0, '[[1,\"a\",1]]'), (7, 86400, '[[1,\"a\",2]]'),
                 (7, 2592000, '[[1,\"b\",3]]'), (8, 86400, '[[1,\"c\",4]]');
             INSERT INTO chain_breakdown_spans (chain_id, span, data) VALUES
                 (7, 0, '[[1,\"a\",3]]'), (7, 2592000, '[[1,\"b\",3]]'),
                 (8, 0, '[[1,\"c\",4]]');",
        )
        .expect("the test database");
        migrate(&mut conn).expect("the test database");
        let mut spans = conn
            .prepare("SELECT chain_id, span, data FROM chain_breakdown_spans ORDER BY 1, 2")
            .expect("the test database");
        let rows: Vec<(i64, i64, String)> = spans
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("the test database")
            .collect::<Result<_, _>>()
            .expect("the test database");
        assert_eq!(rows, [(7, 0, r#"[[1,"a",3]]"#.to_owned())]);
    }
}

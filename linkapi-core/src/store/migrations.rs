//! The migrations both backends run after their own lists (`sqlite/schema.rs`,
//! `postgres/schema.rs`, which end where this one begins): one list, each step numbered on
//! both by its place after the backend's own, and each written once, with its text for each
//! dialect beside the other. Never edit a step that has shipped: append a new one here.

/// One step of the schema: its text on SQLite and on PostgreSQL.
pub(crate) struct Migration {
    /// On SQLite.
    pub(crate) sqlite: &'static str,
    /// On PostgreSQL.
    pub(crate) postgres: &'static str,
}

/// The steps after each backend's own, in order.
pub(crate) const MIGRATIONS: &[Migration] = &[
    // A chain archived at `archived_at` is left out of the primary surface's listings unless
    // asked for; it still redirects.
    Migration {
        sqlite: "ALTER TABLE chains ADD COLUMN archived_at INTEGER;",
        postgres: "ALTER TABLE chains ADD COLUMN archived_at BIGINT;",
    },
    // Visits an imported chain had on the shortener it came from, kept apart from the visits
    // counted here.
    Migration {
        sqlite: "ALTER TABLE chains ADD COLUMN imported_visits INTEGER NOT NULL DEFAULT 0;",
        postgres: "ALTER TABLE chains ADD COLUMN imported_visits BIGINT NOT NULL DEFAULT 0;",
    },
    // A short chain's options (redirect status, start, visit limit) as JSON, NULL for none,
    // and the visits taken against its limit. On SQLite the options join what a redirect
    // reads from the index it finds the chain by (`chains_redirect`), rebuilt with them.
    Migration {
        sqlite: "ALTER TABLE chains ADD COLUMN options TEXT;
            ALTER TABLE chains ADD COLUMN visits_taken INTEGER NOT NULL DEFAULT 0;
            DROP INDEX chains_redirect;
            CREATE INDEX chains_redirect ON chains(domain_id, code, chain_type, id, user_id,
                status, valid_time, deleted_at, target_url, rules, options);",
        postgres: "ALTER TABLE chains ADD COLUMN options TEXT;
            ALTER TABLE chains ADD COLUMN visits_taken BIGINT NOT NULL DEFAULT 0;",
    },
    // Orphan visits (requests of a short-link domain that reached no chain) per domain, kind
    // and day, added by the visit flush. No foreign key: a domain's counts outlive it.
    Migration {
        sqlite: "CREATE TABLE orphan_visits (domain_id INTEGER NOT NULL,
                kind INTEGER NOT NULL, day INTEGER NOT NULL, visits INTEGER NOT NULL,
                PRIMARY KEY (domain_id, kind, day)) WITHOUT ROWID;",
        postgres: "CREATE TABLE orphan_visits (domain_id BIGINT NOT NULL,
                kind BIGINT NOT NULL, day BIGINT NOT NULL, visits BIGINT NOT NULL,
                PRIMARY KEY (domain_id, kind, day));",
    },
];

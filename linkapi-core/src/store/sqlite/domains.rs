//! Domains on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, one, unique_or_backend};
use crate::model::{Domain, DomainId, DomainStatus, Scheme};
use crate::store::domains::{ALL_DOMAINS, DOMAIN_BY_ID, domain_from_row};
use crate::store::{DomainStore, DomainWrites, NewDomain, StoreResult, Unique};

#[async_trait]
impl DomainStore for SqliteStore {
    async fn domains(&self) -> StoreResult<Vec<Domain>> {
        self.read(|c| all(c, &ALL_DOMAINS, [], domain_from_row))
            .await
    }
}

#[async_trait]
impl DomainWrites for SqliteTx<'_> {
    async fn insert_domain(&mut self, new: NewDomain) -> StoreResult<Domain> {
        self.conn
            .execute(
                "INSERT INTO domains (host, scheme, scene, shared, user_id, status, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    new.host,
                    new.scheme.as_str(),
                    new.scene,
                    new.shared,
                    new.user_id.map(|u| u.0),
                    new.status.code(),
                    new.created_at
                ],
            )
            .map_err(|e| unique_or_backend(e, Unique::DomainHost))?;
        Ok(Domain {
            id: DomainId(self.conn.last_insert_rowid()),
            host: new.host,
            scheme: new.scheme,
            scene: new.scene,
            shared: new.shared,
            user_id: new.user_id,
            status: new.status,
            created_at: new.created_at,
        })
    }

    async fn set_domain_host(
        &mut self,
        id: DomainId,
        host: &str,
        scheme: Scheme,
    ) -> StoreResult<()> {
        self.conn
            .execute(
                "UPDATE domains SET host = ?2, scheme = ?3 WHERE id = ?1",
                params![id.0, host, scheme.as_str()],
            )
            .map_err(|e| unique_or_backend(e, Unique::DomainHost))?;
        Ok(())
    }

    async fn set_domain_status(
        &mut self,
        id: DomainId,
        status: DomainStatus,
    ) -> StoreResult<Option<Domain>> {
        self.conn.execute(
            "UPDATE domains SET status = ?2 WHERE id = ?1",
            params![id.0, status.code()],
        )?;
        one(self.conn, &DOMAIN_BY_ID, [id.0], domain_from_row)
    }
}

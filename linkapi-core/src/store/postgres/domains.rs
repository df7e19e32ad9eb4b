//! Domains on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, insert_returning, one, unique_or};
use crate::model::{Domain, DomainId, DomainStatus, Scheme};
use crate::store::domains::{ALL_DOMAINS, DOMAIN_COLUMNS, domain_from_row};
use crate::store::{DomainStore, DomainWrites, NewDomain, StoreResult, StoredRow, Unique};

#[async_trait]
impl DomainStore for PgStore {
    async fn domains(&self) -> StoreResult<Vec<Domain>> {
        self.all(&ALL_DOMAINS, &[], domain_from_row).await
    }
}

#[async_trait]
impl DomainWrites for PgTx<'_> {
    async fn insert_domain(&mut self, new: NewDomain) -> StoreResult<Domain> {
        let row = insert_returning(
            &self.tx,
            "INSERT INTO domains (host, scheme, scene, shared, user_id, status, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
            &[
                &new.host,
                &new.scheme.as_str(),
                &new.scene,
                &new.shared,
                &new.user_id.map(|u| u.0),
                &new.status.code(),
                &new.created_at,
            ],
            Unique::DomainHost,
        )
        .await?;
        Ok(Domain {
            id: DomainId(row.int(0)?),
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
        self.tx
            .execute(
                "UPDATE domains SET host = $2, scheme = $3 WHERE id = $1",
                &[&id.0, &host, &scheme.as_str()],
            )
            .await
            .map_err(|e| unique_or(e, Unique::DomainHost))?;
        Ok(())
    }

    async fn set_domain_status(
        &mut self,
        id: DomainId,
        status: DomainStatus,
    ) -> StoreResult<Option<Domain>> {
        one(
            &self.tx,
            &format!("UPDATE domains SET status = $2 WHERE id = $1 RETURNING {DOMAIN_COLUMNS}"),
            &[&id.0, &status.code()],
            domain_from_row,
        )
        .await
    }
}

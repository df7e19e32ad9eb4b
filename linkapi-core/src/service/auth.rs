//! API keys: how secrets are made and hashed, who a key acts as, and the first key of a new
//! deployment.

use sha2::{Digest, Sha256};

use super::App;
use super::engine::ratelimit::RateState;
use crate::codes::random_code;
use crate::error::{Error, Result, names};
use crate::model::{ApiKeyRecord, KeyId, Scope, Timestamp, User, UserId};
use crate::store::{NewApiKey, NewUser, Store, StoreError, Unique};

/// Visible prefix of every secret, so secret scanners can find leaked keys.
pub const KEY_PREFIX: &str = "lk_";

/// Random characters after the prefix: 40 from a 56-letter alphabet is about 232 bits.
const KEY_RANDOM_LEN: usize = 40;

/// Characters of the secret kept in the clear for telling keys apart.
const VISIBLE_LEN: usize = 8;

/// Shortest bootstrap key accepted from the environment.
const MIN_BOOTSTRAP_LEN: usize = 20;

/// Who is calling: taken from the key alone, never from the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The user the key acts as.
    pub user_id: UserId,
    /// The key, for rate limiting and logs.
    pub key_id: KeyId,
    /// What the key may do.
    pub scopes: Vec<Scope>,
}

/// A key made at bootstrap.
#[derive(Debug, Clone)]
pub struct BootstrapKey {
    /// The secret; shown once.
    pub secret: String,
    /// Whether the server generated it (and so must show it) or it came from the environment.
    pub generated: bool,
}

/// SHA-256 of a secret, hex: the only form a key is stored in. Keys carry 128+ random bits, so
/// a fast unsalted hash is enough and keeps authentication a single indexed lookup.
pub fn hash_key(secret: &str) -> String {
    super::hex(&Sha256::digest(secret.as_bytes()))
}

fn visible_prefix(secret: &str) -> String {
    secret
        .chars()
        .take(KEY_PREFIX.len() + VISIBLE_LEN)
        .collect()
}

impl App {
    /// Resolves a presented secret to its principal.
    ///
    /// # Errors
    /// [`Error::InvalidApiKey`] for an unknown, revoked or expired key;
    /// [`Error::UserSuspended`] for a key of a suspended user.
    pub async fn authenticate(&self, secret: &str) -> Result<Principal> {
        let hash = hash_key(secret);
        let cache = &self.inner.keys;
        let counters = self.metrics().cache(crate::metrics::CacheName::Keys);
        // An entry this instance cannot vouch for (it has not heard from the other instances
        // lately, nor read the key itself since) may hold a key revoked elsewhere: then the
        // store decides.
        let cached = cache
            .get_loaded(&hash)
            .filter(|(_, loaded)| self.inner.freshness.trusts(*loaded));
        let grant = match cached.map(|(grant, _)| grant) {
            Some(grant) => {
                counters.hits.inc();
                grant
            }
            None => {
                counters.misses.inc();
                let load = cache.begin_load();
                // Unknown keys are not remembered: a flood of made-up keys would only push
                // real ones out.
                let grant = self
                    .store()
                    .key_by_hash(&hash)
                    .await?
                    .ok_or(Error::InvalidApiKey)?;
                cache.fill(load, hash, grant.clone());
                grant
            }
        };
        let now = self.now();
        let key = grant.key;
        if key.revoked_at.is_some() || key.expires_at.is_some_and(|t| t <= now) {
            return Err(Error::InvalidApiKey);
        }
        if grant.user_suspended {
            return Err(Error::UserSuspended);
        }
        Ok(Principal {
            user_id: key.user_id,
            key_id: key.id,
            scopes: key.scopes,
        })
    }

    /// Checks that the principal's key holds `scope`.
    ///
    /// # Errors
    /// [`Error::Forbidden`] when it does not.
    pub fn authorize(&self, principal: &Principal, scope: Scope) -> Result<()> {
        if scope.is_granted_by(&principal.scopes) {
            Ok(())
        } else {
            Err(Error::Forbidden(scope))
        }
    }

    /// Creates a key with a fresh random secret; returns its record and the secret.
    pub(crate) async fn issue_key(
        &self,
        user_id: UserId,
        name: String,
        scopes: Vec<Scope>,
        expires_at: Option<i64>,
    ) -> Result<(ApiKeyRecord, String)> {
        // A collision of 232 random bits does not happen; the loop only guards the contract.
        loop {
            let secret = format!("{KEY_PREFIX}{}", random_code(KEY_RANDOM_LEN));
            match self
                .store_key(user_id, name.clone(), scopes.clone(), expires_at, &secret)
                .await
            {
                Err(StoreError::Conflict(Unique::KeyHash)) => continue,
                other => return Ok((other?, secret)),
            }
        }
    }

    async fn store_key(
        &self,
        user_id: UserId,
        name: String,
        scopes: Vec<Scope>,
        expires_at: Option<i64>,
        secret: &str,
    ) -> Result<ApiKeyRecord, StoreError> {
        let new = NewApiKey {
            user_id,
            name,
            prefix: visible_prefix(secret),
            hash: hash_key(secret),
            scopes,
            created_at: self.now(),
            expires_at,
        };
        self.transact(move |tx| {
            let new = new.clone();
            Box::pin(async move { tx.insert_key(new).await })
        })
        .await
    }

    /// Makes the first key of an empty deployment: an `admin` user and a key with scope `*`,
    /// whose secret is `initial` when given (`LINKAPI_INITIAL_API_KEY`) or generated. Does
    /// nothing when any key exists.
    ///
    /// # Errors
    /// When `initial` is too short to be a safe key, or the store fails.
    pub async fn bootstrap(&self, initial: Option<&str>) -> Result<Option<BootstrapKey>> {
        if self.store().count_keys().await? > 0 {
            return Ok(None);
        }
        if let Some(secret) = initial
            && (secret.len() < MIN_BOOTSTRAP_LEN || secret.chars().any(char::is_whitespace))
        {
            return Err(Error::bad_request(
                names::INVALID_INITIAL_KEY,
                format!(
                    "the initial API key must be at least {MIN_BOOTSTRAP_LEN} characters without spaces"
                ),
            ));
        }
        let key = match initial {
            Some(secret) => BootstrapKey {
                secret: secret.to_owned(),
                generated: false,
            },
            None => BootstrapKey {
                secret: format!("{KEY_PREFIX}{}", random_code(KEY_RANDOM_LEN)),
                generated: true,
            },
        };
        let now = self.now();
        let (prefix, hash) = (visible_prefix(&key.secret), hash_key(&key.secret));
        let new_key = move |user_id| NewApiKey {
            user_id,
            name: "bootstrap".to_owned(),
            prefix: prefix.clone(),
            hash: hash.clone(),
            scopes: vec![Scope::All],
            created_at: now,
            expires_at: None,
        };
        // Instances starting together on one empty database race here; the key count is read
        // inside each transaction, behind a lock on the `admin` user's row (its insert, or
        // `lock_user`), so exactly one of them makes a key.
        let first = {
            let new_key = new_key.clone();
            self.transact(move |tx| {
                let new_key = new_key.clone();
                Box::pin(async move {
                    if tx.count_keys().await? > 0 {
                        return Ok(false);
                    }
                    let user = tx
                        .insert_user(NewUser {
                            name: "admin".into(),
                            daily_quota: None,
                            created_at: now,
                        })
                        .await?;
                    tx.insert_key(new_key(user.id)).await?;
                    Ok(true)
                })
            })
            .await
        };
        let made = match first {
            Ok(made) => made,
            // The admin user exists: another instance's bootstrap committed it, or a
            // deployment whose keys were all deleted by hand kept it.
            Err(StoreError::Conflict(Unique::UserName)) => {
                let admin = self
                    .store()
                    .users()
                    .await?
                    .into_iter()
                    .find(|u| u.name == "admin")
                    .ok_or(Error::NotFound("user"))?;
                let admin = admin.id;
                self.transact(move |tx| {
                    let new_key = new_key.clone();
                    Box::pin(async move {
                        // The other bootstraps wait here, then count this one's key.
                        tx.lock_user(admin).await?;
                        if tx.count_keys().await? > 0 {
                            return Ok(false);
                        }
                        tx.insert_key(new_key(admin)).await?;
                        Ok(true)
                    })
                })
                .await?
            }
            // The same initial key from another instance that got there first.
            Err(StoreError::Conflict(Unique::KeyHash)) => false,
            Err(e) => return Err(e.into()),
        };
        Ok(made.then_some(key))
    }
}

/// What [`recovery_key`] made: the key, shown once, and whom it is for.
#[derive(Debug)]
pub struct RecoveryKey {
    /// The secret.
    pub secret: String,
    /// Its owner: the deployment's first user.
    pub user: User,
}

/// A new key with the first key's scope (`*`), named `recovery`, for the deployment's first
/// user (the one the first start made): how an operator who lost every admin key gets one
/// back (`linkapi-server admin-key`). It works on the store alone, without a running [`App`],
/// so the command runs instead of a server (SQLite) or beside running ones (PostgreSQL, whose
/// servers look a key up by its hash when they first meet it). Other keys are left as they
/// are.
///
/// # Errors
/// 404 when the database has no user yet (a first start makes the first one and its key);
/// 409 `user_suspended` when that user is suspended (their keys would be refused); when the
/// store fails.
pub async fn recovery_key(store: &dyn Store, now: Timestamp) -> Result<RecoveryKey> {
    let first = store
        .users()
        .await?
        .into_iter()
        .min_by_key(|u| u.id.0)
        .ok_or(Error::NotFound("user"))?;
    if first.suspended_at.is_some() {
        return Err(Error::Conflict {
            code: names::FIRST_USER_SUSPENDED,
            message: format!(
                "user {} ({}) is suspended, and their keys are refused: resume them first",
                first.id.0, first.name
            ),
        });
    }
    let secret = format!("{KEY_PREFIX}{}", random_code(KEY_RANDOM_LEN));
    let new = NewApiKey {
        user_id: first.id,
        name: "recovery".to_owned(),
        prefix: visible_prefix(&secret),
        hash: hash_key(&secret),
        scopes: vec![Scope::All],
        created_at: now,
        expires_at: None,
    };
    crate::store::transact(store, move |tx| {
        let new = new.clone();
        Box::pin(async move { tx.insert_key(new).await.map(|_| ()) })
    })
    .await?;
    Ok(RecoveryKey {
        secret,
        user: first,
    })
}

impl App {
    /// Takes a token from the principal's bucket. Keys with scope `admin` (or `*`) have none
    /// unless the deployment limits them too ([`AppConfig::rate_limit_admin_keys`]): they are
    /// the operator's own scripts, and the limit is there against everyone else's.
    ///
    /// [`AppConfig::rate_limit_admin_keys`]: super::AppConfig::rate_limit_admin_keys
    ///
    /// # Errors
    /// [`Error::RateLimited`] with the wait when the bucket is empty.
    pub fn check_rate(&self, principal: &Principal) -> Result<Option<RateState>> {
        let Some(limiter) = &self.inner.limiter else {
            return Ok(None);
        };
        if !self.config().rate_limit_admin_keys
            && crate::model::Scope::Admin.is_granted_by(&principal.scopes)
        {
            return Ok(None);
        }
        limiter.take(&principal.key_id).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_hex_sha256() {
        assert_eq!(
            hash_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(visible_prefix("lk_abcdefghijkl"), "lk_abcdefgh");
    }
}

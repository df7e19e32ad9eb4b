//! `admin-key`: a new admin key when every other is lost, made on the deployment's database
//! (`linkapi_core::service::recovery_key`): the key alone on `out`, what was done on stderr.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use linkapi_core::SqliteStore;
use linkapi_core::service::{RecoveryKey, recovery_key};
use linkapi_core::store::postgres::{PgOptions, PgStore};
use linkapi_core::store::sqlite::snapshot::DatabaseLock;

use super::{DATABASE_FILE, FileConfig, redact_url};

/// Makes the key on the deployment named by its data directory, configuration file or
/// database URL (the flags of every data command) and reports it.
///
/// # Errors
/// When the deployment has no database or no user yet, a server holds its SQLite database,
/// its first user is suspended, or the store fails; nothing is written then.
pub(crate) async fn run(
    data_dir: Option<&Path>,
    config: Option<&Path>,
    database_url: Option<&str>,
    out: &mut dyn Write,
) -> Result<()> {
    let file = FileConfig::load_or_default(config)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let made = match database_url.or(file.database_url.as_deref()) {
        Some(url) => {
            let options = PgOptions {
                max_connections: 2,
                ..PgOptions::default()
            };
            let store = PgStore::connect(url, options)
                .await
                .with_context(|| format!("connecting to PostgreSQL at {}", redact_url(url)))?;
            recovery_key(&store, now).await.context("making a key")?
        }
        None => {
            let database = file.data_dir_or(data_dir)?.join(DATABASE_FILE);
            if !database.exists() {
                bail!(
                    "there is no database at {}: the server's first start makes one, and its \
                     first admin key",
                    database.display()
                );
            }
            // One process holds a SQLite database (as for restore and migrate): a server on
            // it is the one writer its caches and batched writes assume.
            let _lock = DatabaseLock::acquire(&database)?;
            let store = SqliteStore::open(&database)
                .with_context(|| format!("opening {}", database.display()))?;
            recovery_key(&store, now).await.context("making a key")?
        }
    };
    report(&made, out)
}

fn report(made: &RecoveryKey, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "{}", made.secret)?;
    writeln!(
        std::io::stderr(),
        "Made a new API key (scope *, named \"recovery\") for user {} ({}); other keys are \
         unchanged. It is shown once: keep it safe.",
        made.user.id.0,
        made.user.name
    )?;
    Ok(())
}

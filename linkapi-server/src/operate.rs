//! The operator's commands on a deployment's data, shared by `linkapi-server <command>` and
//! `linkapi data <command>`: [`DataCommand::Backup`], [`DataCommand::Restore`],
//! [`DataCommand::Migrate`] and [`DataCommand::AdminKey`]. They run beside (backup) or instead of (restore, migrate) a server,
//! on the same data directory and configuration file a server reads.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use linkapi_core::store::sqlite::snapshot::{self, Snapshot};

use super::migrate::MigrateArgs;
use super::{DATABASE_FILE, DeploymentArgs, FileConfig, redact_url};

/// What to do with a deployment's data.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum DataCommand {
    /// Write a consistent snapshot of the SQLite database, while the server runs
    #[command(after_help = "\
The snapshot holds every write the server acknowledged before it began, and is checked
(SQLite's integrity check) before it is given its name. Restore it with `restore`.
A PostgreSQL deployment (--database-url) is refused: back it up with pg_dump (see the README,
\"Operating\").")]
    Backup(BackupArgs),
    /// Put a backup in place of the SQLite database (stop the server first)
    #[command(after_help = "\
The database it replaces is kept beside it as linkapi.db.replaced-<time>, never deleted.
Refused while a server is using the data directory.")]
    Restore(RestoreArgs),
    /// Copy a SQLite deployment's database into PostgreSQL (stop the server first)
    #[command(after_help = "\
Copies every table with ids, codes, key hashes, counters and timestamps unchanged, in one
PostgreSQL transaction: an interrupted run leaves the target as it was, so run it again.
Then compares row counts and a checksum of every table on both sides.
Uploaded files are not copied: see the README, \"Operating\", for moving them.")]
    Migrate(MigrateArgs),
    /// Make a new admin key (scope *) for the first user, when every other is lost
    #[command(after_help = "\
Prints the key alone on stdout (a line on stderr says whose it is); other keys are left as
they are. On SQLite, stop the server first: one process holds the database. On PostgreSQL
(--database-url) it works while the servers run, and they take the key at once.")]
    AdminKey(DeploymentArgs),
}

impl DeploymentArgs {
    /// The SQLite database the deployment serves, refusing one configured for PostgreSQL.
    fn sqlite_database(&self, doing: &str) -> Result<PathBuf> {
        let file = FileConfig::load_or_default(self.config.as_deref())?;
        if let Some(url) = self.database_url.as_ref().or(file.database_url.as_ref()) {
            bail!(
                "this deployment uses PostgreSQL ({}): {doing} it with PostgreSQL's tools \
                 (pg_dump and pg_restore)",
                redact_url(url)
            );
        }
        Ok(file
            .data_dir_or(self.data_dir.as_deref())?
            .join(DATABASE_FILE))
    }
}

/// Flags of `backup`.
#[derive(Debug, Clone, clap::Args)]
pub struct BackupArgs {
    /// The deployment.
    #[command(flatten)]
    pub data: DeploymentArgs,
    /// File to write the snapshot to; must not exist
    #[arg(long, value_name = "FILE")]
    pub to: PathBuf,
}

/// Flags of `restore`.
#[derive(Debug, Clone, clap::Args)]
pub struct RestoreArgs {
    /// The deployment.
    #[command(flatten)]
    pub data: DeploymentArgs,
    /// The backup to put in place
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
}

/// Runs `command`, reporting what it did on `out` and progress on stderr.
///
/// # Errors
/// When the command cannot be done; nothing is left half-done (see each command).
pub async fn run(command: &DataCommand, out: &mut dyn Write) -> Result<()> {
    match command {
        DataCommand::Backup(args) => {
            let database = args.data.sqlite_database("back up")?;
            let target = args.to.clone();
            let snapshot =
                tokio::task::spawn_blocking(move || snapshot::backup(&database, &target))
                    .await
                    .context("the backup task failed")?
                    .context("backing up")?;
            writeln!(out, "Backed up to {}", snapshot.path.display())?;
            describe(out, &snapshot)?;
        }
        DataCommand::Restore(args) => {
            let database = args.data.sqlite_database("restore")?;
            let (target, backup) = (database.clone(), args.from.clone());
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64);
            let restored =
                tokio::task::spawn_blocking(move || snapshot::restore(&backup, &target, now))
                    .await
                    .context("the restore task failed")?
                    .context("restoring")?;
            writeln!(
                out,
                "Restored {} from {}",
                database.display(),
                args.from.display()
            )?;
            describe(out, &restored.snapshot)?;
            if let Some(replaced) = restored.replaced {
                writeln!(
                    out,
                    "The database it replaced is kept as {}",
                    replaced.display()
                )?;
            }
        }
        DataCommand::Migrate(args) => super::migrate::run(args, out).await?,
        DataCommand::AdminKey(args) => {
            let (dir, config) = (args.data_dir.as_deref(), args.config.as_deref());
            super::admin_key::run(dir, config, args.database_url.as_deref(), out).await?;
        }
    }
    Ok(())
}

/// The lines every command that checked a database prints about it.
fn describe(out: &mut dyn Write, snapshot: &Snapshot) -> Result<()> {
    writeln!(
        out,
        "  schema version {}, {} bytes, integrity ok",
        snapshot.schema_version, snapshot.bytes
    )?;
    writeln!(
        out,
        "  {} users, {} API keys, {} chains, {} uploads",
        snapshot.rows("users"),
        snapshot.rows("api_keys"),
        snapshot.rows("chains"),
        snapshot.rows("uploads")
    )?;
    Ok(())
}

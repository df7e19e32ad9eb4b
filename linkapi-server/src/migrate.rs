//! `migrate`: a SQLite deployment's database into PostgreSQL, with progress on stderr and the
//! comparison of both sides on `out` (the copy itself is `linkapi_core::store::transfer`).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use linkapi_core::store::transfer::{self, Progress};

use super::{DATABASE_FILE, redact_url};

/// Copies, verifies, reports.
pub(crate) async fn run(args: &MigrateArgs, out: &mut dyn Write) -> Result<()> {
    let source = sqlite_source(&args.from)?;
    let target = redact_url(&args.to);
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut report_progress = |progress: Progress<'_>| {
        let mut err = std::io::stderr().lock();
        // Progress is best effort: a closed stderr must not stop the copy.
        let _ = match progress {
            Progress::Copying { table, done, total } if terminal => {
                write!(err, "\r\x1b[2K  {table}: {done} of {total} rows")
                    .and_then(|()| if done == total { writeln!(err) } else { Ok(()) })
            }
            Progress::Copying { table, done, total } if done == total => {
                writeln!(err, "  {table}: {done} rows")
            }
            Progress::Copying { .. } => Ok(()),
            Progress::Verifying => writeln!(err, "Comparing both sides, table by table…"),
        };
    };
    let _ = writeln!(
        std::io::stderr(),
        "Copying {} into {target}",
        source.display()
    );
    let report =
        transfer::sqlite_to_postgres(&source, &args.to, args.replace, &mut report_progress)
            .await
            .with_context(|| format!("copying {} into {target}", source.display()))?;
    let rows: u64 = report.tables.iter().map(|t| t.rows).sum();
    writeln!(
        out,
        "Copied {rows} rows in {} tables into {target} (schema version {}) in {:.1} s; \
         row counts and checksums match:",
        report.tables.len(),
        report.schema_version,
        started.elapsed().as_secs_f64()
    )?;
    for table in &report.tables {
        writeln!(
            out,
            "  {:<22} {:>10} rows  {:032x}",
            table.table, table.rows, table.checksum
        )?;
    }
    writeln!(
        out,
        "Start the instances with --database-url; uploaded files stay where they are (see the \
         README, \"Operating\")."
    )?;
    Ok(())
}

/// Flags of `migrate`.
#[derive(Debug, Clone, clap::Args)]
pub struct MigrateArgs {
    /// The SQLite database to copy, as sqlite:PATH (the database file or its data directory)
    #[arg(long, value_name = "sqlite:PATH")]
    pub from: String,
    /// The PostgreSQL database to copy into: postgres://user:password@host:port/db
    #[arg(
        long,
        value_name = "URL",
        env = "LINKAPI_DATABASE_URL",
        hide_env_values = true
    )]
    pub to: String,
    /// Replace whatever the target holds (by default a target with data is refused)
    #[arg(long)]
    pub replace: bool,
}

/// The SQLite database a `sqlite:PATH` source names: the file, or `linkapi.db` in a directory.
pub(crate) fn sqlite_source(from: &str) -> Result<PathBuf> {
    let Some(path) = from.strip_prefix("sqlite:") else {
        bail!("--from must be sqlite:PATH (the database file or its data directory), not {from:?}");
    };
    let path = Path::new(path);
    let database = if path.is_dir() {
        path.join(DATABASE_FILE)
    } else {
        path.to_path_buf()
    };
    if !database.is_file() {
        bail!("{} is not a SQLite database file", database.display());
    }
    Ok(database)
}

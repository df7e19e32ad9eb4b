//! `linkapi chain export`: every short chain, with what a re-import needs, streamed from
//! `GET /chains/export` to a file or standard output.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use linkapi_core::wire::primary::ExportFormat;

use super::import::format_of_name;
use crate::cli::ImportFormat;
use crate::context::Context;

/// `linkapi chain export`: into `output` (written beside it and renamed when whole, so a file
/// there is always a whole export) or standard output.
pub(super) async fn export(
    ctx: Context,
    output: Option<PathBuf>,
    format: Option<ImportFormat>,
) -> Result<()> {
    let format = match format.or_else(|| output.as_deref().and_then(format_of_name)) {
        Some(ImportFormat::Csv) => ExportFormat::Csv,
        Some(ImportFormat::Jsonl) | None => ExportFormat::Jsonl,
    };
    let client = ctx.client()?;
    let Some(path) = output else {
        let mut stdout = std::io::BufWriter::new(std::io::stdout());
        client.export_chains(format, &mut stdout).await?;
        stdout.flush()?;
        return Ok(());
    };
    let partial = partial_name(&path);
    let written = async {
        let file = std::fs::File::create(&partial)
            .with_context(|| format!("creating {}", partial.display()))?;
        let mut file = std::io::BufWriter::new(file);
        let bytes = client.export_chains(format, &mut file).await?;
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&partial, &path)
            .with_context(|| format!("renaming {} to {}", partial.display(), path.display()))?;
        anyhow::Ok(bytes)
    }
    .await;
    match written {
        Ok(bytes) => {
            ctx.out
                .done(&format!("Wrote {} ({bytes} bytes)", path.display()));
            Ok(())
        }
        Err(err) => {
            // Nothing at `path` may look like a whole export.
            let _ = std::fs::remove_file(&partial);
            Err(err)
        }
    }
}

/// Where an export to `path` is written until it is whole: `NAME.partial` beside it.
fn partial_name(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

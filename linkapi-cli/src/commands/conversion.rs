//! `linkapi conversion report|list`.

use anyhow::Result;
use linkapi_core::wire::{LenientInt, compat, primary};

use super::chain::resolve;
use crate::cli::ConversionCommand;
use crate::context::Context;

/// Runs `linkapi conversion ...`.
pub async fn run(ctx: Context, command: ConversionCommand) -> Result<()> {
    let client = ctx.client()?;
    match command {
        ConversionCommand::Report {
            chain,
            conv_type,
            out_id,
            ad_platform,
            clickid,
            external_user,
            value_cents,
            json,
        } => {
            let chain_id =
                resolve(&client, &chain.chain, chain.code, chain.domain.as_ref()).await?;
            let report = compat::ConversionReport {
                chain_id: Some(LenientInt(chain_id)),
                conv_type,
                out_id,
                clickid,
                external_userid: external_user,
                value_cents: value_cents.map(LenientInt),
                ..Default::default()
            };
            let result = client.report_conversion(&ad_platform, &report).await?;
            if result.duplicate {
                ctx.out.note(&format!(
                    "Already recorded as {}: this report was a duplicate and changed nothing.",
                    result.event_id
                ));
            } else {
                ctx.out
                    .success(&format!("Recorded conversion {}", result.event_id));
            }
            ctx.out.record(&result, json.json.as_deref())
        }
        ConversionCommand::List {
            chain,
            page,
            limit,
            json,
        } => {
            let chain_id =
                resolve(&client, &chain.chain, chain.code, chain.domain.as_ref()).await?;
            let found = client
                .conversions(
                    chain_id,
                    &primary::ListConversions {
                        page: Some(page),
                        page_size: Some(limit),
                    },
                )
                .await?;
            ctx.out.records(&found.list, json.json.as_deref(), false)
        }
    }
}

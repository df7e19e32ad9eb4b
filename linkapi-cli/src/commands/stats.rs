//! `linkapi stats CHAIN`: totals, then the daily trend with a bar per day on a terminal.

use anyhow::Result;
use linkapi_core::wire::primary::ChainStats;

use super::chain::resolve;
use crate::cli::ChainRef;
use crate::context::Context;
use crate::output::Output;

/// Widest bar, in cells.
const BAR_WIDTH: usize = 30;

/// Runs `linkapi stats ...`.
pub async fn run(ctx: Context, chain: ChainRef, days: i64, json: Option<String>) -> Result<()> {
    let client = ctx.client()?;
    let chain_id = resolve(&client, &chain.chain, chain.code, chain.domain).await?;
    let stats = super::chain::named(
        &chain.chain,
        chain.code,
        client.chain_stats(chain_id, Some(days)).await,
    )?;
    if json.is_some() {
        return ctx.out.record(&stats, json.as_deref());
    }
    if ctx.out.stdout_tty {
        ctx.out.line(&format!(
            "Chain {}: {} visits, {} unique visitors; {} by bots, counted apart",
            stats.chain_id, stats.total_clicks, stats.unique_visitors, stats.bot_clicks
        ));
        ctx.out.line(&trend_table(&stats, &ctx.out));
        if stats.total_clicks == 0 && stats.bot_clicks > 0 {
            ctx.out.note(
                "Only bots so far: crawlers, link previews, HEAD requests and tools such as \
                 curl are counted apart. Open the link in a browser to count a visit.",
            );
        }
    } else {
        // Scripts get one day per line: date, visits, bot visits.
        for day in &stats.daily_trend {
            ctx.out
                .line(&format!("{}\t{}\t{}", day.day, day.clicks, day.bot_clicks));
        }
    }
    Ok(())
}

/// The trend as a table: day, visits and a bar scaled to the busiest day.
fn trend_table(stats: &ChainStats, out: &Output) -> String {
    let busiest = stats
        .daily_trend
        .iter()
        .map(|d| d.clicks)
        .max()
        .unwrap_or(0);
    let mut table = out.table(["DAY", "VISITS", "BOTS", ""]);
    for day in &stats.daily_trend {
        table.add_row([
            day.day.clone(),
            day.clicks.to_string(),
            day.bot_clicks.to_string(),
            bar(day.clicks, busiest),
        ]);
    }
    table.to_string()
}

/// A bar of `value` against `max`: whole cells, and any day with visits shows at least one.
fn bar(value: i64, max: i64) -> String {
    if value <= 0 || max <= 0 {
        return String::new();
    }
    let cells = (value as f64 / max as f64 * BAR_WIDTH as f64).round() as usize;
    "█".repeat(cells.clamp(1, BAR_WIDTH))
}

#[cfg(test)]
mod tests {
    use super::bar;

    #[test]
    fn bars_scale_to_the_busiest_day() {
        assert_eq!(bar(0, 10), "");
        assert_eq!(bar(10, 10).chars().count(), 30);
        assert_eq!(bar(5, 10).chars().count(), 15);
        assert_eq!(
            bar(1, 1_000).chars().count(),
            1,
            "a day with visits is never blank"
        );
    }
}

//! `linkapi stats [CHAIN]`: a chain's totals and daily trend, its visits by one dimension, the
//! caller's visits across their chains, or (`--orphans`) the requests that reached no chain. On a terminal, charts fitted to its width; piped,
//! plain rows; with `--json`, the server's figures.

use anyhow::Result;
use linkapi_core::client::Client;
use linkapi_core::model::Dimension;
use linkapi_core::wire::primary::{ChainStats, TopQuery};

use super::chain::{named, resolve};
use crate::chart::{bar, sparkline, thousands};
use crate::cli::StatsArgs;
use crate::context::Context;
use crate::output::Output;

/// Narrowest bar drawn, however narrow the terminal.
const MIN_BAR_WIDTH: usize = 8;
/// Widest bar: past this a wide terminal's bars are just long.
const MAX_BAR_WIDTH: usize = 60;
/// What a table's frame takes around its columns: `│ ` and ` │` and ` ┆ ` between columns.
fn frame_width(columns: usize) -> usize {
    4 + 3 * columns.saturating_sub(1)
}

/// Runs `linkapi stats ...`.
pub async fn run(ctx: Context, args: StatsArgs) -> Result<()> {
    let client = ctx.client()?;
    if args.orphans {
        return orphans(&ctx, &client, &args).await;
    }
    let Some(chain) = args.chain.as_deref() else {
        return user_summary(&ctx, &client, &args).await;
    };
    let chain_id = resolve(&client, chain, args.code, args.domain.as_ref()).await?;
    match args.by {
        Some(dimension) => breakdown(&ctx, &client, &args, chain, chain_id, dimension).await,
        None => trend(&ctx, &client, &args, chain, chain_id).await,
    }
}

/// `linkapi stats CHAIN`: totals, a sparkline of the window and a bar per day.
async fn trend(
    ctx: &Context,
    client: &Client,
    args: &StatsArgs,
    chain: &str,
    chain_id: i64,
) -> Result<()> {
    let stats = named(
        chain,
        args.code,
        client.chain_stats(chain_id, Some(args.days)).await,
    )?;
    let json = args.json.json.as_deref();
    if json.is_some() {
        return ctx.out.record(&stats, json);
    }
    if !ctx.out.stdout_tty {
        // Scripts get one day per line: date, visits, bot visits.
        for day in &stats.daily_trend {
            ctx.out
                .line(&format!("{}\t{}\t{}", day.day, day.clicks, day.bot_clicks));
        }
        return Ok(());
    }
    ctx.out.line(&format!(
        "Chain {}: {} visits, {} unique visitors; {} by bots, counted apart",
        stats.chain_id,
        thousands(stats.total_clicks),
        thousands(stats.unique_visitors),
        thousands(stats.bot_clicks)
    ));
    ctx.out.line(&window_line(&stats, &ctx.out));
    ctx.out.line(&trend_table(&stats, &ctx.out));
    if stats.total_clicks == 0 && stats.bot_clicks > 0 {
        ctx.out.note(
            "Only bots so far: crawlers, link previews, HEAD requests and tools such as \
             curl are counted apart. Open the link in a browser to count a visit.",
        );
    }
    Ok(())
}

/// `Last 30 days: ▁▂█▅ 1,520 visits, busiest 2027-01-14 (1,170)`.
fn window_line(stats: &ChainStats, out: &Output) -> String {
    let clicks: Vec<i64> = stats.daily_trend.iter().map(|d| d.clicks).collect();
    let in_window: i64 = clicks.iter().sum();
    let label = format!("Last {} days: ", stats.trend_days);
    let busiest = stats
        .daily_trend
        .iter()
        .filter(|d| d.clicks > 0)
        .max_by(|a, b| a.clicks.cmp(&b.clicks).then_with(|| b.day.cmp(&a.day)));
    let tail = match busiest {
        Some(day) => format!(
            " {} visits, busiest {} ({})",
            thousands(in_window),
            day.day,
            thousands(day.clicks)
        ),
        None => " no visits".to_owned(),
    };
    let room =
        usize::from(out.width()).saturating_sub(label.chars().count() + tail.chars().count());
    format!(
        "{label}{}{tail}",
        sparkline(&clicks, room.max(MIN_BAR_WIDTH))
    )
}

/// The trend as a table: day, visits, bots and a bar scaled to the busiest day, as wide as the
/// terminal leaves room for.
fn trend_table(stats: &ChainStats, out: &Output) -> String {
    let busiest = stats
        .daily_trend
        .iter()
        .map(|d| d.clicks)
        .max()
        .unwrap_or(0);
    let rows: Vec<[String; 3]> = stats
        .daily_trend
        .iter()
        .map(|d| [d.day.clone(), thousands(d.clicks), thousands(d.bot_clicks)])
        .collect();
    let width = bar_width(out, &["DAY", "VISITS", "BOTS"], &rows);
    let mut table = out.table(["DAY", "VISITS", "BOTS", ""]);
    for (day, [date, clicks, bots]) in stats.daily_trend.iter().zip(rows) {
        table.add_row([date, clicks, bots, bar(day.clicks, busiest, width)]);
    }
    table.to_string()
}

/// Cells left for a last column of bars beside columns with `headers` and `rows`.
fn bar_width<const N: usize>(out: &Output, headers: &[&str; N], rows: &[[String; N]]) -> usize {
    let taken: usize = (0..N)
        .map(|column| {
            rows.iter()
                .map(|row| row[column].chars().count())
                .chain([headers[column].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .sum();
    usize::from(out.width())
        .saturating_sub(taken + frame_width(N + 1))
        .clamp(MIN_BAR_WIDTH, MAX_BAR_WIDTH)
}

/// `linkapi stats CHAIN --by DIMENSION`: the values with the most visits, ranked, with their
/// share and a bar.
async fn breakdown(
    ctx: &Context,
    client: &Client,
    args: &StatsArgs,
    chain: &str,
    chain_id: i64,
    dimension: Dimension,
) -> Result<()> {
    let query = TopQuery {
        days: Some(args.days),
        limit: Some(args.limit),
    };
    let figures = named(
        chain,
        args.code,
        client.chain_breakdown(chain_id, dimension, &query).await,
    )?;
    let json = args.json.json.as_deref();
    if json.is_some() {
        return ctx.out.record(&figures, json);
    }
    if !ctx.out.stdout_tty {
        for item in &figures.items {
            ctx.out.line(&format!("{}\t{}", item.value, item.clicks));
        }
        return Ok(());
    }
    let total: i64 = figures.items.iter().map(|i| i.clicks).sum::<i64>() + figures.other_clicks;
    ctx.out.line(&format!(
        "Chain {} by {}, last {} days: {} visits",
        figures.chain_id,
        dimension.name(),
        figures.days,
        thousands(total)
    ));
    if total == 0 {
        ctx.out.note("No visits in the window.");
        return Ok(());
    }
    // The rules breakdown names rules by position: show each as it was written.
    let rules = if dimension == Dimension::Rules {
        client.chain(chain_id).await?.rules
    } else {
        Vec::new()
    };
    let shown = |value: &str| match value.parse::<usize>() {
        Ok(n) if (1..=rules.len()).contains(&n) => {
            format!("{n}: {}", crate::cli::rule_text(&rules[n - 1]))
        }
        _ if dimension == Dimension::Rules && value == "default" => {
            "default (no rule matched)".to_owned()
        }
        _ => value.to_owned(),
    };
    let mut rows: Vec<([String; 3], i64)> = figures
        .items
        .iter()
        .map(|item| {
            (
                [
                    shown(&item.value),
                    thousands(item.clicks),
                    share(item.clicks, total),
                ],
                item.clicks,
            )
        })
        .collect();
    if figures.other_clicks > 0 {
        rows.push((
            [
                "(all others)".to_owned(),
                thousands(figures.other_clicks),
                share(figures.other_clicks, total),
            ],
            figures.other_clicks,
        ));
    }
    ctx.out
        .line(&ranked_table(&ctx.out, ["VALUE", "VISITS", "SHARE"], rows));
    Ok(())
}

/// `linkapi stats`: the caller's visits of the window and their chains with the most.
async fn user_summary(ctx: &Context, client: &Client, args: &StatsArgs) -> Result<()> {
    let query = TopQuery {
        days: Some(args.days),
        limit: Some(args.limit),
    };
    let summary = client.user_stats(&query).await?;
    let json = args.json.json.as_deref();
    if json.is_some() {
        return ctx.out.record(&summary, json);
    }
    if !ctx.out.stdout_tty {
        for chain in &summary.top_chains {
            ctx.out.line(&format!(
                "{}\t{}\t{}",
                chain.code, chain.clicks, chain.render_url
            ));
        }
        return Ok(());
    }
    ctx.out.line(&format!(
        "Last {} days: {} visits across your chains; {} by bots, counted apart",
        summary.days,
        thousands(summary.total_clicks),
        thousands(summary.bot_clicks)
    ));
    if summary.top_chains.is_empty() {
        ctx.out.note("No chain of yours was visited in the window.");
        return Ok(());
    }
    let rows = summary
        .top_chains
        .iter()
        .map(|chain| {
            (
                [
                    chain.code.clone(),
                    chain.render_url.clone(),
                    thousands(chain.clicks),
                ],
                chain.clicks,
            )
        })
        .collect();
    ctx.out
        .line(&ranked_table(&ctx.out, ["CODE", "URL", "VISITS"], rows));
    Ok(())
}

/// `linkapi stats --orphans`: requests of each domain that reached no chain, by kind, most
/// first.
async fn orphans(ctx: &Context, client: &Client, args: &StatsArgs) -> Result<()> {
    let mut counts = client.orphan_visits(Some(args.days)).await?;
    let json = args.json.json.as_deref();
    if json.is_some() {
        return ctx.out.record(&counts, json);
    }
    counts
        .list
        .sort_by(|a, b| b.visits.cmp(&a.visits).then(a.domain.cmp(&b.domain)));
    if !ctx.out.stdout_tty {
        for count in &counts.list {
            ctx.out.line(&format!(
                "{}\t{}\t{}",
                count.domain, count.kind, count.visits
            ));
        }
        return Ok(());
    }
    let total: i64 = counts.list.iter().map(|c| c.visits).sum();
    ctx.out.line(&format!(
        "Last {} days: {} requests reached no chain",
        counts.days,
        thousands(total)
    ));
    if counts.list.is_empty() {
        return Ok(());
    }
    let rows = counts
        .list
        .iter()
        .map(|count| {
            let cells = [
                count.domain.clone(),
                count.kind.clone(),
                thousands(count.visits),
            ];
            (cells, count.visits)
        })
        .collect();
    ctx.out
        .line(&ranked_table(&ctx.out, ["DOMAIN", "KIND", "VISITS"], rows));
    Ok(())
}

/// A table of `rows` (cells and the figure their bar shows), most first, with a last column of
/// bars scaled to the largest.
fn ranked_table(out: &Output, headers: [&str; 3], rows: Vec<([String; 3], i64)>) -> String {
    let largest = rows.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let cells: Vec<[String; 3]> = rows.iter().map(|(cells, _)| cells.clone()).collect();
    let width = bar_width(out, &headers, &cells);
    let mut table = out.table([headers[0], headers[1], headers[2], ""]);
    for ([a, b, c], n) in rows {
        table.add_row([a, b, c, bar(n, largest, width)]);
    }
    table.to_string()
}

/// `part` of `whole` as a percentage with one decimal.
fn share(part: i64, whole: i64) -> String {
    if whole <= 0 {
        return "0.0%".to_owned();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn shares_have_one_decimal() {
        assert_eq!(share(1, 3), "33.3%");
        assert_eq!(share(0, 0), "0.0%");
        assert_eq!(share(5, 5), "100.0%");
    }
}

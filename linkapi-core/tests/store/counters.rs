//! Visit counters, visitor secrets and conversions.

use std::sync::Arc;

use linkapi_core::model::{ChainId, ChainKind, Conversion, Dimension, JumpSettings, PageViews};
use linkapi_core::store::{
    BreakdownVisits, ChainVisits, ChannelInput, ChannelVisits, DailyVisits, DayVisits, Store,
    VisitBatch,
};

use crate::{T0, conformance, domain, short_chain, tx, user};

conformance!(
    a_visit_batch_is_added_once_and_counts_new_visitors_once,
    breakdowns_keep_a_hundred_values_a_day_and_count_the_rest,
    breakdowns_over_long_windows_add_up_to_their_days,
    breakdowns_of_spans_of_one_day_add_up_as_days_come,
    a_days_counts_add_up_whether_a_batch_brings_its_breakdown_or_not,
    the_newest_visitor_secret_is_in_use,
    conversions_are_recorded_once_per_key_and_paged_newest_first,
    creations_are_counted_within_the_quota,
    large_visit_batches_follow_one_another,
);

const DAY: i64 = 86_400;

fn day_visits(chain: ChainId, day: i64, clicks: i64, bot_clicks: i64) -> DailyVisits {
    DailyVisits {
        chain_id: chain,
        day,
        clicks,
        bot_clicks,
    }
}

/// A batch of `visits` visits of each of `values` for `chain` on `day` (a referrer), and
/// `past_cap` visits already past the in-memory cap.
fn referrers(
    id: &str,
    chain: ChainId,
    day: i64,
    values: std::ops::Range<usize>,
    past_cap: i64,
) -> Arc<VisitBatch> {
    let mut breakdowns: Vec<BreakdownVisits> = values
        .map(|i| BreakdownVisits {
            chain_id: chain,
            dimension: Dimension::Referrers,
            day,
            value: Some(format!("r{i:03}.example").into()),
            clicks: 1,
        })
        .collect();
    if past_cap > 0 {
        breakdowns.push(BreakdownVisits {
            chain_id: chain,
            dimension: Dimension::Referrers,
            day,
            value: None,
            clicks: past_cap,
        });
    }
    breakdowns.sort_by(|a, b| a.value.cmp(&b.value));
    Arc::new(VisitBatch {
        id: id.to_owned(),
        breakdowns,
        ..VisitBatch::default()
    })
}

async fn breakdowns_keep_a_hundred_values_a_day_and_count_the_rest(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "b.example").await.id;
    let chain = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "bd", T0))
        .await)
    .unwrap()
    .id;
    let day = T0 - T0 % DAY;
    // 60 values; then 90, 30 of them the same, and 5 visits already past the cap; then the
    // same on the day before, which has its own room.
    assert!(
        store
            .add_visits(referrers("b1", chain, day, 0..60, 0), T0, T0 - DAY)
            .await
            .unwrap()
    );
    assert!(
        store
            .add_visits(referrers("b2", chain, day, 30..120, 5), T0, T0 - DAY)
            .await
            .unwrap()
    );
    let counts = store
        .breakdown(chain, Dimension::Referrers, day, day + DAY, 1000)
        .await
        .unwrap();
    assert_eq!(counts.top.len(), 100);
    assert_eq!(counts.total, 130);
    assert_eq!(counts.past_cap, 25);
    assert_eq!(counts.top[0], ("r030.example".to_owned(), 2));
    // Values new to the day were taken in order until it was full.
    assert!(counts.top.iter().any(|(v, _)| v == "r099.example"));
    assert!(!counts.top.iter().any(|(v, _)| v == "r100.example"));
    let yesterday = day - DAY;
    assert!(
        store
            .add_visits(referrers("b3", chain, yesterday, 100..150, 0), T0, T0 - DAY)
            .await
            .unwrap()
    );
    let both = store
        .breakdown(chain, Dimension::Referrers, yesterday, day + DAY, 1000)
        .await
        .unwrap();
    assert_eq!(both.top.len(), 150);
    assert_eq!(both.total + both.past_cap, 205);
    let limited = store
        .breakdown(chain, Dimension::Referrers, yesterday, day + DAY, 3)
        .await
        .unwrap();
    assert_eq!(limited.top.len(), 3);
    assert_eq!(limited.total, both.total);
    // Other dimensions and chains are apart.
    let os = store
        .breakdown(chain, Dimension::Os, yesterday, day + DAY, 10)
        .await
        .unwrap();
    assert_eq!(os, Default::default());
}

/// A batch of visits of `chain` on `day`: `clicks` and `bot_clicks`, and of people's visits
/// those from each of `referrers` (a value and its visits; none for a day of bots only).
fn day_batch(
    id: &str,
    chain: ChainId,
    day: i64,
    (clicks, bot_clicks): (i64, i64),
    referrers: &[(&str, i64)],
) -> Arc<VisitBatch> {
    Arc::new(VisitBatch {
        id: id.to_owned(),
        daily: vec![day_visits(chain, day, clicks, bot_clicks)],
        breakdowns: referrers
            .iter()
            .map(|(value, clicks)| BreakdownVisits {
                chain_id: chain,
                dimension: Dimension::Referrers,
                day,
                value: Some((*value).into()),
                clicks: *clicks,
            })
            .collect(),
        ..VisitBatch::default()
    })
}

async fn a_days_counts_add_up_whether_a_batch_brings_its_breakdown_or_not(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "m.example").await.id;
    let chain = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "mx", T0))
        .await)
    .unwrap()
    .id;
    let day = T0 - T0 % DAY;
    // Bots first (a row without a breakdown), then people (its first breakdown), then a
    // batch without one (the breakdown stays), then more people (added to it).
    let batches = [
        day_batch("m1", chain, day, (0, 2), &[]),
        day_batch("m2", chain, day, (3, 0), &[("r1.example", 3)]),
        day_batch("m3", chain, day, (1, 1), &[]),
        day_batch(
            "m4",
            chain,
            day,
            (2, 0),
            &[("r1.example", 1), ("r2.example", 1)],
        ),
    ];
    for batch in batches {
        assert!(store.add_visits(batch, T0, T0 - DAY).await.unwrap());
    }
    let visits = store.chain_visits(chain, day, day + DAY).await.unwrap();
    assert_eq!((visits.clicks, visits.bot_clicks), (6, 3));
    assert_eq!(
        visits.daily,
        vec![DayVisits {
            day,
            clicks: 6,
            bot_clicks: 3
        }]
    );
    let referrers = store
        .breakdown(chain, Dimension::Referrers, day, day + DAY, 10)
        .await
        .unwrap();
    assert_eq!(
        referrers.top,
        vec![("r1.example".to_owned(), 4), ("r2.example".to_owned(), 1)]
    );
    assert_eq!((referrers.total, referrers.past_cap), (5, 0));
}

/// Reads the breakdown of the `days` days from `from` whole, and checks it against its days'
/// breakdowns read one by one: the same values, visits and visits past the cap.
async fn window_adds_up_to_its_days(store: &Arc<dyn Store>, chain: ChainId, from: i64, days: i64) {
    let to = from + days * DAY;
    let window = store
        .breakdown(chain, Dimension::Referrers, from, to, 1000)
        .await
        .unwrap();
    let mut by_value: std::collections::BTreeMap<String, i64> = Default::default();
    let mut past_cap = 0;
    for n in 0..days {
        let day = from + n * DAY;
        let one = store
            .breakdown(chain, Dimension::Referrers, day, day + DAY, 1000)
            .await
            .unwrap();
        for (value, clicks) in one.top {
            *by_value.entry(value).or_default() += clicks;
        }
        past_cap += one.past_cap;
    }
    let mut expected: Vec<(String, i64)> = by_value.into_iter().collect();
    expected.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let total: i64 = expected.iter().map(|(_, clicks)| clicks).sum();
    assert_eq!(window.top, expected, "{days} days from {from}");
    assert_eq!(window.total, total, "{days} days from {from}");
    assert_eq!(window.past_cap, past_cap, "{days} days from {from}");
}

/// A long window reads its whole spans of days from their sums: it must come to what its days
/// come to one by one, values new and old, a full day's cap and visits past it included.
async fn breakdowns_over_long_windows_add_up_to_their_days(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "long.example").await.id;
    let chain = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "long", T0))
        .await)
    .unwrap()
    .id;
    let today = T0 - T0 % DAY;
    let first_day = today - 99 * DAY;
    // A day's visits: a few values that recur across days, more on some days, and on every
    // tenth day a flood of 105 values past the cap (5 visits past it).
    let day_rows = |n: i64| -> Vec<BreakdownVisits> {
        let day = first_day + n * DAY;
        let mut values: Vec<(String, i64)> = (0..3)
            .map(|k| (format!("r{:03}.example", (n + k) % 7), n % 4 + k + 1))
            .collect();
        if n % 10 == 3 {
            values.extend((0..105).map(|k| (format!("flood{k:03}.example"), 1)));
        }
        values.sort();
        values
            .into_iter()
            .map(|(value, clicks)| BreakdownVisits {
                chain_id: chain,
                dimension: Dimension::Referrers,
                day,
                value: Some(value.into()),
                clicks,
            })
            .collect()
    };
    // Every day once, then every third day again: adding to values the day already has.
    for (id, step) in [("all", 1), ("again", 3)] {
        let breakdowns = (0..100).step_by(step).flat_map(day_rows).collect();
        let batch = Arc::new(VisitBatch {
            id: id.to_owned(),
            breakdowns,
            ..VisitBatch::default()
        });
        assert!(store.add_visits(batch, T0, T0 - DAY).await.unwrap());
    }
    for (start, days) in [(0, 100), (1, 98), (7, 60), (29, 31), (40, 1), (55, 45)] {
        window_adds_up_to_its_days(&store, chain, first_day + start * DAY, days).await;
    }
    // The flooded day kept 100 values; past the cap, twice: 5 floods and 3 recurring values.
    let flooded = first_day + 3 * DAY;
    let one = store
        .breakdown(chain, Dimension::Referrers, flooded, flooded + DAY, 1000)
        .await
        .unwrap();
    assert_eq!((one.top.len(), one.past_cap), (100, 2 * (5 + 15)));
}

/// A span visited on one day, then on that day again, then on a second day (whose arrival
/// makes SQLite write the span's row, which it had not), then on both: at every step a window
/// holding the span whole reads what its days read one by one, and so does a window of spans
/// with no day, one day and two days side by side.
async fn breakdowns_of_spans_of_one_day_add_up_as_days_come(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "sparse.example").await.id;
    let chain = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "sparse", T0))
        .await)
    .unwrap()
    .id;
    const SPAN: i64 = 30 * DAY;
    // Four spans: the first visited on one day, the second not at all, the third on the days
    // the steps below visit, the fourth on one day with a flood past the cap.
    let first = T0 - T0.rem_euclid(SPAN) - 6 * SPAN;
    let span = first + 2 * SPAN;
    let mut batches = 0;
    let mut add = |day: i64, values: std::ops::Range<usize>, past_cap: i64| {
        batches += 1;
        let batch = referrers(&format!("s{batches}"), chain, day, values, past_cap);
        let store = store.clone();
        async move { assert!(store.add_visits(batch, T0, T0 - DAY).await.unwrap()) }
    };
    add(first + 3 * DAY, 0..4, 0).await;
    add(first + 3 * SPAN + 9 * DAY, 0..120, 2).await;
    let check = || async {
        window_adds_up_to_its_days(&store, chain, span - DAY, 32).await;
        window_adds_up_to_its_days(&store, chain, first, 120).await;
        window_adds_up_to_its_days(&store, chain, first + DAY, 150).await;
    };
    for (day, values, past_cap) in [
        (span + 5 * DAY, 0..3, 0),
        (span + 5 * DAY, 2..6, 1),
        (span + 20 * DAY, 4..110, 3),
        (span + 5 * DAY, 0..2, 0),
        (span + 20 * DAY, 100..105, 0),
        (span + 29 * DAY, 7..8, 0),
    ] {
        add(day, values, past_cap).await;
        check().await;
    }
}

/// Two instances (two stores on one PostgreSQL database) adding values to the same chain and
/// day at once, round after round: the day never holds more than a hundred, and every visit is
/// either in a value or past the cap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakdowns_written_by_two_instances_at_once_keep_to_the_cap() {
    let Some(cluster) = crate::pg_cluster::cluster() else {
        eprintln!("PostgreSQL not installed: skipping");
        return;
    };
    let url = cluster.new_database();
    let options = linkapi_core::store::postgres::PgOptions::default();
    let a: Arc<dyn Store> = Arc::new(
        linkapi_core::store::postgres::PgStore::connect(&url, options.clone())
            .await
            .unwrap(),
    );
    let b: Arc<dyn Store> = Arc::new(
        linkapi_core::store::postgres::PgStore::connect(&url, options)
            .await
            .unwrap(),
    );
    let alice = user(&a, "alice").await.id;
    let d = domain(&a, "race.example").await.id;
    let chain = tx!(a, |tx| tx
        .insert_chain(short_chain(alice, d, "race", T0))
        .await)
    .unwrap()
    .id;
    let day = T0 - T0 % DAY;
    let mut visits = 0;
    for round in 0..6 {
        // 25 values each, 10 of them shared, all new to the day: the third round crosses the
        // cap with both instances adding at once.
        let first = round * 40;
        let (one, two) = tokio::join!(
            a.add_visits(
                referrers(&format!("a{round}"), chain, day, first..first + 25, 0),
                T0,
                T0 - DAY
            ),
            b.add_visits(
                referrers(&format!("b{round}"), chain, day, first + 15..first + 40, 0),
                T0,
                T0 - DAY
            ),
        );
        assert!(one.unwrap() && two.unwrap());
        visits += 50;
        let counts = a
            .breakdown(chain, Dimension::Referrers, day, day + DAY, 1000)
            .await
            .unwrap();
        assert_eq!(
            counts.top.len(),
            (40 * (round + 1)).min(100),
            "round {round}"
        );
        assert_eq!(counts.total + counts.past_cap, visits, "round {round}");
    }
}

async fn a_visit_batch_is_added_once_and_counts_new_visitors_once(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "v.example").await.id;
    let a = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "va", T0))
        .await)
    .unwrap()
    .id;
    let b = tx!(store, |tx| {
        let mut chain = short_chain(alice, d, "vb", T0);
        chain.kind = ChainKind::Messaging;
        chain.jump = Some(JumpSettings::default());
        chain.channels = vec![ChannelInput {
            sort: 1,
            name: "qr".to_owned(),
            url: "https://img.example/qr.png".to_owned(),
            url2: String::new(),
            expires_at: 0,
            ratio: 1,
            visit_limit: 0,
            enabled: true,
        }];
        tx.insert_chain(chain).await
    })
    .unwrap()
    .id;
    let channel = store.channels(b).await.unwrap()[0].id;
    let day = T0 - T0 % DAY;
    let first = Arc::new(VisitBatch {
        id: "batch-1".to_owned(),
        daily: vec![
            day_visits(a, day, 3, 1),
            day_visits(a, day - DAY, 2, 0),
            day_visits(b, day, 1, 0),
        ],
        visitors: vec![(a, [1; 16]), (a, [2; 16]), (b, [1; 16])],
        channels: vec![ChannelVisits {
            channel_id: channel,
            day,
            visits: 4,
        }],
        breakdowns: Vec::new(),
        orphans: Vec::new(),
        // A batch written while visits pile up (SQLite writes it without yielding) counts alike.
        behind: true,
    });
    assert!(store.add_visits(first.clone(), T0, T0 - DAY).await.unwrap());
    // The same batch again (a retry after a lost answer) adds nothing.
    assert!(
        !store
            .add_visits(first.clone(), T0 + 1, T0 - DAY)
            .await
            .unwrap()
    );

    let second = VisitBatch {
        id: "batch-2".to_owned(),
        daily: vec![day_visits(a, day, 1, 0)],
        // One visitor seen before, one new.
        visitors: vec![(a, [2; 16]), (a, [3; 16])],
        channels: Vec::new(),
        breakdowns: Vec::new(),
        orphans: Vec::new(),
        behind: false,
    };
    // A batch added inside a transaction counts the same way.
    let (added, _) = linkapi_core::store::transact(&*store, move |tx| {
        let batch = second.clone();
        Box::pin(async move { tx.add_visits(&batch, T0 + 2, T0 - DAY).await })
    })
    .await
    .unwrap();
    assert!(added);

    let visits = store.chain_visits(a, day - DAY, day + DAY).await.unwrap();
    assert_eq!(
        visits,
        ChainVisits {
            clicks: 6,
            bot_clicks: 1,
            unique_visitors: 3,
            daily: vec![
                DayVisits {
                    day: day - DAY,
                    clicks: 2,
                    bot_clicks: 0
                },
                DayVisits {
                    day,
                    clicks: 4,
                    bot_clicks: 1
                }
            ],
        }
    );
    let window = store.chain_visits(a, day, day + DAY).await.unwrap();
    assert_eq!(
        window.daily.iter().map(|d| d.day).collect::<Vec<_>>(),
        vec![day],
        "only days inside the window"
    );
    let views = store
        .page_views(&[a, b, ChainId(b.0 + 100)], day)
        .await
        .unwrap();
    assert_eq!(
        views[&a],
        PageViews {
            today: 4,
            history: 6
        }
    );
    assert_eq!(
        views[&b],
        PageViews {
            today: 1,
            history: 1
        }
    );
    assert_eq!(views[&ChainId(b.0 + 100)], PageViews::default());
    assert_eq!(
        store
            .chain_visits(b, day, day + DAY)
            .await
            .unwrap()
            .unique_visitors,
        1
    );
    assert_eq!(store.channels(b).await.unwrap()[0].visit_count, 4);

    // Batch ids are forgotten once older than `forget_before`: then the id is new again.
    let later = Arc::new(VisitBatch {
        id: "batch-3".to_owned(),
        ..VisitBatch::default()
    });
    assert!(
        store
            .add_visits(later, T0 + 10 * DAY, T0 + 5 * DAY)
            .await
            .unwrap()
    );
    assert!(
        store
            .add_visits(first, T0 + 10 * DAY, T0 + 5 * DAY)
            .await
            .unwrap()
    );
    assert_eq!(
        store.chain_visits(a, 0, day + DAY).await.unwrap().clicks,
        11
    );
}

async fn the_newest_visitor_secret_is_in_use(store: Arc<dyn Store>) {
    assert_eq!(store.visitor_secret().await.unwrap(), None);
    let first = tx!(store, |tx| tx.insert_visitor_secret([7; 16], T0).await).unwrap();
    let second = tx!(store, |tx| tx.insert_visitor_secret([9; 16], T0 + 1).await).unwrap();
    assert!(second.id > first.id);
    let in_use = store.visitor_secret().await.unwrap().unwrap();
    assert_eq!(in_use, second);
    assert_eq!(in_use.secret, [9; 16]);
}

fn conversion(chain: ChainId, event: &str, out_id: Option<&str>, value: i64) -> Conversion {
    Conversion {
        event_id: event.to_owned(),
        chain_id: chain,
        conv_type: "purchase".to_owned(),
        out_id: out_id.map(str::to_owned),
        clickid: Some("click-1".to_owned()),
        platform: None,
        ad_platform: "ads".to_owned(),
        external_userid: None,
        value_cents: Some(value),
        created_at: T0,
    }
}

async fn conversions_are_recorded_once_per_key_and_paged_newest_first(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let d = domain(&store, "k.example").await.id;
    let chain = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "conv", T0))
        .await)
    .unwrap()
    .id;

    let (first, inserted) = tx!(store, |tx| {
        tx.insert_conversion(alice, conversion(chain, "01A", Some("order-1"), 100))
            .await
    })
    .unwrap();
    assert!(inserted);
    assert_eq!(first, conversion(chain, "01A", Some("order-1"), 100));
    // The same key again answers the event that stands, not the new one.
    let (stands, inserted) = tx!(store, |tx| {
        tx.insert_conversion(alice, conversion(chain, "01B", Some("order-1"), 999))
            .await
    })
    .unwrap();
    assert!(!inserted);
    assert_eq!(stands, first);
    // Another user's key is another key.
    let (_, inserted) = tx!(store, |tx| {
        tx.insert_conversion(bob, conversion(chain, "01C", Some("order-1"), 5))
            .await
    })
    .unwrap();
    assert!(inserted);
    // Events without a key never collide.
    for event in ["01D", "01E"] {
        let (stored, inserted) = tx!(store, |tx| {
            tx.insert_conversion(alice, conversion(chain, event, None, 1))
                .await
        })
        .unwrap();
        assert!(inserted);
        assert_eq!(stored.event_id, event);
    }

    let page = store.conversions(alice, chain, 0, 2).await.unwrap();
    assert_eq!(page.total, 3);
    let events: Vec<_> = page.items.iter().map(|c| c.event_id.as_str()).collect();
    assert_eq!(events, ["01E", "01D"]);
    let rest = store.conversions(alice, chain, 2, 2).await.unwrap();
    assert_eq!(
        rest.items
            .iter()
            .map(|c| c.event_id.as_str())
            .collect::<Vec<_>>(),
        ["01A"]
    );
    assert_eq!(store.conversions(bob, chain, 0, 10).await.unwrap().total, 1);
}

async fn creations_are_counted_within_the_quota(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let day = T0 - T0 % DAY;
    // Reserved on their own and added inside a transaction count alike, against the default.
    assert_eq!(
        store.reserve_creations(alice, day, 3, 5).await.unwrap(),
        Some(3)
    );
    assert_eq!(
        tx!(store, |tx| tx.add_creations_within(alice, day, 2, 5).await).unwrap(),
        Some(5)
    );
    // Past the quota: refused, and nothing added.
    assert_eq!(
        store.reserve_creations(alice, day, 1, 5).await.unwrap(),
        None
    );
    assert_eq!(
        tx!(store, |tx| tx.add_creations_within(alice, day, 1, 5).await).unwrap(),
        None
    );
    assert_eq!(
        tx!(store, |tx| tx.add_creations(alice, day, -1).await).unwrap(),
        4,
        "one given back"
    );
    assert_eq!(
        store.reserve_creations(alice, day, 1, 5).await.unwrap(),
        Some(5)
    );
    // Another day counts from zero; a first count larger than the quota is refused too.
    assert_eq!(
        store
            .reserve_creations(alice, day + DAY, 6, 5)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store
            .reserve_creations(alice, day + DAY, 5, 5)
            .await
            .unwrap(),
        Some(5)
    );
    // The user's own quota wins over the default.
    let mut own = store.user(alice).await.unwrap().unwrap();
    own.daily_quota = Some(7);
    linkapi_core::store::transact(&*store, move |tx| {
        let own = own.clone();
        Box::pin(async move { tx.update_user(&own).await })
    })
    .await
    .unwrap();
    assert_eq!(
        store.reserve_creations(alice, day, 2, 5).await.unwrap(),
        Some(7)
    );
    assert_eq!(
        store.reserve_creations(alice, day, 1, 5).await.unwrap(),
        None
    );
}

/// Batches of tens of thousands of rows one after another, then a small one: each counts in
/// full. (PostgreSQL closes the connection a large flush used rather than pooling it, so the
/// next flush runs on a fresh one.)
async fn large_visit_batches_follow_one_another(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "large.example").await.id;
    let chain = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "large", T0))
        .await)
    .unwrap()
    .id;
    let day = T0 - T0 % DAY;
    let batch = |n: u32, visitors: std::ops::Range<u32>| {
        Arc::new(VisitBatch {
            id: format!("large-{n}"),
            daily: vec![day_visits(chain, day, visitors.len() as i64, 0)],
            visitors: visitors
                .map(|v| {
                    let mut key = [0u8; 16];
                    key[..4].copy_from_slice(&v.to_be_bytes());
                    (chain, key)
                })
                .collect(),
            ..VisitBatch::default()
        })
    };
    for (n, visitors) in [(1, 0..15_000), (2, 10_000..30_000), (3, 29_990..30_010)] {
        assert!(
            store
                .add_visits(batch(n, visitors), T0, T0 - DAY)
                .await
                .unwrap()
        );
    }
    let visits = store.chain_visits(chain, day, day + DAY).await.unwrap();
    assert_eq!(
        (visits.clicks, visits.unique_visitors),
        (15_000 + 20_000 + 20, 30_010)
    );
}

//! Where each page chain's channel rotation stands on this instance: the round-robin cursor
//! and the channels found used up, bounded (an evicted chain starts over from position 0
//! with nothing remembered, which only costs a database round trip), and the order a
//! rotation tries the usable channels in.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rand::RngExt;

use crate::locks::Unpoisoned;
use crate::model::{ChainId, Channel, ChannelId, Rotation, Timestamp};

/// Rotation state of one chain on this instance.
#[derive(Default)]
struct RotationState {
    /// Round-robin position.
    next: u64,
    /// Channels found used up: the limit they had and the day (for daily caps; `None` for
    /// total caps) when they were.
    used_up: HashMap<ChannelId, (i64, Option<Timestamp>)>,
}

/// Rotation state of the chains this instance served, at most `capacity` of them.
pub(crate) struct Rotations {
    chains: quick_cache::sync::Cache<ChainId, Arc<Mutex<RotationState>>>,
}

/// One chain's rotation, as a visit holds it.
pub(crate) struct ChainRotation(Arc<Mutex<RotationState>>);

impl Rotations {
    pub(crate) fn new(capacity: usize) -> Self {
        Rotations {
            chains: quick_cache::sync::Cache::new(capacity.max(1)),
        }
    }

    /// The rotation of `chain`, remembered or new.
    pub(crate) fn of(&self, chain: ChainId) -> ChainRotation {
        ChainRotation(
            self.chains
                .get_or_insert_with(&chain, || Ok::<_, std::convert::Infallible>(Arc::default()))
                .unwrap_or_default(),
        )
    }
}

impl ChainRotation {
    /// The channels a visit at `now` may try, in the order `rotation` tries them: usable
    /// ones (enabled, not expired) not found used up, unless their limit changed since or,
    /// with a `daily` cap, the day `day` is a new one. A round robin moves on by one.
    pub(crate) fn order<'c>(
        &self,
        channels: &'c [Channel],
        rotation: Rotation,
        now: Timestamp,
        day: Timestamp,
        daily: bool,
    ) -> Vec<&'c Channel> {
        let mut state = self.0.lock().unpoisoned();
        let usable: Vec<&Channel> = channels
            .iter()
            .filter(|c| c.is_usable_at(now))
            .filter(|c| match state.used_up.get(&c.id) {
                Some((limit, when)) => *limit != c.visit_limit || (daily && *when != Some(day)),
                None => true,
            })
            .collect();
        let cursor = state.next;
        if rotation == Rotation::RoundRobin {
            state.next = state.next.wrapping_add(1);
        }
        order(rotation, usable, cursor)
    }

    /// Remembers that `channel` was found used up at its `limit` (on `day`, for daily caps).
    pub(crate) fn used_up(&self, channel: ChannelId, limit: i64, day: Option<Timestamp>) {
        self.0
            .lock()
            .unpoisoned()
            .used_up
            .insert(channel, (limit, day));
    }
}

/// The usable channels in the order a visit tries them.
fn order(rotation: Rotation, usable: Vec<&Channel>, cursor: u64) -> Vec<&Channel> {
    let mut rng = rand::rng();
    match rotation {
        Rotation::SortOrder => usable,
        Rotation::RoundRobin => {
            let mut usable = usable;
            if !usable.is_empty() {
                let start = (cursor % usable.len() as u64) as usize;
                usable.rotate_left(start);
            }
            usable
        }
        Rotation::Uniform => {
            let mut keyed: Vec<(f64, &Channel)> =
                usable.into_iter().map(|c| (rng.random(), c)).collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            keyed.into_iter().map(|(_, c)| c).collect()
        }
        Rotation::Weighted => {
            // Exponential race: each channel draws -ln(u)/ratio and the smallest goes first,
            // which picks the first by weight and each next one by weight among the rest.
            // Channels with ratio 0 come last, in sort order.
            let mut keyed: Vec<(f64, usize, &Channel)> = usable
                .into_iter()
                .enumerate()
                .map(|(i, c)| {
                    let key = if c.ratio > 0 {
                        let u: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
                        -u.ln() / c.ratio as f64
                    } else {
                        f64::INFINITY
                    };
                    (key, i, c)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            keyed.into_iter().map(|(_, _, c)| c).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(id: i64, ratio: i64) -> Channel {
        Channel {
            id: ChannelId(id),
            chain_id: ChainId(1),
            sort: id,
            name: String::new(),
            url: format!("https://cdn.example.com/{id}.png"),
            url2: String::new(),
            expires_at: 0,
            ratio,
            visit_limit: 0,
            enabled: true,
            visit_count: 0,
        }
    }

    #[test]
    fn round_robin_starts_at_the_cursor() {
        let channels = [channel(1, 1), channel(2, 1), channel(3, 1)];
        let ids = |cursor| -> Vec<i64> {
            order(Rotation::RoundRobin, channels.iter().collect(), cursor)
                .iter()
                .map(|c| c.id.0)
                .collect()
        };
        assert_eq!(ids(0), [1, 2, 3]);
        assert_eq!(ids(4), [2, 3, 1]);
    }

    #[test]
    fn weighted_order_puts_zero_ratios_last() {
        let channels = [channel(1, 0), channel(2, 5), channel(3, 1)];
        for _ in 0..100 {
            let ordered = order(Rotation::Weighted, channels.iter().collect(), 0);
            assert_eq!(ordered.len(), 3);
            assert_eq!(ordered[2].id.0, 1);
        }
    }
}

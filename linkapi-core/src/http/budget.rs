//! What request bodies, and the work they start, may hold of memory at once, shared fairly
//! between the parties that hold it: users (all of a user's keys are one party) for bodies
//! whose key is known, client addresses for bodies read before it is (the compatibility
//! surface's key in the body), each in a pool of its own.
//!
//! A request holds what it has received so far times the factor of the work it starts
//! ([`BULK_FACTOR`], [`JSON_FACTOR`]; an upload at most [`UPLOAD_BYTES`]), taken step by step
//! as its body arrives ([`Held::grow`]), so a body that trickles in holds what it sent, not
//! what it declared. A step that cannot be had at once waits (the body is not read meanwhile)
//! at most [`WAIT`], then the request is refused with `Retry-After`: 429 `key_busy` when its
//! user holds its share or more, 503 `overloaded` when the instance is full without it.
//!
//! **Fair shares.** With `n` parties holding or waiting, a party's share is `1/n` of the
//! pool. Within its share a party takes whatever is free; beyond it, only while the pool
//! keeps a headroom (a quarter) free, and never more than its cap. So one party can use an
//! idle instance, yet a newcomer with a request within its share finds room at once whatever
//! the others hold, and a request that must wait is served before those of parties holding
//! more ([`Ledger::grant_waiting`]). Small steps (up to [`SMALL_KIB`]) never wait behind
//! large ones.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

use crate::error::{Error, Result};
use crate::locks::Unpoisoned;
use crate::model::UserId;

/// Memory a bulk create's work takes, per byte of body, at most: the body, the items it
/// decodes into, and the answer, each about once (decoded off the serving threads, written in
/// runs, answered from the runs' encoded results).
pub(crate) const BULK_FACTOR: u64 = 3;
/// The same for ordinary JSON bodies: the body and what it decodes into.
pub(crate) const JSON_FACTOR: u64 = 2;
/// What an upload request holds at most while it streams: the staging writer's part (5 MiB,
/// `service::uploads`) and the part being sent, whatever the size of the files.
pub(crate) const UPLOAD_BYTES: u64 = 10 << 20;
/// Charges at least this large give memory back to the system when the users' pool is empty
/// again ([`crate::heap::release_free_memory`]), in KiB.
const TRIM_AFTER_KIB: u64 = 8 << 10;
/// How long a step waits for room before its request is refused.
pub(crate) const WAIT: Duration = Duration::from_secs(1);
/// What a refused request is told to wait.
const RETRY_AFTER: u64 = 2;
/// The pool of bodies read before their key is known.
pub(crate) const KEYLESS_BYTES: u64 = 32 << 20;
/// What one client address may hold of that pool.
pub(crate) const ADDRESS_BYTES: u64 = 4 << 20;
/// Steps this small (KiB) are granted whenever they fit, even with larger ones waiting.
const SMALL_KIB: u64 = 1024;

/// Who holds a share of a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Party {
    /// A user, whatever key it sent.
    User(UserId),
    /// A client address, for a body whose key is not known yet.
    Address(IpAddr),
}

/// The pools of one server.
pub(crate) struct Budget {
    /// Bodies whose key is known, shared between users.
    pub(crate) users: Arc<Pool>,
    /// Bodies read before their key is known, shared between client addresses.
    pub(crate) keyless: Arc<Pool>,
}

impl Budget {
    /// An instance's budget of `instance_bytes`, of which a user holds at most `user_bytes`.
    pub(crate) fn new(instance_bytes: u64, user_bytes: u64) -> Budget {
        Budget {
            users: Pool::new(instance_bytes, user_bytes, Kind::Users),
            keyless: Pool::new(KEYLESS_BYTES, ADDRESS_BYTES, Kind::Keyless),
        }
    }
}

/// KiB, rounded up.
fn kib(bytes: u64) -> u64 {
    bytes.div_ceil(1024)
}

/// Which pool: they differ in what a refusal says and whether emptying one trims the heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Users,
    Keyless,
}

/// Memory shared fairly between parties.
pub(crate) struct Pool {
    ledger: Mutex<Ledger>,
    kind: Kind,
}

/// A pool's accounts, in KiB.
struct Ledger {
    capacity: u64,
    /// What one party may hold at most.
    cap: u64,
    /// What parties beyond their share leave free.
    headroom: u64,
    held: u64,
    parties: HashMap<Party, Account>,
    waiting: Vec<Waiter>,
    tickets: u64,
}

#[derive(Debug, Default)]
struct Account {
    held: u64,
    waiting: u32,
    /// Its requests with a share ([`Held`]s alive), holding or not yet.
    requests: u32,
}

impl Account {
    /// Whether nothing of the party is left in the pool.
    fn is_empty(&self) -> bool {
        self.held == 0 && self.waiting == 0 && self.requests == 0
    }
}

struct Waiter {
    ticket: u64,
    party: Party,
    want: u64,
    grant: oneshot::Sender<()>,
}

impl Ledger {
    fn held_by(&self, party: Party) -> u64 {
        self.parties.get(&party).map_or(0, |a| a.held)
    }

    /// Whether `party` may take `want` more now.
    fn fits(&self, party: Party, want: u64) -> bool {
        let own = self.held_by(party);
        if self.held + want > self.capacity || own + want > self.cap {
            return false;
        }
        let parties = self.parties.len() + usize::from(!self.parties.contains_key(&party));
        let share = self.capacity / parties.max(1) as u64;
        own + want <= share || self.held + want <= self.capacity - self.headroom
    }

    fn take(&mut self, party: Party, want: u64) {
        self.held += want;
        self.parties.entry(party).or_default().held += want;
    }

    fn give_back(&mut self, party: Party, kib: u64) {
        self.held = self.held.saturating_sub(kib);
        if let Some(account) = self.parties.get_mut(&party) {
            account.held = account.held.saturating_sub(kib);
            if account.is_empty() {
                self.parties.remove(&party);
            }
        }
    }

    /// Whether `party` asking for `want` more could only wait on itself: every other request
    /// of the party waits too, and what stands in the way is the party's own cap (or nothing
    /// but the party holds anything). Nothing of the party would ever be released, so one of
    /// its requests must be refused at once for the others to go on.
    fn waits_on_itself(&self, party: Party, want: u64) -> bool {
        let Some(account) = self.parties.get(&party) else {
            return false;
        };
        account.held > 0
            && account.waiting + 1 >= account.requests
            && (account.held + want > self.cap || self.held == account.held)
    }

    /// Takes the waiter `ticket` off the queue; whether it was there (not yet granted).
    fn withdraw(&mut self, ticket: u64) -> bool {
        let Some(at) = self.waiting.iter().position(|w| w.ticket == ticket) else {
            return false;
        };
        let waiter = self.waiting.remove(at);
        if let Some(account) = self.parties.get_mut(&waiter.party) {
            account.waiting -= 1;
            if account.is_empty() {
                self.parties.remove(&waiter.party);
            }
        }
        true
    }

    /// Grants what waits and now fits: parties holding least first, then in arrival order.
    fn grant_waiting(&mut self) {
        loop {
            let mut order: Vec<(u64, u64, usize)> = self
                .waiting
                .iter()
                .enumerate()
                .map(|(at, w)| (self.held_by(w.party), w.ticket, at))
                .collect();
            order.sort_unstable();
            let Some(&(_, _, at)) = order
                .iter()
                .find(|(_, _, at)| self.fits(self.waiting[*at].party, self.waiting[*at].want))
            else {
                return;
            };
            let waiter = self.waiting.remove(at);
            if let Some(account) = self.parties.get_mut(&waiter.party) {
                account.waiting -= 1;
            }
            self.take(waiter.party, waiter.want);
            if waiter.grant.send(()).is_err() {
                // Gone while we looked (its request was dropped): nothing is held for it.
                self.give_back(waiter.party, waiter.want);
            }
        }
    }
}

impl Pool {
    fn new(capacity_bytes: u64, cap_bytes: u64, kind: Kind) -> Arc<Pool> {
        let capacity = kib(capacity_bytes).max(1);
        Arc::new(Pool {
            ledger: Mutex::new(Ledger {
                capacity,
                cap: kib(cap_bytes).clamp(1, capacity),
                headroom: capacity / 4,
                held: 0,
                parties: HashMap::new(),
                waiting: Vec::new(),
                tickets: 0,
            }),
            kind,
        })
    }

    /// Takes `bytes` for `party`, waiting at most [`WAIT`]. A charge larger than a party's
    /// cap takes the whole cap: such a request runs alone among its party's.
    ///
    /// # Errors
    /// As [`Held::grow`].
    pub(crate) async fn admit(self: &Arc<Self>, party: Party, bytes: u64) -> Result<Held> {
        self.ledger
            .lock()
            .unpoisoned()
            .parties
            .entry(party)
            .or_default()
            .requests += 1;
        let mut held = Held {
            pool: self.clone(),
            party,
            kib: 0,
        };
        held.grow(bytes).await?;
        Ok(held)
    }

    /// Takes `want` KiB more for `party`, waiting at most [`WAIT`].
    async fn take(self: &Arc<Self>, party: Party, want: u64) -> Result<()> {
        let (ticket, granted) = {
            let mut ledger = self.ledger.lock().unpoisoned();
            let own = ledger.held_by(party);
            let behind =
                want > SMALL_KIB && ledger.waiting.iter().any(|w| ledger.held_by(w.party) < own);
            if !behind && ledger.fits(party, want) {
                ledger.take(party, want);
                return Ok(());
            }
            if ledger.waits_on_itself(party, want) {
                // Refused now, this request's share goes back when its `Held` drops, and the
                // party's others take it.
                return Err(Error::KeyBusy {
                    retry_after: RETRY_AFTER,
                });
            }
            let (grant, granted) = oneshot::channel();
            ledger.tickets += 1;
            let ticket = ledger.tickets;
            ledger.parties.entry(party).or_default().waiting += 1;
            ledger.waiting.push(Waiter {
                ticket,
                party,
                want,
                grant,
            });
            (ticket, granted)
        };
        let mut waiting = Waiting {
            pool: self,
            ticket,
            party,
            want,
            granted,
            settled: false,
        };
        let outcome = tokio::time::timeout(WAIT, &mut waiting.granted).await;
        waiting.settled = true;
        if let Ok(Ok(())) = outcome {
            return Ok(());
        }
        let mut ledger = self.ledger.lock().unpoisoned();
        if !ledger.withdraw(ticket) && waiting.granted.try_recv().is_ok() {
            // Granted just as the wait ended.
            return Ok(());
        }
        // One party fewer may make room for others.
        ledger.grant_waiting();
        let own = ledger.held_by(party);
        let parties = ledger.parties.len().max(1) as u64;
        let beyond_share = own + want > ledger.capacity / parties || own + want > ledger.cap;
        Err(match (self.kind, beyond_share && own > 0) {
            (Kind::Users, true) => Error::KeyBusy {
                retry_after: RETRY_AFTER,
            },
            _ => Error::Overloaded {
                retry_after: RETRY_AFTER,
            },
        })
    }

    fn release(&self, party: Party, kib: u64) {
        let emptied = {
            let mut ledger = self.ledger.lock().unpoisoned();
            ledger.give_back(party, kib);
            ledger.grant_waiting();
            ledger.held == 0
        };
        if emptied
            && self.kind == Kind::Users
            && kib >= TRIM_AFTER_KIB
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            // A few milliseconds walking the allocator's arenas: not on a serving thread.
            runtime.spawn_blocking(crate::heap::release_free_memory);
        }
    }
}

/// A request waiting for its step; if dropped before it settles (the request was dropped),
/// it leaves the queue, or gives back what it was granted meanwhile.
struct Waiting<'a> {
    pool: &'a Arc<Pool>,
    ticket: u64,
    party: Party,
    want: u64,
    granted: oneshot::Receiver<()>,
    settled: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if self.settled {
            return;
        }
        let mut ledger = self.pool.ledger.lock().unpoisoned();
        if ledger.withdraw(self.ticket) {
            ledger.grant_waiting();
        } else if self.granted.try_recv().is_ok() {
            drop(ledger);
            self.pool.release(self.party, self.want);
        }
    }
}

/// A request's share of a pool, given back when dropped.
pub(crate) struct Held {
    pool: Arc<Pool>,
    party: Party,
    /// KiB held.
    kib: u64,
}

impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Held({:?}, {} KiB)", self.party, self.kib)
    }
}

impl Held {
    /// Grows the share to `bytes` in all (nothing when it holds that much already, and never
    /// past the party's cap), waiting at most [`WAIT`] for room.
    ///
    /// # Errors
    /// 429 `key_busy` when the user holds its share or more and no room came; 503
    /// `overloaded` when the pool is full of others' work (for a body whose key is not known,
    /// always 503). What it held stays held until dropped.
    pub(crate) async fn grow(&mut self, bytes: u64) -> Result<()> {
        let cap = self.pool.ledger.lock().unpoisoned().cap;
        let wanted = kib(bytes).clamp(1, cap);
        if wanted <= self.kib {
            return Ok(());
        }
        let more = wanted - self.kib;
        self.pool.take(self.party, more).await?;
        self.kib = wanted;
        Ok(())
    }

    /// What it holds, in bytes.
    pub(crate) fn bytes(&self) -> u64 {
        self.kib * 1024
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        {
            let mut ledger = self.pool.ledger.lock().unpoisoned();
            if let Some(account) = ledger.parties.get_mut(&self.party) {
                account.requests = account.requests.saturating_sub(1);
                if account.is_empty() {
                    ledger.parties.remove(&self.party);
                }
            }
        }
        if self.kib > 0 {
            self.pool.release(self.party, self.kib);
        }
    }
}

#[cfg(test)]
mod tests;

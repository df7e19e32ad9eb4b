//! Taking a lock whose holder panicked.
//!
//! Every lock of this crate is taken over after a panic rather than passing the panic on: a
//! panic while holding one is a bug whose own request or task already failed, and the state
//! the locks guard (caches, queues, registries, waiting answers) is replaced or added to in
//! steps that leave it usable. A server that stopped serving every request after one
//! request's panic would serve nobody. Where a particular lock needs more said, its site says
//! it. Each site wrote the takeover out by hand before; this is the one place it is written.

use std::sync::{LockResult, PoisonError};

/// A lock's guard, whether or not a holder of the lock panicked (see the module's note).
pub(crate) trait Unpoisoned<G> {
    /// The guard, a poisoned lock taken over.
    fn unpoisoned(self) -> G;
}

impl<G> Unpoisoned<G> for LockResult<G> {
    fn unpoisoned(self) -> G {
        self.unwrap_or_else(PoisonError::into_inner)
    }
}

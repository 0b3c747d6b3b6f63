//! The second churn (issue 23): a 24-byte object, three words, so that slotmap's `remove` and
//! `insert` move little, against the 40-byte particle where they move more. The same steps as
//! the particle's churn (`Churn`), each creating an object from its spawn's `frames_left`.

use crate::workload::CHECKED;
use crate::{CHURN_LIVE, Churn, Step};
use pooling::{Handle, Pooled};
use slotmap::{DefaultKey, DenseSlotMap, SlotMap};

/// 24 bytes of plain data.
#[derive(Pooled, Clone, Copy, Debug, Default, PartialEq)]
#[pool(size = 1024)]
pub struct Mote {
    pub a: u64,
    pub b: u64,
    pub c: u64,
}

const _: () = assert!(size_of::<Mote>() == 24);

impl Mote {
    #[inline]
    fn new(seed: u32) -> Self {
        let a = u64::from(seed);
        Self {
            a,
            b: a + 1,
            c: a + 2,
        }
    }
}

/// What the small churn asks of a peer.
pub trait SmallPeer {
    const NAME: &'static str;
    type Key: Copy;
    fn create(&mut self, mote: Mote) -> Self::Key;
    fn release(&mut self, key: Self::Key);
    fn get(&self, key: Self::Key) -> Option<&Mote>;
}

impl SmallPeer for MotePool {
    const NAME: &'static str = "pooling";
    type Key = Handle<Mote>;
    #[inline]
    fn create(&mut self, mote: Mote) -> Self::Key {
        MotePool::create(self, |m| *m = mote).unwrap()
    }
    #[inline]
    fn release(&mut self, key: Self::Key) {
        MotePool::release(self, key).unwrap();
    }
    fn get(&self, key: Self::Key) -> Option<&Mote> {
        MotePool::get(self, key)
    }
}

impl SmallPeer for slab::Slab<Mote> {
    const NAME: &'static str = "slab";
    type Key = usize;
    #[inline]
    fn create(&mut self, mote: Mote) -> Self::Key {
        self.insert(mote)
    }
    #[inline]
    fn release(&mut self, key: Self::Key) {
        self.remove(key);
    }
    fn get(&self, key: Self::Key) -> Option<&Mote> {
        slab::Slab::get(self, key)
    }
}

/// slotmap's two maps, alike.
macro_rules! slotmap_peer {
    ($type:ty, $name:literal) => {
        impl SmallPeer for $type {
            const NAME: &'static str = $name;
            type Key = DefaultKey;
            #[inline]
            fn create(&mut self, mote: Mote) -> Self::Key {
                self.insert(mote)
            }
            #[inline]
            fn release(&mut self, key: Self::Key) {
                self.remove(key).unwrap();
            }
            fn get(&self, key: Self::Key) -> Option<&Mote> {
                <$type>::get(self, key)
            }
        }
    };
}

slotmap_peer!(SlotMap<DefaultKey, Mote>, "slotmap");
slotmap_peer!(DenseSlotMap<DefaultKey, Mote>, "dense_slotmap");

/// One iteration of the small churn: the particle churn's steps, on motes, as a user writes
/// them.
#[inline(never)]
pub fn churn<P: SmallPeer>(peer: &mut P, live: &mut [P::Key], steps: &[Step]) {
    for step in steps {
        let key = &mut live[step.position];
        peer.release(*key);
        *key = peer.create(Mote::new(step.spawn.frames_left));
    }
}

/// The small churn's starting state, after `CHECKED` iterations that must leave every peer with
/// the same motes: the peer and the keys of its live motes.
pub fn churned<P: SmallPeer>(churn: &Churn, mut peer: P) -> (P, Vec<P::Key>) {
    let mut live: Vec<P::Key> = (churn.initial.iter())
        .map(|s| peer.create(Mote::new(s.frames_left)))
        .collect();
    for _ in 0..CHECKED {
        self::churn(&mut peer, &mut live, &churn.steps);
    }
    let mut expected: Vec<u32> = churn.initial.iter().map(|s| s.frames_left).collect();
    for _ in 0..CHECKED {
        for step in &churn.steps {
            expected[step.position] = step.spawn.frames_left;
        }
    }
    let found: Vec<Mote> = live.iter().filter_map(|&k| peer.get(k).copied()).collect();
    assert_eq!(found.len(), CHURN_LIVE, "{}: live motes", P::NAME);
    let expected: Vec<Mote> = expected.into_iter().map(Mote::new).collect();
    assert_eq!(found, expected, "{}: motes", P::NAME);
    (peer, live)
}

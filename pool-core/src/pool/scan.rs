//! What a pool does with every live object: iteration, retain, the least important.

use super::Pool;
use crate::pool::iter::{Iter, IterMut, Values, ValuesMut, walk, walk_mut};
use crate::pool::runs::{Runs, RunsMut};
use crate::storage::Storage;
use crate::{Handle, Importance, Pooled};

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// Live objects with their handles, in slot order.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// for x in [1.0, 2.0, 3.0] {
    ///     pool.try_create(|p| p.x = x)?;
    /// }
    /// let sum: f64 = pool.iter().map(|(_, p)| p.x).sum();
    /// assert_eq!(sum, 6.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    #[doc(alias = "iter_active")]
    pub fn iter(&self) -> Iter<'_, T> {
        Iter::new(self.books().chunks(), self.len())
    }

    /// Live objects with their handles, mutably, in slot order.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64, x_velocity: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|p| p.x_velocity = 0.5)?;
    /// for (_, p) in pool.iter_mut() {
    ///     p.x += p.x_velocity;
    /// }
    /// assert_eq!(pool.get(p).unwrap().x, 0.5);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn iter_mut(&mut self) -> IterMut<'_, T> {
        let len = self.len();
        IterMut::new(self.books_mut().chunks_mut(), len)
    }

    /// Live objects without their handles, in slot order.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// for x in [1.0, 2.0] {
    ///     pool.try_create(|p| p.x = x)?;
    /// }
    /// assert_eq!(pool.values().map(|p| p.x).sum::<f64>(), 3.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn values(&self) -> Values<'_, T> {
        Values(self.iter())
    }

    /// Live objects without their handles, mutably, in slot order: the "animate everything"
    /// loop.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64, x_velocity: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|p| p.x_velocity = 2.0)?;
    /// for particle in pool.values_mut() {
    ///     particle.x += particle.x_velocity;
    /// }
    /// assert_eq!(pool.get(p).unwrap().x, 2.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// For the hottest loops, prefer `for_each` (or `fold`) to a `for` loop: it walks each run of
    /// consecutive live slots as one plain loop over a slice, which the compiler vectorizes
    /// across objects as it does a `Vec`'s, with no bit looked at inside a run (a full pool is
    /// one run per chunk), where a `for` loop asks for the objects one at a time. On a full pool
    /// of 200,000 springs (`benches/groups.rs`, `kernel`) `for_each` takes 0.75 × the same loop
    /// over a `Vec`, `for` 1.54 ×. [`runs_mut`](Pool::runs_mut) hands out the slices
    /// themselves.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 128)]
    /// # struct Particle { x: f64, x_velocity: f64 }
    /// let mut pool = ParticlePool::new();
    /// while pool.try_create(|p| p.x_velocity = 2.0).is_ok() {}
    /// pool.values_mut().for_each(|particle| particle.x += particle.x_velocity);
    /// assert!(pool.values().all(|particle| particle.x == 2.0));
    /// ```
    #[inline]
    pub fn values_mut(&mut self) -> ValuesMut<'_, T> {
        ValuesMut(self.iter_mut())
    }

    /// The live objects as slices of consecutive live slots, in slot order: a full pool is one
    /// slice per chunk (one, for a pool that never grew), and a pool with holes one slice per
    /// stretch between them. A loop over a slice is one the compiler vectorizes across
    /// objects, as it does a `Vec`'s; [`runs_mut`](Pool::runs_mut) is the one for updates.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f32 }
    /// let mut pool = ParticlePool::new();
    /// let handles: Vec<_> = (0..6).map(|i| pool.create(|p| p.x = i as f32).unwrap()).collect();
    /// pool.release(handles[2])?;
    /// let runs: Vec<Vec<f32>> = pool.runs().map(|run| run.iter().map(|p| p.x).collect()).collect();
    /// assert_eq!(runs, [vec![0.0, 1.0], vec![3.0, 4.0, 5.0]]);
    /// # Ok::<(), pooling::StaleHandle>(())
    /// ```
    #[inline]
    pub fn runs(&self) -> Runs<'_, T> {
        Runs(walk(self.books().chunks()))
    }

    /// The live objects as mutable slices of consecutive live slots, in slot order: the
    /// kernel of a particle system's update, written for one slice, runs over the whole pool
    /// as fast as over a `Vec` when the pool is full, with no bit looked at inside a run.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// #[derive(Pooled)]
    /// #[pool(size = 256)]
    /// struct Spring {
    ///     x: f32, y: f32, vx: f32, vy: f32, ox: f32, oy: f32, scale: f32, age: f32,
    /// }
    ///
    /// /// `v += (o - x) * k; x += v * dt; scale = 1 / (1 + |v|)`, over one run.
    /// fn spring(run: &mut [Spring], k: f32, dt: f32) {
    ///     for s in run {
    ///         s.vx += (s.ox - s.x) * k;
    ///         s.vy += (s.oy - s.y) * k;
    ///         s.x += s.vx * dt;
    ///         s.y += s.vy * dt;
    ///         s.scale = 1.0 / (1.0 + (s.vx * s.vx + s.vy * s.vy).sqrt());
    ///     }
    /// }
    ///
    /// let mut pool = SpringPool::new();
    /// while pool.try_create(|s| s.ox = 1.0).is_ok() {}
    /// for run in pool.runs_mut() {
    ///     spring(run, 0.5, 0.1);
    /// }
    /// assert!(pool.values().all(|s| s.x == 0.05 && s.vx == 0.5));
    /// ```
    #[inline]
    pub fn runs_mut(&mut self) -> RunsMut<'_, T> {
        RunsMut(walk_mut(self.books_mut().chunks_mut()))
    }

    /// Calls `keep` on every live object, and releases (resets and frees) each one for which it
    /// returns false: the animate-and-collect-the-dead loop of a particle system, in one pass.
    ///
    /// If `keep` or a reset panics, the objects visited so far are released or kept as decided,
    /// and the rest are untouched.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { frames_left: u32 }
    /// let mut pool = ParticlePool::new();
    /// for frames in [1, 3] {
    ///     pool.try_create(|p| p.frames_left = frames)?;
    /// }
    /// pool.retain(|p| {
    ///     p.frames_left -= 1;
    ///     p.frames_left > 0
    /// });
    /// assert_eq!(pool.len(), 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(&mut T) -> bool) {
        self.retain_with_handle(|_, object| keep(object));
    }

    /// [`retain`](Pool::retain), with `keep` seeing each object's handle as well: to drop it
    /// from an index kept elsewhere as the object goes.
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # use std::collections::HashSet;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Enemy { health: i32 }
    /// let mut enemies = EnemyPool::new();
    /// let mut targeted: HashSet<Handle<Enemy>> = HashSet::new();
    /// for health in [0, 10] {
    ///     targeted.insert(enemies.try_create(|e| e.health = health)?);
    /// }
    /// enemies.retain_with_handle(|handle, enemy| {
    ///     let alive = enemy.health > 0;
    ///     if !alive {
    ///         targeted.remove(&handle);
    ///     }
    ///     alive
    /// });
    /// assert_eq!(targeted.len(), 1);
    /// assert!(targeted.iter().all(|&h| enemies.contains(h)));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn retain_with_handle(&mut self, mut keep: impl FnMut(Handle<T>, &mut T) -> bool) {
        (self.books_mut()).retain(|word, object| keep(Handle::from_live_word(word), object));
    }

    /// The live object that `importance` ranks lowest, the lowest slot of equals; `None` when
    /// no object is live. One pass over the live objects.
    ///
    /// An [`Evict`](crate::Evict) pool's `victim()` is this with its `evict_by` measure.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Voice { volume: u32 }
    /// let mut voices = VoicePool::new();
    /// let quiet = voices.try_create(|v| v.volume = 1)?;
    /// voices.try_create(|v| v.volume = 5)?;
    /// assert_eq!(voices.least_important(|v| v.volume), Some(quiet));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn least_important<K: Importance>(
        &self,
        mut importance: impl FnMut(&T) -> K,
    ) -> Option<Handle<T>> {
        let (handle, _) = self.iter().min_by_key(|(_, object)| importance(object))?;
        Some(handle)
    }
}

impl<'a, T: Pooled, S, B: Storage> IntoIterator for &'a Pool<T, S, B> {
    type Item = (Handle<T>, &'a T);
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T: Pooled, S, B: Storage> IntoIterator for &'a mut Pool<T, S, B> {
    type Item = (Handle<T>, &'a mut T);
    type IntoIter = IterMut<'a, T>;

    fn into_iter(self) -> IterMut<'a, T> {
        self.iter_mut()
    }
}

use core::cmp::Ordering;

/// Orders floats totally, so that they can rank objects for eviction.
///
/// `f32` and `f64` are only partially ordered (`NaN` compares with nothing), so they do not
/// implement [`Ord`]. This wrapper orders them by [`f32::total_cmp`]: `-NaN`, negative numbers,
/// `-0.0`, `0.0`, positive numbers, `NaN`. A `NaN` loudness therefore ranks as loudest, never
/// as a silent wrong choice of victim.
///
/// ```
/// use pooling::TotalOrder;
///
/// let mut volumes = [0.5, f32::NAN, 0.1].map(TotalOrder);
/// volumes.sort();
/// assert_eq!(volumes[0], TotalOrder(0.1));
/// assert!(volumes[2].0.is_nan());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct TotalOrder<F>(pub F);

macro_rules! total_order {
    ($($float:ty),+) => {$(
        impl PartialEq for TotalOrder<$float> {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                self.cmp(other) == Ordering::Equal
            }
        }

        impl Eq for TotalOrder<$float> {}

        impl PartialOrd for TotalOrder<$float> {
            #[inline]
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Ord for TotalOrder<$float> {
            #[inline]
            fn cmp(&self, other: &Self) -> Ordering {
                self.0.total_cmp(&other.0)
            }
        }
    )+};
}

total_order!(f32, f64);

/// What an `evict_by` measure returns: any totally ordered type. Floats are not; wrap them in
/// [`TotalOrder`].
///
/// Every [`Ord`] type implements it. It exists so that a float measure is reported as what it
/// is, with the fix, rather than as a bare missing `Ord`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot rank objects for eviction: it is not totally ordered (`Ord`)",
    label = "this measure returns `{Self}`",
    note = "to rank by a float, return `pooling::TotalOrder(value)`, which orders floats totally"
)]
pub trait Importance: Ord {}

impl<K: Ord> Importance for K {}

//! The pooled types under test, one per full-pool strategy, for `model.rs`.

use crate::object;

object!(Spark, [size = 8]);
object!(Boss, [size = 8, on_full = panic]);
object!(
    Voice,
    [size = 8, on_full = evict, evict_by = crate::model::rank]
);
object!(Enemy, [size = 4, on_full = grow, max = 24]);
object!(
    Chirp,
    [
        size = 70,
        storage = inline,
        on_full = evict,
        evict_by = crate::model::rank
    ]
);

/// Objects of two shapes, both owning a buffer and a reference: release resets a `Bullet` (the
/// blank variant) in place and replaces a `Missile` with a blank `Bullet`. Even ids are bullets,
/// odd ids missiles.
#[derive(pooling::Pooled, Clone, serde::Serialize, serde::Deserialize)]
#[pool(size = 4, on_full = grow, max = 12)]
pub(crate) enum Shot {
    #[pool(blank)]
    Bullet {
        id: u64,
        tag: Vec<u64>,
        #[serde(skip)]
        held: Option<std::rc::Rc<()>>,
    },
    Missile {
        id: u64,
        trail: Vec<u64>,
        #[serde(skip)]
        held: std::rc::Rc<()>,
    },
}

impl Shot {
    fn new(id: u64, held: std::rc::Rc<()>) -> Self {
        if id.is_multiple_of(2) {
            Shot::Bullet {
                id,
                tag: vec![id],
                held: Some(held),
            }
        } else {
            Shot::Missile {
                id,
                trail: vec![id],
                held,
            }
        }
    }
}

impl crate::model::Object for Shot {
    fn fill(&mut self, id: u64, held: &std::rc::Rc<()>) {
        crate::model::hook(crate::model::Hook::Init);
        match self {
            // A bullet is filled in place, so its buffer's kept capacity is used.
            Shot::Bullet {
                id: own,
                tag,
                held: slot,
            } if id.is_multiple_of(2) => {
                *own = id;
                tag.push(id);
                *slot = Some(std::rc::Rc::clone(held));
            }
            _ => *self = Shot::new(id, std::rc::Rc::clone(held)),
        }
    }

    fn refill(&mut self, id: u64) {
        let held = match self {
            Shot::Bullet { held, .. } => held.take().expect("a live bullet holds a reference"),
            Shot::Missile { held, .. } => std::rc::Rc::clone(held),
        };
        *self = Shot::new(id, held);
    }

    fn rehold(&mut self, held: &std::rc::Rc<()>) {
        match self {
            Shot::Bullet { held: slot, .. } => *slot = Some(std::rc::Rc::clone(held)),
            Shot::Missile { held: slot, .. } => *slot = std::rc::Rc::clone(held),
        }
    }

    fn id(&self) -> u64 {
        match self {
            Shot::Bullet { id, .. } | Shot::Missile { id, .. } => *id,
        }
    }

    fn is(&self, id: u64) -> bool {
        match self {
            Shot::Bullet { id: own, tag, held } => {
                *own == id && id.is_multiple_of(2) && *tag == [id] && held.is_some()
            }
            Shot::Missile { id: own, trail, .. } => {
                *own == id && !id.is_multiple_of(2) && *trail == [id]
            }
        }
    }
}

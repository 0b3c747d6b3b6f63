//! Field-by-field reset: every default strategy, the field attributes, `#[derive(Reset)]`, and
//! references let go the moment an object is released.

use pooling::{Pooled, Reset};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, VecDeque};
use std::marker::PhantomData;
use std::num::Wrapping;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

#[derive(Pooled, Debug)]
#[pool(size = 2)]
struct Everything {
    int: i64,
    unsigned: u8,
    float: f32,
    flag: bool,
    letter: char,
    maybe: Option<String>,
    text: String,
    list: Vec<u32>,
    queue: VecDeque<u32>,
    map: HashMap<u32, u32>,
    set: HashSet<u32>,
    tree: BTreeMap<u32, u32>,
    tree_set: BTreeSet<u32>,
    heap: BinaryHeap<u32>,
    array: [u16; 40],
    tuple: (u8, String, [bool; 2]),
    boxed: Box<(u32, Vec<u8>)>,
    unit: (),
    marker: PhantomData<Rc<u8>>,
    duration: Duration,
    cell: Cell<u32>,
    ref_cell: RefCell<Vec<u8>>,
    wrapping: Wrapping<u32>,
}

fn fill(e: &mut Everything) {
    e.int = -5;
    e.unsigned = 9;
    e.float = 2.5;
    e.flag = true;
    e.letter = 'x';
    e.maybe = Some("left over".into());
    e.text.push_str("some text");
    e.list.extend([1, 2, 3]);
    e.queue.extend([4, 5]);
    e.map.insert(1, 2);
    e.set.insert(3);
    e.tree.insert(4, 5);
    e.tree_set.insert(6);
    e.heap.push(7);
    e.array = [3; 40];
    e.tuple = (1, "two".into(), [true, true]);
    e.boxed.0 = 8;
    e.boxed.1.extend([1, 2]);
    e.duration = Duration::from_secs(3);
    e.cell.set(4);
    e.ref_cell.borrow_mut().push(1);
    e.wrapping = Wrapping(6);
}

#[test]
fn a_reused_object_is_indistinguishable_from_a_first_time_one() {
    let mut pool = EverythingPool::with_capacity(1);
    let first = pool.create(|_| {}).unwrap();
    let blank = format!("{:?}", pool.get(first).unwrap());
    pool.release(first).unwrap();

    let filled = pool.create(fill).unwrap();
    assert_ne!(format!("{:?}", pool.get(filled).unwrap()), blank);
    let boxed_at = std::ptr::from_ref(&*pool.get(filled).unwrap().boxed);
    pool.release(filled).unwrap();

    let mut seen_by_init = String::new();
    let reused = pool.create(|e| seen_by_init = format!("{e:?}")).unwrap();
    assert_eq!(seen_by_init, blank, "init sees a blank object");
    let e = pool.get(reused).unwrap();
    assert_eq!(format!("{e:?}"), blank);
    assert_eq!(e.array, [0; 40]);
    assert!(e.text.capacity() >= 9, "capacity is kept");
    assert!(e.list.capacity() >= 3);
    assert!(e.queue.capacity() >= 2);
    assert!(e.map.capacity() >= 1);
    assert!(e.set.capacity() >= 1);
    assert!(e.heap.capacity() >= 1);
    assert!(e.boxed.1.capacity() >= 2);
    assert!(
        std::ptr::eq(boxed_at, std::ptr::from_ref(&*e.boxed)),
        "a box is reset in place"
    );
}

fn brighten(tint: &mut [u8; 4]) {
    *tint = [255, 255, 255, 0];
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
struct TextureId(u32);

#[derive(Pooled)]
#[pool(size = 1)]
struct Sprite {
    #[pool(reset = 1.0)]
    scale: f32,
    #[pool(reset = vec![0; 3])]
    weights: Vec<u8>,
    #[pool(reset_with = brighten)]
    tint: [u8; 4],
    #[pool(reset_with = Vec::clear)]
    path: Vec<u32>,
    #[pool(keep)]
    texture: TextureId,
}

#[test]
fn field_attributes_choose_the_reset() {
    let mut pool = SpritePool::new();
    let first = pool.create(|_| {}).unwrap();
    let s = pool.get(first).unwrap();
    assert_eq!(s.scale, 1.0, "`reset = ` also gives the first value");
    assert_eq!(s.weights, [0, 0, 0]);
    assert_eq!(
        s.tint,
        [255, 255, 255, 0],
        "`reset_with` also runs when first built"
    );
    assert!(s.path.is_empty());
    assert_eq!(s.texture, TextureId(0), "`keep` starts from Default");

    let s = pool.get_mut(first).unwrap();
    s.scale = 3.0;
    s.weights = vec![7];
    s.tint = [1, 2, 3, 4];
    s.path.push(9);
    s.texture = TextureId(42);
    pool.release(first).unwrap();

    let again = pool.create(|_| {}).unwrap();
    let s = pool.get(again).unwrap();
    assert_eq!(s.scale, 1.0);
    assert_eq!(s.weights, [0, 0, 0]);
    assert_eq!(s.tint, [255, 255, 255, 0]);
    assert!(s.path.is_empty() && s.path.capacity() >= 1);
    assert_eq!(s.texture, TextureId(42), "`keep` survives reuse");
}

/// A slot's buffer, built once with its capacity; what `build` builds then resets as at a release.
#[derive(Pooled)]
#[pool(size = 1)]
struct Packet {
    #[pool(build = Vec::with_capacity(65_536))]
    bytes: Vec<u8>,
    #[pool(build = vec![9; 3])]
    header: Vec<u8>,
    #[pool(build = [1, 2, 3, 4], reset_with = brighten)]
    tint: [u8; 4],
    #[pool(build = TextureId(7), keep)]
    texture: TextureId,
    #[pool(build = Default::default())]
    unbuilt: Option<u32>,
}

#[test]
fn build_makes_a_slots_value_once_and_reset_still_clears_it() {
    let mut packets = PacketPool::new();
    let mut seen = None;
    let first = packets
        .create(|p| {
            seen = Some((p.bytes.capacity(), p.header.clone(), p.tint, p.texture));
            p.bytes.extend_from_slice(b"first message");
            p.header.push(1);
            p.texture = TextureId(8);
            p.unbuilt = Some(3);
        })
        .unwrap();
    let (capacity, header, tint, texture) = seen.unwrap();
    assert!(capacity >= 65_536, "built with its capacity");
    assert!(header.is_empty(), "built, then reset as at a release");
    assert_eq!(tint, [255, 255, 255, 0], "built, then `reset_with`");
    assert_eq!(texture, TextureId(7), "built, and kept");
    let buffer_at = packets[first].bytes.as_ptr();
    packets.release(first).unwrap();

    let again = packets.create(|_| {}).unwrap();
    let p = &packets[again];
    assert!(p.bytes.is_empty(), "cleared at release");
    assert!(p.bytes.capacity() >= 65_536, "capacity kept");
    assert_eq!(p.bytes.as_ptr(), buffer_at, "the same buffer: built once");
    assert_eq!(
        (p.tint, p.texture, p.unbuilt),
        ([255, 255, 255, 0], TextureId(8), None)
    );
}

#[derive(Reset)]
struct Scratch {
    #[pool(build = String::with_capacity(32))]
    text: String,
}

#[test]
fn derived_reset_builds_its_blank_with_build() {
    let mut scratch = Scratch::blank();
    assert!(scratch.text.capacity() >= 32);
    scratch.text.push_str("used");
    scratch.reset();
    assert!(scratch.text.is_empty() && scratch.text.capacity() >= 32);
}

struct Emitter;

/// Something boxed that holds a reference.
struct Spark(#[expect(dead_code, reason = "held for its reference count")] Rc<Emitter>);

#[derive(Pooled)]
#[pool(size = 4)]
struct Holder {
    rc: Option<Rc<Emitter>>,
    arc: Option<Arc<Emitter>>,
    boxed: Option<Box<Spark>>,
    many: Vec<Rc<Emitter>>,
}

fn hold(pool: &mut HolderPool, rc: &Rc<Emitter>, arc: &Arc<Emitter>) -> pooling::Handle<Holder> {
    pool.create(|h| {
        h.rc = Some(Rc::clone(rc));
        h.arc = Some(Arc::clone(arc));
        h.boxed = Some(Box::new(Spark(Rc::clone(rc))));
        h.many.extend([Rc::clone(rc), Rc::clone(rc)]);
    })
    .unwrap()
}

#[test]
fn references_are_let_go_at_release() {
    let (rc, arc) = (Rc::new(Emitter), Arc::new(Emitter));
    let mut pool = HolderPool::new();
    let h = hold(&mut pool, &rc, &arc);
    assert_eq!((Rc::strong_count(&rc), Arc::strong_count(&arc)), (5, 2));
    pool.release(h).unwrap();
    assert_eq!((Rc::strong_count(&rc), Arc::strong_count(&arc)), (1, 1));
}

#[test]
fn references_are_let_go_by_retain() {
    let (rc, arc) = (Rc::new(Emitter), Arc::new(Emitter));
    let other = Rc::new(Emitter);
    let mut pool = HolderPool::new();
    hold(&mut pool, &rc, &arc);
    let kept = hold(&mut pool, &other, &arc);
    pool.retain(|h| h.rc.as_ref().is_some_and(|e| Rc::ptr_eq(e, &other)));
    assert_eq!(Rc::strong_count(&rc), 1);
    assert_eq!(Rc::strong_count(&other), 5);
    assert_eq!(Arc::strong_count(&arc), 2);
    assert!(pool.contains(kept));
}

#[test]
fn references_are_let_go_by_release_all() {
    let (rc, arc) = (Rc::new(Emitter), Arc::new(Emitter));
    let mut pool = HolderPool::new();
    for _ in 0..4 {
        hold(&mut pool, &rc, &arc);
    }
    assert_eq!(Rc::strong_count(&rc), 17);
    pool.release_all();
    assert_eq!((Rc::strong_count(&rc), Arc::strong_count(&arc)), (1, 1));
}

#[test]
fn dropping_the_pool_drops_everything_in_it() {
    let (rc, arc) = (Rc::new(Emitter), Arc::new(Emitter));
    let mut pool = HolderPool::new();
    hold(&mut pool, &rc, &arc);
    hold(&mut pool, &rc, &arc);
    drop(pool);
    assert_eq!((Rc::strong_count(&rc), Arc::strong_count(&arc)), (1, 1));
}

#[derive(Reset, Debug, PartialEq)]
struct Physics {
    velocity: (f32, f32),
    #[pool(reset = 1.0)]
    mass: f32,
    #[pool(keep)]
    material: u8,
    contacts: Vec<u32>,
}

#[derive(Reset, Debug, PartialEq)]
struct Tag(u32, #[pool(reset = 'T')] char);

#[derive(Reset, Debug, PartialEq)]
struct Marker;

#[derive(Reset, Debug, PartialEq)]
struct Wrapper<T> {
    inner: Option<T>,
    count: u32,
}

#[derive(Pooled)]
#[pool(size = 2)]
struct Body {
    physics: Physics,
    tag: Tag,
    marker: Marker,
    wrapper: Wrapper<String>,
}

#[test]
fn derived_reset_resets_nested_types_field_by_field() {
    let blank = Physics::blank();
    assert_eq!(
        blank,
        Physics {
            velocity: (0.0, 0.0),
            mass: 1.0,
            material: 0,
            contacts: Vec::new()
        }
    );
    assert_eq!(Tag::blank(), Tag(0, 'T'));

    let mut pool = BodyPool::with_capacity(1);
    let body = pool
        .create(|b| {
            b.physics.velocity = (1.0, 2.0);
            b.physics.mass = 9.0;
            b.physics.material = 3;
            b.physics.contacts.push(4);
            b.tag = Tag(5, 'x');
            b.wrapper.inner = Some("held".into());
            b.wrapper.count = 2;
        })
        .unwrap();
    pool.release(body).unwrap();
    let body = pool.create(|_| {}).unwrap();
    let b = pool.get(body).unwrap();
    assert_eq!(b.physics.velocity, (0.0, 0.0));
    assert_eq!(b.physics.mass, 1.0);
    assert_eq!(b.physics.material, 3, "`keep` works in nested types too");
    assert!(b.physics.contacts.is_empty() && b.physics.contacts.capacity() >= 1);
    assert_eq!(b.tag, Tag(0, 'T'));
    assert_eq!(b.marker, Marker);
    assert_eq!(
        b.wrapper,
        Wrapper {
            inner: None,
            count: 0
        }
    );
}

#[derive(Pooled)]
#[pool(size = 3)]
struct Node<T: Clone> {
    value: Option<T>,
    children: Vec<pooling::Handle<Node<T>>>,
}

#[derive(Pooled)]
#[pool(size = 2)]
struct Pair(u32, #[pool(reset = 7)] u8);

#[derive(Pooled)]
#[pool(size = 2)]
struct Token;

const SLOTS: usize = 5;

#[derive(Pooled)]
#[pool(size = SLOTS)]
struct Lantern {
    value: u32,
}

#[test]
fn generic_tuple_unit_and_constant_sized_structs_are_pooled() {
    let mut nodes = NodePool::<Rc<str>>::new();
    let leaf = nodes.create(|n| n.value = Some("leaf".into())).unwrap();
    let root = nodes.create(|n| n.children.push(leaf)).unwrap();
    assert_eq!(nodes.get(root).unwrap().children, [leaf]);
    assert_eq!(nodes.capacity(), 3);

    let mut pairs = PairPool::new();
    let pair = pairs.create(|p| p.0 = 1).unwrap();
    assert_eq!(
        (pairs.get(pair).unwrap().0, pairs.get(pair).unwrap().1),
        (1, 7)
    );

    let mut tokens = TokenPool::new();
    tokens.create(|_| {}).unwrap();
    tokens.create(|_| {}).unwrap();
    assert!(tokens.is_full());

    assert_eq!(LanternPool::new().capacity(), SLOTS);
}

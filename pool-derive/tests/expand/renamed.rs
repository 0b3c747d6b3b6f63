#[derive(Pooled)]
#[pool(size = 8, name = Sparks, vis = pub(crate), crate = my_engine::pooled)]
pub struct Spark {
    heat: u32,
}

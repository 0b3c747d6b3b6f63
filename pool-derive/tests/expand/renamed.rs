#[derive(Pooled)]
#[pool(size = 8, name = Sparks, vis = pub(crate), crate = my_engine::pooling)]
pub struct Spark {
    heat: u32,
}

#[derive(Pooled)]
#[pool(size = 64)]
pub enum Projectile {
    #[pool(blank)]
    Bullet {
        position: (f32, f32),
        #[pool(reset = 1.0)]
        damage: f32,
        #[pool(reset_with = clear_hits)]
        hits: Vec<u32>,
        #[pool(keep)]
        sprite: SpriteId,
    },
    Missile {
        position: (f32, f32),
        trail: Vec<(f32, f32)>,
        target: Rc<Target>,
    },
    Laser(f32, f32),
}

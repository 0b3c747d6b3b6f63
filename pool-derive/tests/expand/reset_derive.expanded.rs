#[doc(hidden)]
const _: () = {
    use ::pooling::__private as __pooling;
    ::pooling::__require_pooling_not_pool_core!();
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl __pooling::Reset for Physics {
        #[inline]
        fn reset(&mut self) {
            <(f32, f32) as __pooling::Field<Self>>::reset(&mut self.velocity);
            self.mass = {
                let __pooled_value: f32 = 1.0;
                __pooled_value
            };
        }
        #[inline]
        fn blank() -> Self {
            Self {
                velocity: <(f32, f32) as __pooling::Field<Self>>::blank(),
                mass: {
                    let __pooled_value: f32 = 1.0;
                    __pooled_value
                },
                material: <Material as __pooling::DefaultField<Self>>::default(),
            }
        }
    }
};

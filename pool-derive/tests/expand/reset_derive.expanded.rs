#[doc(hidden)]
const _: () = {
    ::pooling::__require_pooling_not_pool_core!();
    #[automatically_derived]
    impl ::pooling::__private::Reset for Physics {
        #[inline]
        fn reset(&mut self) {
            <(f32, f32) as ::pooling::__private::Reset>::reset(&mut self.velocity);
            self.mass = {
                let __pooled_value: f32 = 1.0;
                __pooled_value
            };
        }
        #[inline]
        fn blank() -> Self {
            Self {
                velocity: <(f32, f32) as ::pooling::__private::Reset>::blank(),
                mass: {
                    let __pooled_value: f32 = 1.0;
                    __pooled_value
                },
                material: <Material as ::core::default::Default>::default(),
            }
        }
    }
};

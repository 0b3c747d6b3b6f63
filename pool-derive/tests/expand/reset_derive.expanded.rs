#[doc(hidden)]
const _: () = {
    ::pooling::__require_pooling_not_pool_core!();
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl ::pooling::__private::Reset for Physics {
        #[inline]
        fn reset(&mut self) {
            <(f32, f32) as ::pooling::__private::Field<Self>>::reset(&mut self.velocity);
            self.mass = {
                let __pooled_value: f32 = 1.0;
                __pooled_value
            };
        }
        #[inline]
        fn blank() -> Self {
            Self {
                velocity: <(f32, f32) as ::pooling::__private::Field<Self>>::blank(),
                mass: {
                    let __pooled_value: f32 = 1.0;
                    __pooled_value
                },
                material: <Material as ::pooling::__private::DefaultField<
                    Self,
                >>::default(),
            }
        }
    }
};

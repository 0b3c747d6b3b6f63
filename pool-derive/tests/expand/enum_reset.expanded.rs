#[doc(hidden)]
const _: () = {
    use ::pooling::__private as __pooling;
    ::pooling::__require_pooling_not_pool_core!();
    #[automatically_derived]
    #[diagnostic::do_not_recommend]
    impl<T> __pooling::Reset for Stance<T>
    where
        Vec<T>: __pooling::Reset,
    {
        #[inline]
        fn reset(&mut self) {
            match self {
                Self::Standing { 0: __pooled_0, 1: __pooled_1, 2: __pooled_2, .. } => {
                    <u32 as __pooling::Field<Self>>::reset(&mut *__pooled_0);
                    *__pooled_1 = {
                        let __pooled_value: f32 = 1.0;
                        __pooled_value
                    };
                    <Vec<T> as __pooling::AllocField<Self>>::reset(&mut *__pooled_2);
                }
                _ => {
                    *self = Self::Standing {
                        0: <u32 as __pooling::Field<Self>>::blank(),
                        1: {
                            let __pooled_value: f32 = 1.0;
                            __pooled_value
                        },
                        2: <Vec<T> as __pooling::AllocField<Self>>::blank(),
                    };
                }
            }
        }
        #[inline]
        fn blank() -> Self {
            Self::Standing {
                0: <u32 as __pooling::Field<Self>>::blank(),
                1: {
                    let __pooled_value: f32 = 1.0;
                    __pooled_value
                },
                2: <Vec<T> as __pooling::AllocField<Self>>::blank(),
            }
        }
    }
};

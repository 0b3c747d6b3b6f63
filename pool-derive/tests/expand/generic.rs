#[derive(Pooled)]
#[pool(size = 64)]
pub struct Node<T: Clone, const N: usize>
where
    T: Default,
{
    value: T,
    children: [Option<Handle<Node<T, N>>>; N],
    #[pool(keep)]
    cache: Vec<T>,
}

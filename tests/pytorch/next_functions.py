# grad_fn.next_functions: the graph's edges, ((node, 0), ...) per input, an
# AccumulateGrad for a leaf and None for an input that needs no gradient.
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
y = (a * b).sum() + a.exp().mean()
print(y.grad_fn.name(), len(y.grad_fn.next_functions))
print([type(f).__name__ if f is not None else None for f, _ in y.grad_fn.next_functions])
print([f.name() for f, _ in y.grad_fn.next_functions])
m = y.grad_fn.next_functions[0][0].next_functions[0][0]
print(m.name(), [(None if f is None else type(f).__name__, i) for f, i in m.next_functions])

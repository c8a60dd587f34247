# The in-place samplers and the discrete draws, as PyTorch's CPU stream makes
# them: bernoulli_, exponential_, geometric_, cauchy_, multinomial (with and
# without replacement), poisson (both of its algorithms), and the generator's
# state saved and restored.
import torch

torch.manual_seed(0)
x = torch.empty(6)
print(x.bernoulli_(0.3), x.bernoulli_(torch.tensor([0.1, 0.9, 0.5, 0.5, 0.2, 0.8])))
print(torch.empty(5).exponential_(), torch.empty(4, dtype=torch.float64).exponential_(2.0))
print(torch.empty(5).geometric_(0.3), torch.empty(3).cauchy_(1.0, 0.5))
w = torch.tensor([0.1, 0.5, 0.4, 0.0])
print(torch.multinomial(w, 6, replacement=True), torch.multinomial(w, 3))
print(torch.multinomial(torch.tensor([[1., 2., 3.], [0., 0., 1.]]), 2), w.multinomial(1))
print(torch.poisson(torch.tensor([0.5, 2.0, 4.0, 12.0, 50.0, 0.0])))
print(torch.poisson(torch.full((2, 3), 25.0)))
state = torch.get_rng_state()
a = torch.randn(3)
torch.set_rng_state(state)
b = torch.randn(3)
print(state.shape, state.dtype, torch.equal(a, b), torch.initial_seed())
g = torch.Generator().manual_seed(3)
print(torch.multinomial(w, 2, generator=g), torch.poisson(torch.tensor([3.0]), generator=g))
torch.manual_seed(7)
print(torch.initial_seed(), torch.rand(2))

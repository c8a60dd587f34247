import torch
import torch.random
from torch.random import thread_safe_generator

torch.random.manual_seed(3)
print(torch.randint(0, 10, (5,), generator=thread_safe_generator()))
print(thread_safe_generator(), torch.thread_safe_generator())
state = torch.random.get_rng_state()
a = torch.rand(3)
torch.random.set_rng_state(state)
print(torch.equal(a, torch.rand(3)), torch.random.initial_seed())
g = torch.Generator().manual_seed(1)
print(torch.rand(2, generator=g))

s = torch.zeros(2, 3).shape
print(s + (4,), (1,) + s, s + s, s * 2, 2 * s)
x = torch.tensor([-2.0, 0.5, 3.0])
print(x.clamp_min(0), torch.clamp_min(x, 1), x.clamp_max(1), torch.clamp_max(x, 0))

from torch.distributions import multinomial
torch.manual_seed(0)
print(multinomial.Multinomial(10, torch.ones(6) / 6).sample())
print("matmul" in dir(torch), "Multinomial" in dir(torch.distributions))

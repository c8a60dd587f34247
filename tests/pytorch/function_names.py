# __name__ of functions: a def's, a lambda's, Python's builtins, torch's
# functions (those in a submodule named as PyTorch's bindings are) and classes.
import torch
import torch.nn.functional as F


def train_step(x):
    return x


ops = [torch.sin, torch.exp, F.relu, torch.linalg.solve, len, abs, train_step, lambda x: x]
print([f.__name__ for f in ops])
print(train_step.__qualname__, torch.nn.Linear.__name__, type(torch.zeros(1)).__name__)
for f in [torch.sin, torch.cos]:
    print(f"{f.__name__}(0) = {f(torch.tensor(0.0)).item()}")

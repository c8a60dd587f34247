# int(text, base): prefixes with base 0, underscores, signs, PyTorch's and Python's errors;
# torch.typename of tensors, classes, objects and Python's types.
for s, b in [('0b100', 0), ('0x_ff', 0), ('0o17', 0), ('  -42 ', 0), ('1_000', 10), ('ff', 16), ('0xff', 16), ('z', 36), ('Zz', 36), ('101', 2), ('0', 0), ('000', 0), ('+7', 8), ('12', 3)]:
    print(s, b, int(s, b), int(s, base=b))
print(int('  12  '), int('-1_0'))
for s, b in [('010', 0), ('1__0', 10), ('_1', 10), ('12', 2), ('', 10), ('0x', 16), ('9', 37), ('1.5', 10)]:
    try:
        int(s, b)
    except Exception as e:
        print(e)
try:
    int(5, 10)
except Exception as e:
    print(e)
import torch
class A:
    pass
print(torch.typename(A), torch.typename(A()), torch.typename(int), torch.typename(torch.nn.Linear(1, 1)))
print(torch.typename(torch.nn.Parameter), torch.typename(torch.Tensor), torch.typename(torch.ones(1, dtype=torch.float64).cpu()))
print(torch.typename(torch.nn.Linear), torch.typename(torch.tensor([1, 2]).cpu()))

# What dtypes hold, and how they combine.
import torch

print(torch.finfo(torch.float32))
print(torch.finfo(torch.float16))
print(torch.finfo(torch.bfloat16))
print(torch.finfo(torch.float64))
print(torch.finfo())
print(torch.iinfo(torch.int32))
print(torch.iinfo(torch.uint8))
print(torch.iinfo(torch.int64).max, torch.finfo(torch.float32).eps, torch.finfo(torch.float32).bits, torch.finfo(torch.float32).dtype)
print(torch.finfo(torch.float16).max, torch.finfo(torch.float16).tiny, torch.iinfo(torch.int8).min)
print(torch.promote_types(torch.int32, torch.float16), torch.result_type(torch.tensor([1, 2]), 1.0))
print(torch.result_type(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor(5)))
print(torch.can_cast(torch.double, torch.float), torch.can_cast(torch.float, torch.int))

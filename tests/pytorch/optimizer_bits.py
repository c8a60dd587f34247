# Every optimizer's update to the last bit against PyTorch's, on parameters big
# enough to be updated block by block and on both threads (one pass over the
# parameter, its gradient and its state, as a program of the in-place ops).
import torch

configs = [
    (torch.optim.SGD, dict(lr=0.1)),
    (torch.optim.SGD, dict(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    (torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True, maximize=True)),
    (torch.optim.Adam, dict(lr=0.05)),
    (torch.optim.Adam, dict(lr=0.05, amsgrad=True, weight_decay=0.1)),
    (torch.optim.AdamW, dict(lr=0.05, weight_decay=0.1, maximize=True)),
    (torch.optim.RMSprop, dict(lr=0.01)),
    (torch.optim.RMSprop, dict(lr=0.01, momentum=0.5, centered=True, weight_decay=0.1)),
    (torch.optim.Adagrad, dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)),
    (torch.optim.Adadelta, dict(lr=0.5, rho=0.8, weight_decay=0.1)),
    (torch.optim.Adamax, dict(lr=0.05, weight_decay=0.01)),
    (torch.optim.NAdam, dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
]
for dtype in [torch.float32, torch.float64]:
    for make, kw in configs:
        torch.manual_seed(0)
        w = torch.randn(150, 200, dtype=dtype, requires_grad=True)
        b = torch.randn(7, dtype=dtype, requires_grad=True)
        opt = make([w, b], **kw)
        for _ in range(3):
            w.grad = torch.randn(150, 200, dtype=dtype)
            b.grad = torch.randn(7, dtype=dtype)
            opt.step()
        print(type(opt).__name__, str(dtype), w.detach()[::37, ::41].flatten().tolist()[:12], b.detach().tolist())

# torch.special's names that are torch functions under another name.
import torch
from torch import special
x = torch.tensor([-1.0, 0.0, 0.5, 2.0])
print(torch.special.expit(x), special.erf(x), torch.special.erfc(x))
print(torch.special.logit(torch.tensor([0.25, 0.5])), torch.special.xlogy(x, torch.tensor(2.0)))
print(torch.special.softmax(x, dim=0), torch.special.log_softmax(x, 0), torch.special.logsumexp(x, 0))
print(torch.special.expm1(x), torch.special.exp2(x), torch.special.log1p(torch.tensor([0.5])), torch.special.sinc(x), torch.special.round(x))

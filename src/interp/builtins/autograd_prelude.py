

# torch.autograd as PyTorch writes it in Python: custom Functions, hook
# handles, and torch.autograd.functional over torch.autograd.grad.


class FunctionCtx:
    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class Function:
    @classmethod
    def apply(cls, *args):
        return torch.autograd._function_apply(cls, FunctionCtx(), args)


class RemovableHandle:
    # A tensor's gradient hook, or a module's forward (pre-)hook in `hooks`, a
    # list of (id, hook) pairs.
    def __init__(self, tensor, id, hooks=None):
        self.tensor = tensor
        self.id = id
        self.hooks = hooks

    def remove(self):
        if self.hooks is None:
            torch.autograd._remove_hook(self.tensor, self.id)
            return
        for i in range(len(self.hooks)):
            if self.hooks[i][0] == self.id:
                self.hooks.pop(i)
                return

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.remove()


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def _grad_inputs(inputs, create_graph):
    # As PyTorch's _grad_preprocess: under create_graph the inputs keep their
    # history (so a Hessian can differentiate a Jacobian); otherwise they are
    # fresh leaves.
    return tuple(
        x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(True)
        for x in _as_tuple(inputs)
    )


def _fill(grads, like):
    return tuple(torch.zeros_like(x) if g is None else g for g, x in zip(grads, like))


def _out(value, create_graph):
    if create_graph:
        return value
    if isinstance(value, tuple):
        return tuple(v.detach() for v in value)
    return value.detach()


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    xs = _grad_inputs(inputs, create_graph)
    with torch.enable_grad():
        outputs = func(*xs)
    per_output = []
    for y in _as_tuple(outputs):
        flat = y.reshape(-1)
        rows = [[] for _ in xs]
        for k in range(flat.numel()):
            grads = torch.autograd.grad(flat[k], xs, retain_graph=True, create_graph=create_graph, allow_unused=True)
            for i, g in enumerate(_fill(grads, xs)):
                rows[i].append(g)
        jac = []
        for i, x in enumerate(xs):
            if len(rows[i]) == 0:
                jac.append(torch.zeros(tuple(y.shape) + tuple(x.shape), dtype=x.dtype))
            else:
                jac.append(torch.stack(rows[i]).reshape(tuple(y.shape) + tuple(x.shape)))
        per_output.append(jac[0] if not isinstance(inputs, tuple) else tuple(jac))
    if isinstance(outputs, tuple):
        return tuple(per_output)
    return per_output[0]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    def gradient(*xs):
        return jacobian(func, xs if isinstance(inputs, tuple) else xs[0], create_graph=True)

    return jacobian(gradient, inputs, create_graph=create_graph)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    xs = _grad_inputs(inputs, create_graph)
    with torch.enable_grad():
        outputs = func(*xs)
        outs = _as_tuple(outputs)
        vs = tuple(torch.ones_like(o) for o in outs) if v is None else _as_tuple(v)
        grads = torch.autograd.grad(outs, xs, vs, create_graph=create_graph, allow_unused=True)
    grads = _out(_fill(grads, xs), create_graph)
    return _out(outputs, create_graph), grads if isinstance(inputs, tuple) else grads[0]


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    xs = _grad_inputs(inputs, create_graph)
    vs = tuple(torch.ones_like(x) for x in xs) if v is None else _as_tuple(v)
    with torch.enable_grad():
        outputs = func(*xs)
        outs = _as_tuple(outputs)
        # The double-vjp trick: u -> J^T u is linear in u, so its vjp with v is J v.
        us = tuple(torch.zeros_like(o).requires_grad_(True) for o in outs)
        g = torch.autograd.grad(outs, xs, us, create_graph=True, allow_unused=True)
        g = tuple(x for x in g if x is not None)
        jv = torch.autograd.grad(g, us, vs, create_graph=create_graph, allow_unused=True)
    jv = _out(_fill(jv, outs), create_graph)
    return _out(outputs, create_graph), jv if isinstance(outputs, tuple) else jv[0]


def _perturbed(xs, i, j, delta):
    x = xs[i]
    d = torch.zeros(x.numel(), dtype=x.dtype, device=x.device)
    d[j] = delta
    args = list(xs)
    args[i] = (x.detach() + d.reshape(x.shape)).requires_grad_(x.requires_grad)
    return args


def gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    # PyTorch's slow mode: the Jacobian by central differences against the
    # one backward computes, one input element (row) by one output element.
    xs = _as_tuple(inputs)
    outs = _as_tuple(func(*xs))
    for o, out in enumerate(outs):
        flat = out.reshape(-1)
        for i, x in enumerate(xs):
            if not (isinstance(x, torch.Tensor) and x.requires_grad):
                continue
            n, m = x.numel(), flat.numel()
            numerical = torch.zeros(n, m, dtype=x.dtype)
            analytical = torch.zeros(n, m, dtype=x.dtype)
            for j in range(n):
                plus = _as_tuple(func(*_perturbed(xs, i, j, eps)))[o].detach().reshape(-1)
                minus = _as_tuple(func(*_perturbed(xs, i, j, -eps)))[o].detach().reshape(-1)
                numerical[j] = ((plus - minus) / (2 * eps)).to(x.dtype).cpu()
            if out.requires_grad:
                for k in range(m):
                    g = torch.autograd.grad(flat[k], x, retain_graph=True, allow_unused=True)[0]
                    if g is not None:
                        analytical[:, k] = g.detach().reshape(-1).cpu()
            if not torch.allclose(analytical, numerical, rtol, atol):
                if raise_exception:
                    raise RuntimeError(f"Jacobian mismatch for output {o} with respect to input {i},\nnumerical:{numerical}\nanalytical:{analytical}\n")
                return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    # The first gradient, made with create_graph, checked like any function.
    xs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = tuple(torch.randn_like(o).requires_grad_(True) for o in _as_tuple(func(*xs)))
    gos = _as_tuple(grad_outputs)
    n = len(xs)

    def first(*args):
        ins = args[:n]
        outs = _as_tuple(func(*ins))
        wrt = [x for x in ins if isinstance(x, torch.Tensor) and x.requires_grad]
        grads = torch.autograd.grad(outs, wrt, args[n:], create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first, xs + gos, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception)



# Recurrent layers as PyTorch defines them (torch/nn/modules/rnn.py): the
# same parameters in the same order, drawn by the same reset_parameters, and
# the same equations, run step by step over tensor ops.


def _rnn_step(mode, nonlinearity, gi, h, c, w_hh, b_hh):
    # gi: the input's part of the gates, F.linear(x, w_ih, b_ih), which a
    # layer computes for every step at once (one large matrix product, as
    # ATen's recurrent layers do), leaving h's part to each step. (nn.LSTM's
    # layers run the fused cell instead; nn.LSTMCell keeps this composite,
    # whose results' grad_fn PyTorch shows: MulBackward0, AddBackward0.)
    gh = F.linear(h, w_hh, b_hh)
    if mode == "LSTM":
        i, f, g, o = (gi + gh).chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c
    if mode == "GRU":
        i_r, i_z, i_n = gi.chunk(3, 1)
        h_r, h_z, h_n = gh.chunk(3, 1)
        r = torch.sigmoid(i_r + h_r)
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)
        return (1 - z) * n + z * h, c
    pre = gi + gh
    return (torch.tanh(pre) if nonlinearity == "tanh" else torch.relu(pre)), c


def _gates(mode, hidden_size):
    if mode == "LSTM":
        return 4 * hidden_size
    if mode == "GRU":
        return 3 * hidden_size
    return hidden_size


def _reset_recurrent(module):
    # PyTorch's reset_parameters for recurrent layers: every parameter, in
    # order, from U(-1/sqrt(hidden), 1/sqrt(hidden)).
    stdv = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -stdv, stdv)


class RNNBase(nn.Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None, nonlinearity="tanh"):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        self.nonlinearity = nonlinearity
        gate_size = _gates(mode, hidden_size)
        directions = 2 if bidirectional else 1
        for layer in range(num_layers):
            for direction in range(directions):
                size_in = input_size if layer == 0 else hidden_size * directions
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                setattr(self, "weight_ih" + suffix, nn.Parameter(torch.empty((gate_size, size_in), device=device, dtype=dtype)))
                setattr(self, "weight_hh" + suffix, nn.Parameter(torch.empty((gate_size, hidden_size), device=device, dtype=dtype)))
                if bias:
                    setattr(self, "bias_ih" + suffix, nn.Parameter(torch.empty(gate_size, device=device, dtype=dtype)))
                    setattr(self, "bias_hh" + suffix, nn.Parameter(torch.empty(gate_size, device=device, dtype=dtype)))
        self.reset_parameters()

    def reset_parameters(self):
        _reset_recurrent(self)

    def flatten_parameters(self):
        pass

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _weights(self, suffix):
        b_ih = getattr(self, "bias_ih" + suffix) if self.bias else None
        b_hh = getattr(self, "bias_hh" + suffix) if self.bias else None
        return getattr(self, "weight_ih" + suffix), getattr(self, "weight_hh" + suffix), b_ih, b_hh

    def forward(self, input, hx=None):
        lstm = self.mode == "LSTM"
        batched = input.dim() == 3
        if input.dim() not in (2, 3):
            raise ValueError(f"{self.mode}: Expected input to be 2D or 3D, got {input.dim()}D instead")
        if not batched:
            input = input.unsqueeze(1)
            if hx is not None:
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1)) if lstm else hx.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        steps, batch = input.shape[0], input.shape[1]
        directions = 2 if self.bidirectional else 1
        if steps == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.shape[-1]}")
        if hx is not None:
            expected = (self.num_layers * directions, batch, self.hidden_size)
            states = [(hx[0], "hidden[0]"), (hx[1], "hidden[1]")] if lstm else [(hx, "hidden")]
            for state, name in states:
                if tuple(state.shape) != expected:
                    raise RuntimeError(f"Expected {name} size {expected}, got {list(state.shape)}")
        if hx is None:
            zeros = torch.zeros(self.num_layers * directions, batch, self.hidden_size, dtype=input.dtype, device=input.device)
            h0, c0 = zeros, zeros
        elif lstm:
            h0, c0 = hx
        else:
            h0, c0 = hx, hx
        layer_input = input
        last_h = []
        last_c = []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                w_ih, w_hh, b_ih, b_hh = self._weights(suffix)
                k = layer * directions + direction
                h, c = h0[k], c0[k]
                ys = [None] * steps
                if lstm and layer_input.dtype == torch.float32 and layer_input.device.type == "cpu":
                    # A float32 layer on the CPU is one op and one node, as
                    # in PyTorch (oneDNN's layer: grad_fn
                    # MkldnnRnnLayerBackward0); its backward takes each
                    # weight's gradient in one product over every step.
                    y, h, c, _ = torch.mkldnn_rnn_layer(layer_input, w_ih, w_hh, b_ih, b_hh, h, c, direction == 1,
                                                        [], 2, self.hidden_size, 1, self.bias,
                                                        self.bidirectional, False, self.training)
                    outs.append(y)
                    last_h.append(h)
                    last_c.append(c)
                    continue
                gates = F.linear(layer_input, w_ih, b_ih)
                order = range(steps) if direction == 0 else range(steps - 1, -1, -1)
                if lstm:
                    # One op and one backward node a step (nn/recurrent.rs),
                    # called here directly: a call of _rnn_step and its
                    # branches were half of a step's interpreter time. b_hh
                    # joins the input's part once for every step (one pass,
                    # and one sum for its gradient, where a bias in each
                    # step's linear was a pass a step; PyTorch's nn.LSTM runs
                    # oneDNN's fused layer, whose sums are its own anyway).
                    if b_hh is not None:
                        gates = gates + b_hh
                    for t in order:
                        h, c, _ = torch._thnn_fused_lstm_cell(gates[t], F.linear(h, w_hh), c)
                        ys[t] = h
                else:
                    for t in order:
                        h, c = _rnn_step(self.mode, self.nonlinearity, gates[t], h, c, w_hh, b_hh)
                        ys[t] = h
                outs.append(torch.stack(ys))
                last_h.append(h)
                last_c.append(c)
            layer_input = outs[0] if directions == 1 else torch.cat(outs, 2)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output = layer_input
        h_n = torch.stack(last_h)
        c_n = torch.stack(last_c)
        if not batched:
            output = output.squeeze(1)
            h_n = h_n.squeeze(1)
            c_n = c_n.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
        if lstm:
            return output, (h_n, c_n)
        return output, h_n


class RNN(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__("RNN", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         0, device, dtype, nonlinearity)


class LSTM(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        if proj_size != 0:
            raise ValueError("tsh's LSTM has no proj_size yet")
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)


class GRU(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         0, device, dtype)


class RNNCellBase(nn.Module):
    def __init__(self, mode, input_size, hidden_size, bias, nonlinearity="tanh", device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.nonlinearity = nonlinearity
        gate_size = _gates(mode, hidden_size)
        self.weight_ih = nn.Parameter(torch.empty((gate_size, input_size), device=device, dtype=dtype))
        self.weight_hh = nn.Parameter(torch.empty((gate_size, hidden_size), device=device, dtype=dtype))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(gate_size, device=device, dtype=dtype))
            self.bias_hh = nn.Parameter(torch.empty(gate_size, device=device, dtype=dtype))
        else:
            self.bias_ih = None
            self.bias_hh = None
        self.reset_parameters()

    def reset_parameters(self):
        _reset_recurrent(self)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.nonlinearity != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def forward(self, input, hx=None):
        lstm = self.mode == "LSTM"
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = torch.zeros(input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device)
            h, c = zeros, zeros
        elif lstm:
            h, c = hx
        else:
            h, c = hx, hx
        if not batched and hx is not None:
            h, c = h.unsqueeze(0), c.unsqueeze(0)
        gates = F.linear(input, self.weight_ih, self.bias_ih)
        h, c = _rnn_step(self.mode, self.nonlinearity, gates, h, c, self.weight_hh, self.bias_hh)
        if not batched:
            h, c = h.squeeze(0), c.squeeze(0)
        return (h, c) if lstm else h


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__("RNN", input_size, hidden_size, bias, nonlinearity, device, dtype)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, bias, "tanh", device, dtype)


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, bias, "tanh", device, dtype)
